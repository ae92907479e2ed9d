"""Speed of the exact solver (arena.optimal), and of a plain-Python version of the same search.

    python benchmarks/bench_optimal.py            # the 4x6 figures; engine vs plain on four small instances
    python benchmarks/bench_optimal.py --quick    # engine vs plain on 3x5 and the first 100 Jotto words

The 4x6 rows solve Mastermind from scratch (a fresh solver, no shipped tree): the optimum 5,625,
the best within five guesses 5,626, and the consistent-only optimum 5,660. Goal (issue 5): under
10 minutes on this 2-core machine; a published single-file C++ solver takes about 16 s (and it
only searches the guesses with the most parts, so it is not exact by construction).

The engine-versus-plain rows run the same branch and bound twice, without symmetry on both
sides: the engine's (numpy partition counts per node, search.py) and `plain_optimum` below (the
same bounds, closures, order and cache, in plain Python lists and dicts). Then the engine with
its symmetry, for scale. Times are the best of 3 runs for the engine, one run for the plain code.
"""

from __future__ import annotations

import argparse
from functools import partial
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np

from arena import make_game
from arena.optimal import optimal_tree
from arena.optimal.search import Search
from arena.optimal.search import stabilizer

sys.path.insert(0, str(Path(__file__).parent))
from timing import RUNS, clock, row as timing_row  # noqa: E402  (benchmarks/timing.py)


#: This benchmark's rows (timing.row) with its own task column width.
row = partial(timing_row, width=58, digits=2)


def plain_optimum(table: list[list[int]], hit: int) -> int:
    """The least total number of guesses over all secrets, every code a guess and a secret
    (Mastermind): depth-first branch and bound with the slot bound, the 2n-1 / 2n closures for
    small sets, guesses in order of bound then sum of squared class sizes, a cache of exact
    values and proven bounds, and the budget passed down. No numpy, no symmetry."""
    n_guesses = len(table)
    b_max = len({r for row in table for r in row} - {hit})
    cache: dict[tuple[int, ...], tuple[int, float]] = {}  # set -> (proven bound, exact value or inf)

    @lru_cache(maxsize=None)
    def slot(n: int, b: int) -> int:
        total, depth, width = 0, 1, 1
        while n > 0:
            take = min(n, width)
            total, n, depth, width = total + take * depth, n - take, depth + 1, width * b
        return total

    def closed(S: tuple[int, ...]) -> int | None:
        n = len(S)
        if n == 1:
            return 1
        if n == 2:
            return 3
        if n <= b_max + 1:
            most = max(len({table[g][s] for s in S}) for g in S)
            if most >= n - 1:
                return 2 * n - 1 + (n - most)
        return None

    def solve(S: tuple[int, ...], budget: float) -> float:
        value = closed(S)
        if value is not None:
            return value
        known, exact = cache.get(S, (0, float("inf")))
        if exact < float("inf") or known >= budget:
            return exact if exact < float("inf") else known
        n = len(S)
        scored = []
        b = 1
        for g in range(n_guesses):
            counts = Counter(table[g][s] for s in S)
            counts.pop(hit, None)
            if counts and max(counts.values()) == n:
                continue
            b = max(b, len(counts))
            scored.append((g, list(counts.values())))
        bounds = [(n + sum(slot(c, b) for c in cs), sum(c * c for c in cs), g) for g, cs in scored]
        bounds.sort()
        best, found, floor = budget, False, float("inf")
        for bound, _, g in bounds:
            if bound >= best:
                floor = min(floor, bound)
                break
            total = value_of(g, S, best, b)
            if total < best:
                best, found = total, True
            else:
                floor = min(floor, total)
        if found:
            cache[S] = (best, best)
            return best
        cache[S] = (max(known, floor), float("inf"))
        return max(known, floor)

    def value_of(g: int, S: tuple[int, ...], limit: float, b: int) -> float:
        classes: dict[int, list[int]] = {}
        for s in S:
            classes.setdefault(table[g][s], []).append(s)
        parts = sorted((tuple(c) for r, c in classes.items() if r != hit), key=len)
        bounds = [slot(len(c), b) for c in parts]
        total = len(S) + sum(bounds)
        for c, lb in zip(parts, bounds):
            if total >= limit:
                return total
            total += solve(c, limit - (total - lb)) - lb
        return total

    return int(solve(tuple(range(len(table[0]))), float("inf")))


def engine_optimum(game, symmetric: bool) -> int:
    if symmetric:
        return int(optimal_tree(game).value)
    search = Search(game, np.ones(len(game.secrets)))
    return int(search.solve(game.all_secrets))



def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="engine vs plain on two small instances, no 4x6")
    args = parser.parse_args(argv)
    print(f"{'task':<58} {'engine s':>8} {'plain s':>9} {'ratio':>9}   figures")
    if not args.quick:
        mastermind = make_game("mastermind")
        for label, kwargs in [("mastermind 4x6: optimum", {}),
                              ("mastermind 4x6: best within 5 guesses", {"max_guesses": 5}),
                              ("mastermind 4x6: consistent-only optimum", {"pool": "consistent"})]:
            tree, seconds = clock(lambda: optimal_tree(mastermind, **kwargs), RUNS)
            row(label, seconds, None, f"total {int(tree.value):,}, worst {tree.guesses.max()}, exact {tree.exact}")
    small = ["mastermind:pegs=3,colors=5", "jotto:first=100"]
    for spec in small + ([] if args.quick else ["mastermind:pegs=4,colors=4", "jotto:first=150"]):
        game = make_game(spec)
        ours, seconds = clock(lambda: engine_optimum(game, False), RUNS)
        theirs, plain_seconds = clock(lambda: plain_optimum(game.table.tolist(), game.hit))
        assert ours == theirs, f"{spec}: engine {ours} but plain {theirs}"
        row(f"{spec}, no symmetry: engine vs plain", seconds, plain_seconds, f"total {ours:,} | {theirs:,}")
        if stabilizer(game) is not None:  # Jotto has none
            value, sym_seconds = clock(lambda: engine_optimum(game, True), RUNS)
            row(f"{spec}, with symmetry", sym_seconds, None, f"total {value:,}")

if __name__ == "__main__":
    main()
