"""Iterated removal of dominated pure strategies in a zero-sum game.

The row player maximises A. Column j is weakly dominated by column k when A[:, k] <= A[:, j]
everywhere (the minimiser never does worse with k); row i is weakly dominated by row k when
A[k, :] >= A[i, :] everywhere. Removing a weakly dominated strategy keeps the game's value,
and any equilibrium of the reduced game, padded with zeros, is an equilibrium of the full one:
the row player's optimal x still guarantees x^T A[:, j] >= x^T A[:, k] >= V against a removed
column j, and symmetrically for the column player. (Weak removal may lose *some* equilibria;
`strict=True` removes only strictly dominated strategies, which loses none.) Only domination
by a pure strategy is tested, not by mixtures; of two identical strategies the first is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Reduction:
    """The strategies that survive: original row and column indexes, in increasing order."""

    rows: np.ndarray
    columns: np.ndarray
    rounds: int

    def of(self, A: np.ndarray) -> np.ndarray:
        """The reduced payoff matrix A[rows][:, columns]."""
        return np.asarray(A)[np.ix_(self.rows, self.columns)]

    def expand(self, strategy: np.ndarray, axis: str, size: int) -> np.ndarray:
        """A reduced strategy (over the kept rows or columns) as one over all `size` of them."""
        full = np.zeros(size)
        full[self.rows if axis == "rows" else self.columns] = strategy
        return full


def undominated_columns(M: np.ndarray, strict: bool = False, tick: Callable[[int], None] | None = None) -> np.ndarray:
    """Indexes of the columns of M that no other column dominates from the minimiser's side
    (weakly: <= everywhere, keeping the first of identical columns; strictly: < everywhere).

    Columns are visited by increasing sum: a column can only be dominated by one whose sum is
    no larger, and (weak case) a later column with an equal sum that is <= everywhere is equal,
    so one pass against the columns kept so far decides every column. `tick(cells)` is told
    the cells compared, every TICK columns (a caller's time limit or budget may stop it there).
    """
    M = np.asarray(M)
    if strict:  # identical columns do not dominate each other strictly: all stay candidates
        first = np.arange(M.shape[1])
    else:  # of identical columns only the first can survive
        first = np.unique(M, axis=1, return_index=True)[1]
    order = first[np.lexsort((first, M[:, first].sum(axis=0)))]
    if tick is None and M.size >= COMPILED_CELLS and M.dtype.kind in "iuf":  # the same pass, stopped early
        from ..core.dominance_loops import undominated_in_order  # lazy: numba

        return np.sort(undominated_in_order(np.ascontiguousarray(M.T), order, strict).astype(np.intp))
    kept: list[int] = []
    frontier = np.empty((M.shape[0], 16), dtype=M.dtype)  # the kept columns, in a buffer grown by doubling
    compared = 0
    for step, j in enumerate(order, 1):
        column = M[:, j : j + 1]
        held = frontier[:, : len(kept)]
        beaten = (held < column).all(axis=0) if strict else (held <= column).all(axis=0)
        compared += held.size
        if not beaten.any():
            if len(kept) == frontier.shape[1]:
                frontier = np.hstack([frontier, np.empty_like(frontier)])
            frontier[:, len(kept)] = column[:, 0]
            kept.append(int(j))
        if tick is not None and step % TICK == 0:
            tick(compared)
            compared = 0
    return np.sort(np.array(kept, dtype=np.intp))


#: undominated_columns reports its progress every this many columns.
TICK = 256
#: Matrices of at least this many cells are reduced in compiled code (arena/core/dominance_loops.py): a
#: Wordle double oracle's 2,315 x 726 took 3.2 s a round by numpy; below, numba's start-up
#: would be most of the work.
COMPILED_CELLS = 1 << 18


def reduce_dominated(A: np.ndarray, strict: bool = False) -> Reduction:
    """Remove dominated columns, then dominated rows, and again, until nothing changes."""
    A = np.asarray(A)
    rows, columns = np.arange(A.shape[0]), np.arange(A.shape[1])
    rounds = 0
    while True:
        rounds += 1
        columns = columns[undominated_columns(A[np.ix_(rows, columns)], strict)]
        # a row dominated for the maximiser is a column dominated for the minimiser of -A^T
        keep_rows = rows[undominated_columns(-A[np.ix_(rows, columns)].T, strict)]
        if len(keep_rows) == len(rows):
            return Reduction(rows, columns, rounds)
        rows = keep_rows
