"""Hangman's exact best response on a chooser's support, compiled against plain Python, in one
run (issue 34).

    python benchmarks/bench_support_search.py                  # the 60 and 80 heaviest words
    python benchmarks/bench_support_search.py --words 40 60 80 133 --plain-limit 900

The mix is the chooser's of the Hangman run on the Wordle answers as committed at 53ad654
(experiments/data/hangman-wordle-mix-133.json: 133 words), cut to its N heaviest words
and renormalised: the double oracle's hard case, words alike but for one letter weighted by
the LP. Each size is searched to the end by compiled_letters.CompiledSearch (letter_loops.py,
numba, its code loaded before the clock starts) and then by support_search.LetterSearch (numpy
on small arrays), under misses, one run each; the values must agree (to 1e-9). Printed: CPU
seconds (time.process_time: the machine is shared), sets searched, sets a second, the ratio.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena import make_game  # noqa: E402
from arena.equilibrium import letters, support_search  # noqa: E402
from arena.equilibrium.compiled_letters import CompiledSearch  # noqa: E402

MIX = ROOT / "experiments" / "data" / "hangman-wordle-mix-133.json"


def heaviest(n: int):
    """The game, the mix's n heaviest words (indexes, ascending) and their weights (summing to 1)."""
    saved = json.loads(MIX.read_text())
    game = make_game(saved["game"])
    mix = letters.support_mix(np.array([saved["chooser"].get(s, 0.0) for s in game.secrets]))
    support = np.flatnonzero(mix > 0)
    words = np.sort(support[np.argsort(-mix[support], kind="stable")[:n]])
    return game, words, mix[words] / mix[words].sum()


def timed(kind, game, words, w, limit: float | None) -> tuple[float | None, int, float]:
    """(value or None where stopped at `limit`, sets searched, CPU seconds) of one search."""
    deadline = None if limit is None else time.perf_counter() + limit
    search = kind(support_search.Opening.of(game, words, w), None, deadline)
    start = time.process_time()
    try:
        value = search.solve((1 << len(words)) - 1, 0, np.inf)
    except support_search.Stopped:
        value = None
    return value, search.nodes, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, nargs="+", default=[60, 80])
    parser.add_argument("--plain-limit", type=float, default=None, help="stop the plain search after S seconds")
    args = parser.parse_args(argv)
    game, words, w = heaviest(20)
    timed(CompiledSearch, game, words, w, None)  # numba's code loaded (or compiled) off the clock
    for n in args.words:
        game, words, w = heaviest(n)
        fast, fast_sets, fast_s = timed(CompiledSearch, game, words, w, None)
        plain, plain_sets, plain_s = timed(support_search.LetterSearch, game, words, w, args.plain_limit)
        if plain is not None:
            assert fast is not None and abs(fast - plain) <= 1e-9, (n, fast, plain)
        shown = "stopped" if plain is None else f"{plain:.9f}"
        print(
            f"{n} words: compiled {fast:.9f} in {fast_s:.2f} s ({fast_sets:,} sets, {fast_sets / fast_s:,.0f}/s); "
            f"plain {shown} in {plain_s:.2f} s ({plain_sets:,} sets, {plain_sets / plain_s:,.0f}/s); "
            f"{plain_s / fast_s:.1f}x{'' if plain is not None else ' at least'}",
            flush=True,
        )


if __name__ == "__main__":
    main()
