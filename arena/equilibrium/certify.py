"""Certified bounds on the value of a game too big to solve: lower <= value <= upper, each end
with a witness saved to a file that can be replayed.

- The upper end is achieved: a guesser mix of trees (the double oracle's LP over the trees it
  found) concedes at most its worst secret's expected cost, max over secrets s of
  sum_k y_k cost_k(s) (each cost averaged over s's orbit where the trees are carried by a random
  symmetry, as in symmetry.py). `mix_worst` computes it in exact fractions of the probabilities
  as saved, so the figure is the saved mix's own, not the LP's float.
- The lower end is proven: a chooser mix q, and a lower bound on the least expected cost of
  any guesser tree against q, proven by the exact search (arena.optimal; a search stopped by a
  time limit still proves the bound it reached, and an unstopped one proves its optimum). The
  search adds floats, so the bound is exact up to their rounding (relative 1e-15 a sum).

`certified_bounds` runs the double oracle with each best response stopped at `response_limit`
(`arena equilibrium GAME --time-limit T --response-limit R --save FILE`); the file holds both
witnesses: the trees and their probabilities, and the chooser's mix the lower bound was proven
against. `witness_upper` recomputes the upper end from such a file (`arena evaluate GAME
equilibrium:file=FILE --exploitability` prints the same worst secret), and `witness_lower`
searches again against its chooser's mix (`arena optimal GAME --weights FILE`): on a small game,
to the exact best response, whose cost can only be at least the lower end printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..core.costs import cost_for
from ..core.errors import ArenaTypeError
from ..core.game import Game
from ..trees.tree import Tree
from .known import mix_worst
from .oracle import double_oracle
from .solution import Equilibrium
from .verified import VerifiedValue as VerifiedValue  # its old place (before issue 32), kept for code using it
from .verified import fold, verified_value

__all__ = ["certified_bounds", "mix_worst", "verified_value", "witness_lower", "witness_upper"]


def certified_bounds(
    game: Game,
    time_limit: float,
    response_limit: float,
    initial: Sequence[Tree] = (),
    cost: str | None = None,
    progress=None,
    bounds_from: Sequence[str | Path] = (),
    **oracle: Any,
) -> Equilibrium:
    """The double oracle within `time_limit` seconds, each best response within `response_limit`,
    seeded with the `initial` trees; its upper end replaced by the exact worst secret of the
    guesser's mix (mix_worst) and its chooser's mix the one the lower end is proven against;
    then every bound proven elsewhere folded in (verified.fold: the uniform chooser's optimum, and
    the saved equilibria and split journals `bounds_from`; `uniform_limit`, among `oracle`'s
    keywords: its seconds on the uniform chooser). `oracle` may give the double oracle's
    `state` (a file, written after every round and resumed from: resume.py), `extra` (the
    trees each round adds besides its best response), `split` (best responses on the split's
    workers, journaled) and `search_every` (the search every K-th round, greedy trees between:
    oracle.OracleSettings)."""
    uniform_limit = oracle.pop("uniform_limit", None)  # the fold's, not the double oracle's
    if set(oracle) - {"state", "extra", "split", "search_every"}:
        raise ArenaTypeError(
            "certified_bounds takes state, extra, split, search_every and uniform_limit besides its own, "
            f"not {', '.join(sorted(oracle))}"
        )

    eq = double_oracle(
        game,
        time_limit=time_limit,
        response_limit=response_limit,
        initial=initial,
        certify=False,
        progress=progress,
        cost=cost,
        witness=True,
        **oracle,
    )
    paid = cost_for(game, eq.cost)
    worst, secret = mix_worst([float(p) for p in eq.guesser], [paid.of(t) for t in eq.trees], eq.symmetry)
    note = (
        f"upper end: the guesser's mix of {len(eq.trees)} trees concedes {float(worst):.6f} {eq.unit} "
        f"at most, on {game.secrets[secret]} (its exact worst secret)"
    )
    return fold(replace(eq, upper=float(worst), notes=eq.notes + (note,)), time_limit, bounds_from, 0, uniform_limit)


def witness_upper(game: Game, path: str | Path, cost: str | None = None) -> tuple[Fraction, str]:
    """The upper end a saved equilibrium's guesser mix achieves: its exact worst secret's expected
    cost, and that secret (a representative of its orbit)."""
    from .plans import plan_tree
    from .solution import load_guesser_mix

    mix, symmetry = load_guesser_mix(path, game)
    paid = cost_for(game, cost)
    costs = [paid.of(plan_tree(game, plan, f"tree {k}")) for k, (_, plan) in enumerate(mix, 1)]
    worst, secret = mix_worst([p for p, _ in mix], costs, symmetry)
    return worst, game.secrets[secret]


def witness_lower(
    game: Game, chooser: np.ndarray, time_limit: float | None = None, cost: str | None = None
) -> tuple[float, bool]:
    """A lower bound proven again on the least expected cost of any tree against the chooser's
    mix `chooser` (e.g. a saved equilibrium's), and whether it is the exact optimum (the search
    finished within `time_limit`)."""
    from .response import bounded_best_response, mix_problem

    weights = np.asarray(chooser, dtype=np.float64)
    tree, bound = bounded_best_response(mix_problem(game, weights / weights.sum(), cost), time_limit)
    return bound, not tree.stopped
