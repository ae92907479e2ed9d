"""What holds a Hangman upper end (experiments/game_values.md, "Cores folded in": "What holds the
upper ends"): on a saved double oracle state, the LP over its rows, how little the exact best
response to the LP's own chooser mix concedes on that mix, how little that tree moves the LP, and
how the trees play the rows off the LP's chooser support.

    python experiments/hangman_degeneracy.py hangman:words=sgb,length=5 lost \\
        experiments/data/hangman-sgb-lost-state.json.gz [--rounds 8] [--seconds 120]

prints the LP's value and its chooser's support; the best response to that mix (searched on its
support, `--seconds` at most), what it concedes on the mix and the LP with it added; then
`--rounds` more rounds of the same (a best response to each new LP mix, no rows added), and the
share of the rows off the first mix's support the trees lose (lost games) or their mean misses.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from arena.core.costs import cost_for
from arena.equilibrium import letters
from arena.equilibrium.matrix import solve_matrix_game
from arena.equilibrium.resume import load_state
from arena.equilibrium.symmetry import symmetry_of
from arena.games import make_game


def row_lp(costs: np.ndarray, rows: np.ndarray) -> tuple[float, np.ndarray]:
    """The LP of the trees (rows of `costs`) against the words `rows`: its value and the
    chooser's mix over every word."""
    solution = solve_matrix_game(costs[:, rows].T)
    mix = np.zeros(costs.shape[1])
    mix[rows] = solution.row
    return float(solution.value), mix


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("payoff", choices=("misses", "lost"))
    parser.add_argument("state")
    parser.add_argument("--rounds", type=int, default=8, help="best responses to the LP's own mix (default 8)")
    parser.add_argument("--seconds", type=float, default=120.0, help="each best response's limit (default 120)")
    args = parser.parse_args(argv)
    game = make_game(args.game)
    paid = cost_for(game, args.payoff)
    start = time.perf_counter()
    state = load_state(args.state, game, args.payoff, symmetry_of(game))
    if state is None:
        parser.error(f"{args.state}: no such state")
    rows = np.array(state.rows or range(len(game.secrets)), dtype=np.intp)  # a short list's state: every word
    costs = np.array([np.asarray(paid.of(t), dtype=np.float64) for t in state.trees])
    print(f"{len(state.trees)} trees, {len(rows)} rows read back ({time.perf_counter() - start:.0f} s)")
    value, mix = row_lp(costs, rows)
    support = np.flatnonzero(mix > 0)
    print(f"the LP over the rows: {value:.6f}; its chooser mix weighs {len(support)} words")
    off = np.setdiff1d(rows, support)
    for k in range(args.rounds + 1):
        tree, bound = letters.solved(game, letters.support_mix(mix), paid, args.seconds)
        conceded = np.asarray(paid.of(tree), dtype=np.float64)
        costs = np.vstack([costs, conceded])
        again, mix = row_lp(costs, rows)
        what = "the best response" if not tree.stopped else f"a best response stopped at {args.seconds:g} s"
        print(
            f"round {k}: {what} concedes {tree.value:.6f} on the LP's mix (proven >= {bound:.6f}); "
            f"with it the LP is {again:.6f} ({tree.seconds:.1f} s)"
        )
        if k == 0:
            print(
                f"{len(off)} of the {len(rows)} rows lie off the LP's support: the trees concede "
                f"{costs[:-1][:, off].mean():.4f} of them on average, the best response {conceded[off].mean():.4f} "
                f"({conceded.mean():.4f} on every word)"
            )


if __name__ == "__main__":
    main()
