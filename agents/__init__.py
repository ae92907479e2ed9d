"""Guessers (and, in time, choosers), and the registry that names them."""

from .base import Guesser, Move, State
from .registry import describe_agents, make_agent, make_guesser
from .scoring import METRICS, Metric, Scoring
from .simple import Lowest, RandomConsistent

__all__ = ["Guesser", "Move", "State", "make_agent", "make_guesser", "describe_agents",
           "METRICS", "Metric", "Scoring", "Lowest", "RandomConsistent"]
