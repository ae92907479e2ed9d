"""What every command of the command line shares around its work, so that arena/cli/ needs
nothing below the API: the checks on what a user wrote (time limits, worker counts, strike
limits, output files), the game and the agents a spec names, `--json`'s clean stdout, a
game's notes as one line each, and an outside agent's failure as its one line.

Start-up: `arena --help` imports this module (the command line's modules import it at their
top), so it imports nothing heavy at its own: numpy, the games and the agents are loaded by
the function that needs them, when a command runs.
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..core import errors
from ..core.errors import ArenaError
from ..core.outfile import check_output_file, check_plot_file, print_json, stdout_for_json_only

if TYPE_CHECKING:
    from ..core.game import Game
    from ..core.players import GuesserProtocol

__all__ = [
    "agent_fault",
    "agent_imports",
    "check_json",
    "check_output_file",
    "check_plot_file",
    "cost_name",
    "ctrl_c_stops",
    "is_terminal",
    "make_chooser",
    "make_game",
    "make_guesser",
    "no_symmetry",
    "notes_on_stderr",
    "playing_guesser",
    "print_json",
    "progress_line",
    "seconds",
    "stdout_for_json_only",
    "strike_limits",
    "timings",
    "version",
    "workers",
]


def seconds(value: float | None, option: str) -> float | None:
    """A time limit as the user gave it (`--time-limit`, `--response-limit`): None (no limit)
    or a number of seconds > 0 (arena.core.checks.seconds: the Python API's own check)."""
    from ..core.checks import seconds as checked

    return checked(value, option)


def workers(count: int, oversubscribe: bool, command: str, backend: str = "local") -> int:
    """`--workers`: at least 1 (arena.core.checks.workers), capped at the CPU count unless
    `oversubscribe` (arena.core.resources.capped_workers, which says so on stderr)."""
    from ..core.resources import capped_workers

    return capped_workers(count, oversubscribe, command, backend)


def strike_limits(text: str | None) -> tuple[int, ...] | None:
    """`--strikes 6,8,9` as (6, 8, 9); none given, None."""
    if not text:
        return None
    try:
        limits = tuple(int(t) for t in text.split(","))
    except ValueError:
        raise ArenaError(f"--strikes {text!r}: give strike limits as integers, like 6,8,9") from None
    if any(k < 1 for k in limits):
        raise ArenaError(f"--strikes {text!r}: every limit must be at least 1")
    return limits


def make_game(spec: str) -> Game:
    """The game written `spec` (arena.games.make_game: built once, cached)."""
    from ..games import make_game as build

    return build(spec)


def make_guesser(spec: str) -> Any:
    """The guesser written `spec` (agents.make_guesser)."""
    from agents import make_guesser as build

    return build(spec)


def make_chooser(spec: str) -> Any:
    """The chooser written `spec` (agents.make_chooser)."""
    from agents import make_chooser as build

    return build(spec)


def playing_guesser(spec: str, command: str = "evaluate") -> GuesserProtocol:
    """The guesser written `spec`, for a command that plays it by itself (not a person)."""
    guesser = make_guesser(spec)
    if guesser.traits.interactive:
        raise ArenaError(f"{spec} plays interactively: use `arena play`, not `arena {command}`")
    return guesser


def timings(game: Game, seconds: float) -> dict[str, float]:
    """The seconds a command's JSON reports: the work's, and building the game's (arena.games.timings)."""
    from ..games import timings as of

    return of(game, seconds)


def cost_name(game: Game, name: str | None) -> str:
    """The name of the cost `name` on `game` (its own when None), or an ArenaError naming those
    that fit it (arena.core.costs.cost_for)."""
    from ..core.costs import cost_for

    return cost_for(game, name).name


def no_symmetry(game: Game) -> Any:
    """The trivial symmetry of `game`: every secret its own orbit (`--no-symmetry`)."""
    from ..equilibrium.symmetry import no_symmetry as trivial

    return trivial(game)


def is_terminal(stream: Any) -> bool:
    """Is this stream an interactive terminal? (arena.parallel.progress.is_terminal)"""
    from ..parallel.progress import is_terminal as terminal

    return terminal(stream)


def progress_line(label: str, enabled: bool) -> Any:
    """A status line rewritten in place on stderr (arena.parallel.progress.ProgressLine)."""
    from ..parallel.progress import ProgressLine

    return ProgressLine(label, enabled=enabled)


def check_json(check: Any) -> dict:
    """An Equilibrium's cross-check (`eq.cross_check()`) as `--json` gives it
    (arena.equilibrium.solution.check_json)."""
    from ..equilibrium.solution import check_json as as_json

    return as_json(check)


def version() -> str:
    """The installed version, as `arena --version` prints it."""
    from .. import __version__

    return __version__


def ctrl_c_stops(time_limited: bool) -> contextlib.AbstractContextManager:
    """Under a time limit, Ctrl-C stops a search as the limit would (arena.optimal.search.ctrl_c_stops)."""
    from ..optimal.search import ctrl_c_stops as stops

    return stops(time_limited)


def agent_imports(allow: bool) -> contextlib.AbstractContextManager:
    """Whether `module:Class` specs may import their module (arena.core.plugins.imports_allowed,
    which agents.registry reads): set without importing the agents, which a command that builds
    none never loads."""
    from ..core.plugins import imports_allowed

    return imports_allowed(allow)


def agent_fault(error: BaseException) -> str | None:
    """An outside agent's failure as one line (agents.registry.agent_fault), or None: our bug."""
    from agents.registry import agent_fault as fault

    return fault(error)


@contextlib.contextmanager
def notes_on_stderr(command: str) -> Iterator[None]:
    """A game's notes (words of a user's list left out, arena.core.words.WordsLeftOut; code compiled
    on a first run, arena.core.errors.Compiling) as one line each on stderr, `arena COMMAND: note:
    ...`, not as a Python warning with its source line."""
    from ..core.words import WordsLeftOut

    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, (WordsLeftOut, errors.Compiling)):
            print(f"arena {command}: note: {message}", file=sys.stderr, flush=True)
        else:
            shown(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():  # restores showwarning and the filters on leaving
        warnings.simplefilter("always", WordsLeftOut)
        warnings.simplefilter("always", errors.Compiling)
        warnings.showwarning = show
        yield
