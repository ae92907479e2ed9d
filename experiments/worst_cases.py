"""The worst case of Mastermind, f(pegs, colours): the fewest guesses within which some tree finds
every code, for every small instance, by the check `arena optimal GAME --objective worst`
makes first (arena/optimal/solve.py, `least_depth`: the slot bound's least depth, then `fits`,
depth-first, one depth after another until a tree fits).

    python experiments/worst_cases.py                       # pegs 2-5, colours 2-7
    python experiments/worst_cases.py --pegs 4 --colors 2-8

Each row: f, the seconds, and the published figure where ../shared/REFERENCES.md gives one
(Knuth's f(4,6) = 5; Jäger and Peczarski 2009: f(4,5) = 5, f(4,7) = 6, f(3,6) = 5 and f(3,k) =
floor((k-1)/3) + 4 for k >= 5; f(5,6) listed as unknown, 5 or 6).
"""

from __future__ import annotations

import argparse
import time

from arena import make_game
from arena.optimal.problem import Problem
from arena.optimal.solve import least_depth

#: f(pegs, colours) as published (REFERENCES.md); "5 or 6" where the table leaves it open.
PUBLISHED: dict[tuple[int, int], str] = {(4, 6): "5 (Knuth)", (4, 5): "5", (4, 7): "6", (3, 6): "5", (5, 6): "5 or 6"}
PUBLISHED.update({(3, k): str((k - 1) // 3 + 4) for k in range(5, 12)})


def span(text: str) -> list[int]:
    """`2-7` or `5`: the numbers it names."""
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def worst_case(pegs: int, colors: int) -> tuple[int, float]:
    """f(pegs, colours) and the seconds it took."""
    started = time.perf_counter()
    problem = Problem.of(make_game(f"mastermind:pegs={pegs},colors={colors}"))
    depth, _ = least_depth(problem, problem.secrets, problem.symmetry(), None)
    return depth, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pegs", default="2-5", help="a number or a range, e.g. 2-5")
    parser.add_argument("--colors", default="2-7", help="a number or a range, e.g. 2-7")
    parser.add_argument("--most-codes", type=int, default=20_000, help="skip instances with more codes")
    args = parser.parse_args()
    print(f"{'pegs':>4} {'colours':>7} {'codes':>7} {'f':>3} {'seconds':>8}  published")
    for pegs in span(args.pegs):
        for colors in span(args.colors):
            if colors**pegs > args.most_codes:
                continue
            f, seconds = worst_case(pegs, colors)
            published = PUBLISHED.get((pegs, colors), "")
            print(f"{pegs:>4} {colors:>7} {colors**pegs:>7,} {f:>3} {seconds:>8.1f}  {published}", flush=True)


if __name__ == "__main__":
    main()
