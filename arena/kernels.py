"""Compiled loops for the engine's hot spots (numba), used where numpy would need big temporaries.

Two jobs, one idea each, and one way to share the cores:

- `table_counts`, `reply_major_counts` (the exact search's layout), `table_keys`: partition
  counts read off a dense feedback table, fused: each
  candidate's row of replies is read once and each reply adds one to its guess's count (the
  counts kept a row per reply, so the increments are independent); `table_keys` then reduces
  every guess's counts to a metric's key without a counts matrix. numpy needs a gathered
  (candidates x pool) block, its widening to intp and a bincount (about 8 bytes of
  temporaries and three passes per cell); the loop reads one byte per cell.
- the multiset replies of Mastermind and Jotto, computed from the codes instead of read from a
  table (`Multisets.counts`, `.replies`, `.table`). A code is a row of
  `symbols` (colours, letters) with its `tallies` (how often each symbol occurs), and

      reply(g, s) = place * in_place(g, s) + common(g, s) (+ the hit code when g is s, `hit`)

  where in_place counts the positions where g and s agree and common is the symbols they share
  with multiplicity, sum over the distinct symbols c of g of min(tally_g[c], tally_s[c]).
  Mastermind's black * (pegs + 1) + white is pegs * black + common (white = common - black);
  Jotto's letters in common is place 0, its two-number variant place length + 1, and Jotto with
  repeats gives a guess that is the secret its own code, as an anagram also shares every letter.
  One cell costs a few byte comparisons, so a game too big for its table (Mastermind 6x6:
  46,656 codes, a 2 GB table) computes the counts of every node on the fly (`multiset_keys`
  reduces them to a metric's keys as `table_keys` does).
- `in_slices`: a big call (THREAD_CELLS) splits its pool over threads (arena.resources.threads,
  ARENA_THREADS); the loops release the GIL and each writes only its slice.

numba is imported with this module, which the engine imports only for instances big enough to
need it (arena.game.COMPILED_CELLS): small commands keep their start-up time. Compiled code is
cached beside the module (`cache=True`), so only the first run on a machine compiles.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

from .codes import NO_HIT, symbol_tallies
from .resources import threads

#: Cells (pool x candidates) below which a call runs on one thread: starting threads costs more.
THREAD_CELLS = 1 << 21


def in_slices(run, m: int, cells: int) -> None:
    """run(lo, hi) over slices of range(m), on several threads when the work is big: the loops
    release the GIL (nogil) and each slice writes only its own rows, so the result is the same
    whatever the number of threads. The threads are started and joined within the call: none
    outlives it, so a process may fork safely between calls."""
    count = min(threads(), m) if cells >= THREAD_CELLS else 1
    if count <= 1:
        run(0, m)
        return
    bounds = np.linspace(0, m, count + 1).astype(int)
    workers = [threading.Thread(target=run, args=(lo, hi)) for lo, hi in zip(bounds[:-1], bounds[1:])]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()


#: Most distinct tallies (kinds of codes) whose symbols in common are tabled (KINDS^2 bytes).
KINDS = 2048
#: Pairs whose replies `Multisets.replies` computes at once (its temporaries: a few bytes per symbol).
CHUNK = 1 << 16


@njit(cache=True, nogil=True)
def _table_counts(by_secret, pool, every, candidates, counts):  # pragma: no cover - compiled
    # candidate-major: each candidate's row of replies is read once, contiguously over the pool,
    # into counts kept reply-major (a row of the pool per reply): independent increments
    for k in range(len(candidates)):
        row = by_secret[candidates[k]]
        if every:  # the pool is every guess: no gather
            for i in range(len(pool)):
                counts[row[i], i] += 1
        else:
            for i in range(len(pool)):
                counts[row[pool[i]], i] += 1


def is_every(pool: np.ndarray, n: int) -> bool:
    """Is the pool every one of n guesses, in order (0, 1, ..., n - 1)?"""
    return len(pool) == n and (n == 0 or (pool[0] == 0 and bool((np.diff(pool) == 1).all())))


def table_counts(by_secret: np.ndarray, pool: np.ndarray, candidates: np.ndarray, n_codes: int) -> np.ndarray:
    """counts[i, r] = #{s in candidates : by_secret[s, pool[i]] == r}, as int64."""
    return reply_major_counts(by_secret, pool, candidates, n_codes).T.astype(np.int64)


def reply_major_counts(by_secret: np.ndarray, pool: np.ndarray, candidates: np.ndarray, n_codes: int) -> np.ndarray:
    """counts[r, i] = #{s in candidates : by_secret[s, pool[i]] == r}, int32, a row per reply (as
    the loop keeps them; `table_counts` is the same, transposed)."""
    pool, candidates = _indexes(pool), _indexes(candidates)
    every = is_every(pool, by_secret.shape[1])
    out = np.zeros((n_codes, len(pool)), dtype=np.int32)

    def run(lo: int, hi: int) -> None:
        counts = np.zeros((n_codes, hi - lo), dtype=np.int32)
        _table_counts(by_secret, pool[lo:hi], every and hi - lo == len(pool), candidates, counts)
        out[:, lo:hi] = counts

    in_slices(run, len(pool), len(pool) * len(candidates))
    return out


def _indexes(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.intp)


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
def _multiset_rows(
    symbols, tallies, kinds, common, start, candidates, by_position, place, hit, out
):  # pragma: no cover
    replies = np.empty(len(candidates), dtype=np.int64)
    for i in range(out.shape[0]):
        _guess_replies(symbols, tallies, kinds, common, start + i, candidates, by_position, place, hit, replies)
        for k in range(len(candidates)):
            out[i, k] = replies[k]


@njit(cache=True, nogil=True)
def _multiset_table(by_position, place, hit, start, kinds, common, out):  # pragma: no cover - compiled
    # common[kinds[g], kinds[s]]: the symbols g and s share, looked up by their tallies' kind;
    # then one pass per position over the codes' symbols there (by_position[j]), which the
    # compiler turns into vector instructions
    n = out.shape[1]
    for i in range(out.shape[0]):
        g = start + i
        shared = common[kinds[g]]
        row = out[i]
        for s in range(n):
            row[s] = shared[kinds[s]]
        for j in range(by_position.shape[0]):
            column = by_position[j]
            mine = column[g]
            for s in range(n):
                row[s] += place * (column[s] == mine)
        if hit >= 0:
            row[g] = hit


class Multisets:
    """The codes of a multiset game (Mastermind, Jotto) as the compiled loops read them:
    `symbols[i, j]` the j-th symbol of code i, `tallies[i, c]` how often symbol c occurs in it,
    the weight `place` of a symbol in place and the `hit` code (NO_HIT: none of its own).
    Guesses and secrets are the same codes."""

    def __init__(self, symbols: np.ndarray, alphabet: int, place: int, hit: int = NO_HIT):
        self.symbols = np.ascontiguousarray(symbols, dtype=np.min_scalar_type(max(alphabet - 1, 0)))
        self.tallies = tallies = symbol_tallies(self.symbols, alphabet)
        self.place = int(place)
        self.hit = int(hit)
        # the kinds of tallies and the symbols each two kinds share, where there are few kinds
        kinds_of, kinds = np.unique(tallies, axis=0, return_inverse=True)
        self.kinds = kinds.ravel().astype(np.intp)
        self.common = np.zeros((0, 0), dtype=np.uint8)
        if len(kinds_of) <= KINDS:
            self.common = np.empty((len(kinds_of), len(kinds_of)), dtype=np.uint8)
            for start in range(0, len(kinds_of), 64):  # 64 rows at a time: a few MB of temporaries
                block = np.minimum(kinds_of[start : start + 64, None, :], kinds_of[None, :, :])
                self.common[start : start + 64] = block.sum(axis=2, dtype=np.uint8)

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
        pool = _indexes(pool)

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
        """The whole (codes x codes) table of replies, as uint8, a block of rows at a time, the
        symbols in common looked up by kind where there are few kinds (462 for Mastermind 5x7)."""
        n = len(self)
        table = np.empty((n, n), dtype=np.uint8)
        if not len(self.common):  # many kinds (long Jotto lists): a row at a time, symbol by symbol
            symbols, tallies, kinds, common, every, by_position = self.loop_arguments(np.arange(n))

            def rows(lo: int, hi: int) -> None:
                _multiset_rows(
                    symbols, tallies, kinds, common, lo, every, by_position, self.place, self.hit, table[lo:hi]
                )

            in_slices(rows, n, n * n)
            return table
        by_position = np.ascontiguousarray(self.symbols.T)

        def run(lo: int, hi: int) -> None:
            for start in range(lo, hi, rows_at_once):
                rows = table[start : min(hi, start + rows_at_once)]
                _multiset_table(by_position, np.uint8(self.place), self.hit, start, self.kinds, self.common, rows)

        in_slices(run, n, n * n)
        return table


# --- partition keys: the counts of each guess reduced at once to what a metric reads ------------
#: How a metric reduces one guess's class sizes c_r (arena.metrics: `Metric.fused` names one).
REDUCTIONS = {"largest": 0, "squares": 1, "fixed-entropy": 2, "float-entropy": 3, "parts": 4, "miss": 5}


@njit(cache=True, nogil=True)
def _reduce(hist, how, terms, fixed):  # pragma: no cover - compiled
    """(integer key, float key, largest class) of one guess's class sizes; lower keys are better."""
    largest = 0
    ikey = 0
    fkey = 0.0
    for r in range(len(hist)):
        c = hist[r]
        if c > largest:
            largest = c
        if how == 1:
            ikey += c * c
        elif how == 2:
            ikey += fixed[c]
        elif how == 3:
            fkey = fkey + terms[c]  # reply by reply, as arena.metrics' float entropy adds them
        elif how == 4 and c > 0:
            ikey -= 1
    if how == 0:
        ikey = largest
    elif how == 5:
        ikey = hist[0]
    return ikey, fkey, largest


@njit(cache=True, nogil=True)
def _table_keys(
    by_secret, pool, every, candidates, n_codes, how, terms, fixed, ikeys, fkeys, largest
):  # pragma: no cover
    # candidate-major: each candidate's row of replies is read once, contiguously over the pool,
    # into counts kept reply-major (a row of the pool per reply): independent increments, and
    # the reductions then run along those rows, a reply at a time (the order float entropy adds)
    m = len(pool)
    counts = np.zeros((n_codes, m), dtype=np.int32)
    for k in range(len(candidates)):
        row = by_secret[candidates[k]]
        if every:  # the pool is every guess: no gather
            for i in range(m):
                counts[row[i], i] += 1
        else:
            for i in range(m):
                counts[row[pool[i]], i] += 1
    _reduce_rows(counts, how, terms, fixed, ikeys, fkeys, largest)


@njit(cache=True, nogil=True)
def _reduce_rows(counts, how, terms, fixed, ikeys, fkeys, largest):  # pragma: no cover - compiled
    """_reduce for every guess at once, from counts kept a row per reply: one loop per
    reduction, each over a row at a time (replies in order, as float entropy adds them), so
    the compiler vectorises them."""
    m = counts.shape[1]
    for r in range(counts.shape[0]):
        sizes = counts[r]
        for i in range(m):
            largest[i] = max(largest[i], sizes[i])
        if how == 1:
            for i in range(m):
                ikeys[i] += sizes[i] * sizes[i]
        elif how == 2:
            for i in range(m):
                ikeys[i] += fixed[sizes[i]]
        elif how == 3:
            for i in range(m):
                fkeys[i] = fkeys[i] + terms[sizes[i]]
        elif how == 4:
            for i in range(m):
                ikeys[i] -= sizes[i] > 0
    if how == 0:
        ikeys[:] = largest
    elif how == 5:
        ikeys[:] = counts[0]


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
        ikeys[i], fkeys[i], largest[i] = _reduce(hist, how, terms, fixed)


def _key_arrays(m: int):
    return np.zeros(m, dtype=np.int64), np.zeros(m, dtype=np.float64), np.zeros(m, dtype=np.int64)


def table_keys(
    by_secret: np.ndarray,
    pool: np.ndarray,
    candidates: np.ndarray,
    n_codes: int,
    how: str,
    terms: np.ndarray,
    fixed: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every guess of the pool, (integer key, float key, largest class) of its partition of
    the candidates under reduction `how` (REDUCTIONS), read off a table by secret (by_secret[s, g]).
    `terms`/`fixed`: p log2 p per class size (float entropy), c log2 c in fixed point (exact)."""
    pool, candidates = _indexes(pool), _indexes(candidates)
    every = is_every(pool, by_secret.shape[1])
    return _keys_in_slices(
        _table_keys,
        lambda lo, hi: (by_secret, pool[lo:hi], every and hi - lo == len(pool), candidates),
        len(pool),
        len(candidates),
        n_codes,
        how,
        terms,
        fixed,
    )


def _keys_in_slices(loop, head, m: int, n: int, n_codes: int, how: str, terms: np.ndarray, fixed: np.ndarray):
    """The keys of m guesses on n candidates by `loop`, over slices of the pool (in_slices):
    `head(lo, hi)` gives the loop's first arguments for the slice, the rest are the same."""
    ikeys, fkeys, largest = _key_arrays(m)
    reduction = REDUCTIONS[how]

    def run(lo: int, hi: int) -> None:
        loop(*head(lo, hi), n_codes, reduction, terms, fixed, ikeys[lo:hi], fkeys[lo:hi], largest[lo:hi])

    in_slices(run, m, m * n)
    return ikeys, fkeys, largest


def multiset_keys(
    codes: Multisets,
    pool: np.ndarray,
    candidates: np.ndarray,
    n_codes: int,
    how: str,
    terms: np.ndarray,
    fixed: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """table_keys with the replies computed on the fly (Multisets)."""
    symbols, tallies, kinds, common, candidates, by_position = codes.loop_arguments(candidates)
    pool = _indexes(pool)
    return _keys_in_slices(
        _multiset_keys,
        lambda lo, hi: (symbols, tallies, kinds, common, pool[lo:hi], candidates, by_position, codes.place, codes.hit),
        len(pool),
        len(candidates),
        n_codes,
        how,
        terms,
        fixed,
    )
