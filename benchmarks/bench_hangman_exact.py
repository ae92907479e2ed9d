"""Speed of the exact Hangman search (fewest expected misses) against a plain-Python brute force.

    python benchmarks/bench_hangman_exact.py                 # engine vs plain on first=10..40, then first=640 alone
    python benchmarks/bench_hangman_exact.py --quick         # engine vs plain on first=10 and 20 only
    python benchmarks/bench_hangman_exact.py --largest 320   # the engine alone on another list

Both compute, on `hangman:length=5,first=N` (the first N five-letter words of web2, the
guesser told the length), the least total misses until the word is determined:

    V(S) = 0                                                   if |S| <= 1
    V(S) = min over letters c splitting S of  sum over classes C of S under c of [C is a miss] |C| + V(C)

The engine is `arena.optimal.optimal_tree` (the project's one branch and bound: numpy partition
counts per node, bounds, a cache; best of 3 runs). The plain version is that recursion as it
reads, memoised on the candidate set, in the style of benchmarks/plain_hangman.py (dicts of
letter positions, a dict of classes per letter; one run). Both must give the same value.
The last row is the engine alone on the largest list it solves in minutes (one run).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import plain_hangman as plain  # noqa: E402  (benchmarks/plain_hangman.py)
from timing import RUNS, clock  # noqa: E402
from timing import row as timing_row

from arena import make_game  # noqa: E402
from arena.optimal import optimal_tree  # noqa: E402

LENGTH = 5
BOTH = (10, 20, 40)
QUICK = (10, 20)
LARGEST = 640


#: This benchmark's rows (timing.row) with its own task column width.
row = partial(timing_row, width=34)


def plain_fewest_misses(words: list[str]) -> int:
    """The least total misses until determined over `words`, by the recursion above: every
    letter that splits the candidates is tried, and each candidate set is solved once."""
    spots = {w: plain.letter_spots(w) for w in words}
    memo: dict[frozenset, int] = {}

    def V(S: frozenset) -> int:
        if len(S) <= 1:
            return 0
        if S in memo:
            return memo[S]
        best = None
        for letter in plain.LETTERS:
            classes = defaultdict(list)  # where the letter stands ((): a miss) -> candidates
            for w in S:
                classes[spots[w].get(letter, ())].append(w)
            if len(classes) == 1:  # learns nothing: no candidate has it, or all have it alike
                continue
            total = sum((len(C) if where == () else 0) + V(frozenset(C)) for where, C in classes.items())
            best = total if best is None else min(best, total)
        memo[S] = best
        return best

    return V(frozenset(words))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="engine vs plain on first=10 and 20 only, no largest list")
    parser.add_argument(
        "--largest", type=int, default=LARGEST, help=f"the engine alone on first=N (default {LARGEST}; 0: skip)"
    )
    args = parser.parse_args(argv)
    words = plain.hangman_words("web2", LENGTH)
    print(f"hangman:length={LENGTH},first=N: engine best of {RUNS} runs, plain one run")
    print(f"{'task':<34} {'engine s':>8} {'plain s':>9} {'ratio':>9}   figures")
    for n in QUICK if args.quick else BOTH:
        game = make_game(f"hangman:length={LENGTH},first={n}")
        assert list(game.secrets) == words[:n], "the engine's word list differs from the plain one"
        tree, seconds = clock(lambda: optimal_tree(game), RUNS)
        theirs, plain_seconds = clock(lambda: plain_fewest_misses(words[:n]))
        ours = int(tree.value)
        assert tree.exact and ours == theirs, f"first={n}: engine {ours} but plain {theirs}"
        row(
            f"first={n}: engine vs plain",
            seconds,
            plain_seconds,
            f"total misses {ours:,} | {theirs:,} (mean {ours / n:.4f})",
        )
    if not args.quick and args.largest:
        game = make_game(f"hangman:length={LENGTH},first={args.largest}")
        tree, seconds = clock(lambda: optimal_tree(game))
        row(
            f"first={args.largest}: engine alone",
            seconds,
            None,
            f"total misses {int(tree.value):,} (mean {tree.value / args.largest:.4f}), exact {tree.exact}, "
            f"{tree.searched:,} candidate sets searched",
        )


if __name__ == "__main__":
    main()
