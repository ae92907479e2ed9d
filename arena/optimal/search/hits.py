"""Guesses on a game that a hit ends (Jotto, Mastermind, Wordle): the cost of branch.py's
recursion C(S), its bounds (the slot bound of ../bounds.py, the closures of closures.py) and
the value of a guess, whose classes are bounded from the cache and one level deep before any
is searched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from ...core.costs import Guesses
from ...core.game import Game, Index, Indexes
from ..bounds import INF, min_depth, slot_capacity
from .allowed import Allowed
from .cache import CLOSED
from .shared import CostBounds, SearchState, class_searched
from .small_trees import SmallTrees, reply_table

#: Guesses at nodes of at least this many candidates have their classes bounded one level deep
#: (level_bounds) before any is searched: the root of Wordle (2,315), Jotto, Mastermind (1,296).
LEVEL_SIZE = 1000
#: Classes of sets of at most this many secrets are grouped in plain Python (classes_of).
SMALL_SPLIT = 32


class UntilHit(CostBounds):
    """Guesses until a guess hits the secret: every secret of S pays the guess, the hit class
    is finished, one secret costs its weight, two of equal weight 3 (one, then the other); a
    set is bounded by its slots (it cannot be finished within fewer guesses than its slots
    allow), small sets are closed, and hard mode is followed."""

    cost = Guesses
    ends_on_hit = True
    closes_small = True
    follows_hard_mode = True
    scores_below_known = True  # the slot bound of a class is at most its class bound (bounds.py)

    def finishing_reply(self, game: Game) -> int:
        return int(cast(int, game.hit))

    def leaf(self, S: Indexes, left: int) -> float | None:
        n, search = len(S), self.search
        if n == 1:
            return float(search.w[S[0]]) if left >= 1 else INF
        if left <= 1:
            return INF
        if n == 2 and search.uniform and search.all_named:
            return 3.0  # one of the two, then the other (decided: the first); no cache entry
        return None

    def decided(self, S: Indexes, left: int) -> Index | None:
        search = self.search
        if len(S) == 1 or (len(S) == 2 and search.uniform and search.all_named):
            return int(search.game.secret_guess[S[0]])
        return None

    def scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, Callable[[Indexes], np.ndarray], int]:
        return self.search.slot_scores(S, pool, left)

    def guess_value(
        self, guess: Index, S: Indexes, limit: float, left: int, b: int, sym: Any, allowed: Allowed | None
    ) -> float:
        return self.search.slot_value(guess, S, limit, left, b, sym, allowed)

    def fit_leaf(self, S: Indexes, left: int) -> bool | None:
        n = len(S)
        if n <= 1:
            return left >= n
        if left <= 1 or n > slot_capacity(self.search.b_max, left):
            return False
        return None

    def room(self, n: int, b: int, left: int) -> int:
        return slot_capacity(b, left - 1)

    def least_depth(self, n: int) -> int:
        return min_depth(n, self.search.b_max)

    def paid_by_guess(self, S: Indexes) -> float:
        return self.search.weight(S)

    def class_bound(self, S: Indexes, b: int, left: int) -> float:
        return self.search.class_bound(S, b, left)


class HitValues(SearchState):
    """The value of a guess under guesses until a hit: slot_value, with classes_of,
    known_class_bounds and level_bounds."""

    def slot_value(
        self, guess: Index, S: Indexes, limit: float, left: int, b: int, sym, allowed: Allowed | None = None
    ) -> float:
        """w(S) + sum of the classes' costs if below `limit`, else a lower bound >= limit
        (branch.py, step 4)."""
        small = self.small_trees() if self.compiled_below else None
        if small is not None:
            return self.slot_value_compiled(small, guess, S, limit, left, b, sym)
        opened = None if self.uniform else self.weighted_classes(guess, S, b, left - 1)
        if opened is not None:
            classes, bounds = opened
        else:
            classes = self.classes_of(guess, S)
            if self.uniform:  # the slot table read directly (class_bound), inf past the depth limit
                table, room = self.table_list(b), slot_capacity(b, left - 1)
                bounds = [table[len(c)] if len(c) <= room else INF for _, c in classes]
            else:
                bounds = [self.class_bound(c, b, left - 1) for _, c in classes]
        total = self.weight(S) + sum(bounds)
        if total >= limit:
            return total
        keys: list = [None] * len(classes)
        if not self.restricted:
            total = self.known_class_bounds(classes, bounds, keys, total, limit, left - 1, b)
            if total >= limit:
                return total
        below = None if sym is None else sym.after(guess)
        if len(S) >= LEVEL_SIZE:
            total = self.level_bounds(guess, classes, bounds, total, limit, left - 1, below, allowed)
            if total >= limit:
                return total
        for (r, c), lb, key in zip(classes, bounds, keys):
            budget = limit - (total - lb)
            value = self.solve(c, budget, left - 1, below, self.class_allowed(allowed, guess, r, c), b, key)
            total = class_searched(total, lb, value, budget, limit)
            if total >= limit:
                return total
        return total

    def slot_value_compiled(
        self, small: SmallTrees, guess: Index, S: Indexes, limit: float, left: int, b: int, sym
    ) -> float:
        """slot_value with the classes of at most `compiled_below` secrets in compiled code
        (small_trees.py): the classes and their bounds, the small ones' known bounds (from
        the compiled cache, which holds every small set searched) and their searches, each
        in one call, in the same order as slot_value; the big classes as slot_value does."""
        opened = small.open_guess(guess, S, limit, left, b, self.compiled_below)
        if opened[0] >= limit:
            return opened[0]
        return self.search_opened(small, guess, S, limit, left, b, sym, opened)

    def search_guesses_compiled(
        self, S: Indexes, parts, budget: float, left: int, b: int, sym
    ) -> tuple[float, Index, float]:
        """branch.search_node's loop over its guesses (`parts`: (guesses, their node bounds) in
        the order searched) with no tie kept, where slot_value opens a guess in compiled code:
        the guesses that open_guess's bounds cut are gone through in one compiled call
        (SmallTrees.open_first) as far as the next one below the best, which search_opened
        searches. The same guesses as search_node's loop, in the same order, with the same values:
        (the best value, its guess (-1: none below `budget`), the least bound of the others)."""
        small = cast(SmallTrees, self.small_trees())
        S = np.ascontiguousarray(S, dtype=np.int64)
        met = reply_table(len(self.game.guesses))
        best, best_guess, floor = budget, -1, INF
        for guesses, bounds in parts:
            at = 0
            while at < len(guesses):
                i, why, cut, opened_count, *opened = small.open_first(
                    guesses[at:], bounds[at:], S, best, left, b, self.compiled_below, met
                )
                self.stats.guesses += int(opened_count)
                floor, at = min(floor, float(cut)), at + int(i)
                if why == 1:  # this guess's bound and the rest's reach the best
                    return best, best_guess, min(floor, float(bounds[at]))
                if why == 0:
                    break
                guess = int(guesses[at])
                value = self.search_opened(small, guess, S, best, left, b, sym, tuple(opened))
                if value < best:
                    best, best_guess = value, guess
                else:
                    floor = min(floor, value)
                at += 1
        return best, best_guess, floor

    def search_opened(
        self, small: SmallTrees, guess: Index, S: Indexes, limit: float, left: int, b: int, sym, opened: tuple
    ) -> float:
        """slot_value_compiled once its guess is opened below `limit` (`opened`: open_guess's
        tuple): the big classes' known bounds, the level bounds, then the classes searched."""
        largest = self.compiled_below
        total, member, ends, codes, bounds, reached = opened
        cuts, replies = ends.tolist(), codes.tolist()
        classes = [(replies[j], member[cuts[j] : cuts[j + 1]]) for j in range(len(replies))]
        bound_list = bounds.tolist()
        keys: list = [None] * len(classes)
        total = self.known_class_bounds(classes, bound_list, keys, total, limit, left - 1, b, start=reached)
        if total >= limit:
            return total
        below = None if sym is None else sym.after(guess)
        if len(S) >= LEVEL_SIZE:
            total = self.level_bounds(guess, classes, bound_list, total, limit, left - 1, below, None)
            if total >= limit:
                return total
        self.check_deadline()
        before = small.nodes
        roots = None if below is None else below.mask()  # the classes' pool: one guess per orbit
        classes_opened = (member, ends, np.asarray(bound_list))
        total, done = small.solve_classes(classes_opened, total, limit, left - 1, b, largest, roots)
        self.count_compiled(small, before)
        if total >= limit:
            return total
        for j in range(done, len(classes)):
            lb = bound_list[j]
            budget = limit - (total - lb)
            value = self.solve(classes[j][1], budget, left - 1, below, None, b, keys[j])
            total = class_searched(total, lb, value, budget, limit)
            if total >= limit:
                return total
        return total

    def weighted_classes(
        self, guess: Index, S: Indexes, b: int, left: int
    ) -> tuple[list[tuple[int, Indexes]], list[float]] | None:
        """classes_of and each class's class_bound(C, b, left), by one compiled call
        (weighted_kernels.weighted_classes) where weighted nodes are scored in compiled code;
        else None."""
        kernels = self.weighted_compiled()
        if kernels is None:
            return None
        depths = self.depths(b)
        room = min(slot_capacity(b, left), len(S))
        game = self.game
        member, ends, codes, bounds = kernels.weighted_classes(
            game.table, guess, S, self.w, self.hit, game.n_codes, depths, b, room
        )
        cuts, replies = ends.tolist(), codes.tolist()
        return [(replies[j], member[cuts[j] : cuts[j + 1]]) for j in range(len(replies))], bounds.tolist()

    def classes_of(self, guess: Index, S: Indexes) -> list[tuple[int, Indexes]]:
        """The classes of S under `guess` but the hit, as (reply, candidates), smallest first
        (ties in reply order; each class in S's order): game.partition, in plain Python on
        small sets and without the dict on big ones."""
        replies = self.game.table[guess, S]
        if len(S) <= SMALL_SPLIT:
            grouped: dict[int, list[int]] = {}
            for secret, reply in zip(S.tolist(), replies.tolist()):
                grouped.setdefault(reply, []).append(secret)
            grouped.pop(self.hit, None)
            classes = [(r, np.array(grouped[r], dtype=S.dtype)) for r in sorted(grouped)]
            classes.sort(key=lambda rc: len(rc[1]))
            return classes
        ordered = S[np.argsort(replies, kind="stable")]
        sizes = np.bincount(replies, minlength=self.game.n_codes)
        ends = np.cumsum(sizes).tolist()
        if self.hit >= 0:
            sizes[self.hit] = 0
        present = np.flatnonzero(sizes)
        present = present[np.argsort(sizes[present], kind="stable")]
        counts = sizes.tolist()
        return [(r, ordered[ends[r] - counts[r] : ends[r]]) for r in present.tolist()]

    def known_class_bounds(
        self, classes: list, bounds: list, keys: list, total: float, limit: float, left: int, b: int, start: int = 0
    ) -> float:
        """Before any class of a guess is searched: each class's bound raised to what the cache
        has proven for it (an exact value, or the bound of a search that failed high) or, for a
        class met for the first time, to close_small's (its closed value, or its candidates'
        bound), which is cached for the class's own search (marked CLOSED: close_small is not
        asked again), until the total reaches `limit` (the guess is dropped). `bounds` and
        `keys` (the classes' cache keys, for their searches) are filled in place, from class
        `start` on (the earlier ones bounded already); returns the new total."""
        for j in range(start, len(classes)):  # smallest first: their bounds cost least
            c = classes[j][1]
            if len(c) <= 2:
                continue  # closed by its class bound already
            key = keys[j] = self.key(c, left)
            entry = self.cache.get(key)
            if entry is None:
                closed = self.close_small(c, left, b)
                if closed is None:
                    continue
                value, guess = closed
                entry = (value, value, guess) if guess >= 0 else (value, INF, CLOSED)
                self.remember(self.cache, key, entry)
            if entry[0] > bounds[j]:
                total += entry[0] - bounds[j]
                bounds[j] = entry[0]
                if total >= limit:
                    break  # the guess is dropped
        return total

    def level_bounds(
        self,
        guess: Index,
        classes: list,
        bounds: list,
        total: float,
        limit: float,
        left: int,
        sym,
        allowed: Allowed | None,
    ) -> float:
        """At a big node: raise the bounds of the guess's classes, biggest first, to one level
        of search, until the guess's total bound reaches `limit` (it is then dropped without
        searching a class). One level: a class C costs at least

            min over guesses h of  w(C) + sum over h's classes of their slot bound

        which is what search_node computes first at C; here it is the whole cost of proving
        that a first guess cannot beat the incumbent, for most first guesses (measured on
        Wordle: the slot bound of SALET is 6,883, this 7,812, the optimum 7,920). Each bound
        is cached as proven for C, so C's own search starts from it. `bounds` is updated in
        place; returns the new total."""
        for j in sorted(range(len(classes)), key=lambda j: -len(classes[j][1])):
            r, C = classes[j]
            if len(C) <= 2:
                break  # the rest are closed exactly by their class bound already
            below = self.class_allowed(allowed, guess, r, C)
            key = self.key(C, left, below)
            entry = self.cache.get(key)
            if entry is not None:
                level = entry[0]
            else:
                scored, _, _ = self.score_guesses(C, self.pool(C, sym, below), left)
                level = float(scored.min(initial=INF))
                self.remember(self.cache, key, (level, INF, -1))
            if level > bounds[j]:
                total += level - bounds[j]
                bounds[j] = level
            if total >= limit:
                break
        return total
