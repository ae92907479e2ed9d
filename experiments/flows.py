"""The guesser that randomises at every state, on a double oracle's saved trees (issue 34).

    python experiments/flows.py GAME STATE [--payoff COST] [--drawn N] [--no-symmetry] [--closure]

STATE is a file `arena equilibrium GAME --state STATE` wrote (with --no-symmetry where the run had it). The script reads its trees back
(each replayed on every secret) and prints, over every secret of the game:

- the trees' own best mix (the LP of the trees against every secret): what a mix of them concedes;
- the flows (arena.equilibrium.flows): the best guesser that randomises at every state the trees
  meet, its LP over the graph of their candidate sets (with `--closure`, every guess also tried
  at every state, kept where it leads to states of the graph: what a flows step does on Hangman);
- the best mix of the trees and N trees drawn from the flows: an upper end of the game's value,
  each of its trees replayable like any other;
- with `--duals SECONDS`, the chooser mix the flows' LP duals give (no guesser on the graph
  does better against it than the flows): its support, what the best tree held concedes to it,
  and the best response to it searched for SECONDS (the tree found and the bound proven; a
  lower end of the game's value were the mix hard to exploit off the graph).

The figures of experiments/game_values.md ("The guesser that mixes at every state") are its
output on the committed states.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from arena import make_game
from arena.core.costs import cost_for
from arena.equilibrium import flows
from arena.equilibrium.matrix import solve_matrix_game
from arena.equilibrium.resume import state_trees


def mix_value(costs: list[np.ndarray]) -> float:
    """What the best mix of these trees concedes (each a row of costs over every secret)."""
    return solve_matrix_game(np.array(costs, dtype=np.float64).T).value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("state")
    parser.add_argument("--payoff", default=None, help="the state's payoff (default: the game's own cost)")
    parser.add_argument("--drawn", type=int, default=flows.DRAWN, help="trees drawn from the flows")
    parser.add_argument("--no-symmetry", action="store_true", help="the state was written with --no-symmetry")
    parser.add_argument(
        "--closure",
        action="store_true",
        help="also every guess at every state, where it leads to states of the graph (games of at most "
        f"{flows.CLOSURE_GUESSES} guesses: Hangman)",
    )
    parser.add_argument(
        "--duals", type=float, metavar="SECONDS", help="also search the best response to the duals' mix this long"
    )
    args = parser.parse_args(argv)
    game = make_game(args.game)
    cost = cost_for(game, args.payoff)
    begun = time.perf_counter()
    trees = state_trees(args.state, game, cost.name, symmetric=not args.no_symmetry)
    if trees is None:
        print(f"{args.state}: no such file", file=sys.stderr)
        return 2
    costs = [np.asarray(cost.of(t), dtype=np.float64) for t in trees]
    print(f"{args.game}, {cost.name}: {len(trees)} trees read back in {time.perf_counter() - begun:.1f} s")
    print(f"  the trees' best mix over every secret: {mix_value(costs):.6f}")
    begun = time.perf_counter()
    graph = flows.state_graph(game, cost, trees, flows.closure_guesses(game) if args.closure else ())
    found = flows.solve_flows(graph)
    how = " (every guess tried at every state: the closure)" if args.closure else ""
    print(
        f"  the flows on their {len(graph.sets):,} states and {len(graph.edges):,} edges{how}: {found.value:.6f} "
        f"({time.perf_counter() - begun:.1f} s)"
    )
    begun = time.perf_counter()
    drawn = [np.asarray(cost.of(t), dtype=np.float64) for t in flows.drawn_trees(graph, found, args.drawn)]
    print(
        f"  the best mix of the trees and {args.drawn} drawn from the flows: {mix_value(costs + drawn):.6f} "
        f"({time.perf_counter() - begun:.1f} s)"
    )
    if args.duals is not None:
        duals(game, cost, trees, found, args.duals)
    return 0


def duals(game, cost, trees, found: flows.Flows, seconds: float) -> None:
    """The flows' duals as a chooser mix: what the trees held and a best response searched for
    `seconds` concede to it (with every guess of the game, off the graph too)."""
    from arena.equilibrium.response import bounded_best_response, mix_problem

    mix = found.chooser
    held = min(float(mix @ np.asarray(cost.of(t), dtype=np.float64)) for t in trees)
    print(f"  the duals' chooser mix: {int((mix > 0).sum()):,} secrets; the best tree held concedes {held:.6f}")
    begun = time.perf_counter()
    tree, bound = bounded_best_response(mix_problem(game, mix, cost), seconds)
    print(
        f"  its best response searched for {seconds:g} s: a tree conceding {float(mix @ tree.costs):.6f}, "
        f"none below {bound:.6f} ({'exact' if not tree.stopped else 'stopped'}, {time.perf_counter() - begun:.1f} s)"
    )


if __name__ == "__main__":
    sys.exit(main())
