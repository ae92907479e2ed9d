"""Exact equilibria: rational strategies recovered from floating-point ones, and checked.

The payoffs of these games are rational (numbers of guesses, or their averages over an
orbit), so a game has an equilibrium in rationals. Each probability the LP returns is
replaced by the simplest fraction within 1/D of it (`Fraction.limit_denominator(D)`), the
fractions are renormalised to sum to 1, and the pair is accepted only if it satisfies, in
exact arithmetic,

    min_j (x^T A)_j  =  max_i (A y)_i,

which proves both strategies optimal and that common number the value. D grows from 10 until
this holds or D passes the largest denominator tried.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

DENOMINATORS = tuple(10**k for k in range(1, 9))


@dataclass(frozen=True)
class ExactSolution:
    """A value and strategies in exact rationals that satisfy the equilibrium conditions."""

    value: Fraction
    row: tuple[Fraction, ...]
    column: tuple[Fraction, ...]


def as_fractions(A: np.ndarray, divisors: Sequence[int] | None = None) -> list[list[Fraction]]:
    """An integer matrix (divided row by row by `divisors`, e.g. orbit sizes) as Fractions."""
    A = np.asarray(A)
    if not np.issubdtype(A.dtype, np.integer):
        raise TypeError("exact payoffs are given as integers (and row divisors)")
    d = [1] * len(A) if divisors is None else [int(x) for x in divisors]
    return [[Fraction(int(a), d[i]) for a in row] for i, row in enumerate(A.tolist())]


def _rationalise(p: np.ndarray, denominator: int) -> list[Fraction] | None:
    q = [Fraction(float(x)).limit_denominator(denominator) if x > 0 else Fraction(0) for x in p]
    total = sum(q)
    return [x / total for x in q] if total > 0 else None


def exact_equilibrium(A: list[list[Fraction]], row: np.ndarray, column: np.ndarray,
                      denominators: Sequence[int] = DENOMINATORS) -> ExactSolution | None:
    """Rational strategies near `row` and `column` that are exactly optimal in A, or None."""
    columns = list(zip(*A))
    for D in denominators:
        x, y = _rationalise(row, D), _rationalise(column, D)
        if x is None or y is None:
            continue
        guaranteed = min(sum(xi * a for xi, a in zip(x, col) if xi) for col in columns)
        conceded = max(sum(yj * a for yj, a in zip(y, r) if yj) for r in A)
        if guaranteed == conceded:
            return ExactSolution(guaranteed, tuple(x), tuple(y))
    return None
