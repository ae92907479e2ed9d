"""What every agent is: a small object with a name, declared parameters (its spec), a label,
declared `Traits`, a way to be seeded, and caches per game. A guesser looks at the game and the
state of play and returns the index of its next guess; a chooser (agents/chooser.py) answers.

Every cache of something computed for a game is keyed by the game's spec and holds no game
(`Agent.per_game` for one agent's, arena.core.caches.shared_by_game_spec for what all share), so a
game is freed when its last user lets go of it (tests/test_agent_contract.py checks each agent)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from arena.core.errors import ArenaError
from arena.core.game import Game, Index
from arena.core.players import AgentProtocol, GuesserProtocol
from arena.core.spec import OPENERS, Param, canonical
from arena.core.state import Move, State
from arena.core.traits import Traits
from arena.trees.greedy import only_candidate

__all__ = ["Agent", "Guesser", "Move", "OPENERS", "State", "Traits", "only_candidate"]

T = TypeVar("T")


class Agent(AgentProtocol):
    """What guessers and choosers share (arena.core.players.AgentProtocol). A subclass sets `name`, `summary`, `params` (a dict
    of Param) and `traits` (a Traits, stating where it differs from the defaults)."""

    role: ClassVar[str] = "agent"
    name: ClassVar[str] = "agent"
    summary: ClassVar[str] = ""
    params: ClassVar[dict[str, Param]] = {}
    traits: ClassVar[Traits] = Traits()

    def __init__(self, **values: Any):
        declared = self.declared_params()
        self.values = {k: values.get(k, p.default) for k, p in declared.items()}
        self.spec = canonical(self.name, declared, self.values)
        self.label = self.spec  # the registry replaces it with the spec as the user wrote it
        self._per_game: dict[tuple[str, str], Any] = {}

    @classmethod
    def declared_params(cls) -> dict[str, Param]:
        return dict(cls.params)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"

    def per_game(self, game: Game, what: str, build: Callable[[], T]) -> T:
        """`build()`, computed once per game and kept by the game's spec: the cache holds no
        game, so games are freed, and an id reused by a later game cannot find a stale entry."""
        key = (what, game.spec)
        if key not in self._per_game:
            self._per_game[key] = build()
        return self._per_game[key]


class Guesser(Agent, GuesserProtocol):
    """Base class of guessers (arena.core.players.GuesserProtocol, whose optional hooks default there): a subclass implements `choose(game, state)`; the base handles
    the openers (fixed first guesses)."""

    role: ClassVar[str] = "guesser"
    name: ClassVar[str] = "guesser"

    @classmethod
    def declared_params(cls) -> dict[str, Param]:
        return {**cls.params, "openers": OPENERS}

    def guess(self, game: Game, state: State) -> Index:
        """The next guess: a fixed opener while there are some left, else the guesser's choice."""
        openers = self.openers_for(game)
        if state.turn < len(openers):
            return openers[state.turn]
        return self.choose(game, state)

    def openers_for(self, game: Game) -> tuple[Index, ...]:
        return self.per_game(game, "openers", lambda: self._openers(game))

    def _openers(self, game: Game) -> tuple[Index, ...]:
        try:
            openers = tuple(game.guess_index(o) for o in self.values.get("openers", ()))
        except ArenaError as e:
            raise ArenaError(f"{self.spec}: opener {e}") from None
        repeated = [g for k, g in enumerate(openers) if g in openers[:k]]
        if repeated:  # a second time tells nothing new: surely a typo for another guess
            raise ArenaError(
                f"{self.spec}: opener {game.guesses[repeated[0]]} is given twice; "
                "each fixed first guess must differ from the others"
            )
        return openers

    def choose(self, game: Game, state: State) -> Index:
        raise NotImplementedError
