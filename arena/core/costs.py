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

Each cost also knows its payoff (`Cost.payoff()`): what a tournament's grids, heat maps and
meta-games measure of it, with a name and a unit. Every game pays in guesses; a game where misses
are strikes (Hangman) also pays in misses and in games lost within each strike limit (`lostK`,
the cost `Lost(K)`). A config picks the payoff its grids use (`payoff = "misses"`, read by
`payoff(key)`); by default it is the game's own cost (misses where they count, else guesses).
Each payoff names the figures of a result that hold it (arena.study.tournament.tally.Tally.figures),
so every table, plot title and meta-game line can name what it shows and in what unit; nothing
outside this module tells a cost or a payoff apart by its name (tests/test_architecture.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
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
    #: a game pays 0 or 1 of it (lost or not), so its mean is a share of games, shown as a percentage
    counts_games: ClassVar[bool] = False
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

    def payoff(self) -> Payoff:
        """What a tournament measures of this cost: its name in a config, the figures of a
        result that hold it, a title and a unit."""
        raise NotImplementedError


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

    def payoff(self) -> Payoff:
        return Payoff(self, "guesses", "mean", "max", "mean_se", "worst_secret", "mean guesses per game", self.unit)


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

    def payoff(self) -> Payoff:
        title = "mean misses per game"
        return Payoff(self, "misses", "misses", "misses_max", "misses_se", "misses_worst_secret", title, self.unit)


@dataclass(frozen=True)
class Lost(Cost):
    name: ClassVar[str] = "lost"
    unit: ClassVar[str] = "lost games"
    has_worst_case: ClassVar[bool] = False
    solves_openers: ClassVar[bool] = False
    limits_itself: ClassVar[bool] = True
    counts_games: ClassVar[bool] = True

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

    def payoff(self) -> Payoff:
        """The share of games lost within `strikes` strikes (the guesser missed that many times)."""
        k = self.strikes
        if k is None or k < 1:
            raise ArenaError(f"lost games are counted within a strike limit of 1 or more, got {k!r}")
        within = f"within {k} strikes"
        return Payoff(
            self,
            f"lost{k}",
            f"lost{k}_rate",
            None,
            None,
            None,
            f"share of games lost {within}",
            f"of games lost {within}",
        )


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


@dataclass(frozen=True)
class Payoff:
    """A cost as a tournament measures it: a per-game cost to the guesser (a gain to the
    chooser) that a result's figures hold. Built by the cost (`Cost.payoff`)."""

    cost: Cost  # what is paid: Guesses(), Misses(), Lost(K)
    key: str  # as a config writes it: guesses, misses, lost6
    figure: str  # the per-game mean among a result's figures
    worst: str | None  # the figure of the worst game, where one exists
    error: str | None  # the figure of the mean's standard error (random agents), where one exists
    against_worst: str | None  # the figure of the cost against the guesser's worst secret, where one exists
    title: str  # what it is, for a heading: "mean misses per game"
    unit: str  # what a value counts, after a number: "misses"

    def show(self, value: float, places: int = 4, share_places: int = 2) -> str:
        """A value as a number: a share of games (lost games) as a percentage with
        `share_places` decimals (`12.5%`), any other mean with `places` decimals."""
        return f"{value:.{share_places}%}" if self.cost.counts_games else f"{value:.{places}f}"

    def describe(self, value: float) -> str:
        """A value with its unit: `4.4761 guesses`, `12.50% of games lost within 6 strikes`."""
        return f"{self.show(value)} {self.unit}"

    @property
    def plotted(self) -> Payoff:
        """The payoff whose per-game distribution the histograms show: its own (guesses,
        misses), or for a share of games lost, which has none, the guesses."""
        return GUESSES if self.cost.counts_games else self

    def measured_on(self, game: Game) -> bool:
        """Does a tournament's tally of `game` hold this payoff? Guesses on every game; misses
        and lost games only where misses are strikes (a tally counts misses only there)."""
        return self.cost.pays_every_guess or bool(game.rules.strikes)


GUESSES = Guesses().payoff()
MISSES = Misses().payoff()
#: The payoffs a config may name (lostK: games lost within K strikes, e.g. lost6).
NAMES = ("guesses", "misses", "lostK")


def strikes_in(key: object) -> int | None:
    """The strike limit K of a `lostK` name (a payoff's key, or among a result's figures the
    count of games lost within K strikes), else None."""
    m = re.fullmatch(r"lost([1-9]\d*)", key) if isinstance(key, str) else None
    return int(m[1]) if m else None


def lost(strikes: int) -> Payoff:
    """The share of games lost within `strikes` strikes (the guesser missed that many times)."""
    return Lost(strikes).payoff()


def loss_limits(figures: Iterable[str]) -> list[int]:
    """The strike limits whose loss rate (`lost(K).figure`) is among these figure names."""
    return sorted({int(m[1]) for k in figures if (m := re.fullmatch(r"lost([1-9]\d*)_rate", k))})


def payoff(key: str) -> Payoff:
    """The payoff a config names; an ArenaError listing the valid ones otherwise."""
    strikes = strikes_in(key)
    if strikes is not None:
        return lost(strikes)
    if isinstance(key, str) and key in KINDS and not KINDS[key].limits_itself:
        return KINDS[key]().payoff()
    raise ArenaError(
        f"unknown payoff {key!r}; payoffs: guesses, misses, or lostK (games lost within K strikes, e.g. lost6)"
    )


def default(counts_misses: bool) -> Payoff:
    """A game's own cost: misses where they are strikes, else guesses."""
    return MISSES if counts_misses else GUESSES


def measures(figures: dict, chosen: Payoff) -> bool:
    """Does a result with these figures measure this payoff?"""
    return chosen.figure in figures
