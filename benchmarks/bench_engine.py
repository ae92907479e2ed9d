"""Speed of the engine against plain-Python versions of the same algorithms, in one run.

    python benchmarks/bench_engine.py            # everything (the plain Jotto trees take minutes)
    python benchmarks/bench_engine.py --quick    # plain Jotto: the three consistent-only trees

For each task it prints the engine's time (the best of 3 runs), the plain version's time (one
run: it takes seconds to minutes), their ratio, and the
figures both computed (they must agree: the plain code is an independent implementation of
the published algorithm, in benchmarks/plain.py). Goals (issue 2): the Jotto table and all six
Norvig trees under 2 s together; Knuth over all 1,296 codes under 0.5 s.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import plain  # noqa: E402  (benchmarks/plain.py)
from timing import RUNS, clock, row  # noqa: E402

from agents import make_guesser  # noqa: E402
from arena.games import jotto as jotto_game  # noqa: E402
from arena.games import mastermind as mastermind_game  # noqa: E402
from arena.trees.grow import grow_tree  # noqa: E402

NORVIG = [  # (plain metric, consistent?, engine spec)
    ("max", False, "minimax:pool=consistent,tiebreak=first"),
    ("expectation", False, "expected:pool=consistent,tiebreak=first"),
    ("entropy", False, "entropy:pool=consistent,tiebreak=first"),
    ("max", True, "minimax:pool=all,small=3,tiebreak=first"),
    ("expectation", True, "expected:pool=all,small=3,tiebreak=first"),
    ("entropy", True, "entropy:pool=all,small=3,tiebreak=first"),
]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="time the plain inconsistent Jotto trees too (minutes) unless set"
    )
    args = parser.parse_args(argv)
    print(f"{'task':<46} {'engine s':>8} {'plain s':>9} {'ratio':>9}   figures (engine | plain)")

    # The Jotto table, fresh (no cache): word list, letter masks, F[g, s].
    game, table_s = clock(lambda: jotto_game.Jotto("jotto"), RUNS)
    words, plain_words_s = clock(lambda: plain.jotto_words(plain.DEFAULT_WORDS))
    assert list(game.secrets) == words, "the engine's word list differs from the plain one"
    row("jotto: word list + feedback table", table_s, None, f"{len(game.secrets)} words")

    trees_s = 0.0
    for metric, inconsistent, spec in NORVIG:
        tree, ours = clock(lambda: grow_tree(game, make_guesser(spec)), RUNS)
        trees_s += ours
        figures = f"{tree.guesses.mean():.2f} ({tree.guesses.max()})"
        theirs = None
        if not (args.quick and inconsistent):
            depths, theirs = clock(
                lambda: plain.tree_depths(plain.minimizing_tree(plain.METRICS[metric], words, words, inconsistent))
            )
            mean, worst, total = plain.summary(depths)
            figures += f" | {mean:.2f} ({worst})"
            assert total == int(tree.guesses.sum()), f"{spec}: engine and plain trees differ"
        row(f"jotto tree {spec}", ours, theirs, figures)
    row("jotto: table + six trees (goal < 2 s)", table_s + trees_s, None, "")

    codes, mm_table_s = clock(lambda: mastermind_game.Mastermind("mastermind"), RUNS)
    row("mastermind 4x6: feedback table", mm_table_s, None, f"{len(codes.secrets)} codes")
    for spec, fn in [
        ("knuth", plain.knuth_tree),
        ("minimax:pool=consistent", lambda: plain.knuth_tree(True)),
        ("lowest", plain.lowest_consistent_total),
    ]:
        tree, ours = clock(lambda: grow_tree(codes, make_guesser(spec)), RUNS)
        depths, theirs = clock(fn)
        _, worst, total = plain.summary(depths)
        assert total == int(tree.guesses.sum()), f"{spec}: engine and plain totals differ"
        row(
            f"mastermind tree {spec}" + (" (goal < 0.5 s)" if spec == "knuth" else ""),
            ours,
            theirs,
            f"{int(tree.guesses.sum())} ({tree.guesses.max()}) | {total} ({worst})",
        )

    counts, ours = clock(lambda: game.partition_counts(None, game.all_secrets), RUNS)
    _, theirs = clock(lambda: [plain.partition_counts(g, words) for g in words[:100]])
    row(
        "jotto partition counts, every guess x 2,845",
        ours,
        theirs * len(words) / 100,
        "plain: 100 guesses timed, scaled to 2,845",
    )


if __name__ == "__main__":
    main()
