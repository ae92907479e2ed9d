"""Exact equilibria: rational strategies recovered from floating-point ones, and checked.

The payoffs of these games are rational (numbers of guesses, or their averages over an
orbit), so a game has an equilibrium in rationals. A strategy is recovered from the LP's floats
in one of two ways:

- by its *kernel* (Shapley & Snow): the strategy p of the column player is the solution of
  sum_k A[i, k] p_k = V for every row i where the floats are tight (within 1e-9 of the max),
  sum_k p_k = 1, over the columns k where p is positive; solved exactly by Gaussian elimination
  in fractions, and kept if the solution is unique and non-negative (likewise for the row
  player on A^T). An LP's basic solution is such a unique solution, whatever its denominators;
- else by rounding each float to the simplest fraction within 1/D (`limit_denominator(D)`,
  D = 10, 100, ...), renormalised, and kept if within `CLOSE` of the floats.

A pair is accepted only if, in exact arithmetic, min_j (x^T A)_j = max_i (A y)_i, which proves
both strategies optimal and that common number the value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

DENOMINATORS = tuple(10**k for k in range(1, 9))
#: How far a rounded fraction may lie from the float it stands for.
CLOSE = 1e-7
#: Floats within this of the best payoff count as tight; probabilities above it as played.
TIGHT = 1e-9

Matrix = list[list[Fraction]]


@dataclass(frozen=True)
class ExactSolution:
    """A value and strategies in exact rationals that satisfy the equilibrium conditions."""

    value: Fraction
    row: tuple[Fraction, ...]
    column: tuple[Fraction, ...]


def as_fractions(A: np.ndarray, divisors: Sequence[int] | np.ndarray | None = None) -> Matrix:
    """An integer matrix (divided row by row by `divisors`, e.g. orbit sizes) as Fractions."""
    A = np.asarray(A)
    if not np.issubdtype(A.dtype, np.integer):
        raise TypeError("exact payoffs are given as integers (and row divisors)")
    d = [1] * len(A) if divisors is None else [int(x) for x in divisors]
    return [[Fraction(int(a), d[i]) for a in row] for i, row in enumerate(A.tolist())]


def transpose(A: Matrix) -> Matrix:
    return [list(col) for col in zip(*A)]


def conceded(A: Matrix, y: Sequence[Fraction]) -> Fraction:
    """max_i (A y)_i: the most the row player gets against the column strategy y."""
    return max(sum((yk * a for yk, a in zip(y, row) if yk), Fraction(0)) for row in A)


def guaranteed(A: Matrix, x: Sequence[Fraction]) -> Fraction:
    """min_j (x^T A)_j: the least the row player gets with the row strategy x."""
    return min(sum(xi * a for xi, a in zip(x, col) if xi) for col in zip(*A))


def near_fractions(p: np.ndarray, denominator: int) -> list[Fraction] | None:
    """Fractions of denominator at most D near p, summing to 1 (None if not near enough)."""
    q = [Fraction(float(x)).limit_denominator(denominator) if x > 0 else Fraction(0) for x in p]
    total = sum(q)
    if total <= 0:
        return None
    q = [x / total for x in q]
    return q if max(abs(float(x) - float(y)) for x, y in zip(q, p)) <= CLOSE else None


def _solve(rows: list[list[Fraction]]) -> list[Fraction] | None:
    """The unique solution of the augmented system `rows` ([coefficients..., right side]),
    by Gauss-Jordan elimination in fractions; None if it has none or many."""
    rows = [r[:] for r in rows]
    unknowns = len(rows[0]) - 1
    pivot_row = 0
    for col in range(unknowns):
        pivot = next((r for r in range(pivot_row, len(rows)) if rows[r][col] != 0), None)
        if pivot is None:
            return None  # a free unknown: not unique
        rows[pivot_row], rows[pivot] = rows[pivot], rows[pivot_row]
        lead = rows[pivot_row][col]
        rows[pivot_row] = [v / lead for v in rows[pivot_row]]
        for r in range(len(rows)):
            if r != pivot_row and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[pivot_row])]
        pivot_row += 1
    if any(r[-1] != 0 for r in rows[pivot_row:]):
        return None  # inconsistent
    return [rows[i][-1] for i in range(unknowns)]


def kernel_strategy(A: Matrix, p: np.ndarray) -> list[Fraction] | None:
    """The column strategy (over A's columns) that makes every row tight for the floats p
    exactly indifferent, supported where p is positive; None unless unique and non-negative."""
    F = np.array([[float(a) for a in row] for row in A])
    payoffs = F @ p
    tight = np.flatnonzero(payoffs >= payoffs.max() - TIGHT * max(1.0, np.abs(F).max()))
    support = np.flatnonzero(p > TIGHT)
    # unknowns: p_k for k in support, then V; equations: (A p)_i - V = 0 on tight rows, sum p = 1
    system = [[A[i][k] for k in support] + [Fraction(-1), Fraction(0)] for i in tight]
    system.append([Fraction(1)] * len(support) + [Fraction(0), Fraction(1)])
    solution = _solve(system)
    if solution is None or any(v < 0 for v in solution[:-1]):
        return None
    out = [Fraction(0)] * len(p)
    for k, v in zip(support.tolist(), solution):
        out[k] = v
    return out


def rational_strategies(A: Matrix, p: np.ndarray) -> list[list[Fraction]]:
    """Candidate exact versions of the column strategy p: its kernel, then roundings."""
    candidates = [kernel_strategy(A, p)] + [near_fractions(p, D) for D in DENOMINATORS]
    return [c for c in candidates if c is not None]


def exact_equilibrium(A: Matrix, row: np.ndarray, column: np.ndarray) -> ExactSolution | None:
    """Rational strategies near `row` and `column` that are exactly optimal in A, or None."""
    AT = transpose(A)
    negated = [[-a for a in r] for r in AT]  # the row player's strategy is a column strategy of -A^T
    for y in rational_strategies(A, column):
        top = conceded(A, y)
        for x in rational_strategies(negated, row):
            if guaranteed(A, x) == top:
                return ExactSolution(top, tuple(x), tuple(y))
    return None
