"""The double oracle's LP on a big game, from scratch each round against kept between rounds
(issue 34: arena/equilibrium/warm_lp.py): a saved state's trees, its last `--last` trees held
back and added two a round (a round of greedy trees adds two), each round's LP solved by
`solve_matrix_game` (linprog, from scratch, as before) and by a `WarmLP` (the new trees added
to the LP solved last, solved again from its basis); the values must agree.

    python benchmarks/bench_warm_lp.py                      # Wordle's committed state (1,766 trees)
    python benchmarks/bench_warm_lp.py --state experiments/data/jotto-greedy-rounds-state.json.gz --game jotto

Wall seconds, one run each, in one process (the warm LP's first solve, from nothing, is shown
apart: a run pays it once).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from arena import make_game  # noqa: E402
from arena.core.costs import cost_for  # noqa: E402
from arena.equilibrium.matrix import solve_matrix_game  # noqa: E402
from arena.equilibrium.payoff_matrix import PayoffMatrix  # noqa: E402
from arena.equilibrium.resume import load_state  # noqa: E402
from arena.equilibrium.symmetry import symmetry_of  # noqa: E402
from arena.equilibrium.warm_lp import WarmLP  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--state", default=str(ROOT / "experiments/data/wordle-greedy-rounds-state.json.gz"))
    parser.add_argument("--game", default="wordle")
    parser.add_argument("--last", type=int, default=8, help="trees held back and added two a round")
    args = parser.parse_args()
    game = make_game(args.game)
    symmetry = symmetry_of(game)
    resumed = load_state(args.state, game, "guesses", symmetry)
    if resumed is None:
        sys.exit(f"no state at {args.state}")
    paid = cost_for(game, None)
    A = PayoffMatrix.of(np.array([paid.of(t) for t in resumed.trees]), symmetry).A
    first = A.shape[1] - args.last
    print(f"{args.game}: {A.shape[0]:,} rows, {A.shape[1]:,} trees, the last {args.last} added two a round")
    lp = WarmLP(A.shape[0])
    begun = time.perf_counter()
    lp.solve(A[:, :first])
    print(f"  warm LP, its first solve from nothing: {time.perf_counter() - begun:.2f} s")
    for k in range(first + 2, A.shape[1] + 1, 2):
        begun = time.perf_counter()
        cold = solve_matrix_game(A[:, :k])
        middle = time.perf_counter()
        warm = lp.solve(A[:, :k])
        end = time.perf_counter()
        agree = "agree" if abs(cold.value - warm.value) <= 1e-9 else "DISAGREE"
        print(
            f"  {k:,} trees: from scratch {middle - begun:.2f} s, warm {end - middle:.2f} s "
            f"(values {cold.value:.9f}, {warm.value:.9f}: {agree}; {warm.method})",
            flush=True,
        )


if __name__ == "__main__":
    main()
