"""What every chooser is, and the committed choosers: `uniform`, `fixed`, `weighted`.

A chooser is the other half of a game: it answers each guess with a reply code. The referee
(arena.match) calls `start(game, secrets, seed)` once per game, then `reply(game, state, guess)`
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

import json
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from arena.caches import shared_by_game_spec
from arena.errors import ArenaError, choices
from arena.game import Game, Index, Indexes, Reply
from arena.seeding import mix64
from arena.spec import Param
from arena.state import State
from arena.traits import Traits

from .base import Agent

_TWO64 = 2.0**64


class Chooser(Agent):
    """Base class of choosers (agents.base.Agent): a subclass implements `start` (optional)
    and `reply`."""

    role: ClassVar[str] = "chooser"
    name: ClassVar[str] = "chooser"
    traits: ClassVar[Traits] = Traits(committed=True, deterministic=False)

    def __init__(self, **values: Any):
        super().__init__(**values)
        self.secret: Index | None = None  # a committed chooser's secret, once drawn

    def start(self, game: Game, secrets: Indexes, seed: int) -> None:
        """A new game over `secrets`, the secrets it may choose from (a committed chooser draws here)."""
        self.secret = None

    def opening(self, game: Game, openings: list[tuple[str, Indexes]]) -> int:
        """Which of the game's openings (Hangman: word lengths) to play, for a chooser without
        a secret: by default the one with the most secrets, as the evil rule keeps the largest class."""
        return int(np.argmax([len(part) for _, part in openings]))

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

    def draw(self, game: Game, secrets: Indexes, seed: int) -> Index:
        if not self.values["secret"]:
            raise ArenaError("chooser fixed: give the secret as fixed:secret=WORD")
        secret = secret_index(game, self.values["secret"])
        if secret not in set(np.asarray(secrets).tolist()):
            raise ArenaError(f"chooser {self.label}: {game.secrets[secret]} is not among the secrets of this game")
        return secret


class Weighted(Committed):
    """A secret drawn with given probabilities, read from a file: one `secret weight` a line
    (also `secret,weight`), or a JSON object {secret: weight}. Weights are normalised; secrets
    not listed have weight 0."""

    name = "weighted"
    summary = "a secret drawn with the probabilities in file= (lines 'secret weight' or JSON)"
    params = {"file": Param("file", str, "", "the weights: 'secret weight' per line, or a JSON object")}

    def __init__(self, **values: Any):
        super().__init__(**values)
        if not self.values["file"]:
            raise ArenaError("chooser weighted: give the weights as weighted:file=PATH")

    def weights(self, game: Game) -> np.ndarray:
        """The probability of every secret of the game (read once per game)."""
        return self.per_game(game, "weights", lambda: self._read_weights(game))

    def _read_weights(self, game: Game) -> np.ndarray:
        path = self.values["file"]
        raw = read_weights(path)
        weights = np.zeros(len(game.secrets))
        for label, weight in raw.items():
            try:
                weights[secret_index(game, label)] += weight
            except ArenaError as e:
                raise ArenaError(f"weights file {path}: {e}") from None
        if weights.sum() <= 0:
            raise ArenaError(f"weights file {path}: the weights add up to 0")
        return weights / weights.sum()

    def draw(self, game: Game, secrets: Indexes, seed: int) -> Index:
        weights = self.weights(game)[secrets]
        if weights.sum() <= 0:
            raise ArenaError(f"chooser {self.label}: no weight on any secret of this game")
        cumulative = np.cumsum(weights) / weights.sum()
        u = mix64(seed, len(secrets)) / _TWO64
        return int(secrets[min(int(np.searchsorted(cumulative, u, side="right")), len(secrets) - 1)])


def read_weights(path: str) -> dict[str, float]:
    """secret label -> weight, from a text file (`secret weight` or `secret,weight` a line, `#`
    comments) or a JSON object."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ArenaError(f"weights file {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ArenaError(f"weights file {path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    if text.lstrip().startswith(("{", "[")):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise ArenaError(f"weights file {path}: not valid JSON ({e})") from None
        if not isinstance(data, dict):
            raise ArenaError(f"weights file {path}: JSON weights are an object {{secret: weight}}, "
                             f"not a {type(data).__name__}")
        return {str(k): _weight(v, path, k) for k, v in data.items()}
    weights: dict[str, float] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.replace(",", " ").split()
        if len(parts) != 2:
            raise ArenaError(f"weights file {path}, line {number}: write one 'secret weight' a line, got {line!r}")
        weights[parts[0]] = weights.get(parts[0], 0.0) + _weight(parts[1], path, parts[0])
    return weights


def _weight(value: Any, path: str, label: Any) -> float:
    try:
        if isinstance(value, bool):  # JSON true is not a weight, though float(True) is 1
            raise TypeError
        weight = float(value)
    except (TypeError, ValueError):
        raise ArenaError(f"weights file {path}: the weight of {label} is not a number: {value!r}") from None
    if not np.isfinite(weight) or weight < 0:
        raise ArenaError(f"weights file {path}: the weight of {label} must be a non-negative number, got {value!r}")
    return weight


def secret_index(game: Game, label: str) -> Index:
    """The index of the secret written `label` (as the game writes guesses: case as it normalises)."""
    found = _secret_lookup(game).get(label.strip())
    if found is None:
        found = _secret_lookup(game).get(game.normalise_guess(label))
    if found is None:
        raise ArenaError(f"{label!r} is not a secret of {game.spec}; secrets such as {choices(game.secrets[:3])}")
    return found


@shared_by_game_spec(maxsize=16)  # as many games as make_game keeps built
def _secret_lookup(game: Game) -> dict[str, int]:
    return {label: i for i, label in enumerate(game.secrets)}


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
