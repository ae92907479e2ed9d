"""Guessers and choosers, and the registry that names them.

Every module here that lists classes in `AGENTS` (and aliases in `ALIASES`) is registered
by name: add a module, and its agents appear in `arena agents`.
"""

from .base import Guesser, Move, State
from .registry import describe_agents, imports_allowed, make_agent, make_chooser, make_guesser
from .scoring import METRICS, Metric, Scoring
from .simple import Lowest, RandomConsistent

__all__ = ["Guesser", "Move", "State", "make_agent", "make_guesser", "make_chooser", "describe_agents", "imports_allowed",
           "METRICS", "Metric", "Scoring", "Lowest", "RandomConsistent"]
