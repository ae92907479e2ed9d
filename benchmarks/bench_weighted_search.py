"""The exact search's speed per set with weights against without (issue 34: "weighted searches
as fast per node as equal-weight ones"): `optimal_tree` on each instance with equal weights and
with random weights (uniform in [0.5, 1.5], seeded), each stopped at the time limit, the sets
searched (`searched`) over the seconds, in one process, one after the other.

    python benchmarks/bench_weighted_search.py                  # 4x6 and 4x7, 40 s each at most
    python benchmarks/bench_weighted_search.py --limit 20 --games mastermind:colors=5

Equal weights search sets of at most 64 secrets whole in compiled code on games of at least
2^21 table cells (small_trees.py: 4x7, not 4x6); weights search every set in Python.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from arena import make_game
from arena.optimal import optimal_tree


def sets_a_second(spec: str, weights: np.ndarray | None, limit: float) -> tuple[float, int, float, bool]:
    """(seconds, sets searched, sets a second, finished) of one search."""
    started = time.perf_counter()
    tree = optimal_tree(make_game(spec), weights=weights, time_limit=limit)
    seconds = time.perf_counter() - started
    return seconds, tree.searched, tree.searched / seconds, not tree.stopped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["mastermind", "mastermind:colors=7"])
    parser.add_argument("--limit", type=float, default=40.0, help="each search's time limit in seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<22} {'weights':<8} {'seconds':>8} {'sets':>8} {'sets/s':>8}  finished")
    for spec in args.games:
        n = len(make_game(spec).secrets)
        rows = {}
        for label, weights in (("equal", None), ("random", np.random.default_rng(args.seed).uniform(0.5, 1.5, n))):
            seconds, sets, speed, finished = sets_a_second(spec, weights, args.limit)
            rows[label] = speed
            print(f"{spec:<22} {label:<8} {seconds:>8.1f} {sets:>8,} {speed:>8,.0f}  {finished}", flush=True)
        print(f"{'':<22} equal / random per set: {rows['equal'] / rows['random']:.1f}x", flush=True)


if __name__ == "__main__":
    main()
