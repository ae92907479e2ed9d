"""The reply formula of the multiset games, Mastermind and Jotto, compiled (numba), for the
instances too big for their table (arena.core.game.OnTheFly) and to build big tables fast.

A code is a row of `symbols` (colours, letters) with its `tallies` (how often each symbol
occurs), and

    reply(g, s) = place * in_place(g, s) + common(g, s) (+ the hit code when g is s, `hit`)

where in_place counts the positions where g and s agree and common is the symbols they share
with multiplicity, sum over the distinct symbols c of g of min(tally_g[c], tally_s[c]).
Mastermind's black * (pegs + 1) + white is pegs * black + common (white = common - black);
Jotto's letters in common is place 0, its two-number variant place length + 1, and Jotto with
repeats gives a guess that is the secret its own code, as an anagram also shares every letter.
One cell costs a few byte comparisons, so a game too big for its table (Mastermind 6x6: 46,656
codes, a 2 GB table) computes the counts of every node on the fly (`Multisets.counts`), and a
metric's keys without a counts matrix (`Multisets.keys`, as arena.core.kernels.table_keys does).

This is game knowledge, so it lives with the games; the loops it shares with the engine
(threads, the reductions to a metric's keys) are arena.core.kernels'. numba is imported with this
module, which the games import only for instances that need it.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..core.compiled import njit
from ..core.kernels import in_slices, indexes, keys_in_slices, reduce_sizes
from ..core.resources import empty_array
from .codes import NO_HIT, symbol_tallies, unique_rows

#: Most distinct tallies (kinds of codes) whose symbols in common are tabled (KINDS^2 bytes).
KINDS = 2048
#: Pairs whose replies `Multisets.replies` computes at once (its temporaries: a few bytes per symbol).
CHUNK = 1 << 16


@njit(cache=True, nogil=True)
def _guess_replies(
    symbols, tallies, kinds, common, g, candidates, by_position, place, hit, replies
):  # pragma: no cover
    """replies[k] = reply(g, candidates[k]); `by_position[j, k]`: candidate k's symbol at j.
    The symbols in common are looked up by kind (common[kinds[g], kinds[s]]) where the game has
    few kinds of tallies, else summed over g's distinct symbols; then one pass per position."""
    n = len(candidates)
    if common.shape[0] > 0:
        shared = common[kinds[g]]
        for k in range(n):
            replies[k] = shared[kinds[candidates[k]]]
    else:
        width = symbols.shape[1]
        for k in range(n):
            replies[k] = 0
        for j in range(width):
            c = symbols[g, j]
            first = True
            for e in range(j):
                if symbols[g, e] == c:
                    first = False
            if first:  # each distinct symbol once: min(its tally in g, in the candidate)
                mine = tallies[g, c]
                for k in range(n):
                    t = tallies[candidates[k], c]
                    replies[k] += t if t < mine else mine
    if place:
        for j in range(by_position.shape[0]):
            column = by_position[j]
            mine = symbols[g, j]
            for k in range(n):
                replies[k] += place * (column[k] == mine)
    if hit >= 0:
        for k in range(n):
            if candidates[k] == g:
                replies[k] = hit


@njit(cache=True, nogil=True)
def _multiset_counts(
    symbols, tallies, kinds, common, pool, candidates, by_position, place, hit, out
):  # pragma: no cover
    replies = np.empty(len(candidates), dtype=np.int64)
    for i in range(len(pool)):
        _guess_replies(symbols, tallies, kinds, common, pool[i], candidates, by_position, place, hit, replies)
        row = out[i]
        for k in range(len(candidates)):
            row[replies[k]] += 1


@njit(cache=True, nogil=True)
def _multiset_table(by_position, by_symbol, place, hit, start, out):  # pragma: no cover - compiled
    # row g: for each distinct symbol c of g, min(its tally in g, in each code) over the codes'
    # tallies of c (by_symbol[c]), then one pass per position over the codes' symbols there
    # (by_position[j]): a few passes of byte minima, sums and comparisons over a row, which the
    # compiler turns into vector instructions (a lookup of the symbols in common by each code's
    # kind of tallies, one byte gathered a cell, does not vectorise: 2-3x slower)
    n = out.shape[1]
    width = by_position.shape[0]
    for i in range(out.shape[0]):
        g = start + i
        row = out[i]
        row[:] = 0
        for j in range(width):
            c = by_position[j, g]
            first = True
            for e in range(j):
                if by_position[e, g] == c:
                    first = False
            if first:  # each distinct symbol of g once
                mine = by_symbol[c, g]
                tallies = by_symbol[c]
                for s in range(n):
                    t = tallies[s]
                    row[s] += t if t < mine else mine
        if place:
            for j in range(width):
                column = by_position[j]
                mine = column[g]
                for s in range(n):
                    row[s] += place * (column[s] == mine)
        if hit >= 0:
            row[g] = hit


@njit(cache=True, nogil=True)
def _multiset_keys(
    symbols,
    tallies,
    kinds,
    common,
    pool,
    candidates,
    by_position,
    place,
    hit,
    n_codes,
    how,
    terms,
    fixed,
    ikeys,
    fkeys,
    largest,
):  # pragma: no cover - compiled
    replies = np.empty(len(candidates), dtype=np.int64)
    hist = np.zeros(n_codes, dtype=np.int64)
    for i in range(len(pool)):
        _guess_replies(symbols, tallies, kinds, common, pool[i], candidates, by_position, place, hit, replies)
        hist[:] = 0
        for k in range(len(candidates)):
            hist[replies[k]] += 1
        ikeys[i], fkeys[i], largest[i] = reduce_sizes(hist, how, terms, fixed)


class Multisets:
    """The codes of a multiset game (Mastermind, Jotto) as the compiled loops read them:
    `symbols[i, j]` the j-th symbol of code i, `tallies[i, c]` how often symbol c occurs in it,
    the weight `place` of a symbol in place and the `hit` code (NO_HIT: none of its own).
    Guesses and secrets are the same codes."""

    def __init__(self, symbols: np.ndarray, alphabet: int, place: int, hit: int = NO_HIT):
        self.symbols = np.ascontiguousarray(symbols, dtype=np.min_scalar_type(max(alphabet - 1, 0)))
        self.tallies = symbol_tallies(self.symbols, alphabet)
        self.place = int(place)
        self.hit = int(hit)

    @cached_property
    def _by_kind(self) -> tuple[np.ndarray, np.ndarray]:
        """The kind of each code's tallies and the symbols each two kinds share (empty where
        there are more than KINDS kinds), which the loops on the fly read; computed when first
        asked for: a game with a dense table never needs them (0.08 s on Mastermind 4x11)."""
        kinds_of, _, kinds = unique_rows(self.tallies)
        common = np.zeros((0, 0), dtype=np.uint8)
        if len(kinds_of) <= KINDS:
            common = np.empty((len(kinds_of), len(kinds_of)), dtype=np.uint8)
            for start in range(0, len(kinds_of), 64):  # 64 rows at a time: a few MB of temporaries
                block = np.minimum(kinds_of[start : start + 64, None, :], kinds_of[None, :, :])
                common[start : start + 64] = block.sum(axis=2, dtype=np.uint8)
        return kinds.astype(np.intp), common

    @property
    def kinds(self) -> np.ndarray:
        """kinds[i]: the kind (distinct tallies, in order) of code i."""
        return self._by_kind[0]

    @property
    def common(self) -> np.ndarray:
        """common[a, b]: the symbols codes of kinds a and b share (empty: too many kinds)."""
        return self._by_kind[1]

    def loop_arguments(self, candidates: np.ndarray) -> tuple:
        """What _guess_replies reads, for these candidates."""
        candidates = np.ascontiguousarray(candidates, dtype=np.intp)
        by_position = np.ascontiguousarray(self.symbols[candidates].T)
        return self.symbols, self.tallies, self.kinds, self.common, candidates, by_position

    def __len__(self) -> int:
        return len(self.symbols)

    def counts(self, pool: np.ndarray, candidates: np.ndarray, n_codes: int) -> np.ndarray:
        """counts[i, r] = #{s in candidates : reply(pool[i], s) == r}, computed on the fly."""
        out = np.zeros((len(pool), n_codes), dtype=np.int64)
        symbols, tallies, kinds, common, candidates, by_position = self.loop_arguments(candidates)
        pool = indexes(pool)

        def run(lo: int, hi: int) -> None:
            _multiset_counts(
                symbols, tallies, kinds, common, pool[lo:hi], candidates, by_position, self.place, self.hit, out[lo:hi]
            )

        in_slices(run, len(pool), len(pool) * len(candidates))
        return out

    def replies(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        """reply(g, s) for every pair of the broadcast arrays `guesses` and `secrets`, as uint8
        (numpy: a few passes over the pairs; the loops above are for whole pools)."""
        g, s = np.broadcast_arrays(np.asarray(guesses, dtype=np.intp), np.asarray(secrets, dtype=np.intp))
        g, s = g.ravel(), s.ravel()
        out = np.zeros(len(g), dtype=np.uint8)
        for start in range(0, len(g), CHUNK):
            a, b = g[start : start + CHUNK], s[start : start + CHUNK]
            common = np.minimum(self.tallies[a], self.tallies[b]).sum(axis=1, dtype=np.uint8)
            if self.place:
                common += np.uint8(self.place) * (self.symbols[a] == self.symbols[b]).sum(axis=1, dtype=np.uint8)
            if self.hit >= 0:
                common[a == b] = self.hit
            out[start : start + CHUNK] = common
        return out.reshape(np.broadcast_shapes(np.shape(guesses), np.shape(secrets)))

    def table(self, rows_at_once: int = 1 << 12) -> np.ndarray:
        """The whole (codes x codes) table of replies, as uint8, a block of rows at a time, each
        row from the codes' tallies and symbols laid out a row per symbol and per position."""
        n = len(self)
        table = empty_array((n, n), np.uint8)  # huge pages: a tenth of the page faults' cost
        by_position = np.ascontiguousarray(self.symbols.T)
        by_symbol = np.ascontiguousarray(self.tallies.T)

        def run(lo: int, hi: int) -> None:
            for start in range(lo, hi, rows_at_once):
                rows = table[start : min(hi, start + rows_at_once)]
                _multiset_table(by_position, by_symbol, np.uint8(self.place), self.hit, start, rows)

        in_slices(run, n, n * n)
        return table

    def keys(
        self,
        pool: np.ndarray,
        candidates: np.ndarray,
        n_codes: int,
        how: str,
        terms: np.ndarray,
        fixed: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For every guess of the pool, (integer key, float key, largest class) of its
        partition of the candidates under reduction `how` (arena.core.kernels.table_keys, with the
        replies computed on the fly)."""
        symbols, tallies, kinds, common, candidates, by_position = self.loop_arguments(candidates)
        pool = indexes(pool)
        return keys_in_slices(
            _multiset_keys,
            lambda lo, hi: (
                symbols,
                tallies,
                kinds,
                common,
                pool[lo:hi],
                candidates,
                by_position,
                self.place,
                self.hit,
            ),
            len(pool),
            len(candidates),
            n_codes,
            how,
            terms,
            fixed,
        )
