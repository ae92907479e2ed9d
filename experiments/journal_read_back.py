"""Does a split's journal, read back alone, prove what its run printed? (issue 33, the standing gap)

Random draws of instance, split budget, workers and weights: each split runs with a journal,
then `--standing` reads the journal alone (split_root(..., standing=True)); the two proven
lower bounds must be equal, and the run proven optimal. A line per draw, then the count of gaps.

    python experiments/journal_read_back.py --seed 11 --draws 60

The tests run ten such draws (tests/test_ledger.py); this runs as many as asked.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

import numpy as np

from arena import make_game
from arena.optimal.split import split_root

SPECS = [
    "mastermind:pegs=3,colors=4",
    "mastermind:pegs=4,colors=4",
    "mastermind:pegs=3,colors=5",
    "mastermind:pegs=4,colors=5",
    "mastermind:pegs=2,colors=6",
    "jotto:first=60",
    "jotto:first=80",
    "jotto:first=120",
    "wordle:first=100",
    "wordle:first=200",
]


def draw(rng: random.Random, k: int) -> tuple[str, int, int, np.ndarray | None]:
    """One draw: the spec, split_after, workers and weights (None: equal; 3 in 10 weighted 1-5)."""
    spec, split_after, workers = rng.choice(SPECS), rng.choice([1, 2, 3, 5, 10, 30]), rng.choice([1, 2, 3])
    weighted = rng.random() < 0.3
    n = len(make_game(spec).secrets)
    weights = (1 + np.random.default_rng(k).integers(0, 5, n)).astype(float) if weighted else None
    return spec, split_after, workers, weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--draws", type=int, default=60)
    args = parser.parse_args()
    rng, gaps = random.Random(args.seed), 0
    for k in range(args.draws):
        spec, split_after, workers, weights = draw(rng, k)
        game = make_game(spec)
        with tempfile.TemporaryDirectory() as folder:
            journal = Path(folder) / "j.jsonl"
            ran = split_root(game, workers=workers, split_after=split_after, journal=journal, weights=weights)
            read = split_root(game, workers=1, journal=journal, standing=True, weights=weights)
        ok = ran.exact and read.lower_bound == ran.lower_bound
        gaps += not ok
        weighted = "weighted" if weights is not None else "equal"
        print(
            f"{k} {spec} split after {split_after}, {workers} workers, {weighted}: run {ran.lower_bound:g}, "
            f"read back {read.lower_bound:g} {'ok' if ok else 'GAP'}",
            flush=True,
        )
    print("gaps", gaps)


if __name__ == "__main__":
    main()
