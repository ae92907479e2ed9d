"""Depth-first branch and bound for the strategy tree of least expected cost.

The problem. A node is a set S of secrets still possible (with weights w). Its cost C(S) is the
total weight-times-guesses its subtree spends: one guess paid by every secret of S, plus the
cost of every class the guess leaves (the hit class, the guess itself, is finished):

    C(S) = min over guesses g of  [ w(S) + sum over non-hit replies r of C(S_r(g)) ]
    C({s}) = w_s,   C(empty) = 0.

A guess that leaves all of S in one non-hit class learns nothing and is never taken. With a limit
of K guesses, C_K(S) is the same recursion with K - 1 for the classes and C_0(S) = inf for S
non-empty.

The search. `solve(S, budget)` returns C(S) exactly when it is below `budget`, and otherwise
some proven lower bound that is at least `budget` (the classic fail-high of alpha-beta). Per node:

1. the partition counts of S under every guess of the pool, in one `partition_counts` call;
2. for every guess, a lower bound w(S) + sum_r LB(S_r) from the slot bound (bounds.py), with b
   the largest number of non-hit classes any guess makes on S (it bounds every class below);
3. guesses in order of that bound, ties to fewer expected candidates (a cheap heuristic, so the
   first tree found is already good); a guess is skipped once its bound reaches the best total
   found so far, which is the budget passed down;
4. inside a guess, classes in decreasing size, each solved with what is left of the budget once
   the others' lower bounds are reserved; the guess is dropped as soon as its running total
   (exact values so far + bounds for the rest) reaches the best.

A cache maps each candidate set (and guesses left, under a depth limit) to its exact value and
best guess, or to the best lower bound proven so far. Symmetries (symmetry.py) restrict the pool
to one guess per class of equivalent guesses. Small sets are closed directly: one secret costs
its weight, two cost w1 + 2 w2, and with equal weights n <= b + 1 secrets cost 2n - 1 whenever a
candidate splits the other n - 1 into singletons (the slot bound, attained).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..errors import ArenaError
from ..game import Game, Index, Indexes
from .bounds import INF, slot_capacity, slot_table, sorted_weight_bound, weighted_bound

NO_LIMIT = 1 << 20  # "guesses left" when there is no depth limit


class Timeout(Exception):
    """The time limit passed during the search."""


@dataclass
class Stats:
    nodes: int = 0  # candidate sets whose guesses were scored
    guesses: int = 0  # guesses whose classes were searched
    hits: int = 0  # cache answers
    started: float = field(default_factory=time.perf_counter)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


class Search:
    """The branch and bound over one game, pool, weighting and depth limit.

    `weights` is a float64 array over all secrets of the game; `symmetry` (or None) maps a
    history of guesses to the guesses worth trying (symmetry.Symmetry)."""

    def __init__(self, game: Game, weights: np.ndarray, pool: str = "all", max_guesses: int | None = None,
                 symmetry=None, deadline: float | None = None):
        if game.hit is None:
            raise ArenaError(f"{game.spec}: the optimal solver needs a game whose guesses can hit the secret")
        self.game = game
        self.w = np.asarray(weights, dtype=np.float64)
        self.uniform = bool(np.all(self.w == 1.0))
        self.consistent_pool = pool == "consistent"
        self.limit = NO_LIMIT if max_guesses is None else int(max_guesses)
        self.symmetry = symmetry
        self.deadline = deadline
        self.hit = int(game.hit)
        self.b_max = len(game.codes) - (1 if self.hit in set(game.codes.tolist()) else 0)
        self.cache: dict = {}
        self._tables: dict[int, np.ndarray] = {}
        self.stats = Stats()

    # --- small helpers ---------------------------------------------------------------------
    def table(self, b: int) -> np.ndarray:
        """The slot bound for every class size, for nodes whose guesses make at most b classes."""
        if b not in self._tables:
            self._tables[b] = slot_table(len(self.game.secrets), b)
        return self._tables[b]

    def key(self, S: Indexes, left: int):
        code = S.astype(np.uint16).tobytes() if len(self.game.secrets) < 65536 else S.tobytes()
        return code if self.limit == NO_LIMIT else (code, left)

    def weight(self, S: Indexes) -> float:
        return float(len(S)) if self.uniform else float(self.w[S].sum())

    def class_bound(self, S: Indexes, b: int, left: int) -> float:
        """A lower bound on C(S) before S is searched: the slot bound (inf if S cannot fit)."""
        if len(S) > slot_capacity(b, left):
            return INF
        if self.uniform:
            return float(self.table(b)[len(S)])
        return sorted_weight_bound(self.w[S], b)

    def pool(self, S: Indexes, sym) -> Indexes:
        """The guesses tried at S: every guess or the candidates, one per symmetry class."""
        base = self.game.guesses_naming(S) if self.consistent_pool else self.game.all_guesses
        return base if sym is None else sym.representatives(base)

    # --- the search --------------------------------------------------------------------------
    def solve(self, S: Indexes, budget: float = INF, left: int | None = None, sym=None) -> float:
        """C(S) if it is below `budget`, else a lower bound >= budget (see the module docstring)."""
        left = self.limit if left is None else left
        n = len(S)
        if n == 1:
            return float(self.w[S[0]]) if left >= 1 else INF
        if left <= 1:
            return INF
        key = self.key(S, left)
        entry = self.cache.get(key)
        known = 0.0
        if entry is not None:
            self.stats.hits += 1
            known, value, _ = entry
            if value == known or known >= budget:
                return known
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout
        closed = self.close_small(S)
        if closed is not None:
            value, guess = closed
            self.cache[key] = (value, value, guess)
            return value
        return self.search_node(S, budget, left, sym, key, known)

    def close_small(self, S: Indexes) -> tuple[float, Index] | None:
        """The exact value of a set too small to need a search, and its best guess, or None."""
        n = len(S)
        named = self.game.secret_guess[S]
        if n == 2 and named.min() >= 0:  # guess the heavier: w1 + 2 w2
            heavy = 0 if self.w[S[0]] >= self.w[S[1]] else 1
            return float(self.w[S].sum() + self.w[S[1 - heavy]]), int(named[heavy])
        if self.uniform and n <= self.b_max + 1 and named.min() >= 0:
            block = np.sort(self.game.table[named[:, None], S], axis=1)
            perfect = np.flatnonzero((block[:, 1:] != block[:, :-1]).all(axis=1))
            if len(perfect):
                return float(2 * n - 1), int(named[perfect[0]])
        return None

    def score_guesses(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, np.ndarray, int]:
        """For every guess of the pool, the lower bound w(S) + sum_r LB(S_r), and a tie-break
        heuristic (expected share of candidates left); also b, the most non-hit classes."""
        n = len(S)
        counts = self.game.partition_counts(pool, S)
        if self.hit < counts.shape[1]:
            counts[:, self.hit] = 0  # the hit class is finished: it costs nothing more
        largest = counts.max(axis=1)
        useful = largest < n  # a guess that leaves all of S in one class learns nothing
        parts = np.count_nonzero(counts, axis=1)
        b = int(parts[useful].max(initial=1))
        if self.uniform:
            bound = n + self.table(b)[counts].sum(axis=1)
        else:
            mass = self.class_masses(S, pool)
            mass[:, self.hit] = 0.0
            w = self.w[S]
            bound = w.sum() + weighted_bound(mass, counts, float(w.max()), float(w.min()), b).sum(axis=1)
        bound[~useful] = INF
        if left < NO_LIMIT:
            bound[largest > slot_capacity(b, left - 1)] = INF
        spread = (counts.astype(np.float64) ** 2).sum(axis=1)
        return bound, spread, b

    def class_masses(self, S: Indexes, pool: Indexes) -> np.ndarray:
        """mass[i, r] = the weight of the candidates giving reply r to guess pool[i] (one bincount)."""
        block = self.game.by_secret[S[:, None], pool]
        width, codes = len(pool), self.game.n_codes
        keys = block.astype(np.intp) + np.arange(width, dtype=np.intp) * codes
        weights = np.broadcast_to(self.w[S][:, None], block.shape)
        return np.bincount(keys.ravel(), weights=weights.ravel(), minlength=width * codes).reshape(width, codes)

    def search_node(self, S: Indexes, budget: float, left: int, sym, key, known: float) -> float:
        self.stats.nodes += 1
        pool = self.pool(S, sym)
        bound, spread, b = self.score_guesses(S, pool, left)
        tried = np.flatnonzero(bound < budget)
        floor = float(bound[bound >= budget].min(initial=INF))  # least bound among untried guesses
        if len(tried) == 0:
            self.cache[key] = (max(known, floor), INF, -1)
            return max(known, floor)
        order = tried[np.lexsort((spread[tried], bound[tried]))]
        best, best_guess = budget, -1
        for i in order:
            if bound[i] >= best:
                floor = min(floor, float(bound[i]))
                break
            guess = int(pool[i])
            value = self.guess_value(guess, S, best, left, b, sym)
            if value < best:
                best, best_guess = value, guess
            else:
                floor = min(floor, value)
        if best_guess >= 0:
            self.cache[key] = (best, best, best_guess)
            return best
        proven = max(known, floor)
        self.cache[key] = (proven, INF, -1)
        return proven

    def guess_value(self, guess: Index, S: Indexes, limit: float, left: int, b: int, sym) -> float:
        """w(S) + sum of the classes' costs if below `limit`, else a lower bound >= limit."""
        self.stats.guesses += 1
        parts = self.game.partition(guess, S)
        classes = [c for r, c in parts.items() if r != self.hit]
        classes.sort(key=len, reverse=True)
        bounds = [self.class_bound(c, b, left - 1) for c in classes]
        total = self.weight(S) + sum(bounds)
        if total >= limit:
            return total
        below = None if sym is None else sym.after(guess)
        for c, lb in zip(classes, bounds):
            value = self.solve(c, limit - (total - lb), left - 1, below)
            total += value - lb
            if total >= limit:
                return total
        return total

    # --- reading the answer ------------------------------------------------------------------
    def best_guess(self, S: Indexes, left: int) -> Index:
        """The guess the cache holds for a set solved exactly."""
        if len(S) == 1:
            return int(self.game.secret_guess[S[0]])
        entry = self.cache.get(self.key(S, left))
        if entry is None or entry[0] != entry[1]:
            raise RuntimeError("internal: the set was not solved exactly")
        return entry[2]
