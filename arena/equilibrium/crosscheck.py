"""An independent solution of the same zero-sum game with nashpy, to check linprog's.

nashpy finds Nash equilibria of bimatrix games; a zero-sum game is the bimatrix (A, -A).
Which algorithm depends on the size (of the game left after removing dominated strategies):

- support enumeration, when there are few enough pairs of supports (2^m * 2^n);
- Lemke-Howson (lexicographic pivoting), from every initial dropped label in turn, beyond;
- vertex enumeration of the best-response polytopes, if Lemke-Howson fails on a small game.

nashpy's Lemke-Howson pivots on integers without dividing by the previous pivot, so its
tableau's entries square at every pivot and overflow a float after a dozen pivots: it only
solves small games. A game with many columns is therefore solved on a growing set of columns
(see `nashpy_solution`), each subgame small.

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

import numpy as np

from .dominance import reduce_dominated
from .matrix import TOLERANCE, exploitability

#: Support enumeration tries every pair of supports: keep 2^(m+n) below this.
SUPPORT_PAIRS = 2**12
#: Vertex enumeration pairs every vertex of one polytope with every vertex of the other
#: (a 9x9 game of trees already takes half a minute).
VERTEX_SIZE = 12
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
        """Did nashpy say the game is degenerate?"""
        return any("degenerate" in w for w in self.warnings)


def _lemke_howson(game, size: int):
    """Lemke-Howson from each initial dropped label. nashpy pivots on a float tableau, whose
    entries grow with every integer pivot: on larger games they overflow and the pivoting
    then never ends, so an overflow stops that start (FloatingPointError) instead."""
    for label in range(size):
        try:
            with np.errstate(over="raise"):
                pair = game.lemke_howson(initial_dropped_label=label)
        except FloatingPointError as e:
            warnings.warn(f"label {label}: the tableau overflowed ({e})", RuntimeWarning, stacklevel=2)
            continue
        yield pair


def _attempts(game, m: int, n: int):
    """(name, generator of candidate equilibria, exhaust?) for each algorithm that fits the size.
    The enumerations are run to the end (up to CANDIDATES) so that nashpy can say whether the
    game is degenerate; Lemke-Howson stops at the first candidate that checks out."""
    if 2 ** (m + n) <= SUPPORT_PAIRS:
        yield "support enumeration", game.support_enumeration(), True
    yield "Lemke-Howson", _lemke_howson(game, m + n), False
    if m + n <= VERTEX_SIZE:
        yield "vertex enumeration", game.vertex_enumeration(), True


def _direct(A: np.ndarray, scale: float, caught: list[str]) -> tuple[np.ndarray, np.ndarray, str]:
    """A verified equilibrium of the (small) game A from the first nashpy algorithm that
    yields one; warnings are appended to `caught`. Raises RuntimeError if none does."""
    m, n = A.shape
    shifted = A - A.min() + 1.0
    import nashpy  # lazy: heavy (scipy.optimize; `arena --help` need not pay for it)

    game = nashpy.Game(shifted, shifted.max() + 1.0 - shifted)
    failures = []
    for name, candidates, exhaust in _attempts(game, m, n):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            found = list(islice(candidates, CANDIDATES)) if exhaust else candidates
            tried, verified = 0, None
            for row, column in found:
                tried += 1
                row, column = np.asarray(row, dtype=np.float64), np.asarray(column, dtype=np.float64)
                if (
                    row.shape != (m,)
                    or column.shape != (n,)
                    or not (np.isfinite(row).all() and np.isfinite(column).all())
                ):
                    continue
                if max(exploitability(A, row, column)) <= scale:
                    verified = row, column
                    break
        caught += [
            f"{name}: {' '.join(str(w.message).split())}"
            for w in record
            if w.category is RuntimeWarning and "encountered in" not in str(w.message)
        ]
        if verified:
            return verified[0], verified[1], name
        failures.append(f"{name}: none of its {tried} candidates is an equilibrium within {scale:g}")
    raise RuntimeError(f"nashpy found no equilibrium of a {m}x{n} game: " + "; ".join(failures))


def _fits(m: int, n: int) -> bool:
    """Small enough for one of the enumerations (Lemke-Howson alone overflows on big games)."""
    return m + n <= VERTEX_SIZE


def nashpy_solution(A: np.ndarray, tolerance: float = TOLERANCE) -> NashpySolution:
    """An equilibrium of the zero-sum game A (row player maximises) found by nashpy.

    Dominated strategies are removed first, as for linprog. nashpy's polytope algorithms want
    positive payoffs, so it is given A - min(A) + 1 and its negation shifted likewise (adding a
    constant to a player's payoffs changes no best response). A game with many columns (a
    game of trees) is solved on a growing set of columns, by nashpy alone: solve the game of
    the columns so far, add the column that does best against nashpy's row strategy, and stop
    when no column beats the subgame's value, at which point nashpy's pair is an equilibrium of
    the whole game. Raises RuntimeError if nashpy yields nothing within `tolerance`.
    """
    A = np.asarray(A, dtype=np.float64)
    reduction = reduce_dominated(A)
    small = reduction.of(A)
    m, n = small.shape
    scale = tolerance * max(1.0, float(np.abs(small).max()))
    caught: list[str] = []
    if _fits(m, n) or m >= n:
        row, column, name = _direct(small, scale, caught)
        method = f"nashpy {name}"
    else:
        columns = [int(np.argmin(small.mean(axis=0)))]  # the best column against a uniform row player
        while True:
            row, sub, name = _direct(small[:, columns], scale, caught)
            value = float(row @ small[:, columns] @ sub)
            reply = int(np.argmin(row @ small))
            if float(row @ small[:, reply]) >= value - scale or reply in columns:
                break
            columns.append(reply)
        column = np.zeros(n)
        column[columns] = sub
        method = f"nashpy {name}, on {len(columns)} of {n} columns grown one best response at a time"
    row = reduction.expand(row, "rows", A.shape[0])
    column = reduction.expand(column, "columns", A.shape[1])
    gains = exploitability(A, row, column)
    if max(gains) > scale:
        raise RuntimeError(f"nashpy's equilibrium does not check out on the whole game: gains {gains}")
    counted = {w: caught.count(w) for w in caught}  # one line per distinct warning, with its count
    notes = tuple(w + (f" (x{k})" if k > 1 else "") for w, k in counted.items())
    return NashpySolution(float(row @ A @ column), row, column, gains, method, notes)
