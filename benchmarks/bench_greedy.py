"""Speed of the greedy evaluation on big Mastermind instances (issue 15), and of its hot loop.

    python benchmarks/bench_greedy.py            # the four rows of the issue's table, and the hot loop
    python benchmarks/bench_greedy.py --big      # also Knuth on 5x8 (a 1 GB table) and 6x6 on the fly

Part 1 runs `arena evaluate GAME GUESSER --json` as a user does, in a fresh process, and prints
the wall time (start-up included), the JSON's build and solve seconds and the total it found.
The comparison with the public C++ implementation runs both side by side on the same machine:
benchmarks/bench_peer_greedy.py (issue 23; its build steps are in its docstring). 6x6 runs with ARENA_MEMORY_LIMIT=2G, under which its 2.2 GB table does
not fit: every reply is computed on the fly.

Part 2 times the hot loop alone, the partition keys of a pool of guesses on a candidate set,
three ways, on 5x7 and checks that they agree: the compiled loop (arena/core/kernels.py: the counts
and the metric fused, one byte read per cell), the numpy engine (a gathered block, bincount,
then the metric), and plain Python (a Counter of replies per guess, from the same replies as
Python lists, built outside the clock).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from timing import RUNS, clock, row  # noqa: E402  (benchmarks/timing.py)

from arena import make_game  # noqa: E402
from arena.trees.metrics import METRICS, fused_tables  # noqa: E402

#: (game, guesser, our wall seconds before issue 15)
ROWS = [
    ("mastermind:pegs=5,colors=7", "knuth", 26.5),
    ("mastermind:pegs=5,colors=7", "entropy", 28.7),
    ("mastermind:pegs=4,colors=11", "most-parts", 20.5),
    ("mastermind:pegs=4,colors=11", "most-parts:openers=1122", None),
    ("mastermind:pegs=4,colors=6", "knuth", 0.86),
]
BIG = [
    ("mastermind:pegs=5,colors=8", "knuth", None, {}),
    ("mastermind:pegs=6,colors=6", "knuth", None, {"ARENA_MEMORY_LIMIT": "2G"}),
]


def evaluate(game: str, guesser: str, env: dict[str, str]) -> tuple[dict, float]:
    """`arena evaluate GAME GUESSER --json` in a fresh process: its JSON and the wall seconds."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli.parser", "evaluate", game, guesser, "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
    )
    return json.loads(done.stdout), time.perf_counter() - start


def commands(rows: list) -> None:
    print(f"{'arena evaluate GAME GUESSER --json':<44} {'wall s':>7} {'build':>6} {'solve':>6} {'before':>7}   total")
    for game, guesser, before, *env in rows:
        result, wall = evaluate(game, guesser, env[0] if env else {})
        print(
            f"{game.removeprefix('mastermind:') + ' ' + guesser:<44} {wall:7.2f} {result['build_seconds']:6.2f} "
            f"{result['solve_seconds']:6.2f} {before or '-':>7}   {result['total']:,}"
            + (f"  ({', '.join(f'{k}={v}' for k, v in env[0].items())})" if env and env[0] else ""),
            flush=True,
        )


def plain_keys(block: list[list[int]]) -> list[int]:
    """Knuth's key, the largest class, of every guess: a Counter of its replies (a list per guess)."""
    return [max(Counter(replies).values()) for replies in block]


def hot_loop() -> None:
    game = make_game("mastermind:pegs=5,colors=7")
    minimax = METRICS["minimax"]
    rng = np.random.default_rng(15)
    print(f"\n{'partition keys (minimax), 5x7: pool x candidates':<58} {'engine':>8} {'plain':>9} {'ratio':>9}")
    for n_pool, n_candidates in [(16807, 30), (16807, 300), (16807, 3000), (2000, 300)]:
        pool = (
            game.all_guesses
            if n_pool == len(game.guesses)
            else np.sort(rng.choice(len(game.guesses), n_pool, replace=False))
        )
        S = np.sort(rng.choice(len(game.secrets), n_candidates, replace=False))
        tables = fused_tables(len(S), False)
        (fused, _, _), compiled = clock(lambda: game.fused_keys(pool, S, "largest", *tables), RUNS)
        numpy_keys, numpy_s = clock(lambda: minimax.key(game.feedback.counts_in_chunks(pool, S)), RUNS)
        assert np.array_equal(fused, numpy_keys)
        cells = n_pool * n_candidates
        plain_s = None
        if cells <= 1_000_000:
            block = game.table[np.ix_(pool, S)].tolist()  # the plain code's table: Python lists
            keys, plain_s = clock(lambda: plain_keys(block))
            assert keys == fused.tolist()
        task = f"{n_pool:,} x {n_candidates:,}"
        row(f"{task}: compiled", compiled, plain_s, f"{compiled / cells * 1e9:.2f} ns a cell", width=58)
        row(
            f"{task}: numpy engine",
            numpy_s,
            plain_s,
            f"{numpy_s / cells * 1e9:.2f} ns a cell; compiled {numpy_s / compiled:.1f}x faster",
            width=58,
        )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="also Knuth on 5x8 and on 6x6 (feedback on the fly)")
    args = parser.parse_args(argv)
    commands(ROWS + (BIG if args.big else []))
    hot_loop()


if __name__ == "__main__":
    main()
