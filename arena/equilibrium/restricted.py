"""Games with a given set of guesser strategies: named guessers, or every tree of a tiny game.

The chooser may pick any secret; the guesser mixes over the trees given. The value is that of
this restricted game: the guesser could only do better with more trees to choose from.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from ..core.costs import cost_for
from ..core.errors import ArenaError
from ..core.game import Game
from ..core.resources import check_memory
from ..trees.grow import grow_tree
from ..trees.tree import Tree
from .enumeration import MAX_TREES, count_trees, enumerate_trees
from .matrix import lp_bytes
from .payoff_matrix import PayoffMatrix
from .rational import ExactSolution
from .solution import Equilibrium
from .symmetry import no_symmetry


def guesser_trees(game: Game, guessers: Sequence) -> list[Tree]:
    """The tree of each guesser (a random guesser plays its tree for its own seed)."""
    trees = []
    for guesser in guessers:
        label = guesser.label
        if not guesser.deterministic:
            guesser = guesser.seeded(guesser.values.get("seed", 0), 0)
        tree = grow_tree(game, guesser)
        tree.guesser = label
        trees.append(tree)
    return trees


def _solve_columns(
    game: Game, costs: np.ndarray, method: str, start: float, tree_of, cost: str = "guesses"
) -> Equilibrium:
    """Solve the game of the secrets against the columns `costs[k, s]`; `tree_of(k)` builds
    the trees the guesser plays (only those in its mix are built)."""
    symmetry = no_symmetry(game)
    solution, exact = PayoffMatrix.of(costs, symmetry).equilibrium()
    A = costs.T
    played = np.flatnonzero(solution.column > 0)
    trees = tuple(tree_of(int(k)) for k in played)
    column = solution.column[played]
    if exact is not None:  # keep the exact strategies aligned with the trees kept
        exact = ExactSolution(exact.value, exact.row, tuple(exact.column[k] for k in played))
    lower, upper = float((solution.row @ A).min()), float((A @ solution.column).max())
    return Equilibrium(
        game,
        method + "; " + solution.method,
        solution.value,
        lower,
        upper,
        solution.row,
        trees,
        column,
        symmetry,
        time.perf_counter() - start,
        exact,
        cost=cost,
    )


def solve_restricted(game: Game, guessers: Sequence, cost: str | None = None) -> Equilibrium:
    """The chooser (any secret) against a mix of the given guessers' trees (agents built by the
    caller: `[make_guesser(spec) for spec in specs]`); the payoff is `cost` (arena.core.costs:
    default the game's own)."""
    if not guessers:
        raise ArenaError("name at least one guesser")
    paid = cost_for(game, cost)
    start = time.perf_counter()
    trees = guesser_trees(game, guessers)
    costs = np.array([paid.of(t) for t in trees])
    return _solve_columns(
        game, costs, f"restricted to {len(guessers)} named guessers", start, lambda k: trees[k], paid.name
    )


def solve_enumerated(
    game: Game,
    frontier: bool = True,
    max_trees: int = MAX_TREES,
    cost: str | None = None,
    time_limit: float | None = None,
) -> Equilibrium:
    """The chooser against every guesser tree (`frontier`: every undominated one; the same
    value and equilibria, see enumeration.py), by listing them all; payoff `cost`. Past
    `time_limit` seconds of listing: an ArenaError (a listing has no partial answer)."""
    start = time.perf_counter()
    trees = enumerate_trees(game, frontier=frontier, max_trees=max_trees, cost=cost, time_limit=time_limit)
    rows, columns = len(game.secrets), len(trees)
    # the costs as int64 and the payoffs as float64, then the LP on them
    check_memory(
        rows * columns * 16 + lp_bytes(rows, columns), f"solving {game.spec} against its {columns:,} listed trees"
    )
    total = count_trees(game)
    what = f"{len(trees):,} undominated of {total:,} trees" if frontier else f"all {total:,} trees"
    return _solve_columns(game, trees.costs.astype(np.int64), f"enumeration ({what})", start, trees.tree, trees.cost)
