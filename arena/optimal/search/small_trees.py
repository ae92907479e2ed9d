"""Whole small subtrees of the exact search in compiled code (numba): the same branch and bound
as branch.py, hits.py, closures.py and ordering.py, for a set of at most SMALL_TREE secrets on a
game that a hit ends, in one call instead of ~10 numpy calls a set. With equal weights, or with
a chooser's (the double oracle's best responses): then the weighted closures
(close_by_weighted_candidates), scores, classes and class bounds of weighted_kernels.py, where
weighted nodes are scored in compiled code (ordering.weighted_kernels_for).

Why it gives the same answers. The recursion, the bounds (the slot table, close_small's
closures and candidates' bound), the order of the guesses (bound, then the sum of squared
class sizes, then the place in the pool), the classes' order (smallest first, ties in reply
order) and the test `value < best` are the Python search's, so a node's best guess is the
first in that order that reaches the least value, whatever the budget and whatever the cache
holds: pruning with a proven bound never drops a guess that could be strictly better. The pool
is every guess (or the candidates), without the game's symmetry: guesses of one orbit have the
same bound, spread and value, and the Python search keeps the least guess of each orbit
(`representatives`), which is the one met first here. Only the proven bounds returned on a
failed search (value >= budget) may differ, as both are bounds, and the sets searched are
counted here too (Stats.nodes), with the compiled cache's hits in place of the Python one's.

The compiled cache: open addressing over the sets (their secrets in a flat array), each with
its proven bound, exact value and best guess (or CLOSED_HERE: its bound is close_small's),
keyed by the guesses left only under a depth limit, as cache.py keys them; when full it is
cleared (only speed depends on it).

Limits. One call could search for minutes (819 s on full Jotto), deaf to the deadline and to
Ctrl-C, which Python handles only between its own instructions. So a call stops before
searching a set once it has searched a chunk of sets (about CHUNK_SECONDS' worth), caching
nothing half-searched, and returns to Python, which checks the deadline (and handles a
signal) and calls again: the sets finished before are answered by the compiled cache, and
only the sets on the path to where it stopped are searched again (35 sets more in 29,819 on
jotto:first=200 with the least chunk). The values and trees are the same (the order of the
search is the same); only the counts of sets searched grow by those few.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable

import numpy as np

from ...core.errors import Compiling
from ...core.game import Game, Index, Indexes
from ..bounds import slot_depths, slot_table
from .closures import MID_SET

#: Sets of at most this many secrets are solved, their whole subtree, by the compiled search.
SMALL_TREE = MID_SET
#: Games with a table of at least this many cells (guesses x secrets) search small subtrees in
#: compiled code: below, a whole search costs less than loading numba and the compiled loops
#: (about 0.6 s of CPU; 4x6, 1.7 M cells: 0.50 s of search in Python, 0.38 s compiled).
COMPILED_CELLS = 1 << 21
#: Slots of the compiled cache (a power of two); half of them may hold an entry.
CACHE_SLOTS = 1 << 19
#: Secrets the compiled cache's keys may hold in all, per entry on average.
KEY_SECRETS = 24
#: A compiled call returns to Python after about this many seconds (a chunk of sets searched),
#: where the deadline is checked and signals (Ctrl-C) are handled; the next call takes up where
#: it stopped, the sets finished before read from the compiled cache (a few sets searched again).
CHUNK_SECONDS = 0.25
#: The first chunk's sets, before the search's own speed is measured.
FIRST_CHUNK = 1 << 12
#: What a first run pays to compile the kernels (numba; benchmarks/bench_coldstart.py), said on
#: stderr, with the set-up step that pays it ahead (warm.py).
COMPILE_NOTE = (
    "compiling the exact search's kernels (first run only: about half a minute, cached for the next runs;"
    " `arena warm` does it ahead)..."
)
_announced = False  # the kernels' cache was looked at (once a process)

#: The fewest sets in a chunk: more than a path of the search holds (a set's path has fewer sets
#: than the set has secrets), which a call takes up again, so that every chunk gets further.
MIN_CHUNK = 2 * SMALL_TREE


class SmallTrees:
    """The compiled search of small subtrees for one Search: the game's arrays, the slot
    tables for every b, and the compiled cache, kept between calls."""

    def __init__(
        self, game: Game, consistent: bool, keyed: bool, hit: int, b_max: int, weights: np.ndarray | None = None
    ):
        self.by_secret = _read_only(game.by_secret)
        self.table = _read_only(game.table)
        self.secret_guess = np.ascontiguousarray(game.secret_guess, dtype=np.int64)
        self.same_secret = np.ascontiguousarray(game.same_secret, dtype=np.int64)
        announce_compiling()
        n_secrets = len(game.secrets)
        self.T = np.stack([slot_table(n_secrets, max(b, 1)) for b in range(b_max + 1)])
        #: the secrets' weights (None: all 1) and, for weighted searches, the slot depths for every b
        self.w = np.ones(n_secrets) if weights is None else np.array(weights, dtype=np.float64)
        weighted = bool(np.any(self.w != 1.0))
        self.D = np.stack([slot_depths(n_secrets, max(b, 1)) for b in range(b_max + 1 if weighted else 1)])
        self.params = np.array([hit, game.n_codes, int(consistent), int(keyed), b_max, int(weighted)], dtype=np.int64)
        self.slots = np.full(CACHE_SLOTS, -1, dtype=np.int64)
        self.keys = np.zeros((CACHE_SLOTS // 2, 5), dtype=np.int64)
        self.values = np.zeros((CACHE_SLOTS // 2, 2), dtype=np.float64)
        self.store = np.zeros(CACHE_SLOTS // 2 * KEY_SECRETS, dtype=np.int64)
        self.counters = np.zeros(6, dtype=np.int64)  # tree_kernels._ENTRIES ... _STOPPED
        self.chunk = FIRST_CHUNK  # the sets a call searches before it returns to Python
        #: called between the chunks of a long compiled search (the search's deadline check)
        self.between: Callable[[], None] = _nothing
        #: the sets searched when the call under way began, and the count at which a chunk
        #: stops at the latest (`stop_at()`, None: no such count; the search's node limit)
        self.entered = 0
        self.stop_at: Callable[[], int | None] = _no_stop
        self.mark = np.zeros(n_secrets, dtype=np.int8)
        self.work = np.zeros(game.n_codes, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """The sets searched (their pool scored) by the compiled search so far."""
        return int(self.counters[2])  # tree_kernels._NODES

    def _start(self) -> float:
        """Arm the next call to stop after a chunk of sets; its start time."""
        self.counters[5] = 0  # tree_kernels._STOPPED
        stop = self.counters[2] + self.chunk  # _STOP_AT: _NODES + a chunk
        cap = self.stop_at()
        self.counters[4] = stop if cap is None else min(stop, max(cap, self.counters[2] + 1))
        return time.perf_counter()

    def _stopped(self, started: float, cleared: int) -> bool:
        """Whether the call just made stopped after its chunk; if so, size the next chunk to
        CHUNK_SECONDS at the speed measured, call `between` (which may raise Timeout), and
        let Python handle its signals (a pending KeyboardInterrupt is raised here)."""
        if not self.counters[5]:
            return False
        seconds = max(time.perf_counter() - started, 1e-6)
        chunk = int(min(max(self.chunk * CHUNK_SECONDS / seconds, MIN_CHUNK), 1 << 40))
        if self.counters[3] != cleared:
            # the compiled cache was cleared in the chunk: the next one takes up where this one
            # stopped only if it can redo what was forgotten, so it is never shorter
            chunk = max(chunk, 2 * self.chunk)
        self.chunk = chunk
        self.between()
        return True

    def arrays(self) -> tuple:
        """What the compiled loops take besides a call's own arguments: the game's arrays, the
        cache's, and the scratch arrays."""
        game = (self.by_secret, self.table, self.secret_guess, self.same_secret, self.T, self.params, self.w, self.D)
        return game, (self.slots, self.keys, self.values, self.store, self.counters), self.mark, self.work

    def open_guess(
        self, guess: Index, S: Indexes, limit: float, left: int, b: int, largest: int
    ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """hits.slot_value before any class is searched: (the total bound, the classes' secrets
        one after another, where each class ends, their replies, their bounds, how many
        classes were bounded from the cache or closed), with known_class_bounds done for the
        classes of at most `largest` secrets (the first ones: smallest first)."""
        from .tree_kernels import open_guess  # lazy: numba

        game, cache, _, work = self.arrays()
        S = np.ascontiguousarray(S, dtype=np.int64)
        total, member, ends, codes, bounds, reached = open_guess(
            int(guess), S, float(limit), int(left), int(b), int(largest), game, cache, work
        )
        return float(total), member, ends, codes, bounds, int(reached)

    def open_first(
        self,
        guesses: np.ndarray,
        bounds: np.ndarray,
        S: np.ndarray,
        limit: float,
        left: int,
        b: int,
        largest: int,
        met: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    ) -> tuple:
        """open_guess on `guesses` in turn (int64, `bounds` their node bounds, S int64) as far as
        the first opened below `limit`, in one compiled call (tree_kernels.open_first): (where
        it stopped, why: 0 none left, 1 a bound reached the limit, 2 opened below it; the least
        total of those cut, how many were opened, then open_guess's tuple for the one below)."""
        from .tree_kernels import open_first  # lazy: numba

        game, cache, _, work = self.arrays()
        return open_first(guesses, bounds, S, float(limit), int(left), int(b), int(largest), game, cache, work, met)

    def solve_classes(
        self,
        classes: tuple[np.ndarray, np.ndarray, np.ndarray],
        total: float,
        limit: float,
        left: int,
        b: int,
        largest: int,
        roots: np.ndarray | None = None,
    ) -> tuple[float, int]:
        """hits.slot_value's searches of its classes of at most `largest` secrets, in order,
        until the total reaches `limit`: (the total, how many classes were searched).
        `classes`: open_guess's (secrets one class after another, where each ends, their
        bounds); `roots`: the guesses tried at each class (roots_of), None for every guess."""
        member, ends, bounds = classes
        from .tree_kernels import solve_classes  # lazy: numba

        start = 0  # the classes searched by the calls before
        self.entered = self.nodes
        while True:
            cleared, started = int(self.counters[3]), self._start()
            total, done = solve_classes(
                member,
                ends[start:],
                bounds[start:],
                float(total),
                float(limit),
                int(left),
                int(b),
                int(largest),
                *self.arrays(),
                roots_of(roots),
            )
            start += int(done)
            if not self._stopped(started, cleared):
                return float(total), start

    def exact_guess(self, S: Indexes, left: int) -> Index | None:
        """The best guess the compiled cache holds for S with `left` guesses to spend, if it
        holds S's exact value, else None; read in plain Python (the kernels' own hash), so that
        reading a tree back after a search loads no kernel for the sets the compiled search
        solved (loading solve_set for that alone was 2-4% of 4x8 without repeats)."""
        from .tree_cache import set_hash  # lazy: numba (loaded already, by this object's making)

        secrets, n, keyed = [int(s) for s in S], len(S), bool(self.params[3])  # tree_kernels._KEYED
        h = getattr(set_hash, "py_func", set_hash)(secrets, n, left, keyed)  # the tests run it plain already
        mask = len(self.slots) - 1
        at = h & mask
        while (e := int(self.slots[at])) >= 0:
            key = self.keys[e]
            if key[0] == h and key[2] == n and (not keyed or key[3] == left):
                if self.store[key[1] : key[1] + n].tolist() == secrets:
                    return int(key[4]) if self.values[e, 0] == self.values[e, 1] else None
            at = (at + 1) & mask
        return None

    def solve_set(
        self,
        S: Indexes,
        budget: float,
        left: int,
        parts: int,
        known: float,
        asked: bool,
        roots: np.ndarray | None = None,
    ) -> tuple[float, Index]:
        """Search.solve for a small set (its value if below `budget`, else a proven bound
        >= budget) and its best guess (-1 with a bound); `known`: a bound already proven,
        `asked`: close_small's bound is among them; `roots`: the guesses tried at S (roots_of),
        None for every guess."""
        from .tree_kernels import solve_set  # lazy: numba, only for searches that meet a small set

        S = np.ascontiguousarray(S, dtype=np.int64)
        self.entered = self.nodes
        while True:
            cleared, started = int(self.counters[3]), self._start()
            value, guess = solve_set(
                S, float(budget), int(left), int(parts), float(known), bool(asked), *self.arrays(), roots_of(roots)
            )
            if not self._stopped(started, cleared):
                return float(value), int(guess)


def roots_of(mask: np.ndarray | None) -> np.ndarray:
    """The pool of a compiled call's first set, as the kernels take it: a flag per guess (one
    guess per orbit of the history's symmetry: the Python search's representatives, which have
    the same bound, spread and value as the rest of their orbit and come first in it), or an
    empty array for every guess. Always a fresh writable C array of bools: a read-only one is
    another type, which numba would compile again."""
    if mask is None:
        return np.zeros(0, dtype=np.bool_)
    return np.array(mask, dtype=np.bool_, order="C")


def _nothing() -> None:
    """No check between chunks (a SmallTrees made outside a Search)."""


def _no_stop() -> int | None:
    """No count of sets to stop at (a SmallTrees made outside a Search)."""
    return None


def _read_only(table: np.ndarray) -> np.ndarray:
    """A C-contiguous read-only view of a game's table: numba compiles a kernel once per
    argument type, and a writable array is a type of its own (the games' tables are read-only:
    a table made writable somewhere would cost a first run another half minute)."""
    view = np.ascontiguousarray(table).view()
    view.flags.writeable = False
    return view


def reply_table(most: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """An empty table of the reply vectors met at a node, for open_first and at most `most`
    guesses: (slots, a power of two at least twice `most`, each -1 or an entry; the entries'
    hashes; their guesses; [the entries' count])."""
    from .met_replies import new_met  # lazy: numba

    return new_met(most)


def compile_ahead(small: SmallTrees | None) -> None:
    """Compile the three kernels for this game's arrays in this process (or load them from
    numba's cache) with one search of a tiny set, then forget that search. The split calls it
    before it forks its workers, which then inherit the compiled code: otherwise each worker
    compiles it for itself (4x7, 2 workers, a fresh cache: 63 s of CPU against 18 s warm)."""
    if small is None:
        return
    S = np.arange(min(3, len(small.mark)), dtype=np.int64)
    left, b = 3, int(small.params[4])  # tree_kernels._BMAX
    try:
        total, member, ends, _, bounds, _ = small.open_guess(0, S, np.inf, left, b, SMALL_TREE)
        small.solve_classes((member, ends, bounds), total, np.inf, left - 1, b, SMALL_TREE)
        small.open_first(np.zeros(1, np.int64), np.zeros(1), S, np.inf, left, b, SMALL_TREE, reply_table(1))
        small.solve_set(S, np.inf, left, b, 0.0, False)
    finally:  # the search's own cache starts empty, as a SmallTrees is made
        small.slots.fill(-1)
        small.counters.fill(0)
        small.chunk = FIRST_CHUNK


def announce_compiling() -> None:
    """Warn (Compiling) once a process when numba's cache holds no compiled code for the
    kernels' current source: the first call then compiles them, for about half a minute."""
    global _announced
    if _announced:
        return
    _announced = True
    from . import tree_kernels  # lazy: numba

    entries = (tree_kernels.solve_set, tree_kernels.open_guess, tree_kernels.solve_classes, tree_kernels.open_first)
    if not all(_compiled(kernel) for kernel in entries):
        warnings.warn(COMPILE_NOTE, Compiling, stacklevel=2)


def _compiled(kernel) -> bool:
    """Whether a numba function is compiled in this process or in numba's cache for its current
    source (an index file that is absent, of another numba or of an older source counts for
    nothing); True where that cannot be told (plain Python functions: the tests)."""
    try:
        return bool(kernel.signatures) or bool(kernel._cache._cache_file._load_index())
    except Exception:  # not a numba dispatcher, or another numba's internals: say nothing
        return True
