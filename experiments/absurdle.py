"""The fewest guesses that beat Absurdle, by search (experiments/wordle.md).

Absurdle is `arena play wordle --chooser evil`: the evil chooser keeps the largest bucket, ties
as qntm's Absurdle breaks them (arena/games/wordle.py). It is deterministic, so beating it is
a one-player search over the buckets it leaves. A guess is a hit only when one answer is left
(with two or more left, evil prefers any other bucket to the hit, which reveals most), so the
fewest guesses that win is 1 + the fewest guesses after which evil has one answer left.

    python experiments/absurdle.py              # the proof that 3 cannot win and a 4-guess win
    python experiments/absurdle.py --hard       # the same in hard mode

Three guesses win iff some first guess g1 leaves a bucket B1 that some g2 splits into
singletons (then evil keeps one answer and g3 names it). Every g1 is tried (12,972 of them;
the distinct buckets once each), and every g2 for each, by one partition count of B1 against
every guess: a B1 with more answers than any guess has replies on the whole answer list is
skipped, as no guess can split it into singletons. Four guesses: the first (g1, g2) found,
in order of the smallest buckets, whose bucket B2 some g3 splits into singletons.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents.chooser import largest_class
from arena import make_game
from arena.core.game import Game, Indexes


def evil_bucket(game: Game, candidates: Indexes, guess: int, allowed: Indexes | None = None) -> Indexes:
    """The answers the evil chooser keeps after `guess` (its reply's class)."""
    return game.consistent(candidates, guess, largest_class(game, candidates, guess))


def splitters(game: Game, candidates: Indexes, pool: Indexes | None) -> np.ndarray:
    """The guesses of `pool` (None: all) that split `candidates` into singletons."""
    counts = game.partition_counts(pool, candidates)
    found = np.flatnonzero(counts.max(axis=1) == 1)
    return found if pool is None else pool[found]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hard", action="store_true", help="hard mode (wordle:hard=true)")
    args = parser.parse_args()
    game = make_game("wordle:hard=true" if args.hard else "wordle")
    start = time.perf_counter()
    everything = game.all_secrets
    most_parts = int((game.partition_counts(None, everything) > 0).sum(axis=1).max())
    print(
        f"{game.spec}: {len(game.secrets):,} answers, {len(game.guesses):,} guesses; "
        f"no guess has more than {most_parts} replies on the answers"
    )

    buckets: dict[bytes, tuple[int, Indexes]] = {}
    for g1 in range(len(game.guesses)):
        b1 = evil_bucket(game, everything, g1)
        buckets.setdefault(b1.tobytes(), (g1, b1))
    sizes = sorted(len(b) for _, b in buckets.values())
    print(
        f"first guesses: {len(game.guesses):,}, leaving {len(buckets):,} distinct buckets "
        f"of {sizes[0]} to {sizes[-1]} answers ({time.perf_counter() - start:.1f} s)"
    )

    # three guesses: a g2 that splits some B1 into singletons
    small = [(g1, b1) for g1, b1 in buckets.values() if len(b1) <= most_parts]
    three = []
    for g1, b1 in small:
        pool = game.allowed_guesses(((g1, largest_class(game, everything, g1)),))
        found = splitters(game, b1, pool)
        if len(found):
            three.append((g1, int(found[0])))
    print(
        f"three guesses: {len(small):,} buckets small enough to be split into singletons "
        f"(<= {most_parts} answers); {len(three)} can be ({time.perf_counter() - start:.1f} s)"
    )
    if three:
        g1, g2 = three[0]
        print(f"  win in 3: {game.guesses[g1]}, {game.guesses[g2]}, then the one answer left")
        return

    # four guesses: the smallest buckets first, every g2, until one B2 is split into singletons
    order = sorted(buckets.values(), key=lambda item: len(item[1]))
    for tried, (g1, b1) in enumerate(order, 1):
        history = ((g1, largest_class(game, everything, g1)),)
        pool2 = game.allowed_guesses(history)
        for g2 in range(len(game.guesses)) if pool2 is None else pool2.tolist():
            reply2 = largest_class(game, b1, g2)
            b2 = game.consistent(b1, g2, reply2)
            if len(b2) > most_parts:
                continue
            pool3 = game.allowed_guesses(history + ((g2, reply2),))
            found = splitters(game, b2, pool3)
            if len(found):
                g3 = int(found[0])
                reply3 = largest_class(game, b2, g3)
                last = game.consistent(b2, g3, reply3)
                print(
                    f"  win in 4: {game.guesses[g1]} {game.reply_label(history[0][1])}, "
                    f"{game.guesses[g2]} {game.reply_label(reply2)} ({len(b2)} left), "
                    f"{game.guesses[g3]} {game.reply_label(reply3)}, then {game.secrets[last[0]]} "
                    f"(first guess {tried} of {len(order):,} tried, smallest buckets first; "
                    f"{time.perf_counter() - start:.1f} s)"
                )
                return
    print("no win in 4 guesses")


if __name__ == "__main__":
    main()
