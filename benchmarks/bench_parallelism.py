"""How parallel the split is (issue 33): for each instance, `arena optimal SPEC --workers N
--json` in a fresh process, and the figures it reports (arena/optimal/parallelism.py): the work
(candidate sets searched, summed over the parent, the openings and the pieces), the critical
path (the parent's sets, then a chain of tasks down the tree: an opening, one of its pieces,
and where that piece split itself an opening below it, and so on: the longest chain the split
cannot share out), their ratio `parallelism` (the speed-up no number of
workers can exceed for that work) and each worker's busy fraction (its seconds busy over the
split's wall time); the last column names the chain that makes the critical path.

    python benchmarks/bench_parallelism.py                      # 4x7 and 5x5 on 2 workers
    python benchmarks/bench_parallelism.py --bulls --limit 600  # ... and Bulls and Cows, at most 600 s each
    python benchmarks/bench_parallelism.py --workers 1,4,8,16   # each instance at each count, and the speed-up
    python benchmarks/bench_parallelism.py --split-after 0,1000,200   # pieces never split, and split after 1000, 200 sets
    python benchmarks/bench_parallelism.py --workers 2,16,64 --oversubscribe --bulls   # the default at each count

With several worker counts, `speed-up` is the first count's wall time over each row's (the
search's own seconds, `seconds` in the JSON, not the process's start-up). A run stopped by
--limit reports the figures of the work it did (`stopped` says so): its parallelism is not the
whole search's. Issue 33's goal: parallelism at least 64 on all three.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the checkout whose code the rows run

#: (label, spec, the flag that asks for it).
INSTANCES = [
    ("4x7", "mastermind:colors=7", None),
    ("5x5", "mastermind:pegs=5,colors=5", None),
    ("Bulls and Cows", "mastermind:colors=10,repeats=false", "bulls"),
]


def split_json(
    spec: str, workers: int, limit: float | None, split_after: int | None = None, oversubscribe: bool = False
) -> tuple[dict, float]:
    """`arena optimal SPEC --workers N --json` (with --time-limit, --split-after and
    --oversubscribe when given) in a fresh process of this checkout's code: its JSON and the
    wall time of the whole command."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "arena.cli.parser", "optimal", spec, "--workers", str(workers), "--json"]
    if oversubscribe:
        command.append("--oversubscribe")
    if split_after is not None:
        command += ["--split-after", str(split_after)]
    if limit is not None:
        command += ["--time-limit", f"{limit:g}"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    return json.loads(done.stdout), time.perf_counter() - start


def row(label: str, workers: int, data: dict, wall: float, first: float | None, split_after: str = "") -> str:
    """One line of the table."""
    busy = " ".join(f"{b:.2f}" for b in data["busy"][:4]) + (" ..." if len(data["busy"]) > 4 else "")
    speedup = f"{first / data['seconds']:6.2f}x" if first else f"{'':>7}"
    stopped = "  stopped" if data.get("stopped") else ""
    chain = data["critical_chain"]
    where = " ".join(chain.get("path", [])) or "-"
    return (
        f"{label:<15} {split_after:>6} {workers:>3} {wall:7.1f} {data['seconds']:7.1f} {speedup} {data['value']:>8,} "
        f"{data['work']:>10,} {data['critical_path']:>9,} {data['parallelism']:7.1f}  {busy:<11}  {where}{stopped}"
    )


def main(argv: list[str] | None = None) -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="2", help="worker counts, comma-separated (default 2)")
    parser.add_argument("--bulls", action="store_true", help="also Bulls and Cows (minutes on 2 cores)")
    parser.add_argument("--only", default="", help="only these instances, comma-separated labels (e.g. 5x5)")
    parser.add_argument("--limit", type=float, default=None, help="each run's --time-limit in seconds")
    parser.add_argument(
        "--oversubscribe",
        action="store_true",
        help="as many workers as asked, past the cores: the parallelism (counted in sets) of many workers on few cores",
    )
    parser.add_argument(
        "--split-after",
        default="",
        help="rows at each of these --split-after values, comma-separated (0: pieces never split; default: arena's)",
    )
    args = parser.parse_args(argv)
    afters = [int(n) for n in args.split_after.split(",") if n.strip()] or [None]
    counts = [int(n) for n in args.workers.split(",")]
    only = {s.strip() for s in args.only.split(",") if s.strip()}
    print(
        f"{'instance':<15} {'split':>6} {'wkr':>3} {'wall s':>7} {'split s':>7} {'speed':>7} {'value':>8} "
        f"{'work':>10} {'crit path':>9} {'parall':>7}  {'busy':<11}  critical chain (down to its last task)",
        flush=True,
    )
    for label, spec, flag in INSTANCES:
        if (only and label not in only) or (not only and flag is not None and not getattr(args, flag)):
            continue
        for after in afters:
            first = None
            for workers in counts:
                data, wall = split_json(spec, workers, args.limit, after, args.oversubscribe)
                base = (first or data["seconds"]) if len(counts) > 1 else None
                used = data.get("split_after") or "never"  # the default follows the workers (split_after_for)
                print(row(label, workers, data, wall, base, str(used)), flush=True)
                first = first or data["seconds"]


if __name__ == "__main__":
    main()
