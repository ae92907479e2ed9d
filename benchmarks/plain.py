"""Plain-Python reference implementations of the published guessing algorithms.

Deliberately written without numpy, using only the standard library and in the
style of the published authors:

* Jotto greedy trees after Peter Norvig's Jotto notebook (Counter, ``min`` with
  a key, recursion over partitions).
* Mastermind (4 pegs, 6 colours) after Knuth, "The computer as Master Mind"
  (1977): minimax over all 1,296 codes in plain loops, and the simple
  "lowest consistent code" player.

The module has two jobs: it is the slow-but-obvious speed baseline that the
benchmarks time against the numpy engine, and an independent cross-check of
that engine in the tests.  Run it as a script to print the published figures
and the time each took::

    python benchmarks/plain.py [path/to/sgb-words.txt]
"""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from functools import cache
from itertools import product
from math import log2
from pathlib import Path
from typing import NamedTuple

DEFAULT_WORDS = Path(__file__).resolve().parents[2] / "shared" / "data" / "sgb-words.txt"

# ---------------------------------------------------------------------------
# Jotto word list
# ---------------------------------------------------------------------------


def jotto_words(path: str | Path) -> list[str]:
    """Five-letter words with five distinct letters, one word per letter set.

    Keeps the order in which each letter set first appears and, for each set,
    the word that appears last -- exactly what
    ``list({frozenset(w): w for w in words}.values())`` gives.  On the Stanford
    GraphBase list ``sgb-words.txt`` this is 2,845 words.
    """
    words = Path(path).read_text().split()
    distinct = [w for w in words if len(w) == 5 and len(set(w)) == 5]
    return list({frozenset(w): w for w in distinct}.values())


# ---------------------------------------------------------------------------
# Jotto replies and partitions
# ---------------------------------------------------------------------------

Reply = int
Counts = list[int]


@cache
def letters(word: str) -> frozenset[str]:
    """The set of letters in word (cached: the same words are asked about often)."""
    return frozenset(word)


def jotto_reply(guess: str, target: str) -> Reply:
    """The Jotto reply: the number of letters guess and target have in common."""
    return len(set(guess) & set(target))


def partition_counts(guess: str, targets: Sequence[str]) -> Counts:
    """How many targets give each reply 0..5 to guess (a list of six counts)."""
    g = letters(guess)
    counter = Counter(len(g & letters(t)) for t in targets)
    return [counter[r] for r in range(6)]


def partition(guess: str, targets: Sequence[str]) -> dict[Reply, list[str]]:
    """The targets grouped by their reply to guess: {reply: [target, ...]}."""
    branches: dict[Reply, list[str]] = defaultdict(list)
    g = letters(guess)
    for t in targets:
        branches[len(g & letters(t))].append(t)
    return dict(branches)


# ---------------------------------------------------------------------------
# Metrics over partition counts (lower is better)
# ---------------------------------------------------------------------------


def expectation(counts: Counts) -> float:
    """Expected size of the class the target falls in: sum(c*c) / total.

    The integer numerator makes permuted counts tie exactly (ties then go to
    list order); the float form sum(c/total * c) gives 7.14 and 6.84 too.
    """
    return sum(c * c for c in counts) / sum(counts)


def neg_entropy(counts: Counts) -> float:
    """sum(p * log2 p) over non-empty classes; minimising it maximises entropy.

    The sum runs in reply order 0..5.  This matters: guesses whose counts are
    permutations of each other tie exactly in theory but differ in the last
    bit in floating point, and ``min`` then picks by that bit, not list order.
    Summing in reply order reproduces Norvig's 6.81 for the inconsistent
    entropy tree; a permutation-invariant sum (sorted counts, or rounding the
    value) gives 19,392 guesses = 6.82, and summing in order of first
    appearance (``Counter(...).values()``) gives 19,391 = 6.82.
    """
    total = sum(counts)
    return sum(c / total * log2(c / total) for c in counts if c)


METRICS: dict[str, Callable[[Counts], float]] = {
    "max": max,
    "expectation": expectation,
    "entropy": neg_entropy,
}

# ---------------------------------------------------------------------------
# Greedy Jotto trees (Norvig)
# ---------------------------------------------------------------------------


class Node(NamedTuple):
    """An interior node of a guessing tree: the guess and a sub-tree per reply.

    When the guess is itself a remaining target, ``branches[5]`` is the guess
    (a leaf that is already finished: no further guess is needed for it).
    """

    guess: str
    branches: dict


Tree = str | Node  # a leaf is the single remaining target word


def minimizing_tree(
    metric: Callable[[Counts], float],
    targets: Sequence[str],
    guesses: Sequence[str],
    inconsistent: bool = False,
    inconsistent_min: int = 3,
) -> Tree:
    """Greedy tree that guesses the word minimising metric(partition_counts).

    Guesses come from ``guesses`` (the whole word list) when ``inconsistent``
    and more than ``inconsistent_min`` targets remain, else from ``targets``.
    Ties go to the first word in list order (``min`` keeps the first).
    """
    if len(targets) == 1:
        return targets[0]
    pool = guesses if inconsistent and len(targets) > inconsistent_min else targets
    guess = min(pool, key=lambda g: metric(partition_counts(g, targets)))
    branches: dict = {}
    for reply, group in sorted(partition(guess, targets).items()):
        if reply == 5 and group == [guess]:
            branches[reply] = guess  # the target was hit: finished
        else:
            branches[reply] = minimizing_tree(metric, group, guesses, inconsistent, inconsistent_min)
    return Node(guess, branches)


def tree_depths(tree: Tree, depth: int = 1) -> dict[str, int]:
    """{target: number of guesses needed}, counting the guess that hits it."""
    if isinstance(tree, str):
        return {tree: depth}
    depths: dict[str, int] = {}
    for reply, sub in tree.branches.items():
        if reply == 5 and sub == tree.guess:
            depths[sub] = depth
        else:
            depths.update(tree_depths(sub, depth + 1))
    return depths


def summary(depths: dict) -> tuple[float, int, int]:
    """(mean, worst, total) number of guesses over all targets."""
    total = sum(depths.values())
    return total / len(depths), max(depths.values()), total


# ---------------------------------------------------------------------------
# Mastermind, 4 pegs 6 colours
# ---------------------------------------------------------------------------

COLOURS = "123456"
CODES: list[str] = ["".join(p) for p in product(COLOURS, repeat=4)]  # '1111'..'6666'
WIN = (4, 0)


def mastermind_reply(guess: str, secret: str) -> tuple[int, int]:
    """(black, white): right colour right place, right colour wrong place."""
    black = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in COLOURS)
    return black, common - black


def mastermind_partition(guess: str, candidates: Sequence[str]) -> dict[tuple[int, int], list[str]]:
    """The candidates grouped by their reply to guess."""
    branches: dict[tuple[int, int], list[str]] = defaultdict(list)
    for c in candidates:
        branches[mastermind_reply(guess, c)].append(c)
    return dict(branches)


def play_all(choose: Callable[[list[str]], str], candidates: list[str] = CODES) -> dict[str, int]:
    """{secret: guesses} for a guesser choose(consistent candidates) -> guess.

    Plays every secret at once by walking the tree of replies; a single
    remaining candidate is simply guessed.
    """
    depths: dict[str, int] = {}

    def solve(cands: list[str], depth: int) -> None:
        if len(cands) == 1:
            depths[cands[0]] = depth
            return
        guess = choose(cands)
        for reply, group in mastermind_partition(guess, cands).items():
            if reply == WIN:
                depths[guess] = depth
            else:
                solve(group, depth + 1)

    solve(list(candidates), 1)
    return depths


def lowest_consistent_total() -> dict[str, int]:
    """Always guess the lowest consistent code (published: total 7,471, worst 9)."""
    return play_all(lambda cands: cands[0])


def largest_class(guess: str, candidates: Sequence[str]) -> int:
    """Size of the largest class guess splits the candidates into."""
    return max(Counter(mastermind_reply(guess, c) for c in candidates).values())


def knuth_choice(candidates: list[str], pool: Sequence[str] = CODES) -> str:
    """Knuth's minimax guess: smallest largest class; ties to a consistent code, then lowest."""
    consistent = set(candidates)
    best, best_key = "", (len(candidates) + 1, True, "")
    for g in pool:
        key = (largest_class(g, candidates), g not in consistent, g)
        if key < best_key:
            best, best_key = g, key
    return best


def knuth_tree(consistent_only: bool = False) -> dict[str, int]:
    """Knuth 1977 minimax over all 1,296 codes (published: total 5,801, worst 5).

    With ``consistent_only`` guesses are drawn from the remaining candidates
    (published: total 5,828, worst 6).
    """
    if consistent_only:
        return play_all(lambda cands: knuth_choice(cands, cands))
    return play_all(knuth_choice)


# ---------------------------------------------------------------------------
# Script: print the published figures and time each computation
# ---------------------------------------------------------------------------


def timed(label: str, fn: Callable[[], dict], published: str) -> dict:
    """Run fn, print mean/worst/total of its depths and the time it took."""
    start = time.perf_counter()
    depths = fn()
    secs = time.perf_counter() - start
    mean, worst, total = summary(depths)
    print(
        f"{label:38s} n={len(depths):5d} mean={mean:.4f} worst={worst:2d} total={total:6d}  [{published}]  {secs:7.2f}s"
    )
    return depths


def main(argv: list[str]) -> None:
    """Print every published figure with its time."""
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT_WORDS
    start = time.perf_counter()
    words = jotto_words(path)
    print(f"jotto_words: {len(words)} words (published 2,845)  {time.perf_counter() - start:.3f}s")
    published = {
        (False, "max"): "7.15 (18)",
        (False, "expectation"): "7.14 (17)",
        (False, "entropy"): "7.09 (19)",
        (True, "max"): "7.05 (10)",
        (True, "expectation"): "6.84 (10)",
        (True, "entropy"): "6.81 (10)",
    }
    for inconsistent in (False, True):
        for name, metric in METRICS.items():
            label = f"jotto {name} {'inconsistent' if inconsistent else 'consistent'}"
            timed(
                label,
                lambda: tree_depths(minimizing_tree(metric, words, words, inconsistent)),
                published[inconsistent, name],
            )
    timed("mastermind lowest consistent", lowest_consistent_total, "total 7471, worst 9")
    timed("mastermind knuth (all codes)", knuth_tree, "total 5801, worst 5")
    timed("mastermind knuth (consistent only)", lambda: knuth_tree(True), "total 5828, worst 6")


if __name__ == "__main__":
    main(sys.argv)
