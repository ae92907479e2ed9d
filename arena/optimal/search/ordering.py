"""Scoring a node: the partition counts of its pool, every guess's lower bound (the slot
bound of bounds.py) and the tie-break, and the order in which the guesses are searched.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np

from ...core.game import Indexes
from ..bounds import INF, ranked_bounds, slot_capacity, slot_depths, slot_table, sorted_weight_bound
from .shared import NO_LIMIT, SearchState

#: Cells of the (candidates x guesses) block that uniform_scores counts at once, and the most
#: that code_counts counts itself (about 2 MB of intp keys: the temporaries stay in cache and
#: need no fresh pages from the system).
SCORE_BLOCK = 1 << 18
#: Weighted searches on games of at least this many table cells (guesses x secrets) score their
#: nodes in compiled code (weighted_kernels.py): 4x5 Mastermind (390,625) and up; below, numba's
#: start-up is most of a search, and it is not imported.
WEIGHTED_CELLS = 1 << 18


def weighted_kernels_for(game, force: bool = False) -> ModuleType | None:
    """weighted_kernels (the module) where `game`'s weighted nodes are scored in compiled code:
    a game a hit ends, its table in memory, of at least WEIGHTED_CELLS cells (or `force`);
    else None. The weighted search and the double oracle's weighted greedy tree
    (arena.equilibrium.response) decide by it alike."""
    big = force or len(game.guesses) * len(game.secrets) >= WEIGHTED_CELLS
    if not (big and isinstance(game.table, np.ndarray) and game.rules.hits):
        return None
    from . import weighted_kernels  # lazy: numba

    return weighted_kernels


def sorted_lazily(tried: Indexes, first: np.ndarray, second: Callable[[Indexes], np.ndarray], head: int = 16):
    """`tried` in increasing order of (first, second), as np.lexsort orders them, but sorting
    only the guesses up to the head-th least `first` (ties included, so the order is the same)
    until the caller asks for more: most nodes search one or two guesses of their thousands.
    `second(positions)` is the tie-break of those positions."""
    for part in sorted_parts(tried, first, second, head):
        yield from part.tolist()


def sorted_parts(tried: Indexes, first: np.ndarray, second: Callable[[Indexes], np.ndarray], head: int = 16):
    """sorted_lazily's order as arrays: all of `tried` sorted, or those up to the head-th least
    `first` sorted, then (if the caller asks) the others."""
    if len(tried) <= 4 * head:
        yield tried[np.lexsort((second(tried), first[tried]))]
        return
    keys = first[tried]
    threshold = np.partition(keys, head - 1)[head - 1]
    near = keys <= threshold
    for part in (tried[near], tried[~near]):
        yield part[np.lexsort((second(part), first[part]))]


class Scoring(SearchState):
    """The bounds of guesses and classes before they are searched."""

    def table(self, b: int) -> np.ndarray:
        """The slot bound for every class size, for nodes whose guesses make at most b classes."""
        if b not in self._tables:
            self._tables[b] = slot_table(len(self.game.secrets), b)
        return self._tables[b]

    def table_list(self, b: int) -> list[float]:
        """table(b) as a Python list (faster to index one class at a time)."""
        if ("list", b) not in self._tables:
            self._tables[("list", b)] = self.table(b).tolist()
        return self._tables[("list", b)]

    def depths(self, b: int) -> np.ndarray:
        """The depth of each slot, shallowest first, for nodes of at most b non-hit classes."""
        if -b not in self._tables:
            self._tables[-b] = slot_depths(len(self.game.secrets), b)
        return self._tables[-b]

    def class_bound(self, S: Indexes, b: int, left: int) -> float:
        """A lower bound on C(S) before S is searched: the slot bound (inf if S cannot fit)."""
        if len(S) > slot_capacity(b, left):
            return INF
        if self.uniform:
            return float(self.table(b)[len(S)])
        w = self.w[S]
        if len(S) <= b + 1:  # most classes: one secret may be hit first, the rest need two guesses
            return float(2 * w.sum() - w.max())
        return sorted_weight_bound(w, self.depths(b))

    def score_guesses(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, np.ndarray, int]:
        """For every guess of the pool, the lower bound w(S) + sum_r LB(S_r), and a tie-break
        heuristic (expected share of candidates left: the sum of squared class sizes); also b,
        the most non-hit classes."""
        bound, spread_of, b = self.node_scores(S, pool, left)
        return bound, spread_of(np.arange(len(pool))), b

    def node_scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, Callable, int]:
        """score_guesses with the tie-break as a function of the guesses' positions in the pool:
        a node orders only the few guesses it may search (sorted_lazily), and with few reply
        codes their spread is summed for those alone. The cost's (`bounds.scores`): the slot
        bound below under guesses until a hit, the letter bounds of determined.py otherwise."""
        return self.bounds.scores(S, pool, left)

    def slot_scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, Callable, int]:
        """node_scores under guesses until a hit: every guess's slot bound, ties to the
        smaller spread (the sum of squared class sizes), with equal weights counted in the
        layout the game's reply codes suit best (few_code_scores, uniform_scores)."""
        n = len(S)
        if self.uniform:
            if not self.wide:
                return self.few_code_scores(S, pool, left)
            bound, spread, b = self.uniform_scores(S, pool, left)
            return bound, spread.__getitem__, b
        kernels = self.weighted_compiled()
        if kernels is not None:  # the same numbers in one compiled call (weighted_kernels.py)
            bound, spread, largest, b = kernels.weighted_scores(
                self.game.table, S, pool, self.w, self.hit, self.game.n_codes
            )
        else:
            counts, _ = self.hit_free_counts(pool, S)
            largest = counts.max(axis=1)
            useful = largest < n  # a guess that leaves all of S in one class learns nothing
            parts = np.count_nonzero(counts, axis=1)
            b = int(parts[useful].max(initial=1))
            H = S[np.argsort(-self.w[S], kind="stable")]  # heaviest first, ties in S's order
            replies = np.ascontiguousarray(self.game.by_secret[H][:, pool].T)
            bound = ranked_bounds(replies, self.w[H], self.depths(b), self.hit)
            bound[~useful] = INF
            spread = (counts.astype(np.float64) ** 2).sum(axis=1)
        if left < NO_LIMIT:
            bound[largest > slot_capacity(b, left - 1)] = INF
        return bound, spread.__getitem__, int(b)

    def weighted_compiled(self) -> ModuleType | None:
        """weighted_kernels (the module: its kernels weighted_scores, weighted_classes and
        weighted_candidates) where weighted nodes are scored in compiled code (a table in
        memory of at least WEIGHTED_CELLS cells, or `compile_weighted` set), else None."""
        if self._weighted is False:
            self._weighted = weighted_kernels_for(self.game, self.compile_weighted)
        return self._weighted

    def code_counts(self, S: Indexes, pool: Indexes) -> np.ndarray:
        """counts[r, i] = how many candidates of S give reply r to guess pool[i], the hit row
        zeroed: the partition counts transposed, one row per reply code, so that every
        reduction over a guess's classes runs along the long axis (a whole row of guesses per
        numpy operation, instead of one short row of codes per guess). A big game's compiled loop
        (arena.core.kernels, through the game) counts in this layout; else small blocks are counted
        here, by one bincount of code * len(pool) + column, and big ones by the game's counting."""
        m = len(pool)
        compiled = self.game.reply_major_counts(pool, S)
        if compiled is not None:  # big games (arena.core.kernels): one byte read per cell, in this layout
            counts = compiled
        elif len(S) * m <= SCORE_BLOCK:
            keys = np.take(self.game.by_secret[S], pool, axis=1).astype(np.intp)
            keys *= m
            keys += np.arange(m, dtype=np.intp)
            counts = np.bincount(keys.ravel(), minlength=m * self.game.n_codes).reshape(self.game.n_codes, m)
        else:
            counts = np.ascontiguousarray(self.game.reply_counts(pool, S).counts.T)
        if self.hit >= 0:
            counts[self.hit] = 0
        return counts

    def few_code_scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, Callable, int]:
        """node_scores with equal weights on a game with few reply codes (Jotto, Mastermind), on
        the transposed counts (code_counts), as bytes while classes fit (8 times less memory
        for every pass below). As in uniform_scores, every class of k <= b + 1 secrets has slot
        bound 2k - 1, so a guess whose largest non-hit class has at most b + 1 secrets has the
        bound

            n + sum_r (2 n_r - 1) = n + 2 (n - [the guess is a candidate]) - parts,

        and only guesses with a larger class are read off the slot table."""
        n = len(S)
        counts = self.code_counts(S, pool)
        if n < 256:
            counts = counts.astype(np.uint8)
        largest = counts.max(axis=0)
        parts = (counts != 0).view(np.uint8).sum(axis=0, dtype=np.int32)
        useful = largest < n  # a guess that leaves all of S in one class learns nothing
        b = int(parts[useful].max(initial=1))
        member = np.zeros(len(self.game.secrets) + 1, dtype=np.int32)  # the last slot: guesses naming no secret
        member[S] = 2
        bound = (3 * n - member[self.game.same_secret[pool]] - parts).astype(np.float64)
        big = np.flatnonzero(largest > b + 1)
        if len(big):
            bound[big] = n + self.table(b)[counts[:, big]].sum(axis=0)
        bound[~useful] = INF
        if left < NO_LIMIT:
            bound[largest > slot_capacity(b, left - 1)] = INF

        def spread_of(chosen: Indexes) -> np.ndarray:
            part = counts[:, chosen].astype(np.int64)
            return np.einsum("ij,ij->j", part, part).astype(np.float64)

        return bound, spread_of, b

    def uniform_scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, np.ndarray, int]:
        """score_guesses with equal weights on a game with many reply codes, each with its column
        in the counts (Wordle's 243), without the (pool x codes) arrays of the general path: the guesses are
        counted a block at a time (SCORE_BLOCK, so the temporaries stay in cache) and reduced
        at once to what the bound needs. Every class of k <= b + 1 secrets has slot bound
        2k - 1, so a guess whose largest non-hit class fits costs at least

            n + sum_r (2 n_r - 1) = n + 2 (n - hit) - parts

        (hit: 1 if the guess is a candidate); only guesses with a larger class (few: b is the
        most parts of any guess) are counted again and read off the slot table."""
        n, codes = len(S), self.game.n_codes
        block = self.game.by_secret[S] if len(pool) == len(self.game.guesses) else self.game.by_secret[S[:, None], pool]
        m = len(pool)
        largest = np.empty(m, dtype=np.int32)
        parts = np.empty(m, dtype=np.int32)
        spread = np.empty(m, dtype=np.float64)
        step = max(1, SCORE_BLOCK // max(n, codes))
        offsets = np.arange(step, dtype=np.intp) * codes
        for a in range(0, m, step):
            part = block[:, a : a + step]
            width = part.shape[1]
            keys = part.astype(np.intp)
            keys += offsets[:width]
            # int32 halves the bytes the reductions read (a class has at most n < 2^31 secrets)
            counts = np.bincount(keys.ravel(), minlength=width * codes).reshape(width, codes).astype(np.int32)
            if self.hit >= 0:
                counts[:, self.hit] = 0
            largest[a : a + width] = counts.max(axis=1)
            parts[a : a + width] = (counts != 0).view(np.uint8).sum(axis=1, dtype=np.int32)
            spread[a : a + width] = np.einsum("ij,ij->i", counts, counts)  # <= n^2: fits int32
        member = np.zeros(len(self.game.secrets) + 1, dtype=bool)  # the last slot: guesses naming no secret
        member[S] = True
        found = n - member[self.game.same_secret[pool]].astype(np.int64)  # candidates not hit
        useful = largest < n
        b = int(parts[useful].max(initial=1))
        bound = (n + 2 * found - parts).astype(np.float64)
        big = np.flatnonzero(useful & (largest > b + 1))
        if len(big):  # classes beyond b + 1 secrets: the slot table
            counts, _ = self.hit_free_counts(pool[big], S)
            bound[big] = n + self.table(b)[counts].sum(axis=1)
        bound[~useful] = INF
        if left < NO_LIMIT:
            bound[largest > slot_capacity(b, left - 1)] = INF
        return bound, spread, b

    def hit_free_counts(self, pool: Indexes, S: Indexes) -> tuple[np.ndarray, np.ndarray]:
        """The partition counts of the pool on S and the reply code of each column, with the
        hit class zeroed: a secret guessed is finished and costs nothing more."""
        counted = self.game.reply_counts(pool, S)
        column = counted.column(self.hit) if self.hit >= 0 else None
        if column is not None:
            counted.counts[:, column] = 0
        return counted.counts, counted.codes

    def class_masses(self, S: Indexes, pool: Indexes, codes: np.ndarray) -> np.ndarray:
        """mass[i, j] = the weight of the candidates giving reply codes[j] to guess pool[i]
        (one bincount; the columns of hit_free_counts)."""
        block = self.game.by_secret[S[:, None], pool]
        if len(codes) != self.game.n_codes:  # a sparse reply alphabet: the counts' own columns
            block = np.searchsorted(codes, block)
        width, n_codes = len(pool), len(codes)
        keys = block.astype(np.intp) + np.arange(width, dtype=np.intp) * n_codes
        weights = np.broadcast_to(self.w[S][:, None], block.shape)
        return np.bincount(keys.ravel(), weights=weights.ravel(), minlength=width * n_codes).reshape(width, n_codes)
