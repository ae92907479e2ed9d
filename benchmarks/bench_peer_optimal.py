"""The exact search side by side with the fastest public exact solver (issue 23): fancidev's
mastermind, `mmstrat -s optimal`, whole processes, start-up included, ours and the peer's in
turn (A B A B ...), the median of each and of the ratios pair by pair.

    python benchmarks/bench_peer_optimal.py --peer /path/to/mmstrat [--runs 3] [--rows 4x6,5x5]

The `start-up` row (issue 33: the small instances) is both sides on 2x2 Mastermind, a solve of
nothing: a whole process's fixed cost, ours (the interpreter, numpy, arena's imports) against
the peer's; `--rows start-up,4x6,4x8-no-repeats` gives the small rows with it.

The peer is built outside this project (never copied into it), at the commit that imports its
2012 code (the current head has no optimal search):

    git clone https://github.com/fancidev/mastermind && cd mastermind
    git checkout 2b52289                                   # "Import code from 2012."
    sed -i 's/(root > 0)/(root != 0)/' lib/StrategyTree.cpp   # g++ 12 refuses comparing an iterator with 0 by >
    g++ -O3 -DNDEBUG -msse2 -msse4.1 -std=c++11 -fpermissive -include limits -w -Ilib \\
        -o mmstrat src/mmstrat.cpp lib/*.cpp

Before the counted runs each side runs once with its output read (the warm-up, which also
compiles our loops the first time): both must print the same optimum, or the row stops. Wall
and CPU seconds (user + system, of the whole process and its threads) are measured with
time.perf_counter and os.wait4's resource usage (bench_peer_greedy.timed).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys

from bench_peer_greedy import ENVIRONMENT, timed

#: name -> (our game, the peer's rules); `repeats=false` with 10 colours is Bulls and Cows
ROWS = {
    "start-up": ("mastermind:pegs=2,colors=2", "p2c2r"),
    "4x6": ("mastermind", "p4c6r"),
    "4x8-no-repeats": ("mastermind:colors=8,repeats=false", "p4c8n"),
    "5x5": ("mastermind:pegs=5,colors=5", "p5c5r"),
    "4x7": ("mastermind:colors=7", "p4c7r"),
    "bulls-and-cows": ("mastermind:colors=10,repeats=false", "bc"),
}


def optimum_ours(argv: list[str]) -> int:
    found = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True, env=ENVIRONMENT).stdout)
    if not found["exact"]:
        raise SystemExit(f"{' '.join(argv)}: not exact ({found['total']} against a bound of {found['lower_bound']})")
    return int(found["total"])


def optimum_peer(argv: list[str]) -> int:
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    found = re.search(r"^optimal\s+(\d+)", out, re.M)
    if found is None:
        raise SystemExit(f"{' '.join(argv)} printed no optimum:\n{out}")
    return int(found.group(1))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", required=True, help="the peer's mmstrat binary")
    parser.add_argument("--runs", type=int, default=3, help="counted runs of each side (default 3)")
    parser.add_argument("--rows", default="start-up,4x6,4x8-no-repeats,5x5", help=f"which rows, of {', '.join(ROWS)}")
    args = parser.parse_args(argv)
    if not (os.path.isfile(args.peer) and os.access(args.peer, os.X_OK)):
        parser.exit(
            2, f"bench_peer_optimal: no peer binary at {args.peer} (build mmstrat as this script's docstring says)\n"
        )
    unknown = [name for name in args.rows.split(",") if name not in ROWS]
    if unknown:
        parser.exit(2, f"bench_peer_optimal: no row {unknown[0]!r}; the rows are {', '.join(ROWS)}\n")
    print(
        f"{'row':<16} {'optimum':>8} {'ours cpu':>8} {'peer cpu':>8} {'ratio':>6}   {'ours wall':>9} {'peer wall':>9} {'ratio':>6}"
    )
    for name in args.rows.split(","):
        game, rules = ROWS[name]
        ours = [sys.executable, "-m", "arena.cli.parser", "optimal", game, "--json"]
        peer = [args.peer, "-s", "optimal", "-S", "-r", rules]
        total, theirs = optimum_ours(ours), optimum_peer(peer)
        if total != theirs:
            raise SystemExit(f"{name}: ours {total:,}, the peer's {theirs:,}")
        pairs = [(timed(ours), timed(peer)) for _ in range(args.runs)]
        median = statistics.median
        print(
            f"{name:<16} {total:>8,} {median(a[1] for a, _ in pairs):8.2f} {median(b[1] for _, b in pairs):8.2f} "
            f"{median(a[1] / b[1] for a, b in pairs):5.2f}x   {median(a[0] for a, _ in pairs):9.2f} "
            f"{median(b[0] for _, b in pairs):9.2f} {median(a[0] / b[0] for a, b in pairs):5.2f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
