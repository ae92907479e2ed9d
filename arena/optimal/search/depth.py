"""Depth limits and bounds at the root: can a set be finished within k guesses (or misses),
the least such k (the worst case), and the lower bound proven so far on a set's cost.
"""

from __future__ import annotations

import numpy as np

from ...core.errors import ArenaError
from ...core.game import Indexes
from ..bounds import INF
from .allowed import Allowed
from .shared import SearchState

#: A guess's score may exceed the sum of its classes' bounds by a float sum's rounding (the
#: compiled and the numpy sums add in different orders): root_bound stops only past this share.
SCORE_SLACK = 1e-9


class DepthLimits(SearchState):
    """fits, worst_case, root_bound and known_bound."""

    def step(self, reply) -> int:
        """What one reply adds to what is counted on the way down (the cost's `step`): a guess,
        or under misses and lost games 1 for a miss, else 0."""
        return self.cost.step(self.game, reply)

    def fits(self, S: Indexes, left: int, sym=None, allowed: Allowed | None = None) -> bool:
        """Can every secret of S be found within `left` guesses (misses: be determined, the
        game's `determined`, within `left` misses)? Depth-first, guesses whose largest class
        is smallest first; with guesses, a class too big for its slots is refused at once."""
        n = len(S)
        known = self.bounds.fit_leaf(S, left)  # a single secret or a determined set; a set too big for its slots
        if known is not None:
            return known
        key = (self.set_bytes(S), left) if allowed is None else (self.set_bytes(S), left, allowed.key)
        if key in self.fit_cache:
            return self.fit_cache[key]
        self.check_deadline()
        pool = self.pool(S, sym, allowed)
        counts, _ = self.hit_free_counts(pool, S)
        largest = counts.max(axis=1)
        b = int(np.count_nonzero(counts, axis=1)[largest < n].max(initial=1))
        room = self.bounds.room(n, b, left)  # the slot bound; none under misses (bounds.py)
        fitting = np.flatnonzero((largest < n) & (largest <= room))
        ok = False
        for i in fitting[np.argsort(largest[fitting], kind="stable")]:
            guess = int(pool[i])
            below = None if sym is None else sym.after(guess)
            classes = sorted(
                ((c, left - self.step(r), r) for r, c in self.game.partition(guess, S).items() if r != self.hit),
                key=lambda cl: len(cl[0]),
                reverse=True,
            )
            if all(self.fits(c, k, below, self.class_allowed(allowed, guess, r, c)) for c, k, r in classes):
                ok = True
                break
        self.remember(self.fit_cache, key, ok)
        return ok

    def worst_case(self, S: Indexes, sym=None) -> int:
        """W(S): the fewest guesses (misses) that find every secret of S in the worst case,
        the least depth that `fits`, counted up from the proven bound (the cost's
        `least_depth`: min_depth of bounds.py for guesses until a hit, 0 for misses)."""
        depth = self.bounds.least_depth(len(S))
        while not self.fits(S, depth, sym):
            depth += 1
            if depth > len(S) + 1:  # every useful guess shrinks the classes: no guess splits S
                raise ArenaError(
                    f"{self.game.spec}: no guess tells apart {', '.join(self.game.secrets[s] for s in S[:3])}"
                )
        return depth

    def root_bound(self, S: Indexes, sym=None, left: int | None = None, allowed: Allowed | None = None) -> float:
        """A lower bound on C(S) from what the search has proven so far: for every guess,
        what the guess itself costs (w(S), or under misses its miss class: the cost's
        `paid_by_guess` and `pays`) plus, over its
        classes, the best bound known (exact value, cached bound, or the class bound),
        minimised over guesses; never below a bound cached for S itself. In hard mode the
        classes are bounded by their class bound only (their cache keys would need every
        guess's allowed set). Where a guess's score is at most that sum (the cost's
        `scores_below_known`), the guesses are taken by their scores and the rest left once
        the next score passes the best (Wordle with weights: 12,972 guesses, 692,828 classes
        bounded one by one, 9.7 s of a 2 s best response, before)."""
        left = self.limit if left is None else left
        pool = self.pool(S, sym, allowed)
        scored = None
        if self.bounds.scores_below_known:  # the guesses by their scores, which only rise below
            # (the scores' b is the same; a guess scored inf learns nothing or cannot fit)
            scored, _, b = self.score_guesses(S, pool, left)
            order = np.flatnonzero(np.isfinite(scored))
            order = order[np.argsort(scored[order], kind="stable")]
        else:
            counts, _ = self.hit_free_counts(pool, S)
            useful = counts.max(axis=1) < len(S)
            b = int(np.count_nonzero(counts, axis=1)[useful].max(initial=1))
            order = np.flatnonzero(useful)
        best = INF
        for i in order:
            if scored is not None and scored[i] > best + SCORE_SLACK * max(1.0, abs(best)):
                break  # this guess and the rest cost at least their scores: none is below best
            total = self.bounds.paid_by_guess(S)
            for r, c in self.game.partition(int(pool[i]), S).items():
                if r == self.hit:
                    continue
                if self.bounds.pays(r):
                    total += self.weight(c)  # each secret of the class pays this reply
                total += self.known_bound(c, b, left - self.step(r), cached=not self.restricted)
                if total >= best:
                    break
            best = min(best, total)
        entry = self.cache.get(self.key(S, left, allowed))
        return max(best, entry[0]) if entry else best

    def known_bound(self, S: Indexes, b: int, left: int, cached: bool = True) -> float:
        """The best lower bound on C(S) known without searching: its value if it needs no
        search, else the cache (if `cached`) or the cost's class bound."""
        leaf = self.bounds.leaf(S, left)
        if leaf is not None:
            return leaf
        slot = self.bounds.class_bound(S, b, left)
        entry = self.cache.get(self.key(S, left)) if cached else None
        return slot if entry is None else max(slot, entry[0])
