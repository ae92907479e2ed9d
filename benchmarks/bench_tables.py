"""Mastermind's reply table by numpy (arena.games.mastermind.black_white), against the
formulation it replaced (issue 23) and checked against the plain rule, in one run.

    python benchmarks/bench_tables.py

The instances are those whose table numpy builds (fewer than 2**23 cells; bigger ones go to the
compiled loop of arena/games/multisets.py): few colours count common colours by colour counts,
many (3x10 without repeats, 2x40) by comparing pegs. For each: the engine's table now, built a
position and a colour at a time over 2-D blocks of uint8 cells; the same table by the
formulation before, which summed a block of n x n x pegs along its short last axis; both must
be equal cell for cell, and a sample of rows must equal the plain rule (black pegs by zip,
common colours by Counter intersection). Times are CPU seconds of this process, the best of 3.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from timing import RUNS, clock, row  # noqa: E402

from arena.games.mastermind import all_codes, black_white, by_colour_counts  # noqa: E402

INSTANCES = [(4, 6, True), (4, 7, True), (4, 8, False), (3, 10, False), (2, 40, True)]
SAMPLE_ROWS = 40


def cpu_clock(fn):
    """fn()'s value and its least CPU time over RUNS runs (the machine is shared: CPU, not wall)."""
    return clock(fn, RUNS, time.process_time)


def before(guesses: np.ndarray, secrets: np.ndarray, colors: int) -> np.ndarray:
    """The formulation black_white replaced: a block of n x n x pegs (or x colours) summed along
    its last axis, in blocks of 2**24 // (width x n) guess rows."""
    pegs = guesses.shape[1]
    by_counts = by_colour_counts(colors, pegs)
    if by_counts:
        onehot = np.eye(colors, dtype=np.uint8)
        count_g = onehot[guesses].sum(axis=1, dtype=np.uint8)
        count_s = onehot[secrets].sum(axis=1, dtype=np.uint8)
    table = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    step = max(1, 2**24 // (max(pegs, colors if by_counts else pegs * pegs) * len(secrets)))
    for a in range(0, len(guesses), step):
        g = slice(a, a + step)
        black = (guesses[g, None, :] == secrets[None, :, :]).sum(axis=2, dtype=np.uint8)
        if by_counts:
            common = np.minimum(count_g[g, None, :], count_s[None, :, :]).sum(axis=2, dtype=np.uint8)
        else:
            same = guesses[g, :, None] == guesses[g, None, :]
            in_guess = same.sum(axis=2, dtype=np.uint8)
            first = ~np.tril(same, -1).any(axis=2)
            common = np.zeros((len(guesses[g]), len(secrets)), dtype=np.uint8)
            for i in range(pegs):
                in_secret = (secrets[None, :, :] == guesses[g, i, None, None]).sum(axis=2, dtype=np.uint8)
                common += np.where(first[:, i, None], np.minimum(in_guess[:, i, None], in_secret), 0).astype(np.uint8)
        table[g] = black * (pegs + 1) + (common - black)
    return table


def plain_reply(guess: tuple[int, ...], secret: tuple[int, ...], pegs: int) -> int:
    """The rule: black pegs by position, white the common colours (with multiplicity) less black."""
    black = sum(g == s for g, s in zip(guess, secret))
    common = sum((Counter(guess) & Counter(secret)).values())
    return black * (pegs + 1) + common - black


def main() -> None:
    print(f"{'reply table (CPU s, best of 3)':<46} {'now':>8} {'before':>9} {'ratio':>9}   figures")
    for pegs, colors, repeats in INSTANCES:
        codes = all_codes(pegs, colors, repeats)
        table, now = cpu_clock(lambda: black_white(codes, codes, colors))
        old, then = cpu_clock(lambda: before(codes, codes, colors))
        assert np.array_equal(table, old), f"{pegs}x{colors}: the tables differ"
        rows = np.random.default_rng(0).choice(len(codes), SAMPLE_ROWS, replace=False)
        rows_of = [tuple(map(int, c)) for c in codes]
        for g in rows:
            assert [plain_reply(rows_of[g], s, pegs) for s in rows_of] == table[g].tolist()
        kind = "colour counts" if by_colour_counts(colors, pegs) else "pegs compared"
        task = f"{pegs}x{colors}{'' if repeats else ' no repeats'} ({len(codes):,} codes, {kind})"
        row(task, now, then, f"{table.size:,} cells equal; {SAMPLE_ROWS} rows = the rule", digits=4)


if __name__ == "__main__":
    main()
