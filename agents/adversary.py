"""The `minimax` chooser: a look-ahead adversary that keeps the hardest class, not the largest.

Like `evil` it holds no secret. For each reply it could give, it asks how many more guesses
(Hangman: misses) the *best* guesser would still need in the worst case if it gave that reply,
and gives the reply where that is largest; ties go to the larger class, then to the reply that
reveals least, then to the lowest code.

The worst case W(C) of a class C is the minimax value of the game from C:

    Jotto, Mastermind:  W(C) = min_g max_r [1 + (0 if r is the hit else W(C_r))],   W({s}) = 1
    Hangman (misses):   W(C) = min_l max_r [miss(r) + W(C_r)],                       W(C) = 0 if |C| <= 1

over every guess g that splits C. Classes of at most `exact` secrets are solved exactly, with
memoised depth-first search (the guesses tried in order of a cheap lower bound, each abandoned
as soon as it cannot beat the best so far). A larger class is searched `depth` guesses deep
(default 0: not at all), and below that W is estimated (`fallback=`):

- `greedy` (default): the worst case of a greedy guesser's tree grown on the class (Knuth's
  smallest-largest-class rule over the consistent guesses; Hangman: the letter in the most
  words). The best guesser can only do better, so this is an upper bound on W; it ranks big
  classes by how hard they really are, where their size alone misleads (Hangman's _atch words).
- `size`: the class size, as a lower bound from counting (t guesses with K non-hit replies tell
  apart at most 1 + K + K^2 + ... secrets; Hangman: 0 misses), ties to the larger class. Cheap,
  but weak: exactly solved small classes then often outrank big ones that are harder.

With exact=0 and fallback=size it is the evil rule with the hit held back.
"""

from __future__ import annotations

import numpy as np

from arena.errors import ArenaError
from arena.game import Game, Index, Indexes, Reply
from arena.spec import Param
from arena.traits import Traits

from .base import State
from .chooser import Chooser, largest_class

_DEEP = 10**6  # the look-ahead "depth" of an exact search: never runs out
_INF = 10**9
_DEDUPE = 24  # classes this small have their guesses grouped by the partition they make


class WorstCase:
    """W(C) for one game: exact for small classes, bounded look-ahead above (module docstring)."""

    def __init__(self, game: Game, exact: int, fallback: str = "greedy"):
        self.game, self.exact, self.fallback = game, exact, fallback
        self.greedy = None
        self.upper: dict[bytes, int] = {}
        self.hits = game.hit is not None  # payoff: guesses (hit games) or misses (Hangman)
        self.memo: dict[tuple[bytes, int], int] = {}
        non_hit = [c for c in game.codes.tolist() if c != game.hit]
        self.branches = max(1, len(non_hit))
        self.codes_are_columns = game.n_codes <= 64  # partition_counts columns are the codes themselves
        self._bounds = np.zeros(2, dtype=np.int64)

    # --- the pieces of the recurrence -----------------------------------------------------
    def step(self, reply: Reply) -> int:
        """What one reply costs the guesser: a guess, or (Hangman) a miss."""
        return 1 if self.hits else int(self.game.is_miss(reply))

    def after(self, reply: Reply, part: Indexes, depth: int) -> int:
        """The worst case after this reply: the reply's cost and the class's value."""
        return self.step(reply) + (0 if self.game.finished(reply) else self.value(part, depth))

    def terminal(self, candidates: Indexes) -> int | None:
        n = len(candidates)
        if self.hits:
            return 0 if n == 0 else 1 if n == 1 and self.game.secret_guess[candidates[0]] >= 0 else None
        return 0 if self.game.determined(candidates) else None

    def bound(self, n: int) -> int:
        """A lower bound on W of a class of n secrets, from its size alone."""
        if not self.hits:
            return 0
        if n >= len(self._bounds):  # grow the table: smallest t with n <= f(t), f(t) = 1 + K f(t-1)
            table, t, reach = [0], 1, 1
            for size in range(1, 2 * n + 2):
                while size > reach:
                    t, reach = t + 1, 1 + self.branches * reach
                table.append(t)
            self._bounds = np.array(table, dtype=np.int64)
        return int(self._bounds[n])

    def guess_bounds(self, counts: np.ndarray) -> np.ndarray:
        """A lower bound per guess, from its partition counts: the max over its classes."""
        self.bound(int(counts.max(initial=0)))
        if not self.hits:
            return (counts[:, 0] > 0).astype(np.int64)  # column 0 is the miss
        each = np.where(counts > 0, 1 + self._bounds[counts], 0)
        if self.codes_are_columns:
            each[:, self.game.hit] = counts[:, self.game.hit] > 0  # guessing the secret costs just that guess
        else:  # columns are not codes: a class of one may be the hit
            each = np.where(counts == 1, 1, each)
        return each.max(axis=1)

    def greedy_worst(self, candidates: Indexes) -> int:
        """The worst case of a greedy guesser from this class: an upper bound on W."""
        key = candidates.tobytes()
        if key not in self.upper:
            from arena.tree import grow_tree
            from .registry import make_guesser

            if self.greedy is None:
                self.greedy = make_guesser("minimax:pool=consistent" if self.hits else "max-frequency:tiebreak=first")
            tree = grow_tree(self.game, self.greedy, candidates)
            cost = tree.guesses if self.hits else tree.misses
            self.upper[key] = int(cost[candidates].max())
        return self.upper[key]

    # --- the search -------------------------------------------------------------------------
    def value(self, candidates: Indexes, depth: int) -> int:
        """W(candidates): exact if at most `exact` secrets, else searched `depth` guesses deep."""
        done = self.terminal(candidates)
        if done is not None:
            return done
        n = len(candidates)
        if n <= self.exact:
            depth = _DEEP
        elif depth <= 0:
            return self.bound(n) if self.fallback == "size" else self.greedy_worst(candidates)
        key = (candidates.tobytes(), depth)
        if key not in self.memo:
            self.memo[key] = self._search(candidates, depth)
        return self.memo[key]

    def distinct(self, candidates: Indexes, guesses: Indexes) -> Indexes:
        """One guess per distinct partition of a small class: guesses that split it the same way
        (the same classes, the same hit) have the same value, so only the first is searched."""
        rows = self.game.table[guesses[:, None], candidates[None, :]]
        same = rows[:, :, None] == rows[:, None, :]
        canon = same.argmax(axis=2)  # each secret labelled by the first secret in its class
        # the class that costs differently is told apart: the hit (one guess) or the miss (a strike)
        special = rows == self.game.hit if self.hits else rows == 0
        canon = np.where(special, len(candidates), canon)
        # pack 5-bit labels (at most 24 < 32) into 64-bit keys, 12 a key: a fast 1-d unique
        keys = [(canon[:, a:a + 12].astype(np.uint64) << (np.arange(min(12, canon.shape[1] - a), dtype=np.uint64)
                                                       * np.uint64(5))).sum(axis=1, dtype=np.uint64)
                for a in range(0, canon.shape[1], 12)]
        if len(keys) == 1:
            _, first = np.unique(keys[0], return_index=True)
        else:
            order = np.lexsort(keys[::-1])
            stacked = np.stack(keys, axis=1)[order]
            first = order[np.concatenate(([True], (np.diff(stacked, axis=0) != 0).any(axis=1)))]
        return guesses[np.sort(first)]

    def _search(self, candidates: Indexes, depth: int) -> int:
        game, n = self.game, len(candidates)
        counts = game.partition_counts(None, candidates)
        lower = self.guess_bounds(counts)
        splits = np.flatnonzero(counts.max(axis=1) < n)  # a guess that splits nothing learns nothing
        if not len(splits):
            raise ArenaError(f"minimax chooser: no guess of {game.spec} tells apart "
                             f"{', '.join(game.secrets[s] for s in candidates[:3])}")
        if n <= _DEDUPE:
            splits = self.distinct(candidates, splits)
        # fewest-bound first; among equals, the smallest largest class (likeliest to be best)
        order = splits[np.lexsort((counts[splits].max(axis=1), lower[splits]))]
        floor = max(self.bound(n), 2 if self.hits else 0)  # no guess can do better than this
        best = _INF
        for guess in order.tolist():
            if lower[guess] >= best:
                break
            parts = sorted(game.partition(guess, candidates).items(), key=lambda rp: -len(rp[1]))
            worst = 0
            for reply, part in parts:  # the largest classes first: the likeliest to cut off early
                worst = max(worst, self.after(reply, part, depth - 1))
                if worst >= best:
                    break
            best = min(best, worst)
            if best <= floor:
                break
        return best


class Minimax(Chooser):
    """Give the reply after which the best guesser still needs the most (see the module docstring)."""

    name = "minimax"
    summary = "look-ahead adversary: the reply after which the best guesser needs the most guesses (misses)"
    params = {
        "depth": Param("depth", int, 0, "guesses of look-ahead for classes too big to solve exactly"),
        "exact": Param("exact", int, 12, "solve classes of at most this many secrets exactly"),
        "fallback": Param("fallback", ("greedy", "size"), "greedy",
                          "beyond that, estimate a class by a greedy guesser's worst case, or by its size"),
    }
    traits = Traits(adversary=True)

    def __init__(self, **values):
        super().__init__(**values)
        for key in ("depth", "exact"):
            if self.values[key] < 0:
                raise ArenaError(f"chooser minimax: {key} must be 0 or more, got {self.values[key]}")
        self._searches: dict[int, tuple[Game, WorstCase]] = {}

    def search_for(self, game: Game) -> WorstCase:
        if id(game) not in self._searches:  # the game is held, so its id is not reused
            self._searches[id(game)] = (game, WorstCase(game, self.values["exact"], self.values["fallback"]))
        return self._searches[id(game)][1]

    def reply(self, game: Game, state: State, guess: Index) -> Reply:
        search = self.search_for(game)
        value = np.full(game.n_codes, -1, dtype=np.int64)
        for reply, part in game.partition(guess, state.candidates).items():
            value[reply] = search.after(reply, part, self.values["depth"])
        return largest_class(game, state.candidates, guess, value)


AGENTS = [Minimax]
