"""The feedback table `F[g, s]` of a game and the primitives read off it: `FeedbackTable`.

A game hands its table to a FeedbackTable, built once with vectorised numpy (or, for big
instances, the compiled loops of arena.core.kernels) by the game's constructor. The primitives that
agents and solvers use (`consistent`, `partition`, `partition_counts`, `reply_counts`,
`fused_keys`, `reply_major_counts`) read it and never recompute a reply; which way they count
(numpy in blocks, one comparison per code, or the compiled loops) is decided here, from the
table's size and its reply alphabet. A table that would not fit the memory budget is
`OnTheFly`: it reads like the table, cell for cell, and computes what is read through its
source (arena.games.multisets.Multisets: Mastermind's and Jotto's reply formula).

The table knows nothing of any game's rules or labels: arena.core.game.Game owns those and its
table, and answers the primitives by asking it.
"""

from __future__ import annotations

from typing import NamedTuple, cast

import numpy as np

from .errors import ArenaError
from .resources import check_memory

Index = int
Indexes = np.ndarray  # a sorted 1-d array of secret (or guess) indexes
Reply = int  # a feedback code, a small non-negative integer

#: Above this many codes a reply alphabet is sparse (Hangman's position masks): codes are
#: re-indexed densely per block before counting.
MANY_CODES = 64
#: The miss: the all-blank reply (no letter in common, no peg, a letter not in the word), a
#: strike in Hangman. It is the smallest code, so the partition counts put it in column 0
#: (MISS_COLUMN). A game declares it (`Game.miss`, `Game.is_miss`); every other module asks the game.
MISS: int = 0
MISS_COLUMN = 0
#: Counting by one comparison per code beats np.bincount for blocks this big with this few codes.
_FEW_CODES = 8
_BIG_BLOCK = 100_000
_TINY = 8  # partitions of this many candidates or fewer are grouped in plain Python
#: Elements of a table processed at once where a whole-table pass would need a wide temporary
#: (bincount casts to intp: 8 bytes per uint8 cell), so temporaries stay a few tens of MB.
CHUNK = 2**22
#: Games with a table of at least this many cells count partitions with the compiled loop of
#: arena.core.kernels (numba): 3-10x faster per cell, worth its ~0.5 s of loading (4x6 stays numpy).
COMPILED_CELLS = 2**23


def code_dtype(n_codes: int, at_least: type = np.uint8) -> np.dtype:
    """The narrowest unsigned dtype (no narrower than `at_least`) that holds codes 0..n_codes-1."""
    for dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
        if np.dtype(dtype).itemsize >= np.dtype(at_least).itemsize and n_codes - 1 <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    raise ArenaError(f"{n_codes:,} reply codes do not fit in 64 bits")


def count_label(n: int) -> str:
    """`32,768`, or `about 10^40` for counts too long to read (exact Python ints can be huge)."""
    return f"{n:,}" if n < 10**15 else f"about 10^{len(str(n)) - 1}"


def check_table_memory(spec: str, n_guesses: int, n_secrets: int, itemsize: int, extra: int = 0) -> None:
    """Refuse, before it is built, a feedback table over the memory budget: the table, its
    transposed copy `by_secret` and `extra` bytes of temporaries that its build needs."""
    what = f"the feedback table of {spec} ({count_label(n_guesses)} guesses x {count_label(n_secrets)} secrets)"
    check_memory(2 * n_guesses * n_secrets * itemsize + extra, what)


def check_on_the_fly_memory(spec: str, n: int, per_code: int) -> None:
    """Refuse, before it is built, a game computed on the fly (OnTheFly) whose codes, their
    labels and one node's partition counts (`per_code` bytes per code, about) exceed the budget."""
    what = f"{spec} computed on the fly ({count_label(n)} codes; its feedback table would not fit either)"
    check_memory(n * per_code, what)


def _codes_in(table: np.ndarray) -> np.ndarray:
    """The distinct values of a table, a block of rows at a time (bincount is much faster than
    sorting for small ints, but casts its input to intp: whole, that is 8 bytes a cell)."""
    rows = max(1, CHUNK // max(1, table.shape[1]))
    if table.dtype.itemsize <= 2:
        seen = np.zeros(1, dtype=bool)
        for start in range(0, len(table), rows):
            found = np.bincount(table[start : start + rows].ravel()) > 0
            if len(found) > len(seen):
                found[: len(seen)] |= seen
                seen = found
            else:
                seen[: len(found)] |= found
        return np.flatnonzero(seen)
    return np.unique(np.concatenate([np.unique(table[start : start + rows]) for start in range(0, len(table), rows)]))


class OnTheFly:
    """A feedback table too big to keep, computed when it is read: `table[g, s]` with numpy's
    indexing (an index, a slice or arrays that broadcast, on either axis), `.T` the same
    replies by secret, and whole partition counts through the source's compiled loop.

    `source` computes replies: `replies(guesses, secrets)` for broadcast index arrays,
    `counts(pool, candidates, n_codes)` and a metric's `keys` (arena.core.kernels.table_keys'
    arguments); arena.games.multisets.Multisets is Mastermind's and Jotto's.
    Its answers are the dense table's, cell for cell (tests/test_kernels.py)."""

    dtype = np.dtype(np.uint8)
    ndim = 2

    def __init__(self, source, shape: tuple[int, int], codes: np.ndarray, transposed: bool = False):
        self.source = source
        self.shape = shape
        self._codes = np.asarray(codes, dtype=np.int64)
        self.transposed = transposed

    def __len__(self) -> int:
        return self.shape[0]

    @property
    def T(self) -> OnTheFly:
        return OnTheFly(self.source, self.shape[::-1], self._codes, not self.transposed)

    def codes(self) -> np.ndarray:
        """The replies that occur, increasing (the game's `codes`)."""
        return self._codes

    def counts(self, pool: Indexes, candidates: Indexes, n_codes: int) -> np.ndarray:
        """counts[i, r]: how many candidates give reply r to guess pool[i] (guess rows only)."""
        return self.source.counts(pool, candidates, n_codes)

    def __getitem__(self, key) -> np.ndarray:
        key = key if isinstance(key, tuple) else (key,)
        rows, cols = key if len(key) == 2 else (key[0], slice(None))
        r_slice, c_slice = isinstance(rows, slice), isinstance(cols, slice)
        r = np.arange(self.shape[0])[rows] if r_slice else np.asarray(rows, dtype=np.intp)
        c = np.arange(self.shape[1])[cols] if c_slice else np.asarray(cols, dtype=np.intp)
        if r_slice and c_slice:  # numpy: a slice keeps its axis, an outer product of the two
            r = r[:, None]
        elif r_slice:
            r = r.reshape(r.shape + (1,) * c.ndim)
        elif c_slice:
            r = r.reshape(r.shape + (1,))
        g, s = (c, r) if self.transposed else (r, c)
        cells = self.source.replies(g, s)
        return cells[()] if cells.ndim == 0 else cells  # one cell: a scalar, as numpy gives

    def __array__(self, dtype=None, copy=None):
        raise ArenaError(
            f"a feedback table of {self.shape[0]:,} x {self.shape[1]:,} is computed on the fly, "
            "never whole: read it by rows or blocks"
        )


class ReplyCounts(NamedTuple):
    """Partition counts that say which reply each column is (`Game.reply_counts`)."""

    counts: np.ndarray  # counts[i, j]: candidates giving reply codes[j] to guess i of the pool
    codes: np.ndarray  # the reply code of each column, increasing; codes[0] is the miss (MISS)

    def column(self, reply: Reply) -> int | None:
        """The column that counts `reply`, or None where no candidate gives it."""
        j = int(np.searchsorted(self.codes, reply))
        return j if j < len(self.codes) and self.codes[j] == reply else None

    def of(self, replies: np.ndarray) -> np.ndarray:
        """The counts of these replies: column k counts replies[k] (0 where none gives it)."""
        replies = np.asarray(replies)
        at = np.minimum(np.searchsorted(self.codes, replies), len(self.codes) - 1)
        found = self.codes[at] == replies
        return np.where(found, self.counts[:, at], 0)


class FeedbackTable:
    """A feedback table and the primitives read off it: `table[g, s]` is the reply to guess g
    when the secret is s, `by_secret` the same replies a row per secret (fast to gather a
    node's candidates), `codes` the replies that occur and `n_codes` one more than the largest.

    `table` is a dense array (read-only once here) or an OnTheFly table; a `symmetric` one
    (F[g, s] = F[s, g], guesses and secrets the same codes, as in Mastermind) is its own
    transpose. `codes`, where the game knows them, saves reading the whole table for them.
    Up to `dense_codes` codes (at least MANY_CODES) partition counts have a column per code;
    beyond, the reply alphabet is sparse and the columns are the codes that occur.
    """

    def __init__(
        self,
        table: np.ndarray | OnTheFly,
        symmetric: bool = False,
        codes: np.ndarray | None = None,
        dense_codes: int = MANY_CODES,
    ):
        self.fly: OnTheFly | None = table if isinstance(table, OnTheFly) else None
        if isinstance(table, OnTheFly):  # it reads like the table, by numpy's indexing
            self.table = cast(np.ndarray, table)
            self.by_secret = cast(np.ndarray, table.T)
        else:
            self.table = np.ascontiguousarray(table)
            self.by_secret = self.table if symmetric else np.ascontiguousarray(table.T)
        n_guesses, n_secrets = self.table.shape
        #: counts by the compiled loop (arena.core.kernels): a table this big pays numba's start-up
        self.compiled = n_secrets * n_guesses >= COMPILED_CELLS
        if codes is not None:
            self.codes = np.asarray(codes, dtype=np.int64)
        else:
            self.codes = self.fly.codes() if self.fly is not None else _codes_in(self.table)
        self.n_codes = int(self.codes[-1]) + 1
        self.dense_codes = dense_codes
        self.every_code = np.arange(self.n_codes)
        self.every_code.setflags(write=False)
        self.all_guesses: Indexes = np.arange(n_guesses)
        if self.fly is None:
            self.table.setflags(write=False)
            self.by_secret.setflags(write=False)

    @property
    def on_the_fly(self) -> bool:
        """Is the table computed on the fly (OnTheFly), its cells never all in memory at once?"""
        return self.fly is not None

    @property
    def uses_kernels(self) -> bool:
        """Are partition counts taken by the compiled loops of arena.core.kernels: a table computed on
        the fly, or one big enough to pay numba's start-up, with a column per reply code?"""
        return (self.fly is not None or self.compiled) and self.n_codes <= max(MANY_CODES, self.dense_codes)

    def reply(self, guess: Index, secret: Index) -> Reply:
        return int(self.table[guess, secret])

    def consistent(self, candidates: Indexes, guess: Index, reply: Reply) -> Indexes:
        """The candidates that would have given `reply` to `guess`."""
        return candidates[self.table[guess, candidates] == reply]

    def partition(self, guess: Index, candidates: Indexes) -> dict[Reply, Indexes]:
        """The candidates split by their reply to `guess`, in reply order (each class keeps the
        candidates' order); the arguments unchecked (Game.partition checks them)."""
        if len(candidates) <= _TINY:  # most nodes of a tree are this small: plain Python is faster
            classes: dict[Reply, list[Index]] = {}
            for secret, reply in zip(candidates.tolist(), self.table[guess, candidates].tolist()):
                classes.setdefault(reply, []).append(secret)
            return {r: np.array(classes[r], dtype=candidates.dtype) for r in sorted(classes)}
        replies = self.table[guess, candidates]
        sizes = np.bincount(replies, minlength=self.n_codes)
        ends = np.cumsum(sizes)
        ordered = candidates[np.argsort(replies, kind="stable")]
        return {int(r): ordered[ends[r] - sizes[r] : ends[r]] for r in np.flatnonzero(sizes)}

    def partition_counts(self, pool: Indexes | None, candidates: Indexes) -> np.ndarray:
        """counts[i, j] = how many candidates fall in class j of guess pool[i] (pool None:
        every guess): the class sizes, with the miss (code 0) always column 0.

        Enough for the metrics, which read sizes (and max-frequency the miss column). Which
        reply each column is differs between calls where a game has many codes: a caller that
        looks up a reply's column uses `reply_counts`, which says.
        """
        return self.reply_counts(pool, candidates).counts

    def reply_counts(self, pool: Indexes | None, candidates: Indexes) -> ReplyCounts:
        """The partition counts and the reply each column counts: counts[i, j] = how many
        candidates give reply codes[j] to guess pool[i] (pool None: every guess).

        A few array operations for the whole pool: the (candidates x pool) block of the table
        is gathered (in blocks of columns, to bound memory), then counted per reply: by one
        comparison per code for big blocks of a game with few codes (it streams through
        memory), else by a single np.bincount of the replies offset by i * n_codes. Up to 64
        codes (or the game's `dense_codes`: Wordle's 243) the columns are every code
        0..n_codes-1; with a sparse reply alphabet (more codes, as Hangman's position masks) they are the codes that occur in the
        block, in code order, with the miss (code 0) always first: a full-width block would
        make every metric pay for thousands of empty columns.
        """
        if self.n_codes <= max(MANY_CODES, self.dense_codes):
            if self.uses_kernels:
                return ReplyCounts(self.compiled_counts(pool, candidates), self.every_code)
            return ReplyCounts(self.counts_in_chunks(pool, candidates), self.every_code)
        # sparse codes: few guesses (Hangman) or a block small enough to count whole
        block = self.by_secret[candidates] if pool is None else self.by_secret[candidates[:, None], pool]
        width = block.shape[1]
        local, dense = np.unique(np.concatenate(([MISS], block.ravel())), return_inverse=True)
        block, codes = dense[1:].reshape(block.shape), len(local)
        keys = block.astype(np.intp) + np.arange(width, dtype=np.intp) * codes
        counts = np.bincount(keys.ravel(), minlength=width * codes).reshape(width, codes)
        return ReplyCounts(counts, local.astype(np.int64, copy=False))

    def counts_in_chunks(self, pool: Indexes | None, candidates: Indexes) -> np.ndarray:
        """partition_counts for a dense reply alphabet, a block of pool columns at a time: the
        gathered block and its intp keys (8 bytes a cell) stay within CHUNK cells however big
        the game (a whole 30,000-word Jotto table would need 8 GB of keys at once)."""
        width = len(self.all_guesses) if pool is None else len(pool)
        by_code = len(self.codes) <= _FEW_CODES and len(candidates) * width > _BIG_BLOCK
        step = max(1, CHUNK // max(1, len(candidates)))
        if step >= width and not by_code:  # most calls (a tree's nodes): one block, no copying
            return self.bincount(
                self.by_secret[candidates] if pool is None else self.by_secret[candidates[:, None], pool]
            )
        counts = np.zeros((width, self.n_codes), dtype=np.int64)
        for start in range(0, width, step):
            if pool is None:  # gathering whole rows is faster than a 2-d gather
                block = self.by_secret[candidates, start : start + step] if step < width else self.by_secret[candidates]
            else:
                block = self.by_secret[candidates[:, None], pool[start : start + step]]
            if by_code:  # one comparison per code streams through memory
                for code in self.codes:
                    counts[start : start + step, code] = (block == code).sum(axis=0, dtype=np.int32)  # int32: 2x faster
            else:
                counts[start : start + step] = self.bincount(block)
        return counts

    def fused_keys(
        self, pool: Indexes | None, candidates: Indexes, how: str, terms: np.ndarray, fixed: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """For every guess of the pool, its partition of the candidates reduced at once by the
        compiled loop (arena.core.kernels.table_keys: integer key, float key, largest class), without
        a counts matrix; None where this game counts with numpy (small tables, sparse codes)."""
        if not self.uses_kernels:
            return None
        from . import kernels  # numba: only for the big instances that pay for it

        pool = self.all_guesses if pool is None else pool
        if self.fly is not None:
            return self.fly.source.keys(pool, candidates, self.n_codes, how, terms, fixed)
        return kernels.table_keys(self.by_secret, pool, candidates, self.n_codes, how, terms, fixed)

    def reply_major_counts(self, pool: Indexes, candidates: Indexes) -> np.ndarray | None:
        """counts[r, i]: how many candidates give reply r to guess pool[i] (partition_counts
        transposed, a row per reply, as the exact search reduces them), by the compiled loop;
        None where this game counts with numpy (small tables, sparse codes)."""
        if not self.uses_kernels:
            return None
        if self.fly is not None:
            return np.ascontiguousarray(self.fly.counts(pool, candidates, self.n_codes).T)
        from .kernels import reply_major_counts  # numba: only for the big instances that pay for it

        return reply_major_counts(self.by_secret, pool, candidates, self.n_codes)

    def compiled_counts(self, pool: Indexes | None, candidates: Indexes) -> np.ndarray:
        """partition_counts by a compiled loop (arena.core.kernels): read off the table, one byte per
        cell and no temporaries, or computed on the fly where the table is not in memory."""
        pool = self.all_guesses if pool is None else pool
        if self.fly is not None:
            return self.fly.counts(pool, candidates, self.n_codes)
        from .kernels import table_counts  # numba: only for the big instances that pay for it

        return table_counts(self.by_secret, pool, candidates, self.n_codes)

    def bincount(self, block: np.ndarray) -> np.ndarray:
        """counts[i, code] over a (candidates x guesses) block: one np.bincount of the replies
        offset by i * n_codes."""
        columns = block.shape[1]
        keys = block.astype(np.intp)
        keys += np.arange(columns, dtype=np.intp) * self.n_codes
        return np.bincount(keys.ravel(), minlength=columns * self.n_codes).reshape(columns, self.n_codes)
