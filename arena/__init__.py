"""Guessing Arena: guessing games as contests between a chooser and a guesser.

The engine: a game is a list of secrets, a list of guesses and the feedback table F[g, s]
between them; everything else (agents, trees, evaluation, solvers) works on indexes into it.

Layers, each using only those above it (tests/test_architecture.py checks it):

    games        game.py (the table, its primitives, Rules), games/ (jotto, mastermind, hangman),
                 spec.py, words.py, errors.py, resources.py
    engine       state.py (what a guesser knows), seeding.py (mix64), traits.py (what an agent
                 declares), metrics.py (partition metrics), strategy.py (Node, Tree),
                 levels.py, tree.py (growing, saving, replaying trees), greedy.py (the scoring
                 guesser the solvers start from), evaluate.py, match.py (the referee: every
                 game, transcripts and replays too), weights.py (weights files)
    solvers      optimal/ (the exact search), equilibrium/ (matrix games)
    agents       the separate `agents` package: guessers and choosers by name
    front        config.py, report.py, tournament/, outfile.py, cli.py, commands/, frontdoor.py:
                 the only modules that turn spec strings into agents. frontdoor.py backs the
                 Game methods evaluate, tree, optimal, equilibrium and rank (one import for a
                 notebook: `make_game("mastermind").evaluate("knuth")`), reached by the one
                 marked upward import the architecture test accepts
"""

from .errors import ArenaError, RuleBreak
from .game import Game
from .games import GAMES, make_game

__all__ = ["ArenaError", "RuleBreak", "Game", "GAMES", "make_game"]
__version__ = "0.1.0"
