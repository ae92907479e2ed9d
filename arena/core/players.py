"""The guesser and the chooser as the engine sees them: declared interfaces (typing.Protocol).

The referee (arena.play.match), the evaluation (arena.play.evaluate, arena.trees.grow, arena.trees.levels) and the
solvers call these methods and attributes and never probe an agent for them. The optional
hooks have defaults here, which a class gets by naming the protocol as a base (agents.base.Agent
and its subclasses do; so does the referee's own `Scripted` chooser):

    GuesserProtocol  guess(game, state); optional: openers_for(game) (fixed first guesses),
                     level_key() (a key that grows the tree a level at a time), metric (the
                     partition metric a scoring guesser ranks by), entropy (the seed it plays)
    ChooserProtocol  start(game, secrets, seed), reply(game, state, guess); optional: secret
                     (a committed chooser's, once drawn), opening(game, openings) (which
                     opening to play: the most secrets), meet(guesser) (study the opponent)

Both carry `spec` (the canonical spec), `label` (as the user wrote it) and `traits`
(arena.core.traits.Traits), and may `check(game)` before any game that they can play it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

from .game import Game, Index, Indexes, Reply
from .state import State
from .traits import Traits

if TYPE_CHECKING:
    from ..trees.metrics import Metric


class AgentProtocol(Protocol):
    """What a guesser and a chooser share."""

    spec: str
    label: str = ""  # as the user wrote the spec (empty: the spec itself)
    traits: ClassVar[Traits] = Traits()
    #: the declared parameters' values, by name (none by default)
    values: Mapping[str, Any] = MappingProxyType({})

    @property
    def deterministic(self) -> bool:
        """The same moves whatever the seed (the declared trait)."""
        return self.traits.deterministic

    def seeded(self, *entropy: int) -> Self:
        """This agent with its random choices drawn from `entropy` (by default: itself)."""
        return self

    def check(self, game: Game) -> None:
        """An ArenaError, before any game is played, if this agent can never play `game` (a
        secret it names is not one, a file it reads is missing, a game it declines). Cheap:
        nothing is solved here. The default finds nothing wrong."""
        return None


class GuesserProtocol(AgentProtocol, Protocol):
    """A guesser: the index of its next guess, given the game and the state of play."""

    #: the partition metric a scoring guesser ranks guesses by (None: it has none to show)
    metric: Metric | None = None
    #: the seed a randomised guesser plays (None: not seeded, or deterministic)
    entropy: tuple[int, ...] | None = None

    def guess(self, game: Game, state: State) -> Index: ...

    def openers_for(self, game: Game) -> tuple[Index, ...]:
        """The fixed first guesses on this game (none by default), checked against the game."""
        return ()

    def level_key(self) -> Callable[..., Any] | None:
        """A key from class sizes run by run, if the guesser's tree can be grown a whole level
        at a time (arena.trees.levels); None (the default) grows it node by node."""
        return None

    def expected_costs(self, game: Game, cost: str) -> Any:
        """Each secret's expected cost (arena.core.costs `cost`) over the guesser's coin flips, if it
        knows them exactly (a mix of trees: the equilibrium guesser), as a float array; None (the
        default): its worst secret is found by playing (arena.equilibrium.exploitable)."""
        return None

    def greedy_rule(self) -> Any:
        """The greedy rule (arena.trees.greedy.Greedy) this guesser plays, if it is one: on a big
        table its tree is then grown a level at a time by compiled code (arena.trees.levels); None
        (the default) grows it node by node."""
        return None


class ChooserProtocol(AgentProtocol, Protocol):
    """A chooser: it starts a game (a committed one draws its secret), picks the opening, and
    replies to each guess."""

    #: a committed chooser's secret once drawn (None: none drawn, or an adaptive chooser)
    secret: Index | None = None

    def start(self, game: Game, secrets: Indexes, seed: int) -> None: ...

    def reply(self, game: Game, state: State, guess: Index) -> Reply: ...

    def opening(self, game: Game, openings: list[tuple[str, Indexes]]) -> int:
        """Which opening (Hangman: a word length) to play, when the game begins by telling the
        guesser one: by default the one with the most secrets, as the evil rule keeps the
        largest class."""
        return max(range(len(openings)), key=lambda k: len(openings[k][1]))

    def meet(self, guesser: GuesserProtocol) -> None:
        """Meet the guesser before the game (a chooser that studies its opponent: the spoiler);
        nothing by default."""
        return None
