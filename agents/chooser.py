"""What every chooser is, and the committed choosers: `uniform`, `fixed`, `weighted`.

A chooser is the other half of a game: it answers each guess with a reply code. The referee
(arena.play.match) calls `start(game, secrets, seed)` once per game, then `reply(game, state, guess)`
for every guess, with the guesser's own state (the secrets still possible and the moves so far).
A chooser that studies its opponent (the spoiler) also has `meet(guesser)`, called before `start`.

A *committed* chooser draws a secret in `start` and answers truthfully from the feedback table.
An *adaptive* chooser (agents/evil.py, agents/adversary.py) holds no secret and answers so as to
stay consistent with some secret; the referee refuses any reply that leaves none. An
*adversary* (trait `adversary`: evil, minimax, spoiler) plays each opening (Hangman: each word
length) as a game of its own, and `evaluate_against` reports what it forces in each.

Every random draw is a hash of (seed, ...) as in agents/simple.py, so a seeded chooser draws the
same secret whatever the order or the process in which games are played.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, Index, Indexes, Reply
from arena.core.players import ChooserProtocol
from arena.core.seeding import mix64
from arena.core.spec import Param
from arena.core.state import State
from arena.core.traits import Traits
from arena.core.weights import read_weights, secret_index

from .base import Agent

_TWO64 = 2.0**64


class Chooser(Agent, ChooserProtocol):
    """Base class of choosers (agents.base.Agent, arena.core.players.ChooserProtocol): a subclass
    implements `start` (optional) and `reply`; `opening` and `meet` default in the protocol."""

    role: ClassVar[str] = "chooser"
    name: ClassVar[str] = "chooser"
    traits: ClassVar[Traits] = Traits(committed=True, deterministic=False)

    def __init__(self, **values: Any):
        super().__init__(**values)
        self.secret: Index | None = None  # a committed chooser's secret, once drawn

    def start(self, game: Game, secrets: Indexes, seed: int) -> None:
        """A new game over `secrets`, the secrets it may choose from (a committed chooser draws here)."""
        self.secret = None

    def reply(self, game: Game, state: State, guess: Index) -> Reply:
        raise NotImplementedError


class Committed(Chooser):
    """A chooser that draws its secret in `start` (`draw`) and answers truthfully."""

    traits = Traits(committed=True, deterministic=False)

    def start(self, game: Game, secrets: Indexes, seed: int) -> None:
        self.secret = int(self.draw(game, np.asarray(secrets), seed))

    def draw(self, game: Game, secrets: Indexes, seed: int) -> Index:
        raise NotImplementedError

    def reply(self, game: Game, state: State, guess: Index) -> Reply:
        if self.secret is None:
            raise RuntimeError(f"{self.spec}: reply before start")  # the referee starts every game
        return game.reply(guess, self.secret)


class Uniform(Committed):
    """Every secret equally likely: the chooser every published table assumes."""

    name = "uniform"
    summary = "a secret drawn uniformly (evaluate: every secret once)"
    traits = Committed.traits.but(every_secret_once=True)

    def draw(self, game: Game, secrets: Indexes, seed: int) -> Index:
        return int(secrets[mix64(seed, len(secrets)) % len(secrets)])


class Fixed(Committed):
    """Always the same secret."""

    name = "fixed"
    summary = "always the secret given (fixed:secret=3632)"
    params = {"secret": Param("secret", str, "", "the secret, as the game writes it")}
    traits = Committed.traits.but(deterministic=True)

    def check(self, game: Game) -> None:
        """The secret named is one of the game's."""
        self.draw(game, game.all_secrets, 0)

    def draw(self, game: Game, secrets: Indexes, seed: int) -> Index:
        if not self.values["secret"]:
            raise ArenaError("chooser fixed: give the secret as fixed:secret=WORD")
        secret = secret_index(game, self.values["secret"])
        if secret not in set(np.asarray(secrets).tolist()):
            raise ArenaError(f"chooser {self.label}: {game.secrets[secret]} is not among the secrets of this game")
        return secret


class Weighted(Committed):
    """A secret drawn with given probabilities, read from a weights file (arena.core.weights: lines
    `secret weight`, a JSON object {secret: weight} or a JSON list, one per secret). Weights
    are normalised; secrets not listed have weight 0."""

    name = "weighted"
    summary = "a secret drawn with the probabilities in file= (lines 'secret weight' or JSON)"
    params = {"file": Param("file", str, "", "the weights: 'secret weight' per line, or a JSON object")}

    def __init__(self, **values: Any):
        super().__init__(**values)
        if not self.values["file"]:
            raise ArenaError("chooser weighted: give the weights as weighted:file=PATH")

    def check(self, game: Game) -> None:
        """The file is there and weighs the game's secrets (read once, kept for the games)."""
        self.weights(game)

    def weights(self, game: Game) -> np.ndarray:
        """The probability of every secret of the game (read once per game)."""
        return self.per_game(game, "weights", lambda: self._read_weights(game))

    def _read_weights(self, game: Game) -> np.ndarray:
        """The file's weights (arena.core.weights, the one reader), normalised to probabilities."""
        weights = read_weights(self.values["file"], game)
        if weights.sum() <= 0:
            raise ArenaError(f"weights file {self.values['file']}: the weights add up to 0")
        return weights / weights.sum()

    def draw(self, game: Game, secrets: Indexes, seed: int) -> Index:
        weights = self.weights(game)[secrets]
        if weights.sum() <= 0:
            raise ArenaError(f"chooser {self.label}: no weight on any secret of this game")
        cumulative = np.cumsum(weights) / weights.sum()
        u = mix64(seed, len(secrets)) / _TWO64
        return int(secrets[min(int(np.searchsorted(cumulative, u, side="right")), len(secrets) - 1)])


def largest_class(game: Game, candidates: Indexes, guess: Index, value: np.ndarray | None = None) -> Reply:
    """The reply the evil rule keeps: the one whose class is largest (or, with `value` per code,
    whose value is largest, then whose class is largest); ties go to the reply that reveals
    least, then to the lowest code."""
    replies = game.table[guess, candidates]
    sizes = np.bincount(replies, minlength=game.n_codes)
    present = np.flatnonzero(sizes)
    shown = game.reveals()[present]  # the game says how much each reply tells
    keys = [sizes[present]] if value is None else [sizes[present], value[present]]
    # np.lexsort sorts by the last key first: value, size, then -reveals, then -code
    order = np.lexsort((-present, -shown, *keys))
    return int(present[order[-1]])


AGENTS = [Uniform, Fixed, Weighted]
