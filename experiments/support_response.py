"""What the LP's own chooser mix concedes off a double oracle's saved trees (issue 34).

    python experiments/support_response.py GAME STATE [--seconds S] [--payoff COST] [--every] [--no-symmetry]

STATE is a file `arena equilibrium GAME --state STATE` wrote (with --no-symmetry where the run had it). The script reads its trees back,
solves the LP of the trees against every secret (the chooser's mix q and the value U the trees
hold it to), and prints what q concedes to

- the best tree of the state (U: the LP's value);
- the weighted greedy tree aimed at q (arena.equilibrium.response.weighted_greedy_tree);
- the exact best response searched for S seconds on q's support alone, completed on the other
  secrets (response.on_support: what a round of the double oracle now searches), with the
  bound it proved;
- with `--every`, the same search over every secret against q blended with EVERY_BLEND of
  the uniform mix (what a round searched before): the tree it found and its bound.

A tree far below U is a column the trees lacked; a bound above the game's known lower end
would lift it (q is a mix the chooser may play). The figures of experiments/game_values.md
("Best responses on the chooser's support") are its output on the committed Wordle state.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from arena import make_game
from arena.core.costs import cost_for
from arena.equilibrium.letters import support_mix
from arena.equilibrium.matrix import solve_matrix_game
from arena.equilibrium.response import bounded_best_response, mix_problem, weighted_greedy_tree
from arena.equilibrium.resume import state_trees

#: The uniform mix's share in the blended mix of `--every` (a search over every secret needs
#: every weight above zero to play every secret well).
EVERY_BLEND = 1e-3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("state")
    parser.add_argument("--seconds", type=float, default=120.0, help="each search's time limit")
    parser.add_argument("--payoff", default=None, help="the state's payoff (default: the game's own cost)")
    parser.add_argument("--every", action="store_true", help="also search over every secret, q blended")
    parser.add_argument("--no-symmetry", action="store_true", help="the state was written with --no-symmetry")
    args = parser.parse_args(argv)
    game = make_game(args.game)
    cost = cost_for(game, args.payoff)
    begun = time.perf_counter()
    trees = state_trees(args.state, game, cost.name, symmetric=not args.no_symmetry)
    if trees is None:
        print(f"{args.state}: no such file", file=sys.stderr)
        return 2
    costs = np.array([np.asarray(cost.of(t), dtype=np.float64) for t in trees])
    print(f"{args.game}, {cost.name}: {len(costs):,} trees read back in {time.perf_counter() - begun:.1f} s")
    begun = time.perf_counter()
    lp = solve_matrix_game(costs.T)  # the chooser (rows: secrets) maximises what the trees concede
    q = support_mix(lp.row)  # without the LP's round-off dust, as a round of the double oracle takes it
    support = np.flatnonzero(q > 0)
    print(
        f"  the LP's chooser mix: {len(support):,} secrets; the best tree held concedes {float((costs @ q).min()):.6f} "
        f"(the LP's value {lp.value:.6f}, {time.perf_counter() - begun:.1f} s)"
    )
    begun = time.perf_counter()
    greedy = weighted_greedy_tree(game, q)
    print(
        f"  the weighted greedy tree aimed at it: {float(q @ cost.of(greedy)):.6f} ({time.perf_counter() - begun:.1f} s)"
    )
    searches = [("on its support", q)]
    if args.every:
        searches.append((f"over every secret ({EVERY_BLEND:g} uniform)", (1 - EVERY_BLEND) * q + EVERY_BLEND / len(q)))
    for how, mix in searches:
        begun = time.perf_counter()
        tree, bound = bounded_best_response(mix_problem(game, mix, cost), args.seconds)
        print(
            f"  its best response searched {how} for {args.seconds:g} s: a tree conceding "
            f"{float(q @ cost.of(tree)):.6f}, none below {bound:.6f} against the mix searched "
            f"({'stopped' if tree.stopped else 'exact'}, {time.perf_counter() - begun:.1f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
