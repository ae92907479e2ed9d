"""Whole small subtrees of the exact search in compiled code (numba): the same branch and bound
as branch.py, hits.py, closures.py and scoring.py, for a set of at most SMALL_TREE secrets of
equal weight on a game that a hit ends, in one call instead of ~10 numpy calls a set.

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
"""

from __future__ import annotations

import numpy as np

from ...game import Game, Index, Indexes
from ..bounds import slot_table
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


class SmallTrees:
    """The compiled search of small subtrees for one Search: the game's arrays, the slot
    tables for every b, and the compiled cache, kept between calls."""

    def __init__(self, game: Game, consistent: bool, keyed: bool, hit: int, b_max: int):
        self.by_secret = np.ascontiguousarray(game.by_secret)
        self.table = np.ascontiguousarray(game.table)
        self.secret_guess = np.ascontiguousarray(game.secret_guess, dtype=np.int64)
        self.same_secret = np.ascontiguousarray(game.same_secret, dtype=np.int64)
        n_secrets = len(game.secrets)
        self.T = np.stack([slot_table(n_secrets, max(b, 1)) for b in range(b_max + 1)])
        self.params = np.array([hit, game.n_codes, int(consistent), int(keyed), b_max], dtype=np.int64)
        self.slots = np.full(CACHE_SLOTS, -1, dtype=np.int64)
        self.keys = np.zeros((CACHE_SLOTS // 2, 5), dtype=np.int64)
        self.values = np.zeros((CACHE_SLOTS // 2, 2), dtype=np.float64)
        self.store = np.zeros(CACHE_SLOTS // 2 * KEY_SECRETS, dtype=np.int64)
        self.counters = np.zeros(4, dtype=np.int64)
        self.mark = np.zeros(n_secrets, dtype=np.int8)
        self.work = np.zeros(game.n_codes, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """The sets searched (their pool scored) by the compiled search so far."""
        return int(self.counters[2])  # tree_kernels._NODES

    def arrays(self) -> tuple:
        """What the compiled loops take besides a call's own arguments: the game's arrays, the
        cache's, and the scratch arrays."""
        game = (self.by_secret, self.table, self.secret_guess, self.same_secret, self.T, self.params)
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

    def solve_classes(
        self,
        member: np.ndarray,
        ends: np.ndarray,
        bounds: np.ndarray,
        total: float,
        limit: float,
        left: int,
        b: int,
        largest: int,
    ) -> tuple[float, int]:
        """hits.slot_value's searches of its classes of at most `largest` secrets, in order,
        until the total reaches `limit`: (the total, how many classes were searched)."""
        from .tree_kernels import solve_classes  # lazy: numba

        total, done = solve_classes(
            member, ends, bounds, float(total), float(limit), int(left), int(b), int(largest), *self.arrays()
        )
        return float(total), int(done)

    def solve(self, S: Indexes, budget: float, left: int, parts: int, known: float, asked: bool) -> tuple[float, Index]:
        """Search.solve for a small set (its value if below `budget`, else a proven bound
        >= budget) and its best guess (-1 with a bound); `known`: a bound already proven,
        `asked`: close_small's bound is among them."""
        from .tree_kernels import solve_set  # lazy: numba, only for searches that meet a small set

        value, guess = solve_set(
            np.ascontiguousarray(S, dtype=np.int64),
            float(budget),
            int(left),
            int(parts),
            float(known),
            bool(asked),
            *self.arrays(),
        )
        return float(value), int(guess)
