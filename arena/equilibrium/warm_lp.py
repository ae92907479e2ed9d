"""The double oracle's LP kept between rounds, each round's new trees added as columns and the
LP solved again from the last optimal basis (HiGHS, through highspy).

The guesser's side of the restricted game, over the rows i (secrets or code types) and the
trees j found so far:

    minimise v  subject to  sum_j A[i, j] y_j <= v  for every row i,   sum_j y_j = 1,  y >= 0.

Its optimum is the LP's value U, y the guesser's mix and the duals of the rows' constraints
(negated: the rows are <=) the chooser's mix q. A new tree is a new column at 0: the last basis
stays optimal but for that column's reduced cost, so the simplex goes on from it where a solve
from scratch would start over. On Wordle's state (2,315 rows, 1,758 to 1,766 trees, two added a
round) a round's LP took 9.2-18.4 s warm against 28.3-38.4 s for `solve_matrix_game` (linprog,
from scratch), the same values (`python benchmarks/bench_warm_lp.py`, one run, beside three
other runs on two cores); the warm LP's first solve, from nothing, took 43.5 s. The pair (q, y) is checked as solve_matrix_game
checks its own (each side's gain from deviating at most its tolerance); a pair that does not
check out, or a solve that does not end optimal, is solved again from scratch by
solve_matrix_game, so the answer is never worse than before.

A solve runs on a thread of its own (HiGHS lets go of the interpreter), so that the run's stop
(Ctrl-C under a time limit, or the time limit itself) cancels it within a tenth of a second
instead of waiting for it: on Wordle a round's LP is 9-45 s. A cancelled solve answers with the
last round's mixes, the trees added since played by none (still a mix of trees: its worst row
is an upper end, and the chooser's mix is as good a mix to prove against as it was); a first
solve, with nothing to fall back on, is not cancelled by a stop, only by a second Ctrl-C
(KeyboardInterrupt, the solve cancelled before it goes on up). A HiGHS model once interrupted
interrupts every later solve at once (highspy 1.16), so it is dropped and built again.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from .matrix import TOLERANCE, MatrixGameSolution, exploitability, solve_matrix_game

#: Restricted games of at least this many cells (rows x trees) keep their LP between rounds;
#: smaller ones are solved from scratch (milliseconds), as the exact values' tests expect.
WARM_CELLS = 1 << 20


class WarmLP:
    """The guesser's LP over `rows` rows, its columns added as the trees come (`solve` adds
    those of A it has not seen: A's columns only grow, in order)."""

    #: how often a solve's thread is asked whether the run has stopped, in seconds
    POLL = 0.1

    def __init__(self, rows: int):
        self.rows, self.columns = rows, 0
        self.last: MatrixGameSolution | None = None  # the last solve's answer (a stop falls back on it)
        self.cancelled = 0  # solves a stop cancelled
        self.highs: Any = None
        self.build()

    def build(self) -> None:
        """A fresh HiGHS model over the rows, no column yet."""
        import highspy  # lazy: heavy, and the LP of small games never needs it

        rows = self.rows
        self.highs = highs = silent_highs(highspy)
        highs.HandleUserInterrupt = True  # cancelSolve() stops a running solve (solve's stop)
        highs.setOptionValue("threads", 1)  # one thread per process (issue 33)
        self.infinity = inf = highspy.kHighsInf
        self.optimal = highspy.HighsModelStatus.kOptimal
        lower = np.r_[np.full(rows, -inf), 1.0]
        upper = np.r_[np.zeros(rows), 1.0]
        highs.addRows(rows + 1, lower, upper, 0, np.zeros(rows + 1, dtype=np.int32), np.array([], np.int32), [])
        highs.addCol(1.0, -inf, inf, rows, np.arange(rows, dtype=np.int32), np.full(rows, -1.0))  # v
        self.columns = 0

    def add(self, block: np.ndarray) -> None:
        """Columns (a rows x k block of payoffs) added to the LP, each with its 1 in sum y = 1."""
        k = block.shape[1]
        if k == 0:
            return
        entries = np.vstack([block, np.ones((1, k))]).T.ravel()
        starts = (np.arange(k) * (self.rows + 1)).astype(np.int32)
        index = np.tile(np.arange(self.rows + 1, dtype=np.int32), k)
        self.highs.addCols(k, np.zeros(k), np.zeros(k), np.full(k, self.infinity), entries.size, starts, index, entries)
        self.columns += k

    def solve(
        self, A: np.ndarray, tolerance: float = TOLERANCE, stop: Callable[[], bool] | None = None
    ) -> MatrixGameSolution:
        """The restricted game A's value and optimal mixes: A's new columns added, the LP solved
        from the last basis, the pair checked; from scratch (solve_matrix_game) if it fails.
        `stop` (asked every POLL seconds) cancels the solve once true, where an earlier solve's
        mixes can answer instead (the module's docstring)."""
        A = np.asarray(A, dtype=np.float64)
        if A.shape[0] != self.rows or A.shape[1] < self.columns:
            raise ValueError(f"a {A.shape} game is not this LP's {self.rows} rows and {self.columns}+ columns")
        if self.highs is None:  # dropped after a cancelled solve: built again from A's columns
            self.build()
        self.add(A[:, self.columns :])
        last = self.last
        if not self.run(stop if last is not None else None):  # a first solve has nothing to fall back on
            assert last is not None  # run() is cancelled only by a stop, which a first solve is not given
            self.cancelled += 1
            self.highs = None  # an interrupted model interrupts every later solve (the module's docstring)
            return padded(A, last)
        self.last = self.checked(A, tolerance)
        return self.last

    def run(self, stop: Callable[[], bool] | None) -> bool:
        """The LP solved on a thread of its own, cancelled once `stop()` is true; False if it was.
        A KeyboardInterrupt (a second Ctrl-C) cancels it too, and goes on up once it has ended."""
        highs = self.highs
        highs.startSolve()
        try:
            while not highs.wait(self.POLL)[0]:
                if stop is not None and stop():
                    self.cancel()
                    return False
        except BaseException:
            self.cancel()
            self.highs = None
            raise
        return True

    def cancel(self) -> None:
        """The running solve asked to stop, and waited for until it has."""
        self.highs.cancelSolve()
        while not self.highs.wait(self.POLL)[0]:
            pass

    def checked(self, A: np.ndarray, tolerance: float) -> MatrixGameSolution:
        """The solved model's mixes, checked; from scratch (solve_matrix_game) where they fail."""
        if self.highs.getModelStatus() != self.optimal:
            return solve_matrix_game(A, tolerance)
        solution = self.highs.getSolution()
        column = np.clip(np.asarray(solution.col_value[1:], dtype=np.float64), 0.0, None)
        row = np.clip(-np.asarray(solution.row_dual[: self.rows], dtype=np.float64), 0.0, None)
        if not (column.sum() > 0 and row.sum() > 0):
            return solve_matrix_game(A, tolerance)
        row, column = row / row.sum(), column / column.sum()
        gains = exploitability(A, row, column)
        if max(gains) > tolerance * max(1.0, float(np.abs(A).max())):
            return solve_matrix_game(A, tolerance)
        return MatrixGameSolution(float(row @ A @ column), row, column, gains, "HiGHS simplex, warm-started")


def padded(A: np.ndarray, last: MatrixGameSolution) -> MatrixGameSolution:
    """An earlier solve's mixes over the game A it has grown into: A's new columns played by
    none, so the guesser's mix concedes what it did (its value stands as an upper end)."""
    column = np.r_[last.column, np.zeros(A.shape[1] - last.column.size)]
    gains = exploitability(A, last.row, column)
    return MatrixGameSolution(last.value, last.row, column, gains, f"{last.method} (the last round's: stopped)")


def silent_highs(highspy: Any) -> Any:
    """A HiGHS model that prints nothing: its first construction in a process writes a banner to
    the C standard output (before any option can be set), which would land in the middle of
    `arena equilibrium`'s report, so the descriptor is pointed at the null device meanwhile
    (the C library's buffers flushed before it is given back)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            highs = highspy.Highs()
            try:
                ctypes.CDLL(None).fflush(None)
            except (OSError, TypeError):  # no C library by that name (Windows): its stdout is unbuffered there
                pass
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    highs.setOptionValue("output_flag", False)
    return highs
