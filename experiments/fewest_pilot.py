"""The pilot method's count by width (arena/optimal/pilot.py), pass after pass in one process,
as the table of experiments/optimal.md ("The pilot method") was measured:

    python experiments/fewest_pilot.py mastermind:colors=10,repeats=false --widths 4,8,16 [--nested]

Each line: the width, the secrets at the worst depth in the pilot's tree, and the seconds since
the start (the least worst case proven first; each pass reuses the rollouts and exact counts of
the ones before, as `arena optimal ... --objective fewest-at-worst --time-limit S` does).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from arena.games import make_game
from arena.optimal.fewest import Fewest
from arena.optimal.pilot import EXACT_BELOW, NESTED_SHARE, Pilot
from arena.optimal.problem import Problem
from arena.optimal.search.small_trees import SMALL_TREE
from arena.optimal.solve import least_depth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game spec (guesses only, a hit ends the game)")
    parser.add_argument("--widths", default="4,8,16", help="the passes' widths, in order")
    parser.add_argument("--nested", action="store_true", help="nest on the root's largest classes")
    parser.add_argument("--exact-below", type=int, default=EXACT_BELOW, help="classes counted exactly")
    args = parser.parse_args()
    game = make_game(args.game)
    S = np.arange(len(game.secrets))
    problem = Problem.of(game, objective="fewest-at-worst")
    start = time.perf_counter()
    depth, prover = least_depth(problem, S, problem.symmetry(), None)
    search = problem.search(max_guesses=depth, symmetry=problem.symmetry())
    search.compiled_below, search.fit_cache = SMALL_TREE, prover.fit_cache  # as solve.solve_fewest
    counting = Fewest(search, depth, len(S), totals=False)
    nested_from = NESTED_SHARE * len(S) if args.nested else float("inf")
    rolled: dict = {}
    print(f"{args.game}: every secret within {depth} guesses ({time.perf_counter() - start:.1f} s)")
    for width in (int(w) for w in args.widths.split(",")):
        pilot = Pilot(counting, width, args.exact_below, nested_from=nested_from, rolled=rolled)
        count = pilot.pilot(S, depth, search.symmetry)
        print(f"width {width}: {count:,} secrets at guess {depth} ({time.perf_counter() - start:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
