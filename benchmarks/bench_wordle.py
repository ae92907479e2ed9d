"""Speed of the engine's Wordle against a plain-Python version of the same algorithms, in one run.

    python benchmarks/bench_wordle.py                 # sample of 400 guesses, trees on 400 answers
    python benchmarks/bench_wordle.py --sample 1000   # a bigger sample (the plain run grows with it)

Rows:
1. The feedback table: the engine's vectorised build (`wordle_table`) and the plain rule (greens
   first, then yellows left to right, each using up one unmatched copy: Counter and two loops
   per pair) on the same guesses (the first `--sample` of the 12,972, every answer); both
   tables must agree reply for reply. Then the engine's full build, 2,315 x 12,972, alone (the
   plain one would take the sample's time x 12,972 / sample).
2. The greedy trees, consistent-only, on the first `--sample` answers (wordle:first=N): the
   engine's `grow_tree` against a plain recursion (a dict of classes per candidate guess, `min`
   with a key, ties to the first), for minimax, expected, entropy (fixed point, as
   `ties=exact`) and most-parts; both must give every answer the same number of guesses.
3. The engine's greedy trees on full Wordle, both pools (no plain version: pool=all would
   score 12,972 guesses per node in pure Python).
Engine times are the best of 3 runs; plain times one run.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from math import log2
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from timing import RUNS, clock, row  # noqa: E402

from agents import make_guesser  # noqa: E402
from arena.core.words import read_words  # noqa: E402
from arena.games import make_game  # noqa: E402
from arena.games.wordle import Wordle, letter_codes, wordle_table, wordle_words  # noqa: E402
from arena.trees.grow import grow_tree  # noqa: E402

METRICS = {  # engine spec -> plain key of the class sizes (lower is better)
    "minimax:pool=consistent": lambda sizes: max(sizes),
    "expected:pool=consistent": lambda sizes: sum(c * c for c in sizes),
    "entropy:pool=consistent,ties=exact": lambda sizes: sum(round(c * log2(c) * 2**32) for c in sizes),
    "most-parts:pool=consistent": lambda sizes: -len(sizes),
}


# --- the plain versions ---------------------------------------------------------------------


def plain_reply(guess: str, answer: str) -> str:
    """G/Y/. per letter: greens first, then yellows left to right from the unmatched copies."""
    marks = ["."] * len(guess)
    unmatched = Counter(a for g, a in zip(guess, answer) if g != a)
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            marks[i] = "G"
    for i, g in enumerate(guess):
        if marks[i] != "G" and unmatched[g] > 0:
            marks[i] = "Y"
            unmatched[g] -= 1
    return "".join(marks)


def plain_table(guesses: list[str], answers: list[str]) -> list[list[str]]:
    return [[plain_reply(g, a) for a in answers] for g in guesses]


def plain_tree(words: list[str], key) -> dict[str, int]:
    """Guesses each answer takes: the consistent guess whose classes score best (first on ties)."""
    cost: dict[str, int] = {}

    def classes(guess: str, candidates: list[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for c in candidates:
            out.setdefault(plain_reply(guess, c), []).append(c)
        return out

    def grow(candidates: list[str], depth: int) -> None:
        if len(candidates) == 1:
            cost[candidates[0]] = depth + 1
            return
        guess = min(candidates, key=lambda g: key([len(p) for p in classes(g, candidates).values()]))
        for reply, part in classes(guess, candidates).items():
            if reply == "G" * len(guess):
                cost[guess] = depth + 1
            else:
                grow(part, depth + 1)

    grow(list(words), 0)
    return cost


# --- the rows -----------------------------------------------------------------------------------


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=400, help="guesses for the table, answers for the trees")
    args = parser.parse_args(argv)
    print(f"{'task':<46} {'engine s':>8} {'plain s':>9} {'ratio':>9}   figures")

    answers = wordle_words(read_words("wordle-answers"), 5)
    guesses = wordle_words(read_words("wordle-guesses"), 5)
    sample = guesses[: args.sample]
    table, ours = clock(lambda: wordle_table(letter_codes(sample), letter_codes(answers)), RUNS)
    plain, theirs = clock(lambda: plain_table(sample, answers))
    labels = make_game("wordle:first=1")  # reply_label only
    assert all(
        labels.reply_label(int(code)) == text
        for codes, texts in zip(table, plain)
        for code, text in zip(codes.tolist(), texts)
    ), "the engine's table differs from the plain rule"
    row(
        f"table: {len(sample):,} guesses x {len(answers):,} answers",
        ours,
        theirs,
        f"{len(sample) * len(answers):,} replies, all equal",
    )
    game, full = clock(lambda: Wordle("wordle"), RUNS)
    row(
        "table: the full game (lists read, 30M replies)",
        full,
        theirs * len(guesses) / len(sample),
        f"{len(game.guesses):,} x {len(game.secrets):,} (plain: extrapolated from the sample)",
    )

    small = make_game(f"wordle:first={args.sample}")
    for spec, key in METRICS.items():
        tree, ours = clock(lambda: grow_tree(small, make_guesser(spec)), RUNS)
        cost, theirs = clock(lambda: plain_tree(list(small.secrets), key))
        assert [cost[w] for w in small.secrets] == tree.guesses.tolist(), f"{spec}: the trees differ"
        row(f"tree {spec} on first={args.sample}", ours, theirs, f"total {int(tree.guesses.sum()):,}, both")

    for spec in ["minimax", "expected", "entropy", "most-parts"]:
        for pool in ["all", "consistent"]:
            tree, ours = clock(lambda: grow_tree(game, make_guesser(f"{spec}:pool={pool}")), 1)
            row(
                f"tree {spec}:pool={pool}, full Wordle",
                ours,
                None,
                f"{game.guesses[tree.root.guess]}, total {int(tree.guesses.sum()):,}, worst {int(tree.guesses.max())}",
            )


if __name__ == "__main__":
    main()
