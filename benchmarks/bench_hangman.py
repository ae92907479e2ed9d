"""Speed of the engine's Hangman against a plain-Python version of the same two guessers.

    python benchmarks/bench_hangman.py               # every word of web2 (the plain run: ~30 s)
    python benchmarks/bench_hangman.py --length 5    # only the words of one length: seconds
    python benchmarks/bench_hangman.py --engine-only # skip the plain run

For each guesser of the "Playing Hangman" study (risk-minimising max-frequency and
uncertainty-minimising expected, ties to the first letter) it times
`evaluate(make_game("hangman"), make_guesser(spec))` (the best of 3 runs) against the plain
version in benchmarks/plain_hangman.py (one run), checks that both give every word the same
misses (and letters guessed), and prints the games lost at 6 and 9 strikes. The first row is
the game's table (word list and position masks, built fresh) against the plain word list.
Goal (the issue): both guessers over every word of web2 under 15 s together.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import plain_hangman as plain  # noqa: E402  (benchmarks/plain_hangman.py)
from timing import RUNS, clock  # noqa: E402

from agents import make_guesser  # noqa: E402
from arena.games import make_game  # noqa: E402
from arena.games.hangman import Hangman  # noqa: E402
from arena.play.evaluate import evaluate  # noqa: E402

GUESSERS = [  # (plain guesser, engine spec, published lost at 6 and 9 strikes, on the Mac list)
    ("max-frequency", "max-frequency:tiebreak=first", (11_398, 2_661)),
    ("expected", "expected:tiebreak=first", (12_528, 2_817)),
]
STRIKES = (6, 9)
GOAL = 15.0


def row(task: str, ours: float, theirs: float | None, lost: str = "", note: str = "") -> None:
    plain_s = f"{theirs:9.2f}" if theirs is not None else f"{'-':>9}"
    ratio = f"{theirs / ours:7.1f}x" if theirs is not None else f"{'-':>8}"
    print(f"{task:<40} {ours:8.3f} {plain_s} {ratio}   {lost:<15} {note}".rstrip())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=0, help="only the words of this length (0: all of web2)")
    parser.add_argument("--engine-only", action="store_true", help="skip the plain-Python run")
    args = parser.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    spec = f"hangman:length={args.length}" if args.length else "hangman"

    game, table_s = clock(lambda: Hangman(spec, length=args.length), RUNS)  # fresh, not the cached one
    words, words_s = clock(lambda: plain.hangman_words("web2", args.length))
    assert list(game.secrets) == words, "the engine's word list differs from the plain one"
    game = make_game(spec)
    assert list(game.secrets) == words

    print(f"{spec}: {len(words):,} words; engine: best of {RUNS} runs, plain: one run")
    print(
        (
            f"{'task':<40} {'engine s':>8} {'plain s':>9} {'ratio':>8}   {'lost at 6 / 9':<15} "
            + ("published (Mac list)" if not args.length else "")
        ).rstrip()
    )
    row("word list (engine: + position masks)", table_s, None if args.engine_only else words_s)

    engine_total = plain_total = 0.0
    for name, guesser_spec, published in GUESSERS:
        result, ours = clock(lambda: evaluate(game, make_guesser(guesser_spec)), RUNS)
        engine_total += ours
        lost = " / ".join(f"{result.lost(k):,}" for k in STRIKES)
        theirs = None
        if not args.engine_only:
            (misses, guesses), theirs = clock(lambda: plain.evaluate(name, words))
            plain_total += theirs
            bad = [w for w, m, e in zip(words, misses, result.misses[0].tolist()) if m != e]
            assert not bad, f"{guesser_spec}: misses differ for {len(bad)} words, such as {bad[:5]}"
            bad = [w for w, g, e in zip(words, guesses, result.guesses[0].tolist()) if g != e]
            assert not bad, f"{guesser_spec}: letters guessed differ for {len(bad)} words, such as {bad[:5]}"
        note = "" if args.length else " / ".join(f"{p:,}" for p in published)
        row(f"{guesser_spec}", ours, theirs, lost, note)
    row(
        "both guessers" + ("" if args.length else f" (goal < {GOAL:.0f} s)"),
        engine_total,
        None if args.engine_only else plain_total,
    )
    if not args.engine_only:
        print("misses and letters guessed agree for every word (engine = plain)")


if __name__ == "__main__":
    main()
