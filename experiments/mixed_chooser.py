"""A chooser mix between the uniform one and a double oracle's LP mix, as integer weights for
`arena optimal GAME --weights FILE` (experiments/game_values.md, "Wordle above the uniform
chooser"): the LP's chooser mix q over a saved state's trees (with a tree file's beside them,
such as the uniform optimum), then

    q_lam = (1 - lam) * uniform + lam * q,   weights w_s = 100 + round(100 * lam / (1 - lam) * n * q_s)

(the uniform part 100 a secret, so w / sum(w) is q_lam to within the rounding: the mix played
is w / sum(w) itself, whatever the rounding). The optimum against it, over every tree, is a
lower end of the value; `--target T` proves T of it (T / sum(w) a lower end).

    python experiments/mixed_chooser.py wordle experiments/data/wordle-greedy-rounds-state.json.gz \\
        --tree arena/data/trees/wordle-optimal.json --lam 0.2 --out WEIGHTS.json

prints, for each lam in --scan, the least any of those trees costs against q_lam (an upper
estimate of the optimum against it: the search may find cheaper trees).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from arena.core.costs import cost_for
from arena.equilibrium.letters import support_mix
from arena.equilibrium.matrix import solve_matrix_game
from arena.equilibrium.resume import state_trees
from arena.games import make_game
from arena.trees.saved import load_tree


def lp_chooser(costs: np.ndarray) -> tuple[np.ndarray, float]:
    """The LP's chooser mix over every secret (without its round-off dust: letters.support_mix)
    and its value."""
    solution = solve_matrix_game(costs.T)
    return support_mix(solution.row), float(solution.value)


def mixed_weights(q: np.ndarray, lam: float) -> list[int]:
    """Integer weights for (1 - lam) * uniform + lam * q (module docstring)."""
    k = lam / (1 - lam) * len(q)
    return [int(100 + round(100 * k * x)) for x in q]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("state", help="a double oracle's state file (arena equilibrium --state)")
    parser.add_argument("--tree", action="append", default=[], help="a saved tree to put beside the state's")
    parser.add_argument("--lam", type=float, default=0.2, help="the share of the LP's mix (default 0.2)")
    parser.add_argument("--scan", default="0.05,0.1,0.2,0.3,0.5", help="shares to print the trees' least cost at")
    parser.add_argument("--out", help="the weights file to write (a JSON list, the game's order)")
    args = parser.parse_args(argv)
    if not 0 < args.lam < 1:
        parser.error(f"--lam must lie strictly between 0 and 1, got {args.lam:g}")
    game = make_game(args.game)
    paid = cost_for(game)
    trees = (state_trees(args.state, game, paid.name) or []) + [load_tree(path) for path in args.tree]
    costs = np.array([np.asarray(paid.of(t), dtype=np.float64) for t in trees])
    q, value = lp_chooser(costs)
    print(f"{len(trees)} trees; the LP's chooser mix weighs {np.count_nonzero(q)} secrets, value {value:.6f}")
    uniform = np.full(len(q), 1 / len(q))
    for lam in [float(x) for x in args.scan.split(",")]:
        print(f"lam {lam:g}: the trees' least cost {(costs @ ((1 - lam) * uniform + lam * q)).min():.6f}")
    if args.out:
        weights = mixed_weights(q, args.lam)
        with open(args.out, "w") as f:
            json.dump(weights, f)
        print(f"{args.out}: {len(weights)} weights, sum {sum(weights):,}, the heaviest {max(weights)}")


if __name__ == "__main__":
    main()
