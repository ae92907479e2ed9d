"""What a record of the split's journal is, and what it must respect to be read (journal.py
reads and checks them; proofs.py puts them together): a guess's bound (`GuessRecord`), a class's
exact value or bound (`PieceRecord`), the place a guess is played at (`Place`), and the limits a
record's numbers must lie within (`Limits`: a floor from the class sizes, a ceiling from guessing
the secrets one at a time, `known_total` and `known_class_total`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import NamedTuple

import numpy as np

from ..core.game import Game, Index, Indexes


@dataclass(frozen=True)
class GuessRecord:
    """A first guess's proven bound, and when it was opened its classes (PieceRecords: their
    bounds, and the subtrees of those closed at once; none: only the bound is proven)."""

    guess: Index
    bound: float
    classes: tuple = ()
    line: int = 0
    at: tuple[int, ...] = ()  # the class it is played at: () the root


@dataclass(frozen=True)
class PieceRecord:
    """One piece closed: the class `reply` of the first guess `guess`, its exact cost and best
    subtree (its guesses in pre-order: split.subtree) when `exact`, else a proven bound."""

    guess: Index
    reply: int
    bound: float
    exact: bool
    tree: list[Index] | None = None
    line: int = 0
    at: tuple[int, ...] = ()  # the class its guess is played at: () the root


class Place(NamedTuple):
    """Where a record's guess is played: the path of guesses and replies from the root, and
    the class it leads to."""

    path: tuple[int, ...]
    secrets: Indexes


@dataclass
class Limits:
    """What a record must respect: a first guess of the pool, a class it leaves, a bound at
    least what the class is known to cost before it is searched (`floors(path, C)`: reply -> that
    bound, for each class of the guess at the end of `path`, played at its class C:
    pieces.class_floors) and at most the class's
    known total, and a subtree that finds every secret of the class and costs its exact value
    (`replay(C, guesses)`: each secret's guesses under a subtree, counted from its class;
    subtrees.subtree_guesses). Under a guess limit
    (`max_guesses`) guessing one at a time may break the limit, so no total is known
    beforehand (a bound may be inf: no tree within the limit), and a subtree must find every
    secret of its class within `max_guesses - 1` guesses."""

    game: Game
    S: Indexes
    weights: np.ndarray
    first: set[Index]
    replay: Callable[[Indexes, list[Index]], np.ndarray]
    floors: Callable[[tuple[int, ...], Indexes], dict[int, float]]
    max_guesses: int | None = None
    _floors: dict[tuple[int, ...], dict[int, float]] = dataclass_field(default_factory=dict)

    def floor(self, path: tuple[int, ...], secrets: Indexes) -> dict[int, float]:
        """`floors(path, secrets)` of the guess at the end of `path`, played at the class
        `secrets` that the path leads to, computed once a guess."""
        if path not in self._floors:
            self._floors[path] = self.floors(path, secrets)
        return self._floors[path]

    def paid(self, C: Indexes | None = None) -> float:
        """What a guess at C (the root: every secret) pays: one guess for every secret, weighted."""
        return float(self.weights[self.S if C is None else C].sum())

    def known(self, C: Indexes) -> float:
        return math.inf if self.max_guesses is not None else known_class_total(self.weights, C)

    def known_after(self, g: Index, C: Indexes | None = None) -> float:
        S = self.S if C is None else C
        return math.inf if self.max_guesses is not None else known_total(self.game, S, self.weights, g)

    def bound_allowed(self, bound: float) -> bool:
        """A finite bound, or under a limit inf (no tree within it)."""
        return math.isfinite(bound) or (self.max_guesses is not None and bound == math.inf)


def known_total(game: Game, S: Indexes, weights: np.ndarray, g: Index) -> float:
    """The cost of the tree that plays g, then the candidates each reply leaves one at a time in
    the game's order (the i-th costs i + 1 guesses). Every best tree opening with g costs at
    most this, so no bound after g can be above it."""
    # read for every record of a journal (hundreds of thousands): by array, not class by class
    replies = game.table[int(g), S]
    w = weights[S]
    if (w == 1.0).all():  # equal weights: a class of c secrets costs 2 + 3 + ... + (c + 1)
        sizes = np.bincount(replies)
        present = np.flatnonzero(sizes)
        c = sizes[present]
        return float(np.where(game.finishing(present), c, c * (c + 3) // 2).sum())
    order = np.argsort(replies, kind="stable")
    replies = replies[order]
    place = np.arange(len(replies))
    starts = np.ones(len(replies), dtype=bool)
    starts[1:] = replies[1:] != replies[:-1]
    rank = place - np.maximum.accumulate(np.where(starts, place, 0))  # within its class, in the game's order
    codes = replies[starts]
    ends = game.finishing(codes)[np.cumsum(starts) - 1]
    return float(np.dot(w[order], np.where(ends, 1, rank + 2)))


def known_class_total(weights: np.ndarray, C: Indexes) -> float:
    """The cost of guessing the class's secrets one at a time in the game's order (the i-th
    costs i + 1 guesses): its best subtree costs at most this, so no bound can be above it."""
    return float(np.dot(weights[C], np.arange(1, len(C) + 1)))
