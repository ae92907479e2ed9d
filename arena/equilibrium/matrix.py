"""Two-player zero-sum matrix games, solved by linear programming.

The row player (here always the chooser) receives A[i, j] from the column player (the
guesser) when they play row i and column j; the row player maximises, the column player
minimises. With mixed strategies x (rows) and y (columns) the expected payoff is x^T A y,
and by von Neumann's minimax theorem

    max_x min_j (x^T A)_j  =  V  =  min_y max_i (A y)_i.

`solve_matrix_game` finds V, an optimal x and an optimal y, each from its own linear program,
and checks the pair by its exploitability before returning it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.resources import check_memory
from .dominance import Reduction, reduce_dominated

#: Exploitability allowed, relative to the payoffs' magnitude (HiGHS works to about 1e-9).
TOLERANCE = 1e-7


class SolverFailure(RuntimeError):
    """The LP solver did not return an optimal solution, or its solution does not check out."""


@dataclass(frozen=True)
class MatrixGameSolution:
    """The value of a zero-sum game and an optimal mixed strategy for each player.

    `row` maximises (the chooser), `column` minimises (the guesser); `exploitability` is
    (how much the row player could gain by deviating, how much the column player could).
    """

    value: float
    row: np.ndarray
    column: np.ndarray
    exploitability: tuple[float, float]
    method: str = "linprog (HiGHS)"

    def __post_init__(self) -> None:
        for name in ("row", "column"):  # frozen means frozen: the arrays too
            array = np.array(getattr(self, name), dtype=np.float64)
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    @property
    def gap(self) -> float:
        """Total exploitability: 0 at an exact equilibrium."""
        return float(sum(self.exploitability))


def exploitability(A: np.ndarray, row: np.ndarray, column: np.ndarray) -> tuple[float, float]:
    """(max_i (A y)_i - x^T A y,  x^T A y - min_j (x^T A)_j): each player's gain from
    switching to a best response while the other keeps its strategy. Both are >= 0, and both
    are 0 exactly at an equilibrium."""
    A = np.asarray(A, dtype=np.float64)
    payoff = float(row @ A @ column)
    return max(0.0, float((A @ column).max()) - payoff), max(0.0, payoff - float((row @ A).min()))


def lp_bytes(rows: int, columns: int) -> int:
    """About the memory the maximin LP of a rows x columns game takes: its dense constraint
    matrix (float64, built twice: -A^T and the stacked copy) and HiGHS's sparse copy of it
    (a value and an index per entry, twice over for presolve)."""
    cells = (rows + 1) * columns
    return cells * (2 * 8 + 2 * 12)


def check_lp_memory(rows: int, columns: int) -> None:
    """Refuse, before building it, an LP over the memory budget (arena.core.resources)."""
    check_memory(lp_bytes(rows, columns), f"the linear program of a {rows:,} x {columns:,} matrix game")


def maximin(A: np.ndarray) -> tuple[float, np.ndarray]:
    """The row player's optimal guarantee and strategy, from the LP

        maximise v  subject to  sum_i x_i A[i, j] >= v  for every column j,
                                sum_i x_i = 1,  x >= 0,  v free,

    solved by HiGHS over the variables (x, v); any status but optimal raises SolverFailure.
    """
    value, x, _ = maximin_and_duals(A)
    return value, x


def maximin_and_duals(A: np.ndarray) -> tuple[float, np.ndarray, np.ndarray | None]:
    """maximin, and the LP's duals of its column constraints as the column player's strategy
    (the dual of the maximin LP is the column player's minimax LP, so at an optimum they are an
    optimal strategy for the other side; None where HiGHS gives none that sum to a positive)."""
    A = np.asarray(A, dtype=np.float64)
    m, n = A.shape
    check_lp_memory(m, n)
    cost = np.zeros(m + 1)
    cost[-1] = -1.0  # linprog minimises: minimise -v
    upper = np.hstack([-A.T, np.ones((n, 1))])  # v - x^T A[:, j] <= 0
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0, None)] * m + [(None, None)]
    from scipy.optimize import linprog  # lazy: heavy (a quarter of a second to import)

    result = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0], bounds=bounds, method="highs")
    if result.status != 0:
        raise SolverFailure(f"linprog on a {m}x{n} game: status {result.status}: {result.message}")
    x = np.clip(result.x[:m], 0.0, None)  # HiGHS may return -1e-17 for a zero
    marginals = getattr(getattr(result, "ineqlin", None), "marginals", None)
    y = None if marginals is None else np.clip(-np.asarray(marginals, dtype=np.float64), 0.0, None)
    return float(result.x[-1]), x / x.sum(), None if y is None or not y.sum() > 0 else y / y.sum()


def solve_matrix_game(A: np.ndarray, tolerance: float = TOLERANCE, reduce: bool = True) -> MatrixGameSolution:
    """Value and optimal strategies of the zero-sum game A (row player maximises).

    Dominated strategies are removed first (`reduce`; see dominance.py: the value is kept and
    the reduced game's equilibrium, padded with zeros, is one of A), which shrinks the games
    of guessing trees a great deal: most trees are beaten on every secret by another tree.
    The row player's strategy is the maximin LP of A; the column player's is that LP's duals
    (the dual program is the column player's minimax), kept where the pair checks, else the
    maximin LP of -A^T solved on its own (the same program seen from the other side: max_y
    min_i -(A y)_i = -V). The pair is then checked: each side's best response may gain at most
    `tolerance` times the payoffs' magnitude, else SolverFailure.
    """
    A = np.asarray(A, dtype=np.float64)
    if A.ndim != 2 or 0 in A.shape:
        raise ValueError(f"a matrix game needs a non-empty 2-d payoff matrix, got shape {A.shape}")
    if not np.isfinite(A).all():
        raise ValueError("payoffs must be finite")
    # the reduction sorts and copies A a few times; the LP on what is left is checked in maximin
    check_memory(4 * A.nbytes, f"removing dominated strategies of a {A.shape[0]:,} x {A.shape[1]:,} matrix game")
    reduction = reduce_dominated(A) if reduce else Reduction(np.arange(A.shape[0]), np.arange(A.shape[1]), 0)
    small = reduction.of(A)
    value, row, duals = maximin_and_duals(small)
    row = reduction.expand(row, "rows", A.shape[0])
    scale = tolerance * max(1.0, float(np.abs(A).max()))
    column, minus_value = None, -value
    if duals is not None:  # the column player's LP solved by the same call: kept where it checks
        column = reduction.expand(duals, "columns", A.shape[1])
        if max(exploitability(A, row, column)) > scale:
            column = None
    if column is None:  # its own LP (half of a big game's time: Wordle's 2,315 x 449, 6 s each)
        minus_value, small_column = maximin(-small.T)
        column = reduction.expand(small_column, "columns", A.shape[1])
    gains = exploitability(A, row, column)
    if max(gains) > scale or abs(value + minus_value) > scale:
        raise SolverFailure(
            f"linprog's strategies do not form an equilibrium: gains {gains}, values {value} and {-minus_value}"
        )
    method = "linprog (HiGHS)"
    if reduce and small.shape != A.shape:
        method += (
            f" after removing dominated strategies ({A.shape[0]}x{A.shape[1]} -> {small.shape[0]}x{small.shape[1]})"
        )
    return MatrixGameSolution(float(row @ A @ column), row, column, gains, method)
