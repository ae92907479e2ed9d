"""The double oracle's quick column, `weighted_greedy_tree`, scored by sorting against by a table
of every reply, in one run (issue 34).

    python benchmarks/bench_weighted_greedy.py                 # Wordle and Jotto, 3 mixes each
    python benchmarks/bench_weighted_greedy.py --games wordle --mixes 5

For each game and each random chooser mix (a seed each: weights u**4 for u uniform on [0, 1),
summing to 1), the tree is grown twice in turn: with the scorer the game uses
(response.SORTED_CODES: sorting where a game has more than 32 replies, Wordle) and with the
table of every reply (_dense_scores, the only one before). Both trees must find every secret;
their costs against the mix are printed, equal but where a near-tie (two guesses whose scores
differ only in the order their classes are summed) went the other way, and then within 0.01
(asserted). Printed: each pair's seconds, then the medians and their ratio.
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


def grown(game, mix: np.ndarray, dense: bool) -> tuple[float, np.ndarray]:
    """(CPU seconds, guesses per secret) of one weighted greedy tree, the table scorer forced or not."""
    kept = response.SORTED_CODES
    response.SORTED_CODES = 10**9 if dense else kept
    try:
        start = time.process_time()
        tree = response.weighted_greedy_tree(game, mix)
        return time.process_time() - start, np.asarray(cost_for(game).of(tree))
    finally:
        response.SORTED_CODES = kept


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["wordle", "jotto"])
    parser.add_argument("--mixes", type=int, default=3)
    args = parser.parse_args(argv)
    for spec in args.games:
        game = make_game(spec)
        scorer = "sorted" if game.n_codes > response.SORTED_CODES else "table"
        now, before = [], []
        for seed in range(args.mixes):
            mix = np.random.default_rng(seed).random(len(game.secrets)) ** 4
            mix /= mix.sum()
            t_new, c_new = grown(game, mix, dense=False)
            t_old, c_old = grown(game, mix, dense=True)
            assert c_new.min() >= 1 and c_old.min() >= 1
            assert abs(float(mix @ c_new) - float(mix @ c_old)) <= 0.01, (spec, seed)
            now.append(t_new)
            before.append(t_old)
            print(
                f"{spec} mix {seed}: {scorer} {t_new:.2f} s, table {t_old:.2f} s; "
                f"cost {mix @ c_new:.9f} and {mix @ c_old:.9f}"
            )
        a, b = statistics.median(now), statistics.median(before)
        print(f"{spec}: {game.n_codes} replies, scorer {scorer}: median {a:.2f} s against {b:.2f} s: {b / a:.1f}x")


if __name__ == "__main__":
    main()
