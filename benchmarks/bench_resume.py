"""What a resumed double oracle pays before its first round, part by part (issue 34): a saved
state loaded (`resume.load_state`: the trees replayed on every secret), its first trees encoded
again for the next save (`resume.tree_json`), and the guesser mix's exact worst secret
(`known.mix_worst`) of a mix of those trees with random weights.

    python benchmarks/bench_resume.py                                       # Wordle's committed state
    python benchmarks/bench_resume.py --state experiments/data/jotto-greedy-rounds-state.json.gz --game jotto
    python benchmarks/bench_resume.py --state experiments/data/hangman-wordle-misses-state.json.gz \\
        --game hangman:words=wordle-answers,length=5 --payoff misses

Wall seconds, one run each. The code before a change runs the same file with PYTHONPATH set
to a checkout of it (from outside the repository, so that this checkout does not shadow it);
experiments/game_values.md ("What a resumed run pays before its first round") has both.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH: a checkout named there is the code timed

from arena import make_game  # noqa: E402
from arena.equilibrium.known import mix_worst  # noqa: E402
from arena.equilibrium.resume import load_state, tree_json  # noqa: E402
from arena.equilibrium.symmetry import no_symmetry, symmetry_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--state", default=str(ROOT / "experiments/data/wordle-greedy-rounds-state.json.gz"))
    parser.add_argument("--game", default="wordle")
    parser.add_argument("--payoff", default="guesses")
    parser.add_argument("--encode", type=int, default=200, help="how many of its trees to encode")
    parser.add_argument("--mix", type=int, default=500, help="how many of its trees the random mix plays")
    args = parser.parse_args()
    game = make_game(args.game)
    # the double oracle's own symmetry (growing.py: none for a Hangman list)
    symmetry = no_symmetry(game) if not game.rules.hits else symmetry_of(game)
    started = time.perf_counter()
    resumed = load_state(args.state, game, args.payoff, symmetry)
    assert resumed is not None, f"{args.state}: no such state"
    trees = resumed.trees
    print(f"load_state: {time.perf_counter() - started:.1f} s, {len(trees)} trees")
    started = time.perf_counter()
    for tree in trees[: args.encode]:
        tree_json(tree)
    print(f"tree_json: {time.perf_counter() - started:.2f} s for {min(args.encode, len(trees))} trees")
    playing = trees[: args.mix]
    weights = np.random.default_rng(1).random(len(playing))
    costs = [tree.guesses if args.payoff == "guesses" else tree.misses for tree in playing]
    started = time.perf_counter()
    worst, secret = mix_worst(list(weights), costs, symmetry)
    print(
        f"mix_worst: {time.perf_counter() - started:.2f} s for {len(playing)} trees "
        f"(worst {float(worst):.6f}, {game.secrets[secret]})"
    )


if __name__ == "__main__":
    main()
