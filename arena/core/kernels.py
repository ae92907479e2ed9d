"""Compiled loops for the engine's hot spots (numba), used where numpy would need big temporaries.

One job, and one way to share the cores:

- `table_counts`, `reply_major_counts` (the exact search's layout), `table_keys`: partition
  counts read off a dense feedback table, fused: each candidate's row of replies is read once
  and each reply adds one to its guess's count (a row per reply, so the increments are
  independent); `table_keys` reduces every guess's counts to a metric's key without a counts
  matrix. numpy needs a gathered (candidates x pool) block, its widening to intp and a
  bincount (about 8 bytes of temporaries and three passes per cell); the loop reads one byte.
- `choose_nodes`: a greedy guesser's choice at every node of a tree's level in one call
  (arena.trees.levels.grow_compiled), so that growing a greedy tree never returns to Python per node.
- the loops the multiset games' own compiled reply formula (arena/games/multisets.py:
  Mastermind's and Jotto's replies computed from the codes, for instances too big for their
  table) shares with the engine: `keys_in_slices`, `reduce_sizes`, `indexes`.
- `in_slices`: a big call (THREAD_CELLS) splits its pool over threads (arena.core.resources.threads,
  ARENA_THREADS); the loops release the GIL and each writes only its slice.

numba is imported with this module (arena.core.compiled: its start-up cut), which the engine imports only for instances big enough to
need it (arena.core.feedback.COMPILED_CELLS): small commands keep their start-up time. Compiled code is
cached beside the module (`cache=True`), so only the first run on a machine compiles.
"""

from __future__ import annotations

import threading

import numpy as np

from .compiled import njit
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
    pool, candidates = indexes(pool), indexes(candidates)
    every = is_every(pool, by_secret.shape[1])
    out = np.zeros((n_codes, len(pool)), dtype=np.int32)

    def run(lo: int, hi: int) -> None:
        counts = np.zeros((n_codes, hi - lo), dtype=np.int32)
        _table_counts(by_secret, pool[lo:hi], every and hi - lo == len(pool), candidates, counts)
        out[:, lo:hi] = counts

    in_slices(run, len(pool), len(pool) * len(candidates))
    return out


def indexes(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.intp)


# --- partition keys: the counts of each guess reduced at once to what a metric reads ------------
#: How a metric reduces one guess's class sizes c_r (arena.trees.metrics: `Metric.fused` names one).
REDUCTIONS = {"largest": 0, "squares": 1, "fixed-entropy": 2, "float-entropy": 3, "parts": 4, "miss": 5}


@njit(cache=True, nogil=True)
def reduce_sizes(hist, how, terms, fixed):  # pragma: no cover - compiled
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
            fkey = fkey + terms[c]  # reply by reply, as arena.trees.metrics' float entropy adds them
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
    """reduce_sizes for every guess at once, from counts kept a row per reply: one loop per
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
    pool, candidates = indexes(pool), indexes(candidates)
    every = is_every(pool, by_secret.shape[1])
    return keys_in_slices(
        _table_keys,
        lambda lo, hi: (by_secret, pool[lo:hi], every and hi - lo == len(pool), candidates),
        len(pool),
        len(candidates),
        n_codes,
        how,
        terms,
        fixed,
    )


def keys_in_slices(loop, head, m: int, n: int, n_codes: int, how: str, terms: np.ndarray, fixed: np.ndarray):
    """The keys of m guesses on n candidates by `loop`, over slices of the pool (in_slices):
    `head(lo, hi)` gives the loop's first arguments for the slice, the rest are the same."""
    ikeys, fkeys, largest = _key_arrays(m)
    reduction = REDUCTIONS[how]

    def run(lo: int, hi: int) -> None:
        loop(*head(lo, hi), n_codes, reduction, terms, fixed, ikeys[lo:hi], fkeys[lo:hi], largest[lo:hi])

    in_slices(run, m, m * n)
    return ikeys, fkeys, largest


# --- a greedy guesser's choice at every node of a tree level (arena.trees.levels.grow_compiled) -------
#: The rule's numbers as _choose_nodes reads them: whether the pool is every guess (else the
#: consistent guesses), `small` (the consistent pool at or below this many candidates), whether
#: ties prefer a guess that may be the secret, and whether the keys are the integer ones.
POOL_ALL, SMALL, PREFER_POSSIBLE, EXACT, SMALL_NODE = range(5)


@njit(cache=True, nogil=True)
def _perfect_candidate(by_secret, cand, secret_guess, every, mark):  # pragma: no cover - compiled
    """The guess naming a candidate that gives each candidate its own reply (a partition into
    single secrets, the best key of every metric but max-frequency's), or -1: from every guess
    the lowest index, from the consistent pool the first in its order (the candidates')."""
    n = len(cand)
    best = -1
    for k in range(n):
        g = secret_guess[cand[k]]
        if g < 0 or (best >= 0 and g > best):
            continue
        distinct = True
        t = 0
        while t < n:
            r = by_secret[cand[t], g]
            if mark[r]:
                distinct = False
                break
            mark[r] = True
            t += 1
        for u in range(t):
            mark[by_secret[cand[u], g]] = False
        if distinct:
            if not every:
                return g
            best = g
    return best


@njit(cache=True, nogil=True)
def _small_node_keys(by_secret, pool, cand, how, terms, fixed, hist, seen, ikeys, fkeys, largest):  # pragma: no cover
    """reduce_sizes of the guesses of the pool on a few candidates, in pool order: a histogram
    per guess kept only over the replies that occur, the integer keys summed as they grow (they
    telescope to the same sums), float entropy added over the classes in reply order as
    reduce_sizes does. Returns how many guesses were scored, or -1 - i where guess i splits
    the candidates into single secrets (scanning stops there: the caller has checked that no
    guess naming a candidate does, so the first such is the choice). A guess whose key, still
    growing, already exceeds the best key of a guess that splits the candidates is left there
    (it cannot be chosen); its key stays above that best."""
    n = len(cand)
    stop_at_perfect = how != 5 and n <= len(hist)
    bound = np.iinfo(np.int64).max  # the least key of a guess that splits the candidates
    growing = how == 0 or how == 1 or how == 2 or how == 5  # keys that only grow as classes fill
    for i in range(len(pool)):
        g = pool[i]
        big = 0
        ikey = 0
        distinct = 0
        for k in range(n):
            r = by_secret[cand[k], g]
            c = hist[r] + 1
            hist[r] = c
            if c == 1:
                seen[distinct] = r
                distinct += 1
            if c > big:
                big = c
            if how == 1:
                ikey += 2 * c - 1
            elif how == 2:
                ikey += fixed[c] - fixed[c - 1]
            elif how == 5 and r == 0:
                ikey += 1
            if growing:
                if (big if how == 0 else ikey) > bound:
                    break
            elif how == 4 and distinct + n - 1 - k < -bound:
                break
        if stop_at_perfect and distinct == n:
            for a in range(distinct):
                hist[seen[a]] = 0
            return -1 - i
        fkey = 0.0
        if how == 3:
            for a in range(1, distinct):  # the replies in increasing order (insertion sort: a few)
                r = seen[a]
                b = a - 1
                while b >= 0 and seen[b] > r:
                    seen[b + 1] = seen[b]
                    b -= 1
                seen[b + 1] = r
            for a in range(distinct):
                fkey = fkey + terms[hist[seen[a]]]
        if how == 0:
            ikey = big
        elif how == 4:
            ikey = -distinct
        for a in range(distinct):
            hist[seen[a]] = 0
        ikeys[i] = ikey
        fkeys[i] = fkey
        largest[i] = big
        if big < n and ikey < bound and how != 3:
            bound = ikey
    return len(pool)


#: Guesses counted at once by _block_keys: their counts (a row per reply) stay in the cache.
BLOCK = 4096


@njit(cache=True, nogil=True)
def _block_keys(
    by_secret, pool, every, cand, how, terms, fixed, counts, stop_at_perfect, ikeys, fkeys, largest
):  # pragma: no cover - compiled
    """_table_keys a block of BLOCK guesses at a time, into `counts` (n_codes x BLOCK, bytes
    where the candidates are fewer than 256): the counts of a block stay in the cache while
    every candidate's replies to it are added, then the reductions run along its rows. Returns
    how many guesses were scored, or -1 - i where guess i is the first to split the candidates
    into single secrets and `stop_at_perfect` says that is the choice (see _small_node_keys)."""
    m = len(pool)
    n = len(cand)
    for lo in range(0, m, BLOCK):
        hi = min(m, lo + BLOCK)
        block = counts[:, : hi - lo]
        block[:] = 0
        for k in range(n):
            row = by_secret[cand[k]]
            if every:
                for i in range(lo, hi):
                    block[row[i], i - lo] += 1
            else:
                for i in range(lo, hi):
                    block[row[pool[i]], i - lo] += 1
        ikeys[lo:hi] = 0
        fkeys[lo:hi] = 0.0
        largest[lo:hi] = 0
        _reduce_rows(block, how, terms, fixed, ikeys[lo:hi], fkeys[lo:hi], largest[lo:hi])
        first = _first_perfect(largest, lo, hi, stop_at_perfect)
        if first < 0:
            return first
    return m


@njit(cache=True, nogil=True)
def popcount(x):  # pragma: no cover - compiled
    """The set bits of a uint64 (SWAR: the compiler vectorises it over a block)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, nogil=True)
def _parts_keys(by_secret, pool, every, cand, masks, stop_at_perfect, ikeys, largest):  # pragma: no cover
    """most-parts' key (minus the number of classes) of every guess, for replies below 64: a bit
    per reply that occurs, or-ed over the candidates a block of guesses at a time, then counted.
    The largest class is only told as _pick reads it: n where one class holds every candidate,
    1 where each class is one, else 2 (sizes in between are never read). Returns as
    _block_keys does."""
    m = len(pool)
    n = len(cand)
    one = np.uint64(1)
    for lo in range(0, m, BLOCK):
        hi = min(m, lo + BLOCK)
        block = masks[: hi - lo]
        block[:] = 0
        for k in range(n):
            row = by_secret[cand[k]]
            if every:
                for i in range(lo, hi):
                    block[i - lo] |= one << np.uint64(row[i])
            else:
                for i in range(lo, hi):
                    block[i - lo] |= one << np.uint64(row[pool[i]])
        for i in range(lo, hi):
            distinct = np.int64(popcount(block[i - lo]))
            ikeys[i] = -distinct
            largest[i] = n if distinct == 1 else (1 if distinct == n else 2)
        first = _first_perfect(largest, lo, hi, stop_at_perfect)
        if first < 0:
            return first
    return m


@njit(cache=True, nogil=True)
def _first_perfect(largest, lo, hi, stop_at_perfect):  # pragma: no cover - compiled
    """-1 - i for the first guess i of a scored block [lo, hi) that splits the candidates into
    single secrets (largest class 1), where `stop_at_perfect` says that is the choice; else 0:
    the tail _block_keys and _parts_keys share."""
    if stop_at_perfect:
        for i in range(lo, hi):
            if largest[i] == 1:
                return -1 - i
    return 0


@njit(cache=True, nogil=True)
def _pick(keys, largest, pool, n, consistent, same_secret, marked, prefer_possible):  # pragma: no cover
    """arena.trees.greedy.Greedy.pick: the first guess of least key, preferring one that may be the
    secret (`prefer_possible`), where a guess that splits nothing and may not be the secret is
    never chosen unless every guess is such."""
    m = len(pool)
    best = keys[0]
    for i in range(1, m):
        if keys[i] < best:
            best = keys[i]
    excluded = False
    for i in range(m):
        if keys[i] == best and largest[i] == n and not _possible(pool[i], consistent, same_secret, marked):
            excluded = True
            break
    if excluded:  # rare: the best key is a guess that cannot split the candidates
        found = False
        for i in range(m):
            if largest[i] == n and not _possible(pool[i], consistent, same_secret, marked):
                continue
            if not found or keys[i] < best:
                best = keys[i]
                found = True
        if not found:  # every guess is such: they all tie
            return pool[0]
    first = -1
    for i in range(m):
        if keys[i] != best or (
            excluded and largest[i] == n and not _possible(pool[i], consistent, same_secret, marked)
        ):
            continue
        if first < 0:
            first = i
            if not prefer_possible:
                break
        if prefer_possible and _possible(pool[i], consistent, same_secret, marked):
            return pool[i]
    return pool[first]


@njit(cache=True, nogil=True)
def _possible(g, consistent, same_secret, marked):  # pragma: no cover - compiled
    s = same_secret[g]
    return s >= 0 and (consistent or marked[s])


@njit(cache=True, nogil=True)
def _choose_nodes(
    by_secret,
    secret_guess,
    same_secret,
    order,
    starts,
    sizes,
    every_guess,
    rule,
    how,
    terms_all,
    terms_at,
    fixed,
    n_codes,
    choice,
):  # pragma: no cover - compiled
    """choice[j]: the greedy guess at node j, whose candidates are order[starts[j]:][:sizes[j]]
    (arena.trees.greedy.Greedy.choose over every guess or the consistent ones, without the symmetric
    pool, which never changes the choice)."""
    m_all = len(every_guess)
    ikeys = np.zeros(m_all, dtype=np.int64)
    fkeys = np.zeros(m_all, dtype=np.float64)
    largest = np.zeros(m_all, dtype=np.int64)
    hist = np.zeros(n_codes, dtype=np.int64)
    seen = np.zeros(n_codes, dtype=np.int64)
    mark = np.zeros(n_codes, dtype=np.bool_)
    marked = np.zeros(by_secret.shape[0], dtype=np.bool_)
    consistent_pool = np.empty(by_secret.shape[0], dtype=np.intp)
    counts = np.zeros((n_codes, BLOCK), dtype=np.int32)
    bytes_ = np.zeros((n_codes, BLOCK), dtype=np.uint8)
    masks = np.zeros(BLOCK, dtype=np.uint64)
    # a partition into single secrets is every metric's best key but max-frequency's; from every
    # guess, ties then go to the lowest guess naming a candidate only if ties prefer those
    perfect_best = how != 5
    for j in range(len(starts)):
        n = sizes[j]
        cand = order[starts[j] : starts[j] + n]
        if n == 1 and secret_guess[cand[0]] >= 0:  # arena.trees.greedy.only_candidate
            choice[j] = secret_guess[cand[0]]
            continue
        every = rule[POOL_ALL] != 0 and n > rule[SMALL]
        if every:
            pool = every_guess
        else:
            m = 0
            for k in range(n):
                g = secret_guess[cand[k]]
                if g >= 0:
                    consistent_pool[m] = g
                    m += 1
            pool = consistent_pool[:m]
        if n <= n_codes and perfect_best and (rule[PREFER_POSSIBLE] != 0 or not every):
            g = _perfect_candidate(by_secret, cand, secret_guess, every, mark)
            if g >= 0:
                choice[j] = g
                continue
        m = len(pool)
        terms = terms_all[terms_at[j] : terms_at[j] + n + 1]
        stop = perfect_best and n <= n_codes
        if how == 4 and n_codes <= 64:
            m = _parts_keys(by_secret, pool, every, cand, masks, stop, ikeys, largest)
        elif n <= rule[SMALL_NODE]:
            m = _small_node_keys(by_secret, pool, cand, how, terms, fixed, hist, seen, ikeys, fkeys, largest)
        elif n < 256:
            m = _block_keys(by_secret, pool, every, cand, how, terms, fixed, bytes_, stop, ikeys, fkeys, largest)
        else:
            m = _block_keys(by_secret, pool, every, cand, how, terms, fixed, counts, stop, ikeys, fkeys, largest)
        if m < 0:
            choice[j] = pool[-1 - m]
            continue
        for k in range(n):
            marked[cand[k]] = True
        if rule[EXACT] != 0:
            choice[j] = _pick(
                ikeys[:m], largest[:m], pool, n, not every, same_secret, marked, rule[PREFER_POSSIBLE] != 0
            )
        else:
            choice[j] = _pick(
                fkeys[:m], largest[:m], pool, n, not every, same_secret, marked, rule[PREFER_POSSIBLE] != 0
            )
        for k in range(n):
            marked[cand[k]] = False


def choose_nodes(
    by_secret: np.ndarray,
    secret_guess: np.ndarray,
    same_secret: np.ndarray,
    order: np.ndarray,
    starts: np.ndarray,
    sizes: np.ndarray,
    rule: np.ndarray,
    how: str,
    terms_all: np.ndarray,
    terms_at: np.ndarray,
    fixed: np.ndarray,
    n_codes: int,
) -> np.ndarray:
    """The greedy guess at each node of a level (candidates order[starts[j]:][:sizes[j]]), by
    `rule` (POOL_ALL, SMALL, PREFER_POSSIBLE, EXACT) and reduction `how` (REDUCTIONS): the
    nodes split over threads (in_slices), each thread with its own scratch arrays."""
    choice = np.full(len(starts), -1, dtype=np.intp)
    every_guess = np.arange(by_secret.shape[1], dtype=np.intp)
    order, starts, sizes, terms_at = indexes(order), indexes(starts), indexes(sizes), indexes(terms_at)
    reduction = REDUCTIONS[how]

    def run(lo: int, hi: int) -> None:
        _choose_nodes(
            by_secret,
            secret_guess,
            same_secret,
            order,
            starts[lo:hi],
            sizes[lo:hi],
            every_guess,
            rule,
            reduction,
            terms_all,
            terms_at[lo:hi],
            fixed,
            n_codes,
            choice[lo:hi],
        )

    in_slices(run, len(starts), int(sizes.sum()) * len(every_guess))
    return choice
