"""Compile the exact search's kernels ahead of a first search: `python -m arena.optimal.search.warm`.

A first big exact search (4x7, Wordle) compiles tree_kernels.py with numba, which caches the
machine code beside the module (`cache=True`; in numba's user cache directory where the install
is read-only, or in NUMBA_CACHE_DIR). This does it at set-up time instead: one search of a
tiny set on a tiny game whose arrays have the types of every game the compiled search serves
(uint8 tables, read-only: Mastermind, Jotto and Wordle alike), and the partition counts of a
big search's nodes (arena.core.kernels), and the greedy trees of the four metrics that seed
the split's incumbent grown a level at a time (trees/levels.grow_compiled: 5x5's first `arena
optimal --workers N` compiled them, about 10 s), a weighted search's node scores (the double
oracle's best responses: weighted_kernels.py), its weighted greedy trees' scores and its LP's
dominance pass (core/dominance_loops.py), and a journal reader's replay (trees/replay.py), so
the first real search loads the code instead of compiling it. Running it again loads the
cache and costs about a second. Not compiled here: the reply formula of games too big for a
table (arena/games/multisets.py), which only bigger instances use.
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np

#: A game whose arrays have the types of every game the compiled search serves.
WARM_SPEC = "mastermind:pegs=2,colors=3"


def warm(spec: str = WARM_SPEC) -> float:
    """Compile (or load from the cache) the exact search's kernels for the arrays of `spec`'s
    game; the seconds it took."""
    from ...core.errors import Compiling
    from ...core.kernels import reply_major_counts
    from ...games import make_game
    from ...trees.greedy import Greedy, greedy_tree
    from ...trees.levels import grow_compiled
    from ...trees.replay import preorder, preorder_depths
    from ..solve import SEED_METRICS
    from .branch import Search
    from .small_trees import compile_ahead

    start = time.perf_counter()
    game = make_game(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Compiling)  # main says it, in its own words
        compile_ahead(Search(game, np.ones(len(game.secrets))).small_trees())
    secrets, guesses = (np.arange(n) for n in game.by_secret.shape)
    reply_major_counts(game.by_secret, guesses, secrets, game.n_codes)  # a big node's partition counts
    for metric in SEED_METRICS:  # the split's seed trees, grown as a big game grows them
        grow_compiled(game, Greedy(metric), secrets)
    weighted = Search(game, np.linspace(1.0, 2.0, len(game.secrets)))  # a best response's kernels
    weighted.compile_weighted = True
    weighted.solve(secrets)
    from . import weighted_kernels  # the double oracle's weighted greedy trees (equilibrium/response.py)

    weighted_kernels.greedy_scores(game.table, secrets, guesses, weighted.w, game.hit, game.n_codes)
    from ...core.dominance_loops import undominated_in_order  # a big double oracle's LP

    undominated_in_order(np.eye(3), np.arange(3), False)
    preorder_depths(game, secrets, preorder(greedy_tree(game, "entropy").root))  # a journal's reader
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Compile the kernels (or load them: a second run), saying so on stderr."""
    print("arena: compiling the exact search's kernels (once; about half a minute)...", file=sys.stderr, flush=True)
    seconds = warm(*(sys.argv[1:] if argv is None else argv)[:1])
    print(f"arena: the exact search's kernels are ready ({seconds:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
