"""The pilot method for objective fewest-at-worst: a tree with few secrets at the worst depth,
found fast and claimed as nothing more than a tree (fewest.py proves).

fewest.py's branch and bound prunes with the best tree known, and on Bulls and Cows the best
greedy tree within 7 guesses leaves 87 codes at the 7th: an hour and a half of the search moved
it by two. The pilot method (Duin and Voss's; nested rollouts are its recursive form) builds a
far better one. In fewest.py's words, a class C met with k guesses left is critical when it
cannot be finished within k - 1, and only critical classes put secrets at the worst depth. Then

    rollout(C, k) = 0                                   if C fits within k - 1 guesses
                  = count(C, k)                         if |C| <= exact_below (fewest.py, exact)
                  = sum over g's classes C' of rollout(C', k - 1)
                                                        g the first guess in `greedy_order`
                                                        whose classes all fit within k - 1
    pilot(C, k)   = sum over g's classes C' of pilot(C', k - 1)
                                                        g the best of the first `width` such
                                                        guesses by sum rollout(C', k - 1)

and on the classes of at least `nested_from` secrets (the root's largest, NESTED_SHARE) a
guess is scored by the pilot below it instead of the rollout (a nested rollout), whose choices
are then kept. pilot(C, k) <= rollout(C, k): the rollout's guess is the first one scored, and
below the guess taken each class's pilot is at most its rollout (by induction). Bulls and
Cows, one process, passes of widths 4, 8, 16 (rollouts only: 75, 65, 65 codes at the 7th in
39, 78, 229 s; nested below the classes of 1,440 and 1,260 codes: 61, 59, 59 in 48, 137,
551 s; experiments/optimal.md).

`pilot_tree` runs it at widths 4, 8, 16, ... while a share of the time limit lasts, each pass
reusing the rollouts and exact counts of the ones before, and reads each pass's tree back
with fewest.critical_tree: the pilot's guesses at the critical classes, and below each class
that fits within one guess fewer, a quick tree that keeps within it (`fitting_subtree`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.game import Index, Indexes
from ..trees.grow import Spot
from ..trees.tree import Node
from .bounds import INF, slot_capacity
from .fewest import Fewest, critical_tree, tree_value
from .growing import first_fitting, grow_by
from .search import Search, Timeout

__all__ = ["Pilot", "pilot_tree"]

#: Classes of at most this many secrets are counted exactly (fewest.py's count search): on
#: Bulls and Cows the classes with 4 guesses left are 50-100 codes, exact in about a second.
EXACT_BELOW = 100
#: The first pass's width; each pass after doubles it.
FIRST_WIDTH = 4
#: Classes of at least this share of the root's secrets score a guess by the pilot below it
#: (nested), not the rollout: on Bulls and Cows the rollout below the class 0,1 of 1,440 codes
#: ranks 1456 first (65, its pilot 58) where the pilot below 1045 finds 52.
NESTED_SHARE = 1 / 8
#: Under a time limit, the passes stop at this share of the time left (the rest is the
#: branch and bound's, which the pilot's tree prunes for).
TIME_SHARE = 0.5


@dataclass
class Pilot:
    """The pilot method of the module docstring on `counting` (fewest.py's search of the count
    alone: its `fits`, its exact counts and their cache)."""

    counting: Fewest
    width: int = 8
    exact_below: int = EXACT_BELOW
    opening: str = ""
    nested_from: float = INF  # classes of at least this many secrets score a guess by the pilot below it
    rolled: dict = field(default_factory=dict)  # (set bytes, k) -> rollout count, for every width
    chosen: dict = field(default_factory=dict)  # (set bytes, k) -> (pilot count, guess), this width's

    def count(self, C: Indexes, k: int, sym: Any) -> int | None:
        """The count where it needs no choice: 0 or 1 for a class that is not critical or a
        single secret, the exact count for a small class; else None."""
        if len(C) == 1:
            return int(k == 1)
        if self.counting.fits(C, k - 1, sym):
            return 0
        if len(C) <= self.exact_below:
            return int(self.counting.solve(C, INF, k, sym))
        return None

    def rollout(self, C: Indexes, k: int, sym: Any = None) -> int:
        """rollout(C, k) of the module docstring."""
        known = self.count(C, k, sym)
        if known is not None:
            return known
        key = (self.counting.search.set_bytes(C), k)
        if key not in self.rolled:
            _, classes, below = next(self.fitting(C, k, sym))
            self.rolled[key] = sum(self.rollout(c, k - 1, below) for c in classes)
        return self.rolled[key]

    def pilot(self, C: Indexes, k: int, sym: Any = None) -> int:
        """pilot(C, k) of the module docstring; the guess taken at each critical class is kept
        in `chosen` for the tree."""
        known = self.count(C, k, sym)
        if known is not None:
            return known
        key = (self.counting.search.set_bytes(C), k)
        if key not in self.chosen:
            scored: list[tuple[int, int, Index, list[Indexes], Any]] = []
            score = self.pilot if len(C) >= self.nested_from else self.rollout
            for guess, classes, below in self.fitting(C, k, sym):
                scored.append((sum(score(c, k - 1, below) for c in classes), len(scored), guess, classes, below))
                if len(scored) == self.width:
                    break
            _, _, guess, classes, below = min(scored)
            self.chosen[key] = (sum(self.pilot(c, k - 1, below) for c in classes), guess)
        return self.chosen[key][0]

    def fitting(self, C: Indexes, k: int, sym: Any) -> Iterator[tuple[Index, list[Indexes], Any]]:
        """The guesses at a critical class whose classes all fit within k - 1 guesses, in
        `greedy_order`, each with its classes (the hit left out) and the symmetry below it."""
        search = self.counting.search
        pool = search.pool(C, sym)
        counts, _ = search.hit_free_counts(pool, C)
        for i in greedy_order(counts, search.game.secret_guess[C], pool, k, search.b_max):
            search.check_deadline()
            guess = int(pool[i])
            classes = [c for r, c in search.game.partition(guess, C).items() if r != search.hit]
            below = None if sym is None else sym.after(guess)
            if all(self.counting.fits(c, k - 1, below) for c in classes):
                yield guess, classes, below

    def guess(self, C: Indexes, k: int) -> Index | None:
        """The guess this pass took at a critical class (None: none, the count's cache has it)."""
        entry = self.chosen.get((self.counting.search.set_bytes(C), k))
        return None if entry is None else entry[1]

    def settle(self, spot: Spot) -> tuple[Node | None, np.ndarray]:
        """The subtree of a class that fits within one guess fewer: `fitting_subtree`."""
        return fitting_subtree(self.counting.search, self.opening, spot)


def greedy_order(counts: np.ndarray, named: np.ndarray, pool: Indexes, k: int, b: int) -> list[int]:
    """The pool's positions by a guess's promise at a critical class with k guesses left, from its
    hit-free class sizes `counts` (a row a guess): least first the secrets past what k - 2
    guesses can find in each class (a lower bound on the count below it: bounds.slot_capacity),
    then the secrets left in classes of two or more, then a guess that may be the secret (`named`:
    the class's secrets as guesses) before one that may not, then the sum of squared sizes. A
    guess with a class too big for k - 1 guesses, or that learns nothing, is left out."""
    biggest = counts.max(axis=1)
    over = np.maximum(counts - slot_capacity(b, k - 2), 0).sum(axis=1)
    shared = np.where(counts > 1, counts, 0).sum(axis=1)
    may_hit = np.isin(pool, named)
    squares = (counts.astype(np.int64) ** 2).sum(axis=1)
    order = np.lexsort((squares, ~may_hit, shared, over))
    keep = (biggest <= slot_capacity(b, k - 1)) & (biggest < len(named))
    return [int(i) for i in order if keep[i]]


def pilot_tree(
    counting: Fewest, S: Indexes, incumbent: tuple[Node | None, np.ndarray] | None, opening: str
) -> tuple[Node | None, np.ndarray] | None:
    """The pilot's tree for S (every secret within counting.depth, the least worst case) where
    it has fewer secrets at the worst depth than `incumbent`, else the incumbent: passes of
    widths 4, 8, 16, ... under a time limit, nested on the root's largest classes, while
    TIME_SHARE of the time left lasts (a pass the deadline stops counts for nothing); one pass
    of width 8 without one, not nested (the search will prove the fewest: Mastermind 4x6 5.6 s
    flat, 6.6 s nested, 6.1 s with no pilot at all)."""
    search, depth = counting.search, counting.depth
    deadline = search.deadline
    best, best_count = incumbent, INF if incumbent is None else tree_value(counting, incumbent[1], S)
    rolled: dict = {}
    widths = [8] if deadline is None else [FIRST_WIDTH << i for i in range(12)]
    nested_from = INF if deadline is None else NESTED_SHARE * len(S)  # a proof to come: the flat pilot, cheaper
    if deadline is not None:
        search.deadline = time.perf_counter() + TIME_SHARE * max(0.0, deadline - time.perf_counter())
    try:
        for width in widths:
            pilot = Pilot(counting, width, rolled=rolled, opening=opening, nested_from=nested_from)
            if pilot.pilot(S, depth, search.symmetry) < best_count:
                tree = critical_tree(counting, S, opening, within_deadline=True, guide=pilot)
                count = tree_value(counting, tree[1], S)  # the tree as read back, not the pilot's word
                if count < best_count:
                    best, best_count = tree, count
    except Timeout:
        pass  # the passes' share is spent: the best finished pass's tree stands
    finally:
        search.deadline = deadline
    return best


def fitting_subtree(search: Search, opening: str, spot: Spot) -> tuple[Node | None, np.ndarray]:
    """A quick tree for a class that fits within one guess fewer than it has (it puts no secret
    at the worst depth): small sets (the compiled search's) solved exactly for their total, a
    bigger one opened by the guess of fewest candidates expected (least sum of squared class
    sizes, a guess that may be the secret first among equals) whose classes all fit within what
    is left. The pilot's tree needs the count, not the least total: the exact search's trees
    below Bulls and Cows' fitting classes take longer than the pilot itself."""
    game = search.game

    def choose(at: Spot) -> Index:
        C, left = at.candidates, at.left
        if len(C) <= search.compiled_below and search.small_trees() is not None:
            search.solve(C, INF, left)
            return search.best_guess(C, left)
        pool = search.pool(C, None)
        counts, _ = search.hit_free_counts(pool, C)
        may_hit = np.isin(pool, game.secret_guess[C])
        order = np.lexsort((~may_hit, (counts.astype(np.int64) ** 2).sum(axis=1)))
        guess = first_fitting(search, C, left, pool[order].tolist())
        if guess is None:
            raise AssertionError("a class that fits with no guess that keeps it so")  # a bug, not a user's mistake
        return guess

    start = Spot(spot.candidates, spot.replies, left=spot.left - 1, missed=spot.missed)
    return grow_by(search, start, choose, opening)
