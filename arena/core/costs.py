"""What a game costs the guesser, secret by secret: the payoffs that solvers minimise.

    Guesses  guesses until the secret is named (Jotto, Mastermind), or until it is determined,
             one candidate left (Hangman: letters until the word is known)
    Misses   misses until the word is determined: the published Hangman study's cost
    Lost     1 if the misses until the word is determined reach the strike limit, else 0:
             the chance of losing, as an expectation over the chooser's words

Each cost is a class with the operations the solvers need: what one reply adds on the way
down (`step`), what a path has paid (`paid`), each secret's cost read off a tree or off its
(guesses, misses) rows (`of`, `of_rows`), the cost counted along the way (`counted`: lost
games are misses counted, then compared with the strikes at the end), and the limits the cost
implies. The solvers call these and never ask which cost they hold, so a new cost is one class
here (and, for the exact search of games without hits, its bounds in arena.optimal.search).

A game names its usual cost in `game.rules.cost`; `cost_for(game, name)` checks that a cost
fits the game (a game whose guesses hit the secret has only `guesses`; `lost` needs strikes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from .errors import ArenaError, choices, did_you_mean
from .game import Game, Reply

if TYPE_CHECKING:
    from ..trees.tree import Tree


@dataclass(frozen=True)
class Cost:
    """One cost on one game: `strikes` is the misses that lose (for `Lost`)."""

    #: the cost's name in specs and reports ("guesses", "misses", "lost")
    name: ClassVar[str] = ""
    #: the unit it is counted in, for reports ("4.25 misses")
    unit: ClassVar[str] = ""
    #: a solver may minimise its worst case (lost games have none: a game is lost or not)
    has_worst_case: ClassVar[bool] = True
    #: fixed first guesses (openers) can be solved for it class by class
    solves_openers: ClassVar[bool] = True
    #: every guess is paid, hit or miss (not only the misses)
    pays_every_guess: ClassVar[bool] = False
    #: the cost is counted within a limit of its own (lost games: the strikes), so a solver of
    #: it searches under a depth limit
    limits_itself: ClassVar[bool] = False
    strikes: int | None = None

    @classmethod
    def on(cls, game: Game) -> Cost:
        """This cost on `game` (lost games: within the game's strikes)."""
        return cls()

    def step(self, game: Game, reply: Reply) -> int:
        """What one reply adds to what is counted along a path (the guesses, or the misses)."""
        raise NotImplementedError

    def paid(self, guesses: int, misses: int) -> int:
        """What a path of `guesses` guesses and `misses` misses has paid already."""
        raise NotImplementedError

    def of_rows(self, guesses: np.ndarray, misses: np.ndarray) -> np.ndarray:
        """cost[s] from every secret's guesses and misses (arrays alike), int64."""
        raise NotImplementedError

    def of(self, tree: Tree) -> np.ndarray:
        """cost[s] for every secret of the game (0 for those the tree does not cover), int64."""
        return self.of_rows(tree.guesses, tree.misses)

    def spent(self, game: Game, replies: Sequence[Reply]) -> int:
        """What the replies so far have used of a limit on this cost."""
        return sum(self.step(game, r) for r in replies)

    @property
    def counted(self) -> Cost:
        """The cost counted along a path (itself; lost games count the misses)."""
        return self

    def default_limit(self) -> int | None:
        """The limit the cost implies on what is counted (lost games: the strikes)."""
        return None

    def after(self, game: Game, limit: int | None) -> tuple[Cost, int | None]:
        """The cost to play for, and its limit, once `limit` is what is left of a limit (None:
        no limit) after some moves; an ArenaError if nothing can be played for any more."""
        if limit is not None and limit < 0:
            return Misses(), None  # over the limit: play for the fewest misses
        return self, limit


@dataclass(frozen=True)
class Guesses(Cost):
    name: ClassVar[str] = "guesses"
    unit: ClassVar[str] = "guesses"
    pays_every_guess: ClassVar[bool] = True

    def step(self, game: Game, reply: Reply) -> int:
        return 1

    def paid(self, guesses: int, misses: int) -> int:
        return guesses

    def of_rows(self, guesses: np.ndarray, misses: np.ndarray) -> np.ndarray:
        return np.asarray(guesses, dtype=np.int64)

    def spent(self, game: Game, replies: Sequence[Reply]) -> int:
        return len(replies)

    def after(self, game: Game, limit: int | None) -> tuple[Cost, int | None]:
        if limit is not None and limit < 1:
            raise ArenaError(f"{game.spec}: no guesses left ({limit})")
        return self, limit


@dataclass(frozen=True)
class Misses(Cost):
    name: ClassVar[str] = "misses"
    unit: ClassVar[str] = "misses"

    def step(self, game: Game, reply: Reply) -> int:
        return int(game.is_miss(reply))

    def paid(self, guesses: int, misses: int) -> int:
        return misses

    def of_rows(self, guesses: np.ndarray, misses: np.ndarray) -> np.ndarray:
        return np.asarray(misses, dtype=np.int64)


@dataclass(frozen=True)
class Lost(Cost):
    name: ClassVar[str] = "lost"
    unit: ClassVar[str] = "lost games"
    has_worst_case: ClassVar[bool] = False
    solves_openers: ClassVar[bool] = False
    limits_itself: ClassVar[bool] = True

    @classmethod
    def on(cls, game: Game) -> Cost:
        return cls(game.strikes)

    def step(self, game: Game, reply: Reply) -> int:
        return int(game.is_miss(reply))  # the misses are counted, the loss is read at the end

    def paid(self, guesses: int, misses: int) -> int:
        return 0  # a lost game is counted where it happens, below

    def of_rows(self, guesses: np.ndarray, misses: np.ndarray) -> np.ndarray:
        return (np.asarray(misses) >= self.strikes).astype(np.int64)

    @property
    def counted(self) -> Cost:
        return Misses()

    def default_limit(self) -> int | None:
        return self.strikes

    def after(self, game: Game, limit: int | None) -> tuple[Cost, int | None]:
        if limit is not None and limit <= 0:
            return Misses(), None  # lost already: play for the fewest misses
        return self, limit


#: Every cost, by name.
KINDS: dict[str, type[Cost]] = {kind.name: kind for kind in (Guesses, Misses, Lost)}
COSTS = tuple(KINDS)
#: The unit each cost is counted in, for reports ("4.25 misses").
UNITS = {name: kind.unit for name, kind in KINDS.items()}


def costs_of(game: Game) -> tuple[str, ...]:
    """The costs that fit the game: only `guesses` where a guess may hit the secret; where the
    game ends once the secret is determined, also `misses`, and `lost` if misses are strikes."""
    if game.rules.hits:
        return ("guesses",)
    return ("guesses", "misses", "lost") if game.rules.strikes else ("guesses", "misses")


def cost_for(game: Game, name: str | Cost | None = None) -> Cost:
    """The cost `name` (default: the game's own, `game.rules.cost`; a Cost is checked and
    returned) on this game, or an ArenaError naming the costs that fit it."""
    given = name if isinstance(name, Cost) else None
    name = game.rules.cost if name is None else name.name if isinstance(name, Cost) else name
    if name not in KINDS:
        raise ArenaError(f"unknown cost {name!r}{did_you_mean(name, COSTS)}; costs: {choices(COSTS)}")
    if name not in costs_of(game):
        raise ArenaError(f"{game.spec}: the cost {name!r} does not fit this game; it has {choices(costs_of(game))}")
    return given or KINDS[name].on(game)
