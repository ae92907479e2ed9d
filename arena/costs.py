"""What a game costs the guesser, secret by secret: the payoffs that solvers minimise.

    guesses  guesses until the secret is named (Jotto, Mastermind), or until it is determined,
             one candidate left (Hangman: letters until the word is known)
    misses   misses until the word is determined: the published Hangman study's cost
    lost     1 if the misses until the word is determined reach the strike limit, else 0:
             the chance of losing, as an expectation over the chooser's words

A game names its usual cost in `game.rules.cost`; `cost_for(game, name)` checks that a cost
fits the game (a game whose guesses hit the secret has only `guesses`; `lost` needs strikes).
A tree (arena.strategy.Tree) carries each secret's guesses and misses, so every cost is read
off a tree by `cost.of(tree)`; the exact search (arena.optimal.search) pays `cost.step(reply)`
per reply on the way down.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import ArenaError, choices
from .game import Game, Reply

COSTS = ("guesses", "misses", "lost")
#: The unit each cost is counted in, for reports ("4.25 misses").
UNITS = {"guesses": "guesses", "misses": "misses", "lost": "lost games"}


@dataclass(frozen=True)
class Cost:
    """One of COSTS on one game: `strikes` is the misses that lose (for `lost`)."""

    name: str
    strikes: int | None = None

    @property
    def unit(self) -> str:
        return UNITS[self.name]

    def step(self, game: Game, reply: Reply) -> int:
        """What one reply adds to the misses or guesses counted (`lost` counts misses)."""
        return 1 if self.name == "guesses" else int(game.is_miss(reply))

    def of(self, tree) -> np.ndarray:
        """cost[s] for every secret of the game (0 for those the tree does not cover), int64."""
        if self.name == "guesses":
            return np.asarray(tree.guesses, dtype=np.int64)
        if self.name == "misses":
            return np.asarray(tree.misses, dtype=np.int64)
        return (np.asarray(tree.misses) >= self.strikes).astype(np.int64)


def costs_of(game: Game) -> tuple[str, ...]:
    """The costs that fit the game: only `guesses` where a guess may hit the secret; where the
    game ends once the secret is determined, also `misses`, and `lost` if misses are strikes."""
    if game.rules.hits:
        return ("guesses",)
    return ("guesses", "misses", "lost") if game.rules.strikes and game.strikes else ("guesses", "misses")


def cost_for(game: Game, name: str | None = None) -> Cost:
    """The cost `name` (default: the game's own, `game.rules.cost`) on this game, or an
    ArenaError naming the costs that fit it."""
    name = game.rules.cost if name is None else name
    if name not in COSTS:
        raise ArenaError(f"unknown cost {name!r}; costs: {choices(COSTS)}")
    if name not in costs_of(game):
        raise ArenaError(f"{game.spec}: the cost {name!r} does not fit this game; it has {choices(costs_of(game))}")
    return Cost(name, game.strikes if name == "lost" else None)
