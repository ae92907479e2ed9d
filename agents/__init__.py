"""Guessers and choosers, and the registry that names them.

Agents depend on the engine (arena), never the other way round: the engine and the solvers take
agent objects, and only the command line and the config/tournament layer build them from specs.

    base         Agent (spec, parameters, label, seeding, Traits, per-game caches keyed by
                 game spec), Guesser (openers)
    chooser      Chooser; the committed choosers uniform, fixed, weighted
    registry     names by role, entry points, `module:Class` paths (make_agent)
    simple       lowest, random
    scoring      the scoring guessers (arena.trees.greedy over arena.trees.metrics), knuth
    misses       fewest-misses (exact Hangman play)
    optimal      optimal (the exact solver's trees); TreePlayer, a guesser playing one tree
    lookahead    lookahead (rollouts over the greedy guessers, a TreePlayer)
    equilibrium  the equilibrium guesser and chooser (mixes of trees, and of secrets)
    replay       tree (a saved strategy tree, arena.trees.saved.SavedTree)
    evil         the evil chooser (keeps the largest class)
    adversary    the minimax chooser (keeps the hardest class, by the exact search)
    spoiler      the best response to a known guesser
    human        a person at the terminal, on either side (interactive)
    learned      a policy trained in OpenSpiel, PettingZoo or Gymnasium, as a guesser (a table file)
    learning     tabular Q-learning over the game's moves (arena.play.moves), the policies `learned` plays

Every module here that lists classes in `AGENTS` (and aliases in `ALIASES`) is registered
by name, through the fixed index registry.INDEX (name -> module, so that one agent imports
its own module only): add a module and its names there, and its agents appear in `arena
agents` (tests/test_startup.py fails until the index and the modules agree).
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from arena.core.traits import Traits

from .registry import describe_agents, imports_allowed, make_agent, make_chooser, make_guesser

if TYPE_CHECKING:
    from .base import Agent, Guesser, Move, State
    from .chooser import Chooser
    from .scoring import METRICS, Metric, Scoring
    from .simple import Lowest, RandomConsistent

#: The classes this package offers by name, and their modules: loaded when first asked for, so
#: that a command that builds no agent, or one agent, loads only what it uses (the registry
#: finds an agent's module through its index).
_LAZY = {
    "Agent": "base",
    "Guesser": "base",
    "Move": "base",
    "State": "base",
    "Chooser": "chooser",
    "METRICS": "scoring",
    "Metric": "scoring",
    "Scoring": "scoring",
    "Lowest": "simple",
    "RandomConsistent": "simple",
}

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


def __getattr__(name: str) -> Any:
    """A class of `_LAZY`, from its module (imported now, once: it is kept as the package's)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    globals()[name] = value
    return value
