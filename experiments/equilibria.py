"""Equilibria of small guessing games: the table of experiments/equilibria.md.

    python experiments/equilibria.py                      every instance (Mastermind 4x6 takes ~25 min)
    python experiments/equilibria.py --max-secrets 700    all but Mastermind 4x6
    python experiments/equilibria.py --json               one JSON object per instance instead

Each row is what `arena equilibrium SPEC` prints for that instance (the command is in the
table): Mastermind for every pegs <= 4 and colours <= 6, and Jotto on the first 8, 12, 16
and 20 words. A row reports the value (exact where recovered), the least mean number of
guesses when the chooser is uniform (the exact optimal tree's mean), the chooser's support
(code types, or secrets, with positive probability), the number of trees the guesser mixes,
and the time. (The `arena run` config format evaluates guessers cell by cell and has no place
for a game's value, so this is a script rather than a TOML config.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from arena import make_game
from arena.equilibrium import double_oracle

MASTERMIND = [f"mastermind:pegs={p},colors={c}" for p in range(1, 5) for c in range(1, 7)]
JOTTO = [f"jotto:first={n}" for n in (8, 12, 16, 20)]


def command(spec: str) -> str:
    """The command that prints this instance's solution (`mastermind` is 4 pegs, 6 colours)."""
    return f"arena equilibrium {make_game(spec).spec}"


def support(eq) -> str:
    """The chooser's support: code types with their probability, or how many secrets."""
    rows = eq.chooser_by_row()
    if eq.symmetry.trivial:
        return f"{sum(p > 0 for _, _, p, _ in rows)} of {len(rows)} secrets"
    return " ".join(f"{label}:{x if x is not None else round(p, 4)}" for label, _, p, x in rows if p > 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-secrets", type=int, default=None, help="skip instances with more secrets")
    parser.add_argument("--time-limit", type=float, default=1800, help="seconds per instance (default 1800)")
    parser.add_argument("--json", action="store_true", help="one JSON object per instance")
    args = parser.parse_args(argv)
    if not args.json:
        print("| instance | secrets | value | uniform chooser | chooser's support | trees | seconds | command |")
        print("| --- | ---: | --- | ---: | --- | ---: | ---: | --- |")
    for spec in MASTERMIND + JOTTO:
        game = make_game(spec)
        if args.max_secrets is not None and len(game.secrets) > args.max_secrets:
            continue
        start = time.perf_counter()
        eq = double_oracle(game, time_limit=args.time_limit)
        seconds = time.perf_counter() - start
        if args.json:
            print(json.dumps({"command": command(spec), **eq.to_json()}), flush=True)
            continue
        if eq.gap > 1e-6:
            value = f"{eq.lower:.4f} .. {eq.upper:.4f} (stopped)"
        else:
            value = f"{eq.value:.4f}" + (f" = {eq.exact.value}" if eq.exact else "")
        print(
            f"| {game.spec} | {len(game.secrets):,} | {value} | {eq.uniform:.4f} | {support(eq)} | "
            f"{len(eq.trees)} | {seconds:.1f} | `{command(spec)}` |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
