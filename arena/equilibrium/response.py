"""The guesser's exact best response to a chooser's mix: the tree of least expected guesses.

Against a chooser who draws secret s with probability w_s, a guesser tree costs
sum_s w_s * guesses(s). The least cost over trees satisfies, for the set S of secrets still
possible (W(S) = sum of their weights, every one of which pays for the next guess),

    cost(S) = W(S) + min over guesses g of  sum over the classes C of S under g, except the hit,  cost(C),

with cost({s}) = w_s: the weighted average objective of the project's one exact search,
`arena.optimal.optimal_tree` (branch and bound over candidate sets, arena/optimal/search/).
Where the game ends once the secret is determined (Hangman), the same search minimises the
weighted misses (or letters, or lost games: arena.costs) instead.
"""

from __future__ import annotations

import numpy as np

from ..optimal import SolvedTree, optimal_tree
from ..tree import Tree

#: The solver named in the double oracle's method line.
SOLVER = "arena.optimal.optimal_tree"


def best_response(game, weights: np.ndarray, cost: str | None = None) -> Tree:
    """An exact best response to the chooser's mix `weights` (one per secret, summing to 1),
    under `cost` (arena.costs; default the game's own: Hangman's misses)."""
    tree, _ = bounded_best_response(game, weights, cost=cost)
    return tree


def bounded_best_response(game, weights: np.ndarray, time_limit: float | None = None,
                          progress=None, cost: str | None = None, incumbent: Tree | None = None
                          ) -> tuple[SolvedTree, float]:
    """A best response found within `time_limit` seconds (None: no limit), and a proven lower
    bound on the least expected cost of any tree against `weights`.

    Without a limit, or when the search finishes in time, the tree is exact and the bound is
    its own cost. When the limit stops the search, the tree is the best found (at worst a
    greedy tree) and the bound is what the search proved: still a valid lower bound on the
    game's value, since `weights` is a mix the chooser may play. `progress` (a ProgressLine)
    follows the search. `incumbent` (a tree already known, e.g. the best one found in an
    earlier round) gives the search its starting budget: the same answer, sooner."""
    weights = np.asarray(weights, dtype=np.float64)
    tree = optimal_tree(game, weights=weights, time_limit=time_limit, progress=progress, cost=cost,
                        incumbent=incumbent)
    paid = float(weights @ tree.costs)
    return tree, min(float(tree.lower_bound), paid)
