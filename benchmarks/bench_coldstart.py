"""What a first run costs: each command twice in a row on a fresh numba cache (NUMBA_CACHE_DIR
a new empty folder), the first run compiling the kernels it needs and the second loading them.

    python benchmarks/bench_coldstart.py            # 4x6, Wordle opening salet, 3x3, the warm step
    python benchmarks/bench_coldstart.py --long     # ... and 4x7 (about 20 s a run warm here)
    python benchmarks/bench_coldstart.py --warm     # each command's first run after the warm step
    python benchmarks/bench_coldstart.py --arena "python other/arena.py"   # another build's CLI

Each row prints the wall and CPU seconds (the children's user + system time, which a busy
machine distorts less than the wall time) of the first and the second run and their
differences: the compile cost a first run pays. Issue 33's goal: the first `arena optimal
mastermind:colors=7` within 3 s of the second. With --warm each command's cache is first filled
by `python -m arena.optimal.search.warm` (the set-up step), so the first row is what a user
pays after set-up. Both runs of a row share one machine state, so compare rows within one run.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time

#: (label, arguments of `arena`); the first rows are seconds each, 4x7 (--long) tens.
COMMANDS = [
    ("3x3", ["optimal", "mastermind:pegs=3,colors=3"]),
    ("4x6", ["optimal", "mastermind"]),
    ("wordle salet", ["optimal", "wordle", "--openers", "salet"]),
]
LONG = [("4x7", ["optimal", "mastermind:colors=7"])]
WARM = [sys.executable, "-m", "arena.optimal.search.warm"]


def timed(command: list[str], cache: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of `command` with numba's cache in `cache`."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    before = os.times()
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--long", action="store_true", help="also 4x7 (tens of seconds a run)")
    parser.add_argument("--warm", action="store_true", help="run the warm step before each first run")
    parser.add_argument("--arena", default=f"{sys.executable} -m arena", help="the CLI to run (a command)")
    args = parser.parse_args()
    arena = shlex.split(args.arena)
    rows = COMMANDS + (LONG if args.long else [])
    print(f"{'command':14} {'first wall':>10} {'second':>7} {'extra':>6} {'first CPU':>10} {'second':>7} {'extra':>6}")
    if not args.warm and args.arena == parser.get_default("arena"):  # this build's warm step
        with tempfile.TemporaryDirectory() as cache:
            (w1, c1), (w2, c2) = timed(WARM, cache), timed(WARM, cache)
        print(f"{'warm step':14} {w1:10.2f} {w2:7.2f} {w1 - w2:6.2f} {c1:10.2f} {c2:7.2f} {c1 - c2:6.2f}")
    for label, command in rows:
        with tempfile.TemporaryDirectory() as cache:
            if args.warm:
                timed(WARM, cache)
            (w1, c1), (w2, c2) = timed(arena + command, cache), timed(arena + command, cache)
        print(f"{label:14} {w1:10.2f} {w2:7.2f} {w1 - w2:6.2f} {c1:10.2f} {c2:7.2f} {c1 - c2:6.2f}", flush=True)


if __name__ == "__main__":
    main()
