"""The `minimax` chooser: a look-ahead adversary that keeps the hardest class, not the largest.

Like `evil` it holds no secret. For each reply it could give, it asks how many more guesses
(Hangman: misses) the *best* guesser would still need in the worst case if it gave that reply,
and gives the reply where that is largest; ties go to the larger class, then to the reply that
reveals least, then to the lowest code.

The worst case W(C) of a class C is the minimax value of the game from C:

    Jotto, Mastermind:  W(C) = min_g max_r [1 + (0 if r is the hit else W(C_r))],   W({s}) = 1
    Hangman (misses):   W(C) = min_l max_r [miss(r) + W(C_r)],                       W(C) = 0 if |C| <= 1

over every guess g that splits C. Classes of at most `exact` secrets are solved exactly by the
project's one exact search (arena.optimal.search.Search.worst_case: the least depth, or number
of misses, within which a tree finds every secret). A larger class is searched `depth` guesses
deep (default 0: not at all), and below that W is estimated (`fallback=`):

- `greedy` (default): the worst case of a greedy guesser's tree grown on the class (Knuth's
  smallest-largest-class rule over the consistent guesses; Hangman: the letter in the most
  words). The best guesser can only do better, so this is an upper bound on W; it ranks big
  classes by how hard they really are, where their size alone misleads (Hangman's _atch words).
- `size`: the class size, as a lower bound from counting (t guesses with b non-hit replies tell
  apart at most 1 + b + b^2 + ... secrets: bounds.min_depth; Hangman: 0 misses), ties to the
  larger class. Cheap, but weak: exactly solved small classes then often outrank big ones that
  are harder.

With exact=0 and fallback=size it is the evil rule with the hit held back.
"""

from __future__ import annotations

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, Index, Indexes, Reply
from arena.core.spec import Param
from arena.core.traits import Traits

from .base import State
from .chooser import Chooser, largest_class

_INF = 10**9


class WorstCase:
    """W(C) for one game: exact for small classes, bounded look-ahead above (module docstring)."""

    def __init__(self, game: Game, exact: int, fallback: str = "greedy"):
        from arena.optimal.search import Search  # arena.optimal imports the agents

        self.game, self.exact, self.fallback = game, exact, fallback
        self.search = Search(game, np.ones(len(game.secrets)))
        self.greedy = None
        self.upper: dict[bytes, int] = {}
        self.memo: dict[tuple[bytes, int], int] = {}

    def after(self, reply: Reply, part: Indexes, depth: int) -> int:
        """The worst case after this reply: the reply's cost and the class's value."""
        return self.search.step(reply) + (0 if self.game.finished(reply) else self.value(part, depth))

    def bound(self, n: int) -> int:
        """A lower bound on W of a class of n secrets, from its size alone (module docstring)."""
        return self.search.bounds.least_depth(n)  # min_depth (bounds.py) under guesses, 0 under misses

    def greedy_worst(self, candidates: Indexes) -> int:
        """The worst case of a greedy guesser from this class: an upper bound on W."""
        key = candidates.tobytes()
        if key not in self.upper:
            from arena.trees.grow import grow_tree

            from .registry import make_guesser

            if self.greedy is None:
                hits = self.game.rules.hits
                self.greedy = make_guesser("minimax:pool=consistent" if hits else "max-frequency:tiebreak=first")
            tree = grow_tree(self.game, self.greedy, candidates)
            self.upper[key] = int(self.search.cost.of(tree)[candidates].max())
        return self.upper[key]

    def value(self, candidates: Indexes, depth: int) -> int:
        """W(candidates): exact if at most `exact` secrets, else searched `depth` guesses deep."""
        n = len(candidates)
        if n == 0 or self.game.determined(candidates):
            return 0
        if n == 1:  # a game with hits: the last secret is named
            return 1
        key = (candidates.tobytes(), depth if n > self.exact else -1)
        if key not in self.memo:
            if n <= self.exact:
                self.memo[key] = self.search.worst_case(candidates)
            elif depth <= 0:
                return self.bound(n) if self.fallback == "size" else self.greedy_worst(candidates)
            else:
                self.memo[key] = self.look_ahead(candidates, depth)
        return self.memo[key]

    def look_ahead(self, candidates: Indexes, depth: int) -> int:
        """min over the guesses that split the class of the max over replies, `depth` deep:
        the guesses in order of their largest class, each dropped once it cannot beat the best."""
        game, n = self.game, len(candidates)
        counts = game.partition_counts(None, candidates)
        largest = counts.max(axis=1)
        splits = np.flatnonzero(largest < n)  # a guess that splits nothing learns nothing
        if not len(splits):
            raise ArenaError(
                f"minimax chooser: no guess of {game.spec} tells apart "
                f"{', '.join(game.secrets[s] for s in candidates[:3])}"
            )
        floor = self.bound(n)  # no guess can do better (two guesses at least for n >= 2 with hits)
        best = _INF
        for guess in splits[np.argsort(largest[splits], kind="stable")].tolist():
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
        "fallback": Param(
            "fallback",
            ("greedy", "size"),
            "greedy",
            "beyond that, estimate a class by a greedy guesser's worst case, or by its size",
        ),
    }
    traits = Traits(adversary=True)

    def __init__(self, **values):
        super().__init__(**values)
        for key in ("depth", "exact"):
            if self.values[key] < 0:
                raise ArenaError(f"chooser minimax: {key} must be 0 or more, got {self.values[key]}")

    def search_for(self, game: Game) -> WorstCase:
        return self.per_game(game, "search", lambda: WorstCase(game, self.values["exact"], self.values["fallback"]))

    def reply(self, game: Game, state: State, guess: Index) -> Reply:
        search = self.search_for(game)
        value = np.full(game.n_codes, -1, dtype=np.int64)
        for reply, part in game.partition(guess, state.candidates).items():
            value[reply] = search.after(reply, part, self.values["depth"])
        return largest_class(game, state.candidates, guess, value)


AGENTS = [Minimax]
