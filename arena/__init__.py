"""Guessing Arena: guessing games as contests between a chooser and a guesser.

The engine: a game is a list of secrets, a list of guesses and the feedback table F[g, s]
between them; everything else (agents, trees, evaluation, solvers) works on indexes into it.

Layers, each using only those above it (tests/test_architecture.py checks it). Modules, one
idea each:

  games
    feedback     FeedbackTable: the table F[g, s] and its primitives (dense, compiled or on the fly)
    game         Game: a game's rules, labels and table (its `feedback`), Rules, GameType
    games/       the games by name, as plug-ins (jotto, mastermind, hangman, wordle; entry points)
    plugins      installed entry points, read through importlib.metadata only when one may exist
    spec         spec strings `name:key=value,...`, for games and agents alike
    words        word lists: shipped (sgb, web2) or any file
    digests      SHA-256 of the files a result was computed from (saved states are keyed by them)
    errors       ArenaError (a user's mistake) and RuleBreak (an agent's)
    door         the Python API's arguments checked at the door (ArenaError / ArenaTypeError)
    orphans      worker processes that end with their parent, whatever signal ends it
    resources    the memory budget an instance is checked against before it is built
    codes        codes as rows of symbols: letter codes of words, symbol tallies
    compiled     numba, imported once (njit), without what its start-up only probes for
    kernels      compiled loops (numba) for big instances: tables, counts, metric keys,
                 feedback on the fly (imported only by instances that need them)
  engine
    state        State: what a guesser knows (candidates, moves so far)
    seeding      mix64: seeded draws as hashes, no random generator
    traits       Traits: what an agent declares about itself
    players      GuesserProtocol and ChooserProtocol: the agents as the engine calls them
    caches       caches keyed by game spec, holding no game (shared_by_game_spec)
    metrics      the partition metrics a scoring guesser rates guesses by
    greedy       the greedy (scoring) guesser, and its trees the solvers start from
    strategy     Node and Tree: strategy trees as data, printed and saved
    growth       the one tree grower: a choose at each node, the game's partition, hooks
    tree         growing, saving and replaying trees (SavedTree)
    levels       growing a scoring guesser's tree a whole level at a time
    evaluate     a guesser against every secret: the published tables' numbers
    match        the referee: a guesser against a chooser, every reply checked (also
                 transcripts and replayed histories: the one game loop)
    weights      weights files: one reader for every agent and command that takes weights
    costs        what a game costs the guesser (Guesses, Misses, Lost): the solvers' payoffs
  solvers
    optimal/     the exact search: trees of least expected guesses, and look-ahead trees
    equilibrium/ the chooser against the guesser as a zero-sum game
  agents         the separate `agents` package: guessers and choosers by name
  front (the only modules that turn spec strings into agents)
    config       `arena run` configs (TOML): games, guessers and choosers, cell by cell
    report       results judged against their published figures; tables, meta-game, CSV
    tournament/  configs run in parallel blocks, stored, resumed and tallied
    outfile      output paths and plot formats checked before any work
    cli          the `arena` command (__main__: `python -m arena`)
    commands/    the subcommands beyond the core ones, one module each
    frontdoor    the game users hold (`arena.make_game`, `open_game`): the methods evaluate,
                 tree, optimal, equilibrium and rank on top of the algorithms they call (one
                 import for a notebook: `make_game("mastermind").evaluate("knuth")`)
  views (what a study looks like; each reads what the layers above built)
    treeplot     strategy trees drawn with Graphviz (`arena tree --plot`)
    export       matrix games (an equilibrium's, a meta-game) as Gambit's .nfg or CSV, read back
    dynamics     replicator dynamics and fictitious play on a matrix game, beside its equilibrium
    html_report  a tournament as one self-contained HTML page
    report_views `arena report`'s --export, --dynamics and --html
  bridges (to the libraries researchers use; the last two are optional extras, imported by no
  other module)
    bridge       a game move by move (useful guesses, observations, its tree counted), numpy only
    openspiel    any game spec as an OpenSpiel game (`load_game`), for OpenSpiel's solvers
    envs         any game spec as a PettingZoo AEC or Gymnasium environment (a front module:
                 it builds choosers from specs)
"""

from typing import TYPE_CHECKING, Any

from .errors import ArenaError, RuleBreak

if TYPE_CHECKING:  # loaded when first asked for (__getattr__): numpy is most of a start-up
    from .game import Game
    from .games import GAMES

__all__ = ["ArenaError", "RuleBreak", "Game", "GAMES", "make_game", "open_game"]


def _version() -> str:
    """The installed distribution's version (pyproject.toml's), the one `arena --version` prints."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("guessing-arena")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    """Looked up when first asked for, so that loading the package (as every module of it does)
    costs no start-up: `Game` and `GAMES` (they import numpy, 0.15 s of CPU that `arena --help`
    and `arena --version` do not need), `make_game` and `open_game`, the games users hold with
    the front door's methods (arena.frontdoor, the top layer, above the algorithms it offers; no
    solver or agent is loaded before), and `__version__`, read from the installed metadata
    (importlib.metadata costs time every command would pay)."""
    if name == "Game":
        from .game import Game

        return Game
    if name == "GAMES":
        from .games import GAMES

        return GAMES
    if name in ("make_game", "open_game"):
        from . import frontdoor

        return getattr(frontdoor, name)
    if name == "__version__":
        globals()["__version__"] = version = _version()
        return version
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
