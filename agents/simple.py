"""The two plain guessers: the lowest consistent code, and a uniformly random consistent one."""

from __future__ import annotations

from arena.core.game import Game, Index
from arena.core.seeding import mix64
from arena.core.spec import Param
from arena.core.traits import Traits

from .base import Guesser, State


class Lowest(Guesser):
    """Always guess the first secret still possible, in the game's order (Mastermind's LC)."""

    name = "lowest"
    summary = "the first consistent secret in the game's order (LC)"

    def choose(self, game: Game, state: State) -> Index:
        return int(game.candidate_guesses(state.candidates)[0])


class RandomConsistent(Guesser):
    """Guess a secret drawn uniformly from those still possible (Mastermind's RC).

    Each draw is a hash of (seed, stream, the moves so far), so a seeded guesser is a fixed
    random tree: the same seed plays the same game whatever the order or the process in which
    games are played, and growing the tree against every secret costs one hash per node.
    """

    name = "random"
    summary = "a uniformly random consistent secret (RC)"
    params = {"seed": Param("seed", int, 0, "random seed")}
    traits = Traits(deterministic=False, uses_history=True)

    def __init__(self, **values):
        super().__init__(**values)
        self.entropy: tuple[int, ...] = (self.values["seed"],)

    def seeded(self, *entropy: int) -> RandomConsistent:
        twin = type(self)(**self.values)
        twin.entropy = tuple(entropy)
        return twin

    def choose(self, game: Game, state: State) -> Index:
        pool = game.candidate_guesses(state.candidates)
        if len(pool) == 1:
            return int(pool[0])
        moves = [x for move in state.history for x in move]
        return int(pool[mix64(*self.entropy, *moves) % len(pool)])


AGENTS = [Lowest, RandomConsistent]
