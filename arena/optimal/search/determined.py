"""The costs of a game that ends when the secret is determined (Hangman): the misses, lost
games, or guesses until determined, a class of bounds each (state.CostBounds), with the value of
a guess under them; and the letter bounds they read off the search (bounds.py: "The misses
cost", "Guesses until determined").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ...core.costs import Cost, Guesses, Lost, Misses
from ...core.game import Index, Indexes
from ..bounds import INF, determine_table
from .allowed import Allowed
from .shared import CostBounds, SearchState, class_searched

#: A guess whose value is within this of the best ties with it (the misses costs are sums of
#: weights); the earlier guess of the pool is kept.
TIE = 1e-9
#: Misses cost: classes are bounded by their first letter's misses (first_misses) at nodes of at
#: least this many candidates; below, the bound costs more time than it saves.
FIRST_MISSES = 32
#: Misses cost: nodes of at least this many candidates are bounded two letters deep (next_misses).
TWO_LEVELS = 40


class UntilDetermined(CostBounds):
    """The misses (bounds.py, "The misses cost"): the game ends when the secret is determined,
    a determined set costs nothing, each secret of a miss class pays the miss; a class costs at
    least 0 more, and past FIRST_MISSES candidates at least the miss weight of its best first
    letter. Ties go to the first guess of the pool (the alphabetically first letter), so the
    tree is the one the exact Hangman guesser always played. LostGames and
    GuessesUntilDetermined change what they must."""

    cost: ClassVar[type[Cost]] = Misses
    ends_on_hit = False
    tie = TIE

    def leaf(self, S: Indexes, left: int) -> float | None:
        """A set past a limit on the cost (objective worst, or max=K) is infinite, a
        determined set costs nothing."""
        if left < 0:
            return INF
        if self.ends_at(S):
            return 0.0
        return None

    def ends_at(self, S: Indexes) -> bool:
        return bool(self.search.game.determined(S))

    def lost_already(self, left: int) -> bool:
        """Is a class with `left` to spend lost, whatever is played?"""
        return False

    def decided(self, S: Indexes, left: int) -> Index | None:
        """Nothing to decide (-1) once the word is known, or the game is lost already."""
        return -1 if self.ends_at(S) or self.lost_already(left) else None

    def scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, Callable[[Indexes], np.ndarray], int]:
        """`guess_bounds` for the useful guesses, in pool order among equal bounds (`tie`)."""
        search = self.search
        counts, codes = search.hit_free_counts(pool, S)
        useful = counts.max(axis=1) < len(S)  # a guess that leaves all of S in one class learns nothing
        b = int(np.count_nonzero(counts, axis=1)[useful].max(initial=1))
        bound = self.guess_bounds(S, pool, counts, codes)
        bound[~useful] = INF
        return bound, in_pool_order, b

    def guess_value(
        self, guess: Index, S: Indexes, limit: float, left: int, b: int, sym: Any, allowed: Allowed | None
    ) -> float:
        """What the guess's classes pay at once (the misses; none when counting lost games) +
        the classes' costs, each with what it has left, if below `limit`, else a lower bound
        >= limit. Before it is searched, a class is bounded below (`class_bounds`): the miss
        weight of its best first letter, one guess a secret when every guess is paid, its
        weight when it has lost (no strikes left)."""
        search = self.search
        parts = search.game.partition(guess, S)
        below = None if sym is None else sym.after(guess)
        classes = sorted(((c, left - search.step(r)) for r, c in parts.items()), key=lambda cl: len(cl[0]))
        paid = self.paid(parts)
        if paid >= limit:
            return paid
        bounds = self.class_bounds(S, classes)
        total = paid + sum(bounds)
        if total >= limit:
            return total
        for (c, k), lb in zip(classes, bounds):
            budget = limit - (total - lb)
            total = class_searched(total, lb, search.solve(c, budget, k, below), budget, limit)
            if total >= limit:
                return total
        return total

    def fit_leaf(self, S: Indexes, left: int) -> bool | None:
        if self.ends_at(S) or left < 0:
            return left >= 0
        return None

    def pays(self, reply) -> bool:
        return bool(self.search.step(reply))

    def paid(self, parts: dict) -> float:
        """What a guess's classes pay at once, before any is searched."""
        search = self.search
        return sum(search.weight(c) for r, c in parts.items() if search.step(r))

    def guess_bounds(self, S: Indexes, pool: Indexes, counts: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """For every guess of the pool, the weight of its miss class (every class costs at least
        0 more), and two letters deep past TWO_LEVELS candidates (next_misses)."""
        search = self.search
        column = [i for i, code in enumerate(codes.tolist()) if search.game.is_miss(code)]
        if not column:
            return np.zeros(len(pool), dtype=np.float64)
        paid = (
            counts[:, column[0]].astype(np.float64)
            if search.uniform
            else search.class_masses(S, pool, codes)[:, column[0]]
        )
        return paid + search.next_misses(S, pool) if len(S) >= TWO_LEVELS else paid

    def class_bounds(self, S: Indexes, classes: list[tuple[Indexes, int]]) -> list[float]:
        """A lower bound on each class (with what it has left) before it is searched."""
        if len(S) >= FIRST_MISSES:
            return self.search.first_misses(S, [c for c, _ in classes]).tolist()
        return [0.0] * len(classes)

    def class_bound(self, S: Indexes, b: int, left: int) -> float:
        """0 under misses (bounds.py)."""
        return 0.0


class LostGames(UntilDetermined):
    """Counting lost games within the strikes: nothing is paid for a miss, and a class with no
    strike left costs its weight (lost, even if determined)."""

    cost = Lost

    def leaf(self, S: Indexes, left: int) -> float | None:
        if left <= 0:
            return self.search.weight(S)
        return super().leaf(S, left)

    def lost_already(self, left: int) -> bool:
        return left <= 0

    def pays(self, reply) -> bool:
        return False

    def paid(self, parts: dict) -> float:
        return 0.0

    def guess_bounds(self, S: Indexes, pool: Indexes, counts: np.ndarray, codes: np.ndarray) -> np.ndarray:
        return np.zeros(len(pool), dtype=np.float64)

    def class_bounds(self, S: Indexes, classes: list[tuple[Indexes, int]]) -> list[float]:
        return [self.search.weight(c) if k <= 0 else self.class_bound(c, 0, k) for c, k in classes]


class GuessesUntilDetermined(UntilDetermined):
    """Guesses until determined (bounds.py): every guess is paid, not only the misses."""

    cost = Guesses

    def guess_bounds(self, S: Indexes, pool: Indexes, counts: np.ndarray, codes: np.ndarray) -> np.ndarray:
        # every secret pays this guess, and every class of two or more another
        search = self.search
        return search.weight(S) + search.determine_bounds(S, pool, counts, codes)

    def class_bounds(self, S: Indexes, classes: list[tuple[Indexes, int]]) -> list[float]:
        return [self.class_bound(c, 0, k) for c, k in classes]

    def class_bound(self, S: Indexes, b: int, left: int) -> float:
        """One guess for each secret of an undetermined class."""
        return self.search.weight(S) if not self.search.game.determined(S) else 0.0


def in_pool_order(chosen: Indexes) -> Indexes:
    """The tie-break of the misses costs: guesses of equal bound in the pool's order."""
    return chosen


class MissBounds(SearchState):
    """The letter bounds of the costs counted until determined, which read the search's
    state: the miss weight of a class's best first letter, one letter deep or two, and the
    leaf-depth bound of guesses until determined. Each cost's own bounds are its class above
    (`search.bounds`)."""

    def first_misses(self, S: Indexes, classes: list[Indexes]) -> np.ndarray:
        """Misses cost: for each class C of a partition of S, the least miss weight of a first
        guess at C, a lower bound on M(C) (bounds.py, "two levels"; `class_misses`)."""
        label = np.empty(len(S), dtype=np.intp)
        for j, C in enumerate(classes):
            label[np.searchsorted(S, C)] = j
        member = np.zeros((len(S), len(classes)))
        member[np.arange(len(S)), label] = 1.0
        return self.class_misses(S, member)

    def next_misses(self, S: Indexes, pool: Indexes) -> np.ndarray:
        """For every guess g of the pool, the sum over its classes C of the least miss weight of
        the next guess at C (`class_misses`): all classes of all guesses in one matrix."""
        replies = self.game.by_secret[S[:, None], pool]  # replies[i, k]: to guess pool[k], of S[i]
        owner: list[int] = []
        members: list[np.ndarray] = []
        for k in range(len(pool)):
            _, inverse = np.unique(replies[:, k], return_inverse=True)
            members.append(inverse.ravel() + len(owner))
            owner.extend([k] * (int(inverse.max()) + 1))
        member = np.zeros((len(S), len(owner)))
        for column in members:
            member[np.arange(len(S)), column] = 1.0
        return np.bincount(np.asarray(owner), weights=self.class_misses(S, member), minlength=len(pool))

    def class_misses(self, S: Indexes, member: np.ndarray) -> np.ndarray:
        """Misses cost: for each class C of candidates of S (member[i, j] = 1 when S[i] is in
        class j), the bound of bounds.py's "two levels":

            M(C) >= w(C) - max over letters h splitting C of w(words of C containing h)

        (0 for a determined class). Every letter's replies on S (kept for the node) times the
        one-hot classes give each class's weight containing each letter, and whether the letter
        splits it (its replies on C are not all equal: |C| sum r^2 > (sum r)^2)."""
        if self._letters is None or self._letters[0] is not S:
            replies = self.game.table[:, S].astype(np.float64)  # every letter, not only the pool's
            self._letters = (S, replies, (replies != self.game.miss) * self.w[S])
        _, replies, present = self._letters
        size = member.sum(axis=0)
        first, second = replies @ member, (replies * replies) @ member
        splits = size * second - first * first > 0.5
        best = np.where(splits, present @ member, -1.0).max(axis=0)
        return np.where(best >= 0, self.w[S] @ member - best, 0.0)

    def determine_table(self, b: int) -> np.ndarray:
        """table[n]: the fewest guesses that determine n equally likely secrets (guesses
        until determined, classes of at most b replies): bounds.determine_table."""
        if ("determine", b) not in self._tables:
            self._tables[("determine", b)] = determine_table(len(self.game.secrets), b)
        return self._tables[("determine", b)]

    def determine_bounds(self, S: Indexes, pool: Indexes, counts: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Guesses until determined: for every guess, a lower bound on what its classes cost
        after it (bounds.py): the leaf-depth bound of each class with equal weights, and with
        weights the mass of the classes not yet determined (each pays one more guess at least)."""
        useful = counts.max(axis=1) < len(S)
        b = int(np.count_nonzero(counts, axis=1)[useful].max(initial=1))
        if self.uniform:
            return self.determine_table(b)[counts].sum(axis=1)
        mass = self.class_masses(S, pool, codes)
        return np.where(counts >= 2, mass, 0.0).sum(axis=1)
