"""Guessing Arena: guessing games as contests between a chooser and a guesser.

The engine: a game is a list of secrets, a list of guesses and the feedback table F[g, s]
between them; everything else (agents, trees, evaluation, solvers) works on indexes into it.

Layers, each a folder using only those above it (tests/test_architecture.py checks it; each
folder opens with a map of its modules):

  core/         the engine's ground: Game (rules, labels, GameType), the feedback table and its
                compiled kernels, costs and payoffs, spec strings, words, weights, seeded draws,
                what agents declare (traits, players), digests, errors, argument checks, limits
  parallel/     worker processes (forked or Dask), their watchdogs and progress
  games/        the games by name, as plug-ins (jotto, mastermind, hangman, wordle), and codes
  trees/        strategy trees: the tree as data, growing it (greedy, by levels), saved trees,
                the partition metrics, drawings
  play/         a guesser against every secret (evaluate), the referee (match), and the games
                move by move (moves)
  optimal/      the exact search: trees of least expected guesses, look-ahead trees, the split
  equilibrium/  the chooser against the guesser as a zero-sum game, solved and certified
  agents        the separate `agents` package: guessers and choosers by name (above the
                solvers; only study/, bridges/, api/ and cli/ turn spec strings into agents)
  study/        tournaments: configs, the tasks and their store, results judged and shown
  bridges/      the games as OpenSpiel games and PettingZoo/Gymnasium environments (optional
                extras)
  api/          the front door: the game a notebook holds (`arena.make_game`), its methods
  cli/          the `arena` command (__main__: `python -m arena`), one module per subcommand

  moved         the old flat import paths (`arena.report`, `arena.tree`, ...), kept working
"""

from typing import TYPE_CHECKING, Any

from . import moved
from .core.errors import ArenaError, RuleBreak
from .parallel.threads import one_thread_each

one_thread_each()  # before numpy loads: its BLAS starts as many threads as cores (arena.parallel.threads)
moved.install()

if TYPE_CHECKING:  # loaded when first asked for (__getattr__): numpy is most of a start-up
    from .core.game import Game
    from .games import GAMES

__all__ = ["ArenaError", "RuleBreak", "Game", "GAMES", "make_game", "open_game"]


def _version() -> str:
    """The installed distribution's version (pyproject.toml's), the one `arena --version` prints."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("guessing-arena")
    except PackageNotFoundError:  # run from a source tree that was never installed: its pyproject.toml's
        import tomllib
        from pathlib import Path

        try:
            with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as f:
                return str(tomllib.load(f)["project"]["version"])
        except (OSError, KeyError, ValueError):
            return "0+unknown"


def __getattr__(name: str) -> Any:
    """Looked up when first asked for, so that loading the package (as every module of it does)
    costs no start-up: `Game` and `GAMES` (they import numpy, 0.15 s of CPU that `arena --help`
    and `arena --version` do not need), `make_game` and `open_game`, the games users hold with
    the front door's methods (arena.api.frontdoor, the top layer, above the algorithms it offers; no
    solver or agent is loaded before), and `__version__`, read from the installed metadata
    (importlib.metadata costs time every command would pay)."""
    if name == "Game":
        from .core.game import Game

        return Game
    if name == "GAMES":
        from .games import GAMES

        return GAMES
    if name in ("make_game", "open_game"):
        from .api import frontdoor

        return getattr(frontdoor, name)
    if name == "__version__":
        globals()["__version__"] = version = _version()
        return version
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
