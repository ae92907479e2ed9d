"""The double oracle's quick column, `weighted_greedy_tree`, scored in compiled code against
numpy's scorers, in one run (issue 34).

    python benchmarks/bench_weighted_greedy.py                 # Wordle and Jotto, 3 mixes each
    python benchmarks/bench_weighted_greedy.py --games wordle --mixes 5

For each game and each random chooser mix (a seed each: weights u**4 for u uniform on [0, 1),
summing to 1), the tree is grown three times in turn: with the scorer the game uses
(compiled, weighted_kernels.greedy_scores, on games of at least ordering.WEIGHTED_CELLS table
cells: Wordle, Jotto), with numpy's scorer for the game (response.SORTED_CODES: sorting where a
game has more than 32 replies, Wordle; else the table of every reply) and with the table of
every reply (_dense_scores, the only one at first). The trees must find every secret; their
costs against the mix are printed, equal but where a near-tie (two guesses whose scores differ
only in the order their classes are summed) went the other way, and then within 0.01
(asserted). Printed: each mix's seconds, then the medians and their ratios.
CPU seconds (time.process_time) by default, since the project's machine is shared.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.core.costs import cost_for  # noqa: E402
from arena.equilibrium import response  # noqa: E402
from arena.games import make_game  # noqa: E402


def grown(game, mix: np.ndarray, scorer: str) -> tuple[float, np.ndarray]:
    """(CPU seconds, guesses per secret) of one weighted greedy tree, its scorer "compiled"
    (the game's default where big enough), "numpy" (the game's numpy scorer) or "table"."""
    kept, compiled = response.SORTED_CODES, response._compiled
    if scorer != "compiled":
        response._compiled = lambda game: None
    if scorer == "table":
        response.SORTED_CODES = 10**9
    try:
        start = time.process_time()
        tree = response.weighted_greedy_tree(game, mix)
        return time.process_time() - start, np.asarray(cost_for(game).of(tree))
    finally:
        response.SORTED_CODES, response._compiled = kept, compiled


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["wordle", "jotto"])
    parser.add_argument("--mixes", type=int, default=3)
    args = parser.parse_args(argv)
    scorers = ("compiled", "numpy", "table")
    for spec in args.games:
        game = make_game(spec)
        response.weighted_greedy_tree(game, np.full(len(game.secrets), 1.0 / len(game.secrets)))  # numba loaded
        numpy = "sorted" if game.n_codes > response.SORTED_CODES else "table"
        seconds: dict[str, list[float]] = {name: [] for name in scorers}
        for seed in range(args.mixes):
            mix = np.random.default_rng(seed).random(len(game.secrets)) ** 4
            mix /= mix.sum()
            costs = {}
            for name in scorers:
                took, costs[name] = grown(game, mix, name)
                seconds[name].append(took)
                assert costs[name].min() >= 1
                assert abs(float(mix @ costs[name]) - float(mix @ costs["compiled"])) <= 0.01, (spec, seed)
            print(
                f"{spec} mix {seed}: "
                + ", ".join(f"{name} {seconds[name][-1]:.2f} s" for name in scorers)
                + "; costs "
                + " ".join(f"{mix @ costs[name]:.9f}" for name in scorers)
            )
        a, b, c = (statistics.median(seconds[name]) for name in scorers)
        print(
            f"{spec}: {game.n_codes} replies: median compiled {a:.2f} s, numpy ({numpy}) {b:.2f} s ({b / a:.1f}x), "
            f"table {c:.2f} s ({c / a:.1f}x)"
        )


if __name__ == "__main__":
    main()
