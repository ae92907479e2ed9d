"""The games, by name: `make_game("mastermind:pegs=4,colors=6")` builds (once) and returns one."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Mapping

from ..errors import ArenaError, choices
from ..game import Game
from ..spec import Param, bind, canonical, parse_spec
from . import hangman, jotto, mastermind


@dataclass(frozen=True)
class GameType:
    name: str
    make: Callable[..., Game]
    params: Mapping[str, Param]
    summary: str


GAMES: dict[str, GameType] = {
    "jotto": GameType("jotto", jotto.Jotto, jotto.PARAMS, "words; reply = letters in common"),
    "mastermind": GameType("mastermind", mastermind.Mastermind, mastermind.PARAMS,
                           "codes of pegs x colours; reply = black and white pegs (Bulls and Cows: repeats=false)"),
    "hangman": GameType("hangman", hangman.Hangman, hangman.PARAMS,
                        "words, guessed letter by letter; reply = where the letter stands (a miss is a strike)"),
}


def make_game(spec: str) -> Game:
    """The game written `spec` (`name:key=value,...`), built once and cached by canonical spec."""
    name, raw = parse_spec(spec)
    if name not in GAMES:
        raise ArenaError(f"unknown game {name!r}; games: {choices(GAMES)}")
    kind = GAMES[name]
    values = bind(f"game {name}", kind.params, raw)
    return _build(canonical(name, kind.params, values), tuple(values.items()))


@lru_cache(maxsize=16)
def _build(spec: str, items: tuple) -> Game:
    name = spec.partition(":")[0]
    return GAMES[name].make(spec, **dict(items))
