"""A game instance: secrets, guesses and the feedback table `F[g, s]` between them.

Everything in the project is an index into `game.secrets` or `game.guesses`. The table is
built once, with vectorised numpy (or, for big instances, the compiled loops of
arena.kernels), by the game's constructor; the primitives that agents and solvers use
(`consistent`, `partition`, `partition_counts`, `reply_counts`, `fused_keys`) read it and
never recompute a reply. A table that would not fit the memory budget is `OnTheFly`: it reads
like the table, cell for cell, and computes what is read.

A game also says what it is and owns what is specific to it, so that no code outside
arena/games/ asks which game it has: `rules` (does a guess hit, is a miss a strike, what a
game costs), how replies are written, read and explained to people, what a reply tells (the
evil chooser's tie rule), the opening and transcript lines, and the guesses that finish a
determined game. `GameType` is how a game module (or a plug-in) registers a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, cast

import numpy as np

from . import door
from .errors import ArenaError, ArenaTypeError
from .resources import check_memory
from .spec import Param

Index = int
Indexes = np.ndarray  # a sorted 1-d array of secret (or guess) indexes
Reply = int  # a feedback code, a small non-negative integer

#: Above this many codes a reply alphabet is sparse (Hangman's position masks): codes are
#: re-indexed densely per block before counting.
MANY_CODES = 64
#: The miss: the all-blank reply (no letter in common, no peg, a letter not in the word), a
#: strike in Hangman. It is the smallest code, so the partition counts put it in column 0
#: (MISS_COLUMN). Every module that needs it asks here (`Game.miss`, `Game.is_miss`).
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
#: arena.kernels (numba): 3-10x faster per cell, worth its ~0.5 s of loading (4x6 stays numpy).
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
            found = np.bincount(table[start:start + rows].ravel()) > 0
            if len(found) > len(seen):
                found[:len(seen)] |= seen
                seen = found
            else:
                seen[:len(found)] |= found
        return np.flatnonzero(seen)
    return np.unique(np.concatenate([np.unique(table[start:start + rows])
                                     for start in range(0, len(table), rows)]))


class OnTheFly:
    """A feedback table too big to keep, computed when it is read: `table[g, s]` with numpy's
    indexing (an index, a slice or arrays that broadcast, on either axis), `.T` the same
    replies by secret, and whole partition counts through the source's compiled loop.

    `source` computes replies: `replies(guesses, secrets)` for broadcast index arrays,
    `counts(pool, candidates, n_codes)` and a metric's `keys` (arena.kernels.table_keys'
    arguments); arena.games.multisets.Multisets is Mastermind's and Jotto's.
    Its answers are the dense table's, cell for cell (tests/test_on_the_fly.py)."""

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
        replies = self.source.replies(g, s)
        return replies[()] if replies.ndim == 0 else replies

    def __array__(self, dtype=None, copy=None):
        raise ArenaError(f"a feedback table of {self.shape[0]:,} x {self.shape[1]:,} is computed on the fly, "
                         "never whole: read it by rows or blocks")


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


@dataclass(frozen=True)
class Rules:
    """What kind of game a game is: the questions solvers and agents ask instead of testing
    which class they hold (OpenSpiel's GameType is the model).

    hits: a guess may be the secret, and naming it ends the game (Jotto, Mastermind); where
        False (Hangman) a game ends when one candidate is left, `determined(candidates)`.
    strikes: a miss (the all-blank reply) counts against the guesser, and enough lose the game.
    cost: what a game costs the guesser in the published studies: "guesses" or "misses".
    restricted: the guesses allowed depend on the moves so far (Wordle's hard mode): ask
        `Game.allowed_guesses(history)`; a solver that keys its work by the candidates alone
        must not assume every guess is allowed.
    """

    hits: bool = True
    strikes: bool = False
    cost: str = "guesses"
    restricted: bool = False


@dataclass(frozen=True)
class GameType:
    """A game as the registry knows it (arena/games/__init__.py): its name, how to build it
    (`make(spec, **params)`), its parameters and a one-line summary for `arena games`. Each
    game module registers one as `GAME`; a plug-in names one in the `arena.games` entry points."""

    name: str
    make: Callable[..., Game]
    params: Mapping[str, Param]
    summary: str


class Game:
    """A finite guessing game given by its feedback table.

    table[g, s] is the reply (a small integer code) to guess g when the secret is s.
    `hit` is the reply that means "you guessed the secret" (None where no guess is a secret),
    and `same_secret[g]` is the secret that guess g names, or -1. `rules` says what kind of
    game it is.

    Attributes read by agents and solvers: `secrets` and `guesses` (the labels, indexed by
    secret and guess), `table` (the feedback table F[g, s], read-only; computed on the fly by
    numpy-style indexing for a game too big to hold it), `codes` (the reply codes that occur)
    and `n_codes` (one more than the largest: the width of a row of `partition_counts`),
    `all_secrets` and `all_guesses` (index arrays of every secret and guess).
    """

    name: str = "game"
    rules: Rules = Rules()
    #: Up to this many codes partition counts have a column per code (above 64, a game whose
    #: codes nearly all occur says so here: Wordle's 243); beyond, the alphabet is sparse.
    dense_codes: int = MANY_CODES
    strikes: int | None = None  # misses that lose the game (Hangman), None where misses don't count
    miss: Reply = MISS  # the all-blank reply (MISS)
    build_seconds: float = 0.0  # how long make_game took to build it (lists and table; arena.games)

    def __init__(self, spec: str, secrets: Sequence[str], guesses: Sequence[str], table: np.ndarray | OnTheFly,
                 hit: Reply | None, same_secret: np.ndarray, symmetric: bool = False, codes: np.ndarray | None = None):
        self.spec = spec
        self.secrets = tuple(secrets)
        self.guesses = tuple(guesses)
        self._fly: OnTheFly | None = table if isinstance(table, OnTheFly) else None
        if isinstance(table, OnTheFly):  # it reads like the table, by numpy's indexing
            self.table = cast(np.ndarray, table)
            self.by_secret = cast(np.ndarray, table.T)
        else:
            self.table = np.ascontiguousarray(table)
            # row per secret: fast to gather candidates; a symmetric table (F[g, s] = F[s, g],
            # guesses and secrets the same codes, as in Mastermind) is its own transpose
            self.by_secret = self.table if symmetric else np.ascontiguousarray(table.T)
        #: counts by the compiled loop (arena.kernels): a table this big pays numba's start-up
        self.compiled = len(self.secrets) * len(self.guesses) >= COMPILED_CELLS
        self.hit = hit
        self.same_secret = np.asarray(same_secret, dtype=np.intp)
        self.secret_guess = np.full(len(self.secrets), -1, dtype=np.intp)  # the inverse map
        named = self.same_secret >= 0
        self.secret_guess[self.same_secret[named]] = np.flatnonzero(named)
        # the replies that occur (`codes`: known to the game without reading the whole table)
        if codes is not None:
            self.codes = np.asarray(codes, dtype=np.int64)
        else:
            self.codes = self._fly.codes() if self._fly is not None else _codes_in(self.table)
        self._occurring = frozenset(self.codes.tolist())
        self.n_codes = int(self.codes[-1]) + 1
        self._every_code = np.arange(self.n_codes)
        self._every_code.setflags(write=False)
        self.all_secrets: Indexes = np.arange(len(self.secrets))
        self.all_guesses: Indexes = np.arange(len(self.guesses))
        self._guess_index = {label: i for i, label in enumerate(self.guesses)}
        if self._fly is None:
            self.table.setflags(write=False)
            self.by_secret.setflags(write=False)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}: {len(self.secrets)} secrets, {len(self.guesses)} guesses>"

    # --- the front door: the common operations, for a notebook that imports one thing --------
    # Thin wrappers over arena.frontdoor (see its docstring), which reaches the evaluators, the
    # solvers and the agents. The engine may not import them at module level; these imports,
    # run only when a method is called, are the one upward dependency tests/test_architecture.py
    # accepts, by their marker.

    def evaluate(self, guesser, chooser=None, repeat: int = 1, seed: int = 0,
                 strikes: tuple[int, ...] | None = None):
        """`guesser` (an agent or a spec string) against every secret, or against `chooser`
        (an agent or a spec): an Evaluation, as `arena evaluate` prints it. E.g.
        `make_game("mastermind").evaluate("knuth").total == 5801`."""
        from . import frontdoor  # front door: upward by design

        return frontdoor.evaluate(self, guesser, chooser, repeat=repeat, seed=seed, strikes=strikes)

    def tree(self, guesser, seed: int = 0):
        """The strategy tree of `guesser` (an agent or a spec) against every secret."""
        from . import frontdoor  # front door: upward by design

        return frontdoor.tree(self, guesser, seed=seed)

    def optimal(self, **kwargs):
        """The exact tree of least expected guesses: a SolvedTree, proven optimal unless stopped.

        Keyword arguments are arena.optimal.optimal_tree's: `secrets` (indexes; default all),
        `weights` (one per secret: the chooser's mix), `pool` ("all" guesses, or "consistent"
        ones only), `objective` ("average"; "worst": least worst case first; "lost": fewest
        games lost within the strikes), `max_guesses` (a limit on every game), `time_limit`
        (seconds; a stopped search returns its best tree and proven bounds), `cost` (what a
        game costs: "guesses", or Hangman's "misses"/"lost") and `openers` (fixed first
        guesses, as indexes or labels). E.g. `make_game("mastermind").optimal().total == 5625`."""
        from . import frontdoor  # front door: upward by design

        return frontdoor.optimal(self, **kwargs)

    def equilibrium(self, **kwargs):
        """The game as a zero-sum game, solved: an Equilibrium (value, bounds, both mixes).

        `guessers=[...]` (agents or specs): the chooser's secrets against those guessers' trees
        only. `trees=True`: against every guesser tree of a tiny game (solve_enumerated's
        `frontier`, `max_trees`, `cost`). Otherwise the double oracle's keyword arguments:
        `symmetry` (None: the game's own; `no_symmetry(game)` to switch it off), `tolerance`
        (the gap that counts as closed), `time_limit` (seconds), `initial` (trees to start
        from), `certify`, `smoothing`, `progress` (called with each Step), and `cost`
        ("guesses", or Hangman's "misses"/"lost")."""
        from . import frontdoor  # front door: upward by design

        return frontdoor.equilibrium(self, **kwargs)

    def rank(self, metric: str, top: int = 10) -> list:
        """The `top` best first guesses by `metric`, as (guess, value), as `arena rank` orders them."""
        from . import frontdoor  # front door: upward by design

        return frontdoor.rank(self, metric, top)

    def symmetry(self):
        """The game's group of reply-preserving permutations of the codes, for the solvers to
        exploit (Mastermind: arena.games.mastermind_symmetry), or None: none is known."""
        return None

    # --- labels -------------------------------------------------------------------------
    def guess_index(self, label: str) -> Index:
        """The index of the guess written `label`, or an ArenaError saying what a guess looks like."""
        if not isinstance(label, str):
            raise ArenaTypeError(f"guess_index takes a guess as written, a str such as {self.guesses[0]!r}, got "
                                 f"{label!r} ({type(label).__name__}); game.guesses[i] is the guess of index i")
        key = self.normalise_guess(label)
        if key not in self._guess_index:
            raise ArenaError(f"{label!r} is not a guess of {self.spec}: {self.describe_guesses()}")
        return self._guess_index[key]

    def normalise_guess(self, label: str) -> str:
        return label.strip()

    def describe_guesses(self) -> str:
        return f"{len(self.guesses)} guesses such as {', '.join(self.guesses[:3])}"

    def reply_label(self, reply: Reply) -> str:
        """How a reply is written for people (and in saved trees)."""
        return str(reply)

    def parse_reply(self, text: str) -> Reply:
        """The reply code written `text` (the inverse of `reply_label`): plain digits only
        (int() would also take `+3`, `1_0` or other scripts' digits)."""
        if not re.fullmatch(r"[0-9]+", text.strip()):
            raise ArenaError(f"reply {text!r} is not a reply of {self.spec}: write a number, like 2")
        code = int(text.strip())
        if code not in self._occurring:
            raise ArenaError(f"reply {text!r} never occurs in {self.spec}")
        return code

    def history_label(self, replies: Sequence[Reply]) -> str:
        """The replies so far as one short string (the History column of strategy tables)."""
        return "".join("|" + self.reply_label(r) for r in replies)

    # --- the primitives -----------------------------------------------------------------
    def reply(self, guess: Index, secret: Index) -> Reply:
        return int(self.table[guess, secret])

    def consistent(self, candidates: Indexes, guess: Index, reply: Reply) -> Indexes:
        """The candidates that would have given `reply` to `guess`."""
        return candidates[self.table[guess, candidates] == reply]

    def partition(self, guess: Index, candidates: Indexes) -> dict[Reply, Indexes]:
        """The candidates split by their reply to `guess`, in reply order (each class keeps
        the candidates' order). `guess` is an index into the guesses (no index from the end),
        `candidates` an int array of indexes into the secrets."""
        # O(1) checks only: this is the solvers' inner loop (an index array's range is checked
        # where it is not an int array already, and where it is, by numpy's own IndexError)
        if isinstance(guess, bool) or not isinstance(guess, (int, np.integer)) or not 0 <= guess < len(self.guesses):
            door.index(guess, "partition: guess", len(self.guesses), "guesses")
        if not isinstance(candidates, np.ndarray) or candidates.dtype.kind not in "iu":
            candidates = door.indexes(candidates, "partition: candidates", len(self.secrets), "secrets")
        try:
            return self._partition(guess, candidates)
        except IndexError:
            door.indexes(candidates, "partition: candidates", len(self.secrets), "secrets")
            raise

    def _partition(self, guess: Index, candidates: Indexes) -> dict[Reply, Indexes]:
        if len(candidates) <= _TINY:  # most nodes of a tree are this small: plain Python is faster
            classes: dict[Reply, list[Index]] = {}
            for secret, reply in zip(candidates.tolist(), self.table[guess, candidates].tolist()):
                classes.setdefault(reply, []).append(secret)
            return {r: np.array(classes[r], dtype=candidates.dtype) for r in sorted(classes)}
        replies = self.table[guess, candidates]
        sizes = np.bincount(replies, minlength=self.n_codes)
        ends = np.cumsum(sizes)
        ordered = candidates[np.argsort(replies, kind="stable")]
        return {int(r): ordered[ends[r] - sizes[r]:ends[r]] for r in np.flatnonzero(sizes)}

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
                return ReplyCounts(self._compiled_counts(pool, candidates), self._every_code)
            return ReplyCounts(self._counts_in_chunks(pool, candidates), self._every_code)
        # sparse codes: few guesses (Hangman) or a block small enough to count whole
        block = self.by_secret[candidates] if pool is None else self.by_secret[candidates[:, None], pool]
        width = block.shape[1]
        local, dense = np.unique(np.concatenate(([0], block.ravel())), return_inverse=True)
        block, codes = dense[1:].reshape(block.shape), len(local)
        keys = block.astype(np.intp) + np.arange(width, dtype=np.intp) * codes
        counts = np.bincount(keys.ravel(), minlength=width * codes).reshape(width, codes)
        return ReplyCounts(counts, local.astype(np.int64, copy=False))

    def _counts_in_chunks(self, pool: Indexes | None, candidates: Indexes) -> np.ndarray:
        """partition_counts for a dense reply alphabet, a block of pool columns at a time: the
        gathered block and its intp keys (8 bytes a cell) stay within CHUNK cells however big
        the game (a whole 30,000-word Jotto table would need 8 GB of keys at once)."""
        width = len(self.guesses) if pool is None else len(pool)
        by_code = len(self.codes) <= _FEW_CODES and len(candidates) * width > _BIG_BLOCK
        step = max(1, CHUNK // max(1, len(candidates)))
        if step >= width and not by_code:  # most calls (a tree's nodes): one block, no copying
            return self._bincount(self.by_secret[candidates] if pool is None
                                  else self.by_secret[candidates[:, None], pool])
        counts = np.zeros((width, self.n_codes), dtype=np.int64)
        for start in range(0, width, step):
            if pool is None:  # gathering whole rows is faster than a 2-d gather
                block = self.by_secret[candidates, start:start + step] if step < width else self.by_secret[candidates]
            else:
                block = self.by_secret[candidates[:, None], pool[start:start + step]]
            if by_code:  # one comparison per code streams through memory
                for code in self.codes:
                    counts[start:start + step, code] = (block == code).sum(axis=0, dtype=np.int32)  # int32: 2x faster
            else:
                counts[start:start + step] = self._bincount(block)
        return counts

    @property
    def on_the_fly(self) -> bool:
        """Is the table computed on the fly (OnTheFly), its cells never all in memory at once?"""
        return self._fly is not None

    @property
    def uses_kernels(self) -> bool:
        """Are partition counts taken by the compiled loops of arena.kernels: a table computed on
        the fly, or one big enough to pay numba's start-up, with a column per reply code?"""
        return (self._fly is not None or self.compiled) and self.n_codes <= max(MANY_CODES, self.dense_codes)

    def fused_keys(self, pool: Indexes | None, candidates: Indexes, how: str, terms: np.ndarray,
                   fixed: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """For every guess of the pool, its partition of the candidates reduced at once by the
        compiled loop (arena.kernels.table_keys: integer key, float key, largest class), without
        a counts matrix; None where this game counts with numpy (small tables, sparse codes)."""
        if not self.uses_kernels:
            return None
        from . import kernels  # numba: only for the big instances that pay for it

        pool = self.all_guesses if pool is None else pool
        if self._fly is not None:
            return self._fly.source.keys(pool, candidates, self.n_codes, how, terms, fixed)
        return kernels.table_keys(self.by_secret, pool, candidates, self.n_codes, how, terms, fixed)

    def reply_major_counts(self, pool: Indexes, candidates: Indexes) -> np.ndarray | None:
        """counts[r, i]: how many candidates give reply r to guess pool[i] (partition_counts
        transposed, a row per reply, as the exact search reduces them), by the compiled loop;
        None where this game counts with numpy (small tables, sparse codes)."""
        if not self.uses_kernels:
            return None
        if self._fly is not None:
            return np.ascontiguousarray(self._fly.counts(pool, candidates, self.n_codes).T)
        from .kernels import reply_major_counts  # numba: only for the big instances that pay for it

        return reply_major_counts(self.by_secret, pool, candidates, self.n_codes)

    def _compiled_counts(self, pool: Indexes | None, candidates: Indexes) -> np.ndarray:
        """partition_counts by a compiled loop (arena.kernels): read off the table, one byte per
        cell and no temporaries, or computed on the fly where the table is not in memory."""
        pool = self.all_guesses if pool is None else pool
        if self._fly is not None:
            return self._fly.counts(pool, candidates, self.n_codes)
        from .kernels import table_counts  # numba: only for the big instances that pay for it

        return table_counts(self.by_secret, pool, candidates, self.n_codes)

    def _bincount(self, block: np.ndarray) -> np.ndarray:
        """counts[i, code] over a (candidates x guesses) block: one np.bincount of the replies
        offset by i * n_codes."""
        columns = block.shape[1]
        keys = block.astype(np.intp)
        keys += np.arange(columns, dtype=np.intp) * self.n_codes
        return np.bincount(keys.ravel(), minlength=columns * self.n_codes).reshape(columns, self.n_codes)

    def finished(self, reply: Reply) -> bool:
        """Does this reply end the game? (In Jotto and Mastermind: the guess was the secret.)"""
        return reply == self.hit

    def determined(self, candidates: Indexes) -> bool:
        """Is the game over without another guess? (Hangman: one word left. Jotto: never, the
        secret must still be guessed.)"""
        return False

    def openings(self, secrets: Indexes) -> list[tuple[str, Indexes]]:
        """What the guesser is told before the first guess, as (label, secrets) classes: nothing
        here; Hangman tells the word's length."""
        return [("", secrets)]

    def is_miss(self, reply: Reply) -> bool:
        """Was this reply a miss, the all-blank reply (a strike in Hangman)?"""
        return reply == self.miss

    def candidate_guesses(self, candidates: Indexes) -> Indexes:
        """The consistent pool: guesses that may be the secret (Hangman: letters that may be in it)."""
        return self.guesses_naming(candidates)

    def guesses_naming(self, candidates: Indexes) -> Indexes:
        """The guesses that may be the secret: the consistent pool."""
        named = self.secret_guess[candidates]
        return named[named >= 0]

    def allowed_guesses(self, history: Sequence[tuple[Index, Reply]]) -> Indexes | None:
        """The guesses the rules allow after `history` (the moves so far), or None: every guess,
        as in most games. A game that narrows them (Wordle's hard mode) must always allow every
        guess that may be the secret, so the consistent pool never needs this check. The greedy
        guessers choose within it, and the referee refuses any other guess (`refusal`)."""
        return None

    def refusal(self, guess: Index, history: Sequence[tuple[Index, Reply]]) -> str | None:
        """Why the rules forbid `guess` after `history`, in one line for people, or None where it
        is allowed: exactly the guesses outside `allowed_guesses(history)` are refused."""
        return None

    def is_candidate(self, candidates: Indexes) -> np.ndarray:
        """A boolean per guess: may this guess be the secret, given the candidates?"""
        mask = np.zeros(len(self.secrets) + 1, dtype=bool)  # the extra slot catches same_secret == -1
        mask[candidates] = True
        return mask[self.same_secret]

    # --- what a game tells people, and how it ends ----------------------------------------
    #: What a secret is called when the game speaks of one ("word" in Hangman).
    secret_noun: str = "secret"

    def reply_help(self) -> str:
        """How a person types a reply (the human chooser's prompt)."""
        return "a reply"

    def reveals(self) -> np.ndarray:
        """shown[r]: how much reply r tells the guesser, for the adversaries' "reveals least"
        tie rule (`told`), with the hit above every other reply: it tells everything.
        Computed once per game."""
        if getattr(self, "_reveals", None) is None:
            shown = np.asarray(self.told(np.arange(self.n_codes)), dtype=np.int64)
            if self.hit is not None:
                shown[self.hit] = int(shown.max()) + 1
            shown.setflags(write=False)
            self._reveals = shown
        return self._reveals

    def told(self, replies: np.ndarray) -> np.ndarray:
        """How much each of these replies tells: here the code itself (Jotto: letters in common)."""
        return replies.copy()

    def shape(self, candidates: Indexes) -> int | str:
        """What the candidates of one opening show before the first guess, for the printouts
        (`turn_line`): here the length of their labels (Hangman: its pattern, shown
        characters and all)."""
        return len(self.secrets[candidates[0]])

    def opening_line(self, label: str, candidates: Indexes, length: int | str) -> str | None:
        """What `arena play` prints when the guesser is told the opening (None: nothing)."""
        return f"The guesser is told: {label} ({len(candidates):,} possible)" if label else None

    def opening_question(self, labels: list[str]) -> str:
        """The question a human chooser answers to pick the opening."""
        return f"Tell the guesser what it may know first ({labels[0]} .. {labels[-1]}): "

    def turn_line(self, number: int, history: Sequence[tuple[Index, Reply]], left: int, length: int | str) -> str:
        """One line of a transcript, in the published examples' format, for the last move of
        `history` (`left` secrets possible after it; `length` the secrets' `shape`)."""
        guess, reply = history[-1]
        return f"Guess {number}: {self.guesses[guess]}, Reply: {self.reply_label(reply)}, Consistent targets: {left}"

    def finishing_guesses(self, candidates: Indexes, played: set[Index]) -> list[Index]:
        """Once the game is `determined`, the guesses that finish it, in the order an agent
        plays them (none here: the secret must be hit)."""
        return []

    def over(self, candidates: Indexes, played: set[Index]) -> bool:
        """Is the game over without a hit? Determined, and nothing left to play to finish it."""
        return self.determined(candidates) and not self.finishing_guesses(candidates, played)

    def guess_note(self, guess: Index, candidates: Indexes) -> str:
        """What `arena solve` says about its next guess."""
        if self.is_candidate(candidates)[guess]:
            return "it may itself be the secret"
        return "it cannot be the secret: it is played to learn"
