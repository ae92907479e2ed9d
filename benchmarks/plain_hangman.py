"""Plain-Python Hangman after the "Playing Hangman" study: the two greedy guessers over web2.

Standard library only (no numpy), written the way the study's own code would be: the word
list is grouped by length (the guesser is told the length), and for each length the guesser
plays one recursion over candidate sets, one call per decision. At a decision it counts, with a
Counter, how many candidates have each letter at each set of positions, picks a letter, splits
the candidates by where that letter stands (a dict of lists) and recurses into each part. A
word is determined, and its game over, when it is the only candidate left.

Two greedy guessers, ties to the alphabetically first letter, and never a letter that does not
split the candidates (all have it at the same positions, or none has it):

* ``max-frequency`` (risk-minimising): the letter in the most candidates;
* ``expected`` (uncertainty-minimising): the letter minimising the sum of squared class sizes,
  the class of candidates without the letter included.

It is the slow-but-obvious baseline that benchmarks/bench_hangman.py times against the numpy
engine, and an independent cross-check of it (the misses per word must agree exactly)::

    python benchmarks/plain_hangman.py [--length N]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter, defaultdict
from itertools import chain

from arena.core.words import read_words

LETTERS = "abcdefghijklmnopqrstuvwxyz"

Spots = tuple  # the positions (0-based) where a letter stands in a word; () for a miss


def hangman_words(name: str = "web2", length: int = 0) -> list[str]:
    """The list lowercased, deduplicated in list order, words with characters outside a-z skipped
    (web2: 234,369 words); only words of `length` letters if it is given."""
    words = dict.fromkeys(w.lower() for w in read_words(name))
    return [w for w in words if re.fullmatch(r"[a-z]+", w) and (not length or len(w) == length)]


def letter_spots(word: str) -> dict[str, Spots]:
    """{letter: positions where it stands} for the letters of the word."""
    spots = defaultdict(list)
    for i, c in enumerate(word):
        spots[c].append(i)
    return {c: tuple(p) for c, p in spots.items()}


# A guesser scores a letter by its classes: `miss` candidates without it, and the sizes of the
# classes of candidates with it (one per set of positions). Lower is better.


def max_frequency(miss: int, hits: list[int]) -> int:
    """Risk-minimising: fewest candidates without the letter (= the letter in the most candidates)."""
    return miss


def expected(miss: int, hits: list[int]) -> int:
    """Uncertainty-minimising: the sum of squared class sizes (n times the expected class size)."""
    return miss * miss + sum(c * c for c in hits)


GUESSERS = {"max-frequency": max_frequency, "expected": expected}


def best_letter(score, candidates: list[str], spots: dict[str, dict[str, Spots]]) -> str:
    """The letter with the lowest score among those that split the candidates; ties: first letter."""
    n = len(candidates)
    classes = Counter(chain.from_iterable(spots[w].items() for w in candidates))  # (letter, spots) -> count
    hits = defaultdict(list)
    for (letter, _), count in classes.items():
        hits[letter].append(count)
    useful = [c for c in LETTERS if c in hits and max(hits[c]) < n]  # in some candidates, not all alike
    return min(useful, key=lambda c: (score(n - sum(hits[c]), hits[c]), c))


def play(
    score, candidates: list[str], spots, misses: dict[str, int], guesses: dict[str, int], missed: int = 0, turn: int = 0
) -> None:
    """Play the greedy guesser against every candidate, recording each word's misses and letters
    guessed until it is the only candidate left."""
    if len(candidates) == 1:
        misses[candidates[0]], guesses[candidates[0]] = missed, turn
        return
    letter = best_letter(score, candidates, spots)
    parts = defaultdict(list)
    for w in candidates:
        parts[spots[w].get(letter, ())].append(w)
    for where, part in parts.items():
        play(score, part, spots, misses, guesses, missed + (not where), turn + 1)


def evaluate(guesser: str, words: list[str]) -> tuple[list[int], list[int]]:
    """(misses, guesses) per word, in the order of `words`, each length its own game."""
    score = GUESSERS[guesser]
    spots = {w: letter_spots(w) for w in words}
    by_length = defaultdict(list)
    for w in words:
        by_length[len(w)].append(w)
    misses: dict[str, int] = {}
    guesses: dict[str, int] = {}
    for length in sorted(by_length):
        play(score, by_length[length], spots, misses, guesses)
    return [misses[w] for w in words], [guesses[w] for w in words]


def lost(misses: list[int], strikes: int) -> int:
    """Games lost at this strike limit: misses reached it."""
    return sum(m >= strikes for m in misses)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=0, help="only words of this length")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    words = hangman_words("web2", args.length)
    print(f"{len(words):,} words")
    for guesser in GUESSERS:
        start = time.perf_counter()
        misses, _ = evaluate(guesser, words)
        print(
            f"{guesser:<14} lost at 6 strikes {lost(misses, 6):>7,}   at 9 {lost(misses, 9):>6,}"
            f"   ({time.perf_counter() - start:.1f} s)"
        )


if __name__ == "__main__":
    main()
