"""Word lists for Hangman cores solved as lists of their own (experiments/game_values.md, "Cores
folded in"): the words a saved equilibrium's chooser mix weighs most, with those its guesser mix
concedes most on, or the union of the largest pure families of a list.

    python experiments/hangman_cores.py heaviest FILE SPEC PAYOFF K [--worst K2] --out WORDS.txt
    python experiments/hangman_cores.py families SPEC N --out WORDS.txt

then `arena equilibrium hangman:words=WORDS.txt,length=L --payoff P --save CORE.json.gz`, and the
whole list's run takes `--bounds-from CORE.json.gz`.
"""

from __future__ import annotations

import argparse

import numpy as np

from arena.core.costs import cost_for
from arena.equilibrium.growing import families
from arena.equilibrium.plans import plan_tree
from arena.equilibrium.solution import load_guesser_mix, read_saved
from arena.equilibrium.witness import saved_chooser
from arena.games import make_game


def heaviest(path: str, spec: str, payoff: str, k: int, worst: int) -> list[str]:
    """The k words the saved chooser mix weighs most (those it weighs at all), then the `worst`
    words its guesser mix concedes most on, not already in."""
    game = make_game(spec)
    data = read_saved(path, game, payoff)
    chooser, _ = saved_chooser(path, game, data)
    picked = [int(s) for s in np.argsort(-chooser, kind="stable")[:k] if chooser[s] > 0]
    if worst:
        mix, _ = load_guesser_mix(path, game, data)
        paid = cost_for(game, payoff)
        conceded = sum(p * np.asarray(paid.of(plan_tree(game, plan, path)), dtype=float) for p, plan in mix)
        others = [int(s) for s in np.argsort(-conceded, kind="stable") if int(s) not in set(picked)]
        picked += others[:worst]
    return sorted(game.secrets[s] for s in picked)


def largest_families(spec: str, n: int) -> list[str]:
    """The union of the n largest pure families of the game's list (growing.families)."""
    game = make_game(spec)
    return sorted({game.secrets[i] for family in families(game)[:n] for i in family})


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="how", required=True)
    h = sub.add_parser("heaviest", help="the heaviest words of a saved chooser mix")
    h.add_argument("file"), h.add_argument("spec"), h.add_argument("payoff"), h.add_argument("k", type=int)
    h.add_argument("--worst", type=int, default=0, help="also this many words the guesser's mix concedes most on")
    f = sub.add_parser("families", help="the union of the largest pure families")
    f.add_argument("spec"), f.add_argument("n", type=int)
    for p in (h, f):
        p.add_argument("--out", required=True, help="the word list written, one word a line")
    args = parser.parse_args(argv)
    if args.how == "heaviest":
        words = heaviest(args.file, args.spec, args.payoff, args.k, args.worst)
    else:
        words = largest_families(args.spec, args.n)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("\n".join(words) + "\n")
    print(f"{len(words)} words -> {args.out}")


if __name__ == "__main__":
    main()
