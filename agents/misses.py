"""The exact Hangman guesser: fewest expected misses, or fewest lost games, by exhaustive search.

For a candidate set S, with each informative letter l splitting S into classes C (the miss
class among them), the value is

    misses:  V(S)    = min_l  sum_C |C|/|S| * ([C is the miss class] + V(C)),   V(S) = 0 if |S| <= 1
    lost:    L(S, k) = min_l  sum_C |C|/|S| * L(C, k - [C is the miss class]),
             L(S, 0) = 1 (the strikes ran out), L(S, k) = 0 if |S| <= 1

Both are the one exact search, arena.optimal.search.Search, under the game's misses cost (its
total |S| V(S), or |S| L(S, k) when it counts lost games with k strikes left): depth first,
memoised on the candidate set (and strikes left), a letter abandoned as soon as its bound
cannot beat the best letter so far. Above `exact` candidates the search would explode, so the
guesser plays a greedy metric (`greedy=`) there and is exact below it, which is where the
endgame is decided. Ties go to the alphabetically first letter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from arena.core.costs import Cost, cost_for
from arena.core.errors import ArenaError
from arena.core.game import Game, Index
from arena.core.spec import Param
from arena.core.traits import Traits

from .base import Guesser, State

if TYPE_CHECKING:
    from arena.optimal.search import Search


class FewestMisses(Guesser):
    """Exact for small candidate sets: the letter minimising expected misses (or lost games)."""

    name = "fewest-misses"
    summary = "exact search for the fewest expected misses (objective=lost: fewest lost games) below exact=N words"
    params = {
        "exact": Param("exact", int, 20, "search exactly with this many candidates or fewer"),
        "objective": Param("objective", ("misses", "lost"), "misses", "what to minimise"),
        "greedy": Param(
            "greedy",
            ("max-frequency", "expected", "entropy", "minimax", "most-parts"),
            "max-frequency",
            "the scoring guesser used above the exact limit",
        ),
    }
    traits = Traits(uses_history=True)

    def __init__(self, **values):
        super().__init__(**values)
        if self.values["exact"] < 1:
            raise ArenaError("fewest-misses: exact must be at least 1")
        from .registry import make_guesser

        self.greedy = make_guesser(f"{self.values['greedy']}:tiebreak=first")

    def check(self, game: Game) -> None:
        self.strikes(game)

    @staticmethod
    def strikes(game: Game) -> int:
        """The game's strike limit; a game without strikes is refused."""
        if not game.rules.strikes or game.strikes is None:
            raise ArenaError(f"fewest-misses plays games with strikes (hangman), not {game.spec}")
        return game.strikes

    def choose(self, game: Game, state: State) -> Index:
        self.strikes(game)
        if len(state.candidates) > self.values["exact"]:
            return self.greedy.choose(game, state)
        cost, left = self.cost_now(game, state)
        letter = self.search(game, cost).best_guess(state.candidates, left)
        return letter if letter >= 0 else self.greedy.choose(game, state)

    def cost_now(self, game: Game, state: State) -> tuple[Cost, int | None]:
        """The cost to play for now and what is left of its limit (None: no limit, the
        search's own): lost games with the strikes left, or once the game is lost the fewest
        misses, as nothing is left to lose (Cost.after); the misses, without a limit."""
        cost = cost_for(game, self.values["objective"])
        limit = cost.default_limit()  # lost games: the strikes
        if limit is None:
            return cost, None
        return cost.after(game, limit - cost.counted.spent(game, [r for _, r in state.history]))

    def search(self, game: Game, cost: Cost) -> Search:
        """The one exact search under `cost` (lost games: within the game's strikes), kept per
        game spec and cost so its memo serves every word of the game."""
        from arena.optimal.search import Search  # arena.optimal imports the agents: loaded when one plays

        return self.per_game(game, f"search-{cost.name}", lambda: Search(game, np.ones(len(game.secrets)), cost=cost))


AGENTS = [FewestMisses]
