"""Idle workers hurry the running tasks (issue 33; arena/optimal/pieces.py, `hurry`), or the
parent pushes falling budgets into the running classes of first guesses (`--switch push`:
split.push_rooms, pieces.pushed): the split with and without it, in one process, in turn (off,
on, off, on, ...), the same instance and workers; for each, the medians of the wall time, the work (sets searched), the critical path
(the longest chain of work that could not be shared out), their ratio `parallelism`, and the
pieces that split themselves. Every run must find the same optimum (checked).

    python benchmarks/bench_hurry.py                         # 5x5 and 4x7, 2 workers, 3 runs each
    python benchmarks/bench_hurry.py --workers 8 --runs 5    # more workers than this machine's cores: the
                                                             # critical path is measured, the wall time is not
    python benchmarks/bench_hurry.py --only 4x7 --workers 16 # on a machine with 16 cores
    python benchmarks/bench_hurry.py --switch push --runs 5   # the budgets pushed, on and off

With no worker waiting the two are the same search (the callback is read every 64 sets and does
nothing); a waiting worker makes a task past a twentieth of --split-after split itself at once.
"""

from __future__ import annotations

import argparse
import statistics
import time

from arena import make_game
from arena.optimal.split import split_root

INSTANCES = {"5x5": "mastermind:pegs=5,colors=5", "4x7": "mastermind:colors=7", "4x6": "mastermind"}


def one_run(spec: str, workers: int, split_after: int, on: bool, switch: str = "hurry") -> dict:
    """One split of `spec` with the SplitRun setting `switch` on or off: its figures (the
    optimum, checked proven)."""
    start = time.perf_counter()
    result = split_root(make_game(spec), workers=workers, split_after=split_after, **{switch: on})
    wall = time.perf_counter() - start
    assert result.exact, f"{spec}: not proven"
    work = result.work
    return {
        "value": result.value,
        "wall": wall,
        "work": work.total,
        "critical path": work.critical_path,
        "parallelism": work.parallelism,
        "split pieces": result.split_pieces,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="5x5,4x7", help=f"instances, comma-separated, of {', '.join(INSTANCES)}")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3, help="runs of each, in turn")
    parser.add_argument("--split-after", type=int, default=1000)
    parser.add_argument("--switch", choices=("hurry", "push"), default="hurry", help="the setting turned on and off")
    args = parser.parse_args()
    print(f"{args.workers} workers, split after {args.split_after} sets, {args.runs} runs each in turn; medians")
    print(
        f"{'instance':<9} {args.switch:<6} {'wall s':>7} {'work':>8} {'critical path':>14} {'parallelism':>12} {'split':>6}"
    )
    for label in args.only.split(","):
        spec = INSTANCES[label]
        runs: dict[bool, list[dict]] = {False: [], True: []}
        for _ in range(args.runs):
            for on in (False, True):
                runs[on].append(one_run(spec, args.workers, args.split_after, on, args.switch))
        values = {r["value"] for rows in runs.values() for r in rows}
        assert len(values) == 1, f"{label}: optima differ: {values}"
        for on, rows in runs.items():
            med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
            print(
                f"{label:<9} {'on' if on else 'off':<6} {med['wall']:7.2f} {med['work']:8,.0f} "
                f"{med['critical path']:14,.0f} {med['parallelism']:12.1f} {med['split pieces']:6.0f}"
            )


if __name__ == "__main__":
    main()
