"""The LP's removal of dominated strategies (arena.equilibrium.dominance) in compiled code
against numpy's pass, in one run (issue 34).

    python benchmarks/bench_dominance.py                       # a Wordle round's shape, 3 seeds
    python benchmarks/bench_dominance.py --rows 2845 --columns 250 --seeds 5

The matrix has a Wordle double oracle round's shape (2,315 secrets x 726 trees) and entries
drawn from 2 to 6 guesses (a seed each), where, as between a round's trees, hardly any column
dominates another. Each pass (columns, then rows as `reduce_dominated` takes them) runs in
turn compiled (dominance_loops.undominated_in_order, its code loaded before the clock starts)
and by numpy (the pass a `tick` forces), weakly; the same columns must survive. Printed: CPU
seconds (time.process_time: the machine is shared) of each, each seed, then the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.equilibrium.dominance import undominated_columns  # noqa: E402


def timed(M: np.ndarray, compiled: bool) -> tuple[float, np.ndarray]:
    """(CPU seconds, the columns kept) of one pass over M's columns."""
    start = time.process_time()
    kept = undominated_columns(M) if compiled else undominated_columns(M, tick=lambda cells: None)
    return time.process_time() - start, kept


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2315)
    parser.add_argument("--columns", type=int, default=726)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    undominated_columns(np.arange(1 << 18).reshape(512, 512) % 7)  # numba's code loaded
    times: dict[str, list[float]] = {"compiled": [], "numpy": []}
    for seed in range(args.seeds):
        A = np.random.default_rng(seed).integers(2, 7, size=(args.rows, args.columns))
        for name, M in (("columns", A), ("rows", -A.T)):
            fast, kept = timed(M, True)
            slow, again = timed(M, False)
            assert np.array_equal(kept, again), (seed, name)
            times["compiled"].append(fast)
            times["numpy"].append(slow)
            print(f"seed {seed}, {name}: compiled {fast:.3f} s, numpy {slow:.3f} s, {len(kept)} kept", flush=True)
    a, b = statistics.median(times["compiled"]), statistics.median(times["numpy"])
    print(f"{args.rows} x {args.columns}: median compiled {a:.3f} s, numpy {b:.3f} s ({b / a:.1f}x)")


if __name__ == "__main__":
    main()
