"""A small learner, numpy only: a guesser learned by Monte-Carlo control over candidate sets,
the worked example of a policy trained outside the arena's solvers and then played in its
tournaments (examples/learned_guesser.ipynb; docs/howto/bridges.md).

The learner plays the game move by move as the environments of arena.bridges.envs do (arena.play.moves.Play:
the chooser's replies, checked by the referee's own check; the useful guesses as its actions;
minus one per guess, or per miss, as reward). Its state is the candidate set, so what it
learns in one line of play serves every line that leads to the same candidates. Each position
is a bandit over its useful guesses: after a game, the value of each (position, guess) played
moves to the mean of what the rest of the game cost from there (every-visit Monte Carlo, no
bootstrapping). Values start at 0, above every true value (each costs at least a guess), so
the learner tries each guess of a position before it settles (optimism), and it explores at
random, less and less (epsilon-greedy, epsilon from 1 down to 0).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from arena.core.game import Game
from arena.core.players import ChooserProtocol
from arena.core.seeding import mix64
from arena.core.state import State
from arena.play.match import checked_reply
from arena.play.moves import Play, candidates_key

from .learned import Observation


@dataclass
class Learner:
    """Values per candidate set (its key) over that set's useful guesses, and their counts."""

    game: Game
    q: dict[str, np.ndarray] = field(default_factory=dict)
    moves: dict[str, np.ndarray] = field(default_factory=dict)
    visits: dict[str, np.ndarray] = field(default_factory=dict)

    def values(self, play: Play) -> tuple[str, np.ndarray, np.ndarray]:
        """The key of the position, its useful guesses and their values (made on first visit)."""
        key = candidates_key(play.candidates)
        if key not in self.q:
            self.moves[key] = play.legal()
            self.q[key] = np.zeros(len(self.moves[key]))
            self.visits[key] = np.zeros(len(self.moves[key]))
        return key, self.moves[key], self.q[key]

    def act(self, observation: Observation) -> int:
        """The greedy guess (highest value, the lowest index among ties): the policy learned.
        A position never visited gets the first useful guess."""
        key = candidates_key(np.flatnonzero(observation["candidates"]))
        if key not in self.q:
            return int(np.flatnonzero(observation["action_mask"])[0])
        return int(self.moves[key][int(np.argmax(self.q[key]))])

    def episode(self, chooser: ChooserProtocol, seed: int, rng: np.random.Generator, epsilon: float) -> float:
        """One game against `chooser` (started with `seed`), a random useful guess with
        probability `epsilon`, then learned from; what it cost."""
        game = self.game
        chooser.start(game, game.all_secrets, seed)
        play = Play.start(game)
        if chooser.secret is not None:
            play.choose(chooser.secret)
        else:
            openings = game.openings(game.all_secrets)
            play.open(*openings[chooser.opening(game, openings)])
        played: list[tuple[str, int, float]] = []
        while not play.done:
            key, moves, q = self.values(play)
            k = int(rng.integers(len(moves))) if rng.random() < epsilon else int(np.argmax(q))
            state = State(play.candidates, tuple(play.history))
            reply, _ = checked_reply(game, chooser, state, int(moves[k]), play.guesses + 1)
            before = play.payoff()
            play.guess(int(moves[k]), reply)
            played.append((key, k, before - play.payoff()))  # minus what the guess cost
        rest = 0.0
        for key, k, reward in reversed(played):
            rest += reward
            self.visits[key][k] += 1
            self.q[key][k] += (rest - self.q[key][k]) / self.visits[key][k]
        return play.payoff()


def train(game: Game, chooser: ChooserProtocol, episodes: int = 5000, seed: int = 0) -> tuple[Learner, np.ndarray]:
    """A Learner trained for `episodes` games against `chooser` (seeded from `seed`: the same
    seed learns the same values), and what each game cost."""
    learner = Learner(game)
    rng = np.random.default_rng(seed)
    costs = [learner.episode(chooser, mix64(seed, k), rng, 1 - k / episodes) for k in range(episodes)]
    return learner, np.array(costs)
