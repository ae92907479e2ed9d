"""Every guesser of the earlier issues against the uniform, evil, minimax and spoiler choosers,
on Jotto, Mastermind and Hangman; then, per word length of web2, what evil, minimax and
spoiler:against=max-frequency force on the risk-minimising Hangman guesser.

(`arena run` cannot take choosers yet, so this script stands in for experiments/choosers.toml.)

    python experiments/choosers.py                 # the tables of experiments/choosers.md
    python experiments/choosers.py --games mastermind --repeat 3

Cells: for the uniform chooser the mean over every secret and, in brackets, the worst; for the
adversaries what they force in one game (a random guesser: the mean and worst over --repeat
games, each with its own seed). Hangman counts misses, the game's payoff (guesses and misses
until one word is left, as evaluate counts them).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from agents import make_chooser, make_guesser
from arena import make_game
from arena.play.evaluate import evaluate
from arena.play.match import evaluate_against

GUESSERS = [
    "lowest",
    "random",
    "knuth",
    "minimax:pool=consistent",
    "expected",
    "entropy",
    "most-parts",
    "max-frequency",
]
CHOOSERS = ["uniform", "evil", "minimax", "spoiler"]
RISK_MINIMISING = "max-frequency:tiebreak=first"


def cell(result, misses: bool) -> str:
    """`7.35 (18)`, or a single number when one game was played."""
    values = result.misses if misses else result.guesses
    if values.min() == values.max():  # one game, or the same every time (spoiler's ties cost the same)
        return f"{int(values.max())}"
    return f"{values.mean():.2f} ({int(values.max())})"


def table(game_spec: str, repeat: int, seed: int) -> list[str]:
    game = make_game(game_spec)
    misses = game.strikes is not None
    unit = "misses" if misses else "guesses"
    lines = [
        f"### {game_spec}: {len(game.secrets):,} secrets ({unit})",
        "",
        "| guesser | " + " | ".join(CHOOSERS) + " |",
        "|---" * (len(CHOOSERS) + 1) + "|",
    ]
    for guesser in GUESSERS:
        row = []
        for chooser in CHOOSERS:
            start = time.perf_counter()
            result = evaluate_against(game, make_guesser(guesser), make_chooser(chooser), repeat=repeat, seed=seed)
            row.append(cell(result, misses))
            print(
                f"  {game_spec} {guesser} vs {chooser}: {row[-1]} ({time.perf_counter() - start:.1f} s)",
                file=sys.stderr,
                flush=True,
            )
        lines.append(f"| {guesser} | " + " | ".join(row) + " |")
    return lines


def per_length(words: str) -> list[str]:
    """Per word length: the misses evil, minimax and the spoiler force on the risk-minimising
    guesser, beside the worst word of that length (spoiler's must equal it, the others' never exceed it)."""
    game = make_game(f"hangman:words={words}")
    guesser = make_guesser(RISK_MINIMISING)
    base = evaluate(game, guesser)
    results = {
        c: evaluate_against(game, guesser, make_chooser(c))
        for c in ("evil", "minimax", "spoiler:against=max-frequency")
    }
    lines = [
        f"### hangman:words={words}, {RISK_MINIMISING}: misses forced per word length",
        "",
        "| length | words | worst word (misses) | evil | minimax | spoiler:against=max-frequency |",
        "|---|---|---|---|---|---|",
    ]
    for k, (label, secrets) in enumerate(game.openings(game.all_secrets)):
        worst = int(base.misses[0, secrets].max())
        word = game.secrets[secrets[np.argmax(base.misses[0, secrets])]]
        got = [int(results[c].misses[0, k]) for c in results]
        assert got[2] == worst and max(got[:2]) <= worst, (label, got, worst)  # the invariant
        lines.append(f"| {label.split()[0]} | {len(secrets):,} | {word} ({worst}) | {got[0]} | {got[1]} | {got[2]} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["jotto", "mastermind", "hangman:length=5"])
    parser.add_argument("--repeat", type=int, default=10, help="games per cell for the random guesser")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-lengths", action="store_true", help="skip the per-length Hangman table")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    for spec in args.games:
        print("\n".join(table(spec, args.repeat, args.seed)) + "\n", flush=True)
    if not args.no_lengths:
        print("\n".join(per_length("web2")) + "\n", flush=True)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
