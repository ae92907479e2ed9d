"""The fewest secrets at the worst case, instance by instance: objective fewest-at-worst beside
objective worst (the least total among the trees with the least worst case), one table row each.

    python experiments/fewest_at_worst.py mastermind:pegs=3,colors=4 mastermind [--time-limit S]

Each row: the worst case, how many secrets need it in the tree of objective worst and at the
fewest (proven, or the bound proven when the time limit stopped the search), the totals of
both trees, and the seconds of each search (one process, one after the other).
"""

from __future__ import annotations

import argparse
import time

from arena.games import make_game
from arena.optimal import optimal_tree


def row(spec: str, time_limit: float | None) -> str:
    game = make_game(spec)
    start = time.perf_counter()
    worst = optimal_tree(game, objective="worst", time_limit=time_limit)
    middle = time.perf_counter()
    fewest = optimal_tree(game, objective="fewest-at-worst", time_limit=time_limit)
    end = time.perf_counter()
    proven = "" if fewest.at_worst_bound >= fewest.at_worst else f" (proven >= {fewest.at_worst_bound:,})"
    exact = "" if fewest.exact else " (not proven least)"
    return (
        f"| `{spec}` | {len(game.secrets):,} | {int(fewest.guesses.max())} | {worst.at_worst:,} | "
        f"{int(worst.value):,} | **{fewest.at_worst:,}**{proven} | {int(fewest.value):,}{exact} | "
        f"{middle - start:.1f} + {end - middle:.1f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", help="game specs")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds for each search")
    args = parser.parse_args()
    print("| game | secrets | worst case | at it (objective worst) | its total | at it, fewest | its total | seconds |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for spec in args.games:
        print(row(spec, args.time_limit), flush=True)


if __name__ == "__main__":
    main()
