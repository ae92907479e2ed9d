"""The one timing rule every benchmark here uses."""

from __future__ import annotations

import time

RUNS = 3


def clock(fn, runs: int = 1):
    """The value of fn() and its best time over `runs` runs (as timeit reports: the least disturbed)."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return value, best
