"""Guessing Arena: guessing games as contests between a chooser and a guesser.

The engine: a game is a list of secrets, a list of guesses and the feedback table F[g, s]
between them; everything else (agents, trees, evaluation, solvers) works on indexes into it.
"""

from .errors import ArenaError, RuleBreak
from .game import Game
from .games import GAMES, make_game

__all__ = ["ArenaError", "RuleBreak", "Game", "GAMES", "make_game"]
__version__ = "0.1.0"
