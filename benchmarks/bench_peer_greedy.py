"""Greedy trees side by side with the fastest public C++ CPU build (issue 23): whole processes,
start-up included, ours and the peer's in turn (A B A B ...), the median of each and of the
ratios pair by pair.

    python benchmarks/bench_peer_greedy.py --peer /path/to/peer/bin [--runs 5] [--rows knuth-5x7,...]

The peer is mikemag/Mastermind (https://github.com/mikemag/Mastermind, commit 204b2e9), its
CPU solver `SolverCPUFaster` (the default without CUDA), built outside this project, one
binary per instance (its single-game configuration is compile-time constants in main.cpp):

    git clone https://github.com/mikemag/Mastermind && cd Mastermind && mkdir -p build bin
    apt-get install nlohmann-json3-dev libcpuid-dev        # its two libraries
    # per row: PINS COLORS ALGO = 5 7 Knuth | 5 7 Entropy | 4 11 MostParts | 5 8 Knuth
    sed -e "s/SingleGameAlgo = Algos::Knuth;/SingleGameAlgo = Algos::$ALGO;/" \\
        -e "s/singleGamePinCount = 4;/singleGamePinCount = $PINS;/" \\
        -e "s/singleGameColorCount = 6;/singleGameColorCount = $COLORS;/" main.cpp > build/main.cpp
    sed -e 's/@GIT_BRANCH@/master/' -e 's/@GIT_COMMIT_HASH@/204b2e9/' -e 's/@GIT_COMMIT_DATE@//' \\
        mastermind_config.h.in > build/mastermind_config.h
    cp *.hpp *.inl *.h score.cpp utils.cpp build/
    g++ -O3 -march=native -fno-omit-frame-pointer -std=c++20 -Ibuild -I/usr/include/libcpuid \\
        -o bin/mm_${ALGO}_${PINS}x${COLORS} build/main.cpp build/score.cpp build/utils.cpp -lcpuid

Each binary runs in a directory holding the repository's valid_solutions.json and
ACReduced.json (its cache of reduced guess sets: without it the symmetry optimisation
recomputes them), prints its average and checks its answer against valid_solutions.json.
Our side is `arena evaluate GAME GUESSER` as a user runs it. Wall and CPU seconds (user +
system, of the whole process and its threads) are measured here with time.perf_counter and
os.wait4's resource usage.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: name -> (game, guesser, the peer's binary)
ROWS = {
    "knuth-5x7": ("mastermind:pegs=5,colors=7", "knuth", "mm_Knuth_5x7"),
    "entropy-5x7": ("mastermind:pegs=5,colors=7", "entropy", "mm_Entropy_5x7"),
    "most-parts-4x11": ("mastermind:pegs=4,colors=11", "most-parts:openers=1122", "mm_MostParts_4x11"),
    "knuth-5x8": ("mastermind:pegs=5,colors=8", "knuth", "mm_Knuth_5x8"),
}


#: The environment both sides run in: an installed package's bytecode is written, so a shell's
#: PYTHONDONTWRITEBYTECODE=1 (this workplace's) is dropped; under it an editable install, or
#: wheels installed with --no-compile, compile every module from source at each start
#: (arena optimal on 2x2 Mastermind: 0.28 s with it, 0.11 s without, here).
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], cwd: str | None = None) -> tuple[float, float]:
    """(wall, cpu) seconds of one whole process, its output thrown away (in ENVIRONMENT)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENVIRONMENT)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed (exit status {os.waitstatus_to_exitcode(status)})")
    return wall, usage.ru_utime + usage.ru_stime


def side_by_side(ours: list[str], peer: list[str], cwd: str, runs: int) -> dict[str, float]:
    """Medians of both sides' wall and CPU seconds and of the ratios ours / peer, run in turn
    after one warm-up run of each (which compiles our loops the first time)."""
    timed(ours), timed(peer, cwd)
    pairs = [(timed(ours), timed(peer, cwd)) for _ in range(runs)]
    median = statistics.median
    return {
        "ours_wall": median(a[0] for a, _ in pairs),
        "peer_wall": median(b[0] for _, b in pairs),
        "ours_cpu": median(a[1] for a, _ in pairs),
        "peer_cpu": median(b[1] for _, b in pairs),
        "ratio_wall": median(a[0] / b[0] for a, b in pairs),
        "ratio_cpu": median(a[1] / b[1] for a, b in pairs),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", required=True, help="the directory of the peer's binaries (mm_Knuth_5x7, ...)")
    parser.add_argument(
        "--data",
        help="where the peer runs: a directory with its valid_solutions.json and "
        "ACReduced.json (default: the parent of --peer, the repository)",
    )
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each side (default 5)")
    parser.add_argument("--rows", default=",".join(ROWS), help=f"which rows, of {', '.join(ROWS)}")
    args = parser.parse_args(argv)
    peer_dir = Path(args.peer).resolve()
    data = args.data or str(peer_dir.parent)
    print(f"{'row':<18} {'ours wall':>9} {'peer wall':>9} {'ratio':>6}   {'ours cpu':>8} {'peer cpu':>8} {'ratio':>6}")
    for name in args.rows.split(","):
        game, guesser, binary = ROWS[name]
        ours = [sys.executable, "-m", "arena.cli.parser", "evaluate", game, guesser]
        r = side_by_side(ours, [str(peer_dir / binary)], data, args.runs)
        print(
            f"{name:<18} {r['ours_wall']:9.2f} {r['peer_wall']:9.2f} {r['ratio_wall']:5.2f}x   "
            f"{r['ours_cpu']:8.2f} {r['peer_cpu']:8.2f} {r['ratio_cpu']:5.2f}x",
            flush=True,
        )


if __name__ == "__main__":
    main()
