"""The fewest secrets at the worst depth: objective "fewest-at-worst", exactly.

The tree wanted is least in three keys, in turn: its worst case D (as objective "worst"
proves it), then the number of secrets that need the D-th guess, then the total. Bulls and
Cows needs 7 guesses in the worst case; the question this answers is how few codes must
need the 7th.

A class C met with k guesses left (the k-th of them is the D-th guess of the game) has the
value, as a pair (secrets at the D-th guess, total guesses) compared in that order,

    V(C, k) = (0, T(C, k - 1))         if C can be finished within k - 1 guesses
            = (1, 1)                   if C is one secret and k = 1 (it takes the D-th guess)
            = min over guesses h of  (0, |C|) + sum over h's classes C' but the hit of V(C', k - 1)

where T(C, j) is the least total within j guesses: the exact search's value of C under that
limit (search/, one cache for the whole run). A class that fits within k - 1 guesses puts no
secret at the D-th guess, and any tree that does puts one there, so such a class is handed to
the search whole; only the *critical* classes, those that need every guess they have left,
are searched here. A pair is held as one number, count x M + total, with M above any total
(|S| x D + 1), so that the branch and bound below is the search's, on one number:

    a guess at a critical C (k >= 2) is bounded by  M x sum_C' max(0, |C'| - slots(b, k - 2))
                                                     + its slot bound within k guesses

(a class of |C'| secrets with k - 1 guesses left finds at most slots(b, k - 2) of them before
its last guess: bounds.slot_capacity), and every class's value is searched with what is left
of the budget, largest first. Each critical class's bound or exact value is cached with its
best guess; the tree is read back from this cache and, below the critical classes, from the
search's own (growing.tree_from_search).

The count is settled first, alone (`totals=False`: a class that fits within k - 1 guesses is
worth 0, with no search of its total, and a guess costs nothing itself): on Bulls and Cows
after 0123 every class but two fits within 5 guesses, and their totals, which the pair would
need for every guess tried, are most of the work. Its values then bound the pair search's
counts (`counts`), and where the time limit stops the pair search, the tree of the fewest
secrets at D is still proven in its first key (its total searched only along that tree).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..core.game import Index, Indexes
from ..trees.grow import Hooks, Spot, grow
from ..trees.tree import Node
from .bounds import INF, slot_capacity
from .growing import Path, tree_from_search
from .search import Search, Timeout, class_searched
from .solved import at_worst

__all__ = ["Fewest", "FewestResult", "Guide"]


@dataclass
class FewestResult:
    """What the search of one set found: its root and each secret's (guesses, misses) from the
    game's start, the total and count of that tree, and the proven bounds on the best
    (count, total): `count_bound`, and `total_bound` among the trees with the tree's count
    (0 where the count is not proven)."""

    root: Node | None
    costs: np.ndarray
    count: int
    total: float
    count_bound: int
    total_bound: float
    nodes: int  # critical classes whose guesses were scored, by both searches


@dataclass
class Fewest:
    """The branch and bound of the module docstring over the critical classes, on `search`
    (a Search of the problem under the guess limit `depth`, the least worst case); its
    `solve`, `cache` and `root_lower` read as the search's own do."""

    search: Search
    depth: int
    n: int  # the secrets of the root: M = n x depth + 1
    totals: bool = True  # False: the count alone (M = 1, every total 0)
    counts: dict = field(default_factory=dict)  # the count-alone search's cache: bounds on the counts
    cache: dict = field(default_factory=dict)  # (set bytes, k) -> (lower, upper, best guess)
    root_key: Any = None
    root_lower: float = 0.0
    nodes: int = 0  # critical classes whose guesses were scored

    @property
    def unit(self) -> float:
        """M: one secret at the worst depth outweighs any total (1 for the count alone)."""
        return float(self.n * self.depth + 1) if self.totals else 1.0

    def pair(self, value: float) -> tuple[int, float]:
        """(count, total) of a value."""
        count = int(value // self.unit)
        return count, value - count * self.unit

    def value_of(self, count: int, total: float) -> float:
        return count * self.unit + total

    def remember(self, key: Any, entry: tuple) -> None:
        """cache[key] = entry within the search's byte budget (its older half forgotten past
        it: a forgotten class is searched again where it is met again, or read back)."""
        self.search.remember(self.cache, key, entry)

    def fits(self, C: Indexes, k: int, sym: Any) -> bool:
        """Can C be finished within k guesses? At once where every secret is a guess and
        there are as many guesses as secrets (one by one), else by the search's proof."""
        search = self.search
        if len(C) <= k and search.all_named:
            return True
        if len(C) <= search.compiled_below and search.small_trees() is not None:
            return search.solve(C, INF, k, sym) < INF  # the compiled search, whole: its total is cached too
        return search.fits(C, k, sym)

    def solve(self, C: Indexes, budget: float, k: int, sym: Any = None) -> float:
        """V(C, k) as one number if below `budget`, else a lower bound >= budget (INF: C does
        not fit within k guesses)."""
        n = len(C)
        if n == 1:
            return float(self.totals) + (self.unit if k == 1 else 0.0)
        if k <= 1:
            return INF
        key = (self.search.set_bytes(C), k)
        entry = self.cache.get(key)
        if entry is not None and (entry[0] == entry[1] or entry[0] >= budget):
            return entry[0]
        if self.fits(C, k - 1, sym):  # no secret of C needs its last guess: the search's total
            value = self.search.solve(C, min(budget, self.unit), k - 1, sym) if self.totals else 0.0
            if value >= budget:
                return value
            self.remember(key, (value, value, -1))
            return value
        if not self.fits(C, k, sym):
            self.remember(key, (INF, INF, -1))
            return INF
        return self.critical(C, budget, k, sym, key, 0.0 if entry is None else entry[0])

    def critical(self, C: Indexes, budget: float, k: int, sym: Any, key: Any, known: float) -> float:
        """V(C, k) for a class that needs all k of its guesses: every guess bounded, then
        searched in the order of its bound while that is below the best found."""
        search = self.search
        search.check_deadline()
        self.nodes += 1
        pool = search.pool(C, sym)
        bound, spread, b = self.guess_bounds(C, pool, k)
        at_root = key == self.root_key
        order = np.lexsort((spread, bound))  # by bound, ties to the better slot bound
        best, best_guess, floor = budget, -1, INF
        for i in order.tolist():
            if bound[i] >= best:
                floor = min(floor, float(bound[i]))
                break
            if at_root:
                self.root_lower = max(self.root_lower, known, min(best, floor, float(bound[i])))
            guess = int(pool[i])
            value = self.guess_value(guess, C, best, k, b, sym)
            if value < best:
                best, best_guess = value, guess
            else:
                floor = min(floor, value)
        if best_guess >= 0:
            self.remember(key, (best, best, best_guess))
            return best
        proven = max(known, floor)
        self.remember(key, (proven, INF, -1))
        return proven

    def guess_bounds(self, C: Indexes, pool: Indexes, k: int) -> tuple[np.ndarray, np.ndarray, int]:
        """Every guess's bound at C with k guesses left (the module docstring's), inf for a
        guess that learns nothing or leaves a class too big for k - 1 guesses; the order
        among equal bounds (the slot bound of the total, then the spread of the classes:
        the count alone has no total to tell guesses apart); and b."""
        search = self.search
        totals, spread, b = search.score_guesses(C, pool, k)
        counts, _ = search.hit_free_counts(pool, C)
        over = np.maximum(counts - slot_capacity(b, k - 2), 0).sum(axis=1)
        useless = counts.max(axis=1) >= len(C)
        bound = (totals if self.totals else np.where(np.isfinite(totals), 0.0, INF)) + self.unit * over
        bound[useless] = INF
        return bound, totals + spread / (len(C) ** 2 + 1.0), b

    def guess_value(self, guess: Index, C: Indexes, limit: float, k: int, b: int, sym: Any) -> float:
        """(0, |C|) + the classes' values, if below `limit`, else a bound >= limit."""
        search = self.search
        classes = [c for r, c in search.game.partition(guess, C).items() if r != search.hit]
        classes.sort(key=len, reverse=True)  # the big ones hold the count: they prune soonest
        cap = slot_capacity(b, k - 2)
        bounds = [self.class_bound(c, b, k - 1, cap) for c in classes]
        total = float(len(C) if self.totals else 0) + sum(bounds)
        below = None if sym is None else sym.after(guess)
        for j, c in enumerate(classes):  # one level first: each class that needs its last guess counts 1
            if total >= limit:
                return total
            if len(c) > 1 and bounds[j] < self.unit and not self.fits(c, k - 2, below):
                # one secret at D, plus a bound on any tree's total within k - 1 (not bounds[j]:
                # a bound on the pair may hold a total that only trees with no secret at D reach)
                raised = self.unit + (search.known_bound(c, b, k - 1) if self.totals else 0.0)
                if raised > bounds[j]:
                    total += raised - bounds[j]
                    bounds[j] = raised
        for c, lb in zip(classes, bounds):
            if total >= limit:
                return total
            budget = limit - (total - lb)
            total = class_searched(total, lb, self.solve(c, budget, k - 1, below), budget, limit)
        return total

    def class_bound(self, C: Indexes, b: int, k: int, cap: int) -> float:
        """A lower bound on V(C, k) without a search: what this cache holds for C, or the
        secrets past the slots of k - 1 guesses (at least one where the search has proven
        that C does not fit within k - 1), plus the search's bound on the total."""
        search = self.search
        code = search.set_bytes(C)
        entry = self.cache.get((code, k))
        if entry is not None:
            return entry[0]
        count = max(0, len(C) - cap)
        if count == 0 and len(C) > 1 and search.fit_cache.get((code, k - 1)) is False:
            count = 1
        counted = self.counts.get((code, k))
        if counted is not None:
            if counted[0] == INF:
                return INF  # C does not fit within k guesses
            count = max(count, int(counted[0]))
        return self.unit * count + (search.known_bound(C, b, k) if self.totals else 0.0)

    def best_guess(self, C: Indexes, k: int) -> Index | None:
        """The best guess at a critical class, or None where the search's cache holds it."""
        entry = self.cache.get((self.search.set_bytes(C), k))
        return None if entry is None or entry[2] < 0 else int(entry[2])


class Guide(Protocol):
    """What critical_tree may be told instead of reading the caches (pilot.Pilot): the guess at
    a critical class (None: the cache's), and a subtree for a class that fits within one guess
    fewer than it has."""

    def guess(self, C: Indexes, k: int) -> Index | None: ...

    def settle(self, spot: Spot) -> tuple[Node | None, np.ndarray]: ...


def fewest_tree(
    fewest: Fewest,
    S: Indexes,
    incumbent: tuple[Node | None, np.ndarray] | None,
    opening: str = "",
    counting: Fewest | None = None,
) -> FewestResult:
    """The tree of the fewest secrets at the worst depth for S (every secret fits within
    `fewest.depth`, proven before; `fewest` the pair search), better than `incumbent` (a tree
    within that depth: its root and costs; None: none, and then no deadline) or the incumbent
    itself, with the bounds proven: the count settled alone first (by `counting`, the search of
    the count alone, with what its cache holds already; a new one if None), then the pair
    searched with the counts as bounds. Under a deadline (the search's), the best found so far."""
    search, depth = fewest.search, fewest.depth
    if counting is None:
        counting = Fewest(search, depth, fewest.n, totals=False)
    if incumbent is not None and search.deadline is not None:
        incumbent = polished(counting, S, incumbent, opening)
    best = incumbent
    seed_count = INF if incumbent is None else tree_value(counting, incumbent[1], S)
    count_bound = 1.0  # some secret needs the D-th guess
    if not search.timed_out:
        count_bound = root_search(counting, S, seed_count + 0.5)
    if count_bound < seed_count and not search.timed_out:
        try:  # the fewest at D; its total searched along it alone, within the time limit
            best = critical_tree(counting, S, opening, within_deadline=True)
        except Timeout:
            search.timed_out = True  # the count stays proven; the tree is the incumbent
    fewest.counts = counting.cache
    lower = fewest.value_of(int(count_bound), 0.0)
    if not search.timed_out:
        assert best is not None  # the count search found a tree, or the incumbent stands
        lower = root_search(fewest, S, tree_value(fewest, best[1], S), floor=lower)
        if lower < tree_value(fewest, best[1], S) and not search.timed_out:
            best = critical_tree(fewest, S, opening)
    assert best is not None  # a tree within the depth: found, or the incumbent
    root, costs = best
    total = float(costs[0][S].sum())
    _, count = at_worst(costs[0], S)
    proven_count, total_bound = fewest.pair(min(lower, fewest.value_of(count, total)))
    if proven_count < count:
        total_bound = 0.0  # no bound on the total of the trees with this tree's count
    proven = max(int(count_bound), proven_count, 1)
    return FewestResult(root, costs, count, total, proven, total_bound, counting.nodes + fewest.nodes)


def root_search(fewest: Fewest, S: Indexes, budget: float, floor: float = 0.0) -> float:
    """V(S, depth) if below `budget`, else a bound >= budget; under a deadline that passes,
    the bound proven by then (the search's `timed_out` set), never below `floor` (a bound
    known before) and counting at least one secret at the worst depth."""
    search = fewest.search
    fewest.root_key = (search.set_bytes(S), fewest.depth)
    least = fewest.unit + (search.known_bound(S, search.b_max, fewest.depth) if fewest.totals else 0.0)
    fewest.root_lower = max(floor, least)  # some secret needs the D-th guess
    try:
        return max(fewest.solve(S, budget, fewest.depth, search.symmetry), floor)
    except Timeout:
        search.timed_out = True
        return fewest.root_lower


def polished(
    fewest: Fewest, S: Indexes, incumbent: tuple[Node | None, np.ndarray], opening: str
) -> tuple[Node | None, np.ndarray]:
    """Under a time limit, before the whole search: the incumbent's first guess kept and each
    of its classes searched on its own, smallest first, under what the incumbent's subtree
    there is worth, each class that is beaten replaced by what the search found; until the
    deadline (the search's `timed_out` then set). A search stopped below the first guess so
    still gives a tree better than the incumbent where a class was beaten. The classes'
    values stay in the cache for the whole search that follows. A beaten class's subtree is
    read back at once, within the deadline (its classes that fit searched for their totals):
    one the deadline stops there is not counted beaten."""
    root, costs = incumbent
    search = fewest.search
    if root is None:
        return incumbent
    guess, k = root.guess, fewest.depth - 1
    below = None if search.symmetry is None else search.symmetry.after(guess)
    kept: dict[Any, Node | None] = dict(root.children)
    costs = costs.copy()
    try:
        for reply, C in sorted(search.game.partition(guess, S).items(), key=lambda rc: len(rc[1])):
            if search.game.finished(reply) or len(C) == 1:
                continue
            count = int(np.count_nonzero(costs[0][C] == fewest.depth))
            total = float(costs[0][C].sum()) - len(C) if fewest.totals else 0.0  # paid below the first guess
            known = fewest.value_of(count, total)
            if fewest.solve(C, known, k, below) < known:
                start = Spot(C, (reply,), ((guess, reply),), k)
                kept[reply], class_costs = critical_tree(fewest, C, opening, within_deadline=True, start=start)
                costs[:, C] = class_costs[:, C]
    except Timeout:
        search.timed_out = True
    subtrees = {(r,): child for r, child in kept.items()}
    return critical_tree(fewest, S, opening, guess, (subtrees, costs))


def tree_value(fewest: Fewest, costs: np.ndarray, S: Indexes) -> float:
    """A tree's value (count x M + total), from its costs."""
    depth, count = at_worst(costs[0], S)
    if depth < fewest.depth:
        count = 0
    return fewest.value_of(count, float(costs[0][S].sum()) if fewest.totals else 0.0)


def critical_tree(
    fewest: Fewest,
    S: Indexes,
    opening: str,
    root_guess: Index | None = None,
    kept: tuple[dict, np.ndarray] | None = None,
    within_deadline: bool = False,
    start: Spot | None = None,
    guide: Guide | None = None,
) -> tuple[Node | None, np.ndarray]:
    """The tree that the cache holds for S: the critical classes' best guesses, and each class
    that fits within one guess fewer than it has handed to the search's tree; `root_guess`
    first if given, and the subtrees `kept` (nodes by their replies, and the costs of the
    tree they come from) as they are. Reading back is cache look-ups and small searches, with no
    deadline, except `within_deadline` (the count's tree, whose classes that fit are searched
    for their totals here): the search's Timeout then stops it."""
    search = fewest.search
    subtrees, kept_costs = kept if kept is not None else ({}, None)
    deadline = search.deadline
    if not within_deadline:
        search.deadline = None  # reading back: only cache look-ups and tiny searches

    def choose(spot: Spot) -> Index:
        C, k = spot.candidates, spot.left
        if len(C) == 1:
            return int(search.game.secret_guess[C[0]])
        if root_guess is not None and spot.turn == 0:
            return root_guess
        guess = None if guide is None else guide.guess(C, k)
        if guess is None:
            guess = fewest.best_guess(C, k)
        if guess is None:  # forgotten past the cache's budget: searched again
            fewest.solve(C, INF, k)
            guess = fewest.best_guess(C, k)
        assert guess is not None, "a critical class without its best guess"  # a bug, not a user's mistake
        return guess

    def hand_over(spot: Spot) -> tuple[Node | None, np.ndarray] | None:
        if spot.replies in subtrees:
            assert kept_costs is not None  # given with the subtrees
            return subtrees[spot.replies], kept_costs
        C, k = spot.candidates, spot.left
        # the root needs every guess (D is the least worst case), a class with a best guess
        # cached is critical: neither is asked `fits`, which has no deadline here
        if spot.turn == 0 or len(C) == 1 or fewest.best_guess(C, k) is not None or not fewest.fits(C, k - 1, None):
            return None
        if guide is not None:
            return guide.settle(spot)
        path = Path(spot.replies, spot.left - 1, spot.missed)
        if within_deadline:  # searched here, where the deadline holds (tree_from_search lifts it)
            search.solve(C, INF, k - 1)
        return tree_from_search(search, C, opening, path=path)

    try:
        return grow(
            search.game,
            Spot(S, left=fewest.depth) if start is None else start,
            choose,
            opening,
            hooks=Hooks(hand_over=hand_over, step=search.step),
        )
    finally:
        search.deadline = deadline
