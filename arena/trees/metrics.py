"""The partition metrics: how a scoring guesser (arena.trees.greedy) rates a guess by the classes it splits
the candidates into.

A metric maps partition counts (one row per guess, one column per reply; row sum n) to a
key where lower is better, and to the value people read. With c_r the class sizes:

    minimax        max_r c_r                          the largest class (Knuth 1977)
    expected       sum_r c_r^2 / n                    the expected size of the class we land in
    entropy        H = log2 n - sum_r c_r log2 c_r / n  bits learned (maximised)
    most-parts     #{r : c_r > 0}                     the number of classes (maximised)
    max-frequency  1 - c_miss / n                     chance the reply is not the all-miss one

Ties are exact for the integer metrics. Entropy is irrational, and here published results
depend on how it was rounded: two guesses whose partitions are permutations of each other have
equal entropy, but summing p log2 p over the replies in order, in floating point, the way
published code does, can make either one look larger by one unit in the last place, and that
noise, not the tie rule, picks the guess. Norvig's 6.81 (inconsistent entropy tree for Jotto)
is such a figure; `ties=exact` (fixed-point sums, permuted partitions tie exactly) gives 6.82.
So entropy takes `ties=float` (the default, as published) or `ties=exact`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.game import MISS_COLUMN

Counts = np.ndarray  # (guesses, replies) partition counts


_XLOGX = np.zeros(1)
_FIXED = 2.0**32  # c log2 c in fixed point: sums are exact integers, so permuted partitions tie


def _xlog2x(counts: Counts) -> np.ndarray:
    """c log2 c for each count (0 for 0), from a table grown on demand."""
    global _XLOGX
    top = int(counts.max(initial=0))
    if top >= len(_XLOGX):
        c = np.arange(max(top + 1, 2 * len(_XLOGX)), dtype=np.float64)
        _XLOGX = c * np.log2(np.maximum(c, 1))
    return _XLOGX[counts]


_XLOGX_FIXED = np.zeros(1, dtype=np.int64)


def _entropy_float_key(counts: Counts) -> np.ndarray:
    """sum_r p_r log2 p_r, p_r = c_r / n, added reply by reply in float64 as a Python loop
    `sum(p * log2(p) for p in ps if p)` does (lower is more entropy)."""
    n = int(counts[0].sum())  # every row partitions the same candidates
    p = np.arange(n + 1) / n
    terms = (p * np.log2(np.where(p > 0, p, 1.0)))[counts]  # the same floats, computed once per size
    total = np.zeros(len(counts))
    for column in terms.T:  # left to right, so rounding matches a sequential sum
        total = total + column
    return total


def _fixed_xlogx(top: int) -> np.ndarray:
    """The table of c log2 c in fixed point, covering counts up to `top`."""
    global _XLOGX_FIXED
    if top >= len(_XLOGX_FIXED):
        _xlog2x(np.array([top]))  # grows the float table to cover these counts
        _XLOGX_FIXED = np.rint(_XLOGX * _FIXED).astype(np.int64)
    return _XLOGX_FIXED


def _entropy_key(counts: Counts) -> np.ndarray:
    """sum_r c_r log2 c_r in fixed point (lower is more entropy, for a fixed n): exact ties."""
    return _fixed_xlogx(int(counts.max(initial=0)))[counts].sum(axis=1)


@dataclass(frozen=True)
class Metric:
    """A way to score partitions: `key` (lower is better, exact ties) and `value` (for people)."""

    name: str
    key: Callable[[Counts], np.ndarray]
    value: Callable[[Counts], np.ndarray]
    better: str  # "min" or "max": which way `value` improves
    summary: str
    float_key: Callable[[Counts], np.ndarray] | None = None  # as published code rounds it
    #: The same key from class sizes listed run by run: (sizes, first run of each segment,
    #: the miss class's size per segment) -> key per segment. Lets a whole tree level be
    #: scored at once (arena.trees.levels) without a dense counts matrix.
    runs_key: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] | None = None
    #: The same keys as one reduction of the compiled loop (arena.core.kernels.REDUCTIONS), which
    #: counts and reduces each guess in one pass with no counts matrix: `key`'s, `float_key`'s.
    fused: tuple[str, str | None] | None = None


def fused_tables(n: int, floats: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """What the compiled reductions read for n candidates: p log2 p per class size (p = c / n,
    the floats _entropy_float_key adds; empty unless `floats`) and c log2 c in fixed point
    (_entropy_key's)."""
    if not floats:
        return _NO_TERMS, _fixed_xlogx(n)
    p = np.arange(n + 1) / n
    return p * np.log2(np.where(p > 0, p, 1.0)), _fixed_xlogx(n)


_NO_TERMS = np.zeros(1)


def _n(counts: Counts) -> np.ndarray:
    return counts.sum(axis=1)


def _entropy_runs(sizes: np.ndarray, starts: np.ndarray, miss: np.ndarray) -> np.ndarray:
    return np.add.reduceat(_fixed_xlogx(int(sizes.max(initial=0)))[sizes], starts)


METRICS: dict[str, Metric] = {
    m.name: m
    for m in [
        Metric(
            "minimax",
            lambda c: c.max(axis=1),
            lambda c: c.max(axis=1),
            "min",
            "smallest largest class (Knuth)",
            runs_key=lambda c, starts, miss: np.maximum.reduceat(c, starts),
            fused=("largest", None),
        ),
        Metric(
            "expected",
            lambda c: (c.astype(np.int64) ** 2).sum(axis=1),
            lambda c: (c.astype(np.float64) ** 2).sum(axis=1) / _n(c),
            "min",
            "smallest expected class size",
            runs_key=lambda c, starts, miss: np.add.reduceat(c.astype(np.int64) ** 2, starts),
            fused=("squares", None),
        ),
        Metric(
            "entropy",
            _entropy_key,
            lambda c: np.log2(_n(c)) - _xlog2x(c).sum(axis=1) / _n(c),
            "max",
            "largest entropy of the reply, in bits",
            _entropy_float_key,
            _entropy_runs,
            fused=("fixed-entropy", "float-entropy"),
        ),
        Metric(
            "most-parts",
            lambda c: -np.count_nonzero(c, axis=1),
            lambda c: np.count_nonzero(c, axis=1),
            "max",
            "most non-empty classes",
            runs_key=lambda c, starts, miss: -np.diff(np.append(starts, len(c))),
            fused=("parts", None),
        ),
        Metric(
            "max-frequency",
            lambda c: c[:, MISS_COLUMN],
            lambda c: 1 - c[:, MISS_COLUMN] / _n(c),
            "max",
            "largest chance that the reply is not the all-miss reply",
            runs_key=lambda c, starts, miss: miss,
            fused=("miss", None),
        ),
    ]
}
