"""The games, by name: `make_game("mastermind:pegs=4,colors=6")` builds (once) and returns one.

Games are plug-ins, as agents are: each module of this package registers its game with a
`GAME = GameType(...)` line, and a third-party package adds one through the `arena.games`
entry point group, naming a GameType (or a module that has a `GAME`). A plug-in that fails to
load is named in a one-line ArenaError. Modules, one idea each:

    jotto                Jotto: the reply is the number of letters in common
    mastermind           Mastermind, Bulls and Cows and relatives: black and white pegs
    hangman              Hangman: letters, replies are where the letter stands; misses count
    wordle               Wordle: green/yellow/grey per letter; hard mode; Absurdle's tie rule
    mastermind_symmetry  Mastermind's colour and position permutations (game.symmetry()),
                         for the exact search and the equilibrium's code types
    multisets            Mastermind's and Jotto's reply formula, compiled (numba): big
                         tables built fast, and replies on the fly when no table fits
    codes                codes as rows of symbols: letter codes of words, symbol tallies
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from collections.abc import Iterator, Mapping
from functools import lru_cache
from types import ModuleType

from ..core.digests import file_digest, is_file
from ..core.errors import ArenaError, choices, did_you_mean
from ..core.game import Game, GameType
from ..core.resources import memory_limit
from ..core.spec import bind, canonical, parse_spec
from ..core.words import SHIPPED

#: The entry point group through which installed packages add games.
GROUP = "arena.games"


#: Modules of this package that define no game: compiled code (numba), imported only by the
#: games whose instances need it, never to list the games.
NOT_GAMES = frozenset({"multisets"})

#: The order `arena games` has always listed the first games in; others follow by module name.
_LISTED_FIRST = ("jotto", "mastermind", "hangman")


@lru_cache(maxsize=1)
def builtin() -> dict[str, GameType]:
    """name -> GameType, from every module of this package that defines `GAME`."""
    table: dict[str, GameType] = {}
    rank = {name: i for i, name in enumerate(_LISTED_FIRST)}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: (rank.get(m.name, len(rank)), m.name)):
        if info.name in NOT_GAMES:
            continue
        kind = getattr(importlib.import_module(f"{__name__}.{info.name}"), "GAME", None)
        if isinstance(kind, GameType):
            table[kind.name] = kind
    return table


def entry_points(group: str):
    """The installed entry points of `group` (arena.core.plugins: importlib.metadata, imported only
    when a distribution may declare one, and only when a name is not a built-in game)."""
    from ..core.plugins import entry_points as installed

    return installed(group)


def _plugin_names() -> list[str]:
    return [ep.name for ep in entry_points(group=GROUP)]


def _entry_point(name: str) -> GameType | None:
    """The GameType an installed package registers as `name`, or None."""
    for ep in entry_points(group=GROUP):
        if ep.name != name:
            continue
        try:
            kind = ep.load()
        except Exception as e:  # a broken plug-in is the plug-in's fault, reported as such
            raise ArenaError(f"game {name!r} from entry point {ep.value!r} failed to load: {e}") from None
        if isinstance(kind, ModuleType):
            kind = getattr(kind, "GAME", None)
        if not isinstance(kind, GameType):
            raise ArenaError(f"game {name!r} from entry point {ep.value!r} is not a GameType")
        return kind
    return None


class _Registry(Mapping):
    """Every game by name: the built-in ones, then the entry points (loaded when asked for)."""

    def __getitem__(self, name: str) -> GameType:
        kind = builtin().get(name) or _entry_point(name)
        if kind is None:
            raise KeyError(name)
        return kind

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in builtin() or name in _plugin_names())

    def __iter__(self) -> Iterator[str]:
        return iter(list(dict.fromkeys([*builtin(), *_plugin_names()])))

    def __len__(self) -> int:
        return len(list(iter(self)))


GAMES: Mapping[str, GameType] = _Registry()


def game_type(name: str) -> GameType:
    """The registered game `name`, or an ArenaError listing the games."""
    if name not in GAMES:
        raise ArenaError(f"unknown game {name!r}{did_you_mean(name, GAMES)}; games: {choices(GAMES)}")
    return GAMES[name]


def make_game(spec: str) -> Game:
    """The game written `spec` (`name:key=value,...`), built once and cached by canonical spec."""
    name, raw = parse_spec(spec)
    kind = game_type(name)
    values = bind(f"game {name}", kind.params, raw)
    return _build(canonical(name, kind.params, values), tuple(values.items()), memory_limit(), contents(values))


def contents(values: dict) -> tuple[tuple[str, str], ...]:
    """(file, SHA-256) of every file a game's parameters name: a game is built again when one changed."""
    return tuple((v, file_digest(v)) for v in values.values() if isinstance(v, str) and v not in SHIPPED and is_file(v))


@lru_cache(maxsize=16)
def _build(spec: str, items: tuple, budget: int, files: tuple = ()) -> Game:
    """The game, built once per budget and per contents of the files it reads: the memory
    budget decides between a table and feedback on the fly (the same replies) and what is
    refused."""
    start = time.perf_counter()
    game = GAMES[spec.partition(":")[0]].make(spec, **dict(items))
    game.build_seconds = time.perf_counter() - start
    return game


def timings(game: Game, seconds: float) -> dict[str, float]:
    """The JSON timing fields of a result: the game's build (its word lists and feedback table,
    once per process), the solve (`seconds`, what the result's own `seconds` says), and their
    sum: what a user waits, start-up aside."""
    build = getattr(game, "build_seconds", 0.0)
    return {
        "build_seconds": round(build, 4),
        "solve_seconds": round(seconds, 4),
        "total_seconds": round(build + seconds, 4),
    }
