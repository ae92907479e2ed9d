"""An independent solution of the same zero-sum game with nashpy, to check linprog's.

nashpy finds Nash equilibria of bimatrix games; a zero-sum game is the bimatrix (A, -A).
Which algorithm depends on the size (of the game left after removing dominated strategies):

- support enumeration, when there are few enough pairs of supports (2^m * 2^n);
- vertex enumeration of the best-response polytopes, for games a little larger;
- Lemke-Howson (lexicographic pivoting), from every initial dropped label in turn, beyond.

Games of guessing trees are often degenerate (many trees tie), and nashpy says so: support
enumeration warns when it returns an even number of equilibria, and may then return none or
points that only pass its exact-equality test by luck; Lemke-Howson warns when its pivoting
ends on vectors of the wrong shape. Such warnings are caught and recorded in the result, and
every candidate nashpy returns is checked by its exploitability; the next algorithm is tried
until one candidate passes. All equilibria of a zero-sum game share its value, so the value
found here must equal linprog's whichever equilibrium nashpy lands on.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from itertools import islice

import nashpy
import numpy as np

from .dominance import reduce_dominated
from .matrix import TOLERANCE, exploitability

#: Support enumeration tries every pair of supports: keep 2^(m+n) below this.
SUPPORT_PAIRS = 2**14
#: Vertex enumeration pairs every vertex of one polytope with every vertex of the other.
VERTEX_SIZE = 14
#: Equilibria examined per algorithm (a degenerate game can have a great many).
CANDIDATES = 50


@dataclass(frozen=True)
class NashpySolution:
    """A verified equilibrium from nashpy: value, strategies (over the full game), the
    algorithm that found it, and the warnings nashpy raised on the way (degeneracy)."""

    value: float
    row: np.ndarray
    column: np.ndarray
    exploitability: tuple[float, float]
    method: str
    warnings: tuple[str, ...] = ()

    @property
    def degenerate(self) -> bool:
        return bool(self.warnings)


def _attempts(game: nashpy.Game, m: int, n: int):
    """(name, generator of candidate equilibria) for each algorithm that fits the size."""
    if 2 ** (m + n) <= SUPPORT_PAIRS:
        yield "support enumeration", game.support_enumeration()
    if m + n <= VERTEX_SIZE:
        yield "vertex enumeration", game.vertex_enumeration()
    yield "Lemke-Howson", (game.lemke_howson(initial_dropped_label=label) for label in range(m + n))


def nashpy_solution(A: np.ndarray, tolerance: float = TOLERANCE) -> NashpySolution:
    """An equilibrium of the zero-sum game A (row player maximises) found by nashpy.

    Dominated strategies are removed first, as for linprog. nashpy's polytope algorithms want
    positive payoffs, so it is given A - min(A) + 1 and its negation shifted likewise (adding a
    constant to a player's payoffs changes no best response). Raises RuntimeError if no
    algorithm produces a candidate within `tolerance` of an equilibrium.
    """
    A = np.asarray(A, dtype=np.float64)
    reduction = reduce_dominated(A)
    small = reduction.of(A)
    m, n = small.shape
    shifted = small - small.min() + 1.0
    game = nashpy.Game(shifted, shifted.max() + 1.0 - shifted)
    scale = tolerance * max(1.0, float(np.abs(small).max()))
    caught: list[str] = []
    for name, candidates in _attempts(game, m, n):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            try:
                found = list(islice(candidates, CANDIDATES))
            except (ValueError, IndexError, np.linalg.LinAlgError) as e:  # degenerate pivots can fail outright
                found, record = [], record + [warnings.WarningMessage(f"{type(e).__name__}: {e}", RuntimeWarning, "", 0)]
        caught += [f"{name}: {' '.join(str(w.message).split())}" for w in record]
        for row, column in found:
            row, column = np.asarray(row, dtype=np.float64), np.asarray(column, dtype=np.float64)
            if row.shape != (m,) or column.shape != (n,) or not (np.isfinite(row).all() and np.isfinite(column).all()):
                continue
            gains = exploitability(small, row, column)
            if max(gains) <= scale:
                full_row = reduction.expand(row, "rows", A.shape[0])
                full_column = reduction.expand(column, "columns", A.shape[1])
                return NashpySolution(float(full_row @ A @ full_column), full_row, full_column,
                                      exploitability(A, full_row, full_column), f"nashpy {name}", tuple(caught))
        if found:
            caught.append(f"{name}: none of its {len(found)} candidates is an equilibrium within {scale:g}")
        else:
            caught.append(f"{name}: no candidate")
    raise RuntimeError(f"nashpy found no equilibrium of the {m}x{n} reduced game: " + "; ".join(caught))
