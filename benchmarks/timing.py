"""The one timing rule every benchmark here uses, and the one way a row of results is printed."""

from __future__ import annotations

import time

RUNS = 3


def clock(fn, runs: int = 1, timer=time.perf_counter):
    """The value of fn() and its best time over `runs` runs (as timeit reports: the least
    disturbed), by `timer` (wall; time.process_time for this process's CPU on a shared machine)."""
    best = float("inf")
    for _ in range(runs):
        start = timer()
        value = fn()
        best = min(best, timer() - start)
    return value, best


def row(task: str, ours: float, theirs: float | None, figures: str, width: int = 46, digits: int = 3) -> None:
    """One result: the task, the engine's seconds, the plain version's (if timed) and their ratio."""
    ratio = f"{theirs / ours:8.1f}x" if theirs else "        -"
    plain_s = f"{theirs:9.2f}" if theirs else "        -"
    print(f"{task:<{width}} {ours:8.{digits}f} {plain_s} {ratio}   {figures}", flush=True)
