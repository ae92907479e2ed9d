"""The two plain guessers: the lowest consistent code, and a uniformly random consistent one."""

from __future__ import annotations

import numpy as np

from arena.game import Game, Index
from arena.spec import Param

from .base import Guesser, State


class Lowest(Guesser):
    """Always guess the first secret still possible, in the game's order (Mastermind's LC)."""

    name = "lowest"
    summary = "the first consistent secret in the game's order (LC)"

    def choose(self, game: Game, state: State) -> Index:
        return int(game.guesses_naming(state.candidates)[0])


class RandomConsistent(Guesser):
    """Guess a secret drawn uniformly from those still possible (Mastermind's RC).

    Each draw comes from a generator seeded by (seed, stream, the moves so far), so a guesser
    is a fixed random tree: the same seed plays the same game whatever the order or the process
    in which games are played.
    """

    name = "random"
    summary = "a uniformly random consistent secret (RC)"
    params = {"seed": Param("seed", int, 0, "random seed")}
    traits = {"deterministic": False, "uses_history": True}

    def __init__(self, **values):
        super().__init__(**values)
        self.entropy: tuple[int, ...] = (self.values["seed"],)

    def seeded(self, *entropy: int) -> "RandomConsistent":
        twin = type(self)(**self.values)
        twin.entropy = tuple(entropy)
        return twin

    def choose(self, game: Game, state: State) -> Index:
        pool = game.guesses_naming(state.candidates)
        if len(pool) == 1:
            return int(pool[0])
        moves = [x for move in state.history for x in move]
        rng = np.random.default_rng([*self.entropy, *moves])
        return int(pool[rng.integers(len(pool))])
