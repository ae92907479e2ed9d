"""The two plain guessers: the lowest consistent code, and a uniformly random consistent one."""

from __future__ import annotations

from arena.game import Game, Index
from arena.spec import Param

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
    traits = {"deterministic": False, "uses_history": True}

    def __init__(self, **values):
        super().__init__(**values)
        self.entropy: tuple[int, ...] = (self.values["seed"],)

    def seeded(self, *entropy: int) -> "RandomConsistent":
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

_MASK = (1 << 64) - 1


def mix64(*values: int) -> int:
    """A 64-bit hash of a sequence of integers (SplitMix64 steps): uniform enough that
    `mix64(...) % k` is a fair draw for any k far below 2**64, and the same on every machine."""
    state = 0x9E3779B97F4A7C15
    for v in values:
        state = (state ^ (int(v) & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
        state = (state ^ (state >> 27)) * 0x94D049BB133111EB & _MASK
        state ^= state >> 31
        state = (state + 0x9E3779B97F4A7C15) & _MASK
    return state
