"""Guessers and choosers, and the registry that names them.

Agents depend on the engine (arena), never the other way round: the engine and the solvers take
agent objects, and only the command line and the config/tournament layer build them from specs.

    base         Agent (spec, parameters, label, seeding, Traits, per-game caches keyed by
                 game spec), Guesser (openers)
    chooser      Chooser; the committed choosers uniform, fixed, weighted
    registry     names by role, entry points, `module:Class` paths (make_agent)
    simple       lowest, random
    scoring      the scoring guessers (arena.greedy over arena.metrics), knuth
    misses       fewest-misses (exact Hangman play)
    optimal      optimal (the exact solver's trees); TreePlayer, a guesser playing one tree
    lookahead    lookahead (rollouts over the greedy guessers, a TreePlayer)
    equilibrium  the equilibrium guesser and chooser (mixes of trees, and of secrets)
    replay       tree (a saved strategy tree, arena.tree.SavedTree)
    evil         the evil chooser (keeps the largest class)
    adversary    the minimax chooser (keeps the hardest class, by the exact search)
    spoiler      the best response to a known guesser
    human        a person at the terminal, on either side (interactive)

Every module here that lists classes in `AGENTS` (and aliases in `ALIASES`) is registered
by name, through the fixed index registry.INDEX (name -> module, so that one agent imports
its own module only): add a module and its names there, and its agents appear in `arena
agents` (tests/test_startup.py fails until the index and the modules agree).
"""

from arena.traits import Traits

from .base import Agent, Guesser, Move, State
from .chooser import Chooser
from .registry import describe_agents, imports_allowed, make_agent, make_chooser, make_guesser
from .scoring import METRICS, Metric, Scoring
from .simple import Lowest, RandomConsistent

__all__ = [
    "Agent",
    "Guesser",
    "Chooser",
    "Traits",
    "Move",
    "State",
    "make_agent",
    "make_guesser",
    "make_chooser",
    "describe_agents",
    "imports_allowed",
    "METRICS",
    "Metric",
    "Scoring",
    "Lowest",
    "RandomConsistent",
]
