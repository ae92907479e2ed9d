"""What every guesser is: a small object with a name, declared parameters and traits,
that looks at the game and the state of play and returns the index of its next guess."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


from arena.errors import ArenaError
from arena.game import Game, Index, Indexes, Reply
from arena.spec import Param, canonical, plus_list

Move = tuple[Index, Reply]  # a guess and the reply it got


@dataclass(frozen=True)
class State:
    """What the guesser knows: the secrets still possible and the moves so far."""

    candidates: Indexes
    history: tuple[Move, ...] = ()

    @property
    def turn(self) -> int:
        """How many guesses have been made."""
        return len(self.history)

    def after(self, guess: Index, reply: Reply, candidates: Indexes) -> "State":
        return State(candidates, self.history + ((guess, reply),))


OPENERS = Param("openers", plus_list, (), "fixed first guesses, joined by + (e.g. 1122+3344)")


class Guesser:
    """Base class. A subclass sets `name`, `summary`, `params` (a dict of Param) and
    `traits`, and implements `choose(game, state)`; the base handles openers and the spec."""

    role: ClassVar[str] = "guesser"
    name: ClassVar[str] = "guesser"
    summary: ClassVar[str] = ""
    params: ClassVar[dict[str, Param]] = {}
    traits: ClassVar[dict[str, bool]] = {"deterministic": True, "uses_history": False}

    def __init__(self, **values: Any):
        declared = self.declared_params()
        self.values = {k: values.get(k, p.default) for k, p in declared.items()}
        self.spec = canonical(self.name, declared, self.values)
        self.label = self.spec  # the registry replaces it with the spec as the user wrote it
        self._openers: dict[int, tuple[Index, ...]] = {}

    @classmethod
    def declared_params(cls) -> dict[str, Param]:
        return {**cls.params, "openers": OPENERS}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"

    @property
    def deterministic(self) -> bool:
        return self.traits.get("deterministic", True)

    def seeded(self, *entropy: int) -> "Guesser":
        """This guesser with its random choices drawn from `entropy` (deterministic ones: itself)."""
        return self

    def guess(self, game: Game, state: State) -> Index:
        """The next guess: a fixed opener while there are some left, else the guesser's choice."""
        openers = self.openers_for(game)
        if state.turn < len(openers):
            return openers[state.turn]
        return self.choose(game, state)

    def openers_for(self, game: Game) -> tuple[Index, ...]:
        key = id(game)
        if key not in self._openers:
            try:
                openers = tuple(game.guess_index(o) for o in self.values.get("openers", ()))
            except ArenaError as e:
                raise ArenaError(f"{self.spec}: opener {e}") from None
            repeated = [g for k, g in enumerate(openers) if g in openers[:k]]
            if repeated:  # a second time tells nothing new: surely a typo for another guess
                raise ArenaError(f"{self.spec}: opener {game.guesses[repeated[0]]} is given twice; "
                                 "each fixed first guess must differ from the others")
            self._openers[key] = openers
        return self._openers[key]

    def choose(self, game: Game, state: State) -> Index:
        raise NotImplementedError


def only_candidate(game: Game, state: State) -> Index | None:
    """With one secret left and a guess that names it, that guess (every sensible guesser agrees)."""
    if len(state.candidates) == 1:
        named = game.secret_guess[state.candidates[0]]
        if named >= 0:
            return int(named)
    return None

