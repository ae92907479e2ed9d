"""The `optimal` agent's parameters, declared once, below the agents: the agent
(agents/optimal.py) takes them as its own, and the solver names the agent that replays its
trees with them (`agent_spec`, written into every exact tree it returns). The pool and the
objective are enums (`Pool`, `Objective`) here, below every module of the solver that takes
them; arena.optimal.problem names them as part of the Problem.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from ..core.costs import COSTS
from ..core.spec import OPENERS, Param, canonical


class Pool(StrEnum):
    """The guesses a tree may play: every guess, or only those that may still be the secret
    (Hangman: letters that may be in the word). A str, so "all" == Pool.ALL."""

    ALL = "all"
    CONSISTENT = "consistent"


class Objective(StrEnum):
    """What the tree minimises: the weighted total; or the worst case first and then the total
    among the trees with that worst case; or the worst case, then the fewest secrets that need
    it, then the total (equal weights, guesses on a game a hit ends: arena.optimal.fewest)."""

    AVERAGE = "average"
    WORST = "worst"
    FEWEST_AT_WORST = "fewest-at-worst"


#: The name the agents' registry knows the exact guesser by.
NAME = "optimal"

PARAMS = {
    "pool": Param("pool", ("all", "consistent"), "all", "the guesses allowed"),
    "objective": Param(
        "objective",
        ("average", "worst", "fewest-at-worst"),
        "average",
        "least total; or fewest guesses in the worst case then least total; or fewest guesses in the "
        "worst case, then fewest secrets needing it, then least total",
    ),
    "max": Param("max", int, 0, "never more than this many guesses (0: no limit)"),
    "weights": Param(
        "weights",
        str,
        "",
        "weights file (arena.core.weights): JSON {secret: weight} or a list, or lines 'secret weight'",
    ),
    "time": Param("time", float, 0.0, "time limit in seconds (0: none): then the best tree found"),
    "cost": Param(
        "cost",
        ("game",) + COSTS,
        "game",
        "what to minimise (arena.core.costs): the game's own cost (guesses; Hangman: misses), "
        "or on Hangman guesses until determined or lost games",
    ),
}


def agent_spec(
    pool: Pool, objective: Objective, max_guesses: int | None, cost: str | None = None, openers: Sequence[str] = ()
) -> str:
    """The `optimal` agent's spec for these settings (non-default parameters only): `cost`
    None is the game's own, `max_guesses` None no limit."""
    declared = {**PARAMS, "openers": OPENERS}
    values = {name: p.default for name, p in declared.items()}
    values.update(pool=pool, objective=objective, max=max_guesses or 0, cost=cost or "game", openers=tuple(openers))
    return canonical(NAME, declared, values)
