"""Speed of the exact solver (arena.optimal), and of a plain-Python version of the same search.

    python benchmarks/bench_optimal.py            # the 4x6 figures; engine vs plain on four small instances;
                                                  # the from-scratch table below
    python benchmarks/bench_optimal.py --quick    # engine vs plain on 3x5 and the first 100 Jotto words
    python benchmarks/bench_optimal.py --scratch  # issue 15's instances from scratch, one `arena optimal` each
    python benchmarks/bench_optimal.py --scratch --long --bulls   # ... with 4x7 (minutes) and Bulls and Cows

The --scratch table runs `arena optimal GAME --json` as a fresh process per instance (the wall
time includes Python's start-up, the imports and the game's table) and prints, beside the wall
time, the search's own seconds (`seconds` in the JSON), the candidate sets it searched
(`searched`), the value and the proven lower bound (equal: the tree is optimal). Issue 15's
targets on this 2-core machine: 4x6 under 1 s, 5x5 under 12 s, 4x7 under 50 s, Bulls and
Cows under 180 s.

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
import json
import os
import subprocess
import sys
import time
from collections import Counter
from functools import partial
from pathlib import Path

import numpy as np

from arena import make_game
from arena.optimal import optimal_tree
from arena.optimal.search import Search, stabilizer

ROOT = Path(__file__).resolve().parent.parent  # the checkout whose code the --scratch rows run
sys.path.insert(0, str(Path(__file__).parent))
from timing import RUNS, clock  # noqa: E402  (benchmarks/timing.py)
from timing import row as timing_row  # noqa: E402

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

    @cache
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


#: (label, spec, extra options, the flag that asks for it) of the --scratch table.
SCRATCH = [
    ("4x6", "mastermind", (), None),
    ("4x6 within 5 guesses", "mastermind", ("--max", "5"), None),
    ("5x5", "mastermind:pegs=5,colors=5", (), None),
    ("4x8 no repeats", "mastermind:colors=8,repeats=false", (), None),
    ("4x7", "mastermind:colors=7", (), "long"),
    ("Bulls and Cows", "mastermind:colors=10,repeats=false", (), "bulls"),
]


def from_scratch(spec: str, options: tuple[str, ...]) -> tuple[dict, float]:
    """`arena optimal SPEC OPTIONS --json` in a fresh process (this checkout's code): its JSON
    and the wall time of the whole command."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli.parser", "optimal", spec, *options, "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    return json.loads(done.stdout), time.perf_counter() - start


def scratch_table(wanted: set[str]) -> None:
    """One row per instance of SCRATCH (those behind a flag only when asked for)."""
    print(f"{'instance':<22} {'spec':<36} {'wall s':>7} {'solve s':>8} {'sets':>8} {'value':>7} {'bound':>7}")
    for label, spec, options, flag in SCRATCH:
        if flag is not None and flag not in wanted:
            continue
        data, wall = from_scratch(spec, options)
        print(
            f"{label:<22} {spec + ''.join(' ' + o for o in options):<36} {wall:7.2f} {data['seconds']:8.2f} "
            f"{data['searched']:8,} {data['value']:7,} {data['lower_bound']:7,}",
            flush=True,
        )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="engine vs plain on two small instances, no 4x6")
    parser.add_argument(
        "--scratch",
        action="store_true",
        help="only the from-scratch table of issue 15's instances (4x6, 5x5, 4x8 no repeats)",
    )
    parser.add_argument("--long", action="store_true", help="the from-scratch table also solves 4x7")
    parser.add_argument("--bulls", action="store_true", help="the from-scratch table also solves Bulls and Cows")
    args = parser.parse_args(argv)
    if args.scratch:
        scratch_table({flag for flag in ("long", "bulls") if getattr(args, flag)})
        return
    print(f"{'task':<58} {'engine s':>8} {'plain s':>9} {'ratio':>9}   figures")
    if not args.quick:
        mastermind = make_game("mastermind")
        for label, kwargs in [
            ("mastermind 4x6: optimum", {}),
            ("mastermind 4x6: best within 5 guesses", {"max_guesses": 5}),
            ("mastermind 4x6: consistent-only optimum", {"pool": "consistent"}),
        ]:
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
    if not args.quick:
        print()
        scratch_table({flag for flag in ("long", "bulls") if getattr(args, flag)})


if __name__ == "__main__":
    main()
