"""Wordle's hard mode within six guesses, over every first guess, checked against the published list.

    python experiments/wordle_hard.py JOURNAL                # the check, printed (reading takes minutes)
    python experiments/wordle_hard.py JOURNAL --markdown     # the same as a Markdown table
    python experiments/wordle_hard.py --solve 20             # the 20 best published, each solved exactly here

JOURNAL is the split's journal of

    arena optimal wordle:hard=true --max 6 --workers N --journal JOURNAL --start optimal:openers=salet,max=6

read as `arena optimal --standing` reads it (split_root(standing=True)): nothing is searched, and
every record is checked as a resumed run checks it (each exact subtree regrown and costed). A
first guess is then solved exactly (every class exact: its total), closed by a bound (proven to
cost at least that, at least the best total), or still open (its bound so far).

The published list (experiments/data/wordle-hard-published.txt) is Alex Selby's 101 best first
guesses in hard mode within six guesses, each with its proven total. The check, for each
published first guess: solved exactly here, the totals must be equal; closed by a bound, the
bound must not be above the published total; open, nothing to compare yet. And every first
guess solved exactly here that the list leaves out must cost more than the list's last total,
since the list claims to be the 101 best. Any disagreement is printed and the exit status is 1.

A journal closes most first guesses by a bound, which is all the optimum needs; `--solve N`
solves the N best published first guesses exactly, one search each (`optimal_tree` with the
first guess as opener, within six: `arena optimal wordle:hard=true --openers WORD --max 6`),
and compares every total with the published one.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PUBLISHED = HERE / "data" / "wordle-hard-published.txt"
SPEC = "wordle:hard=true"
MAX_GUESSES = 6


def published_totals(path: Path = PUBLISHED) -> dict[str, int]:
    """First guess -> published total, in the list's order (best first)."""
    totals: dict[str, int] = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            word, total = line.split()
            totals[word] = int(total)
    return totals


@dataclass(frozen=True)
class Standing:
    """What the journal proves about one first guess."""

    word: str
    bound: float  # its exact total when `exact`
    exact: bool
    closed: bool  # exact, or proven to cost at least the best total


def standings(journal: Path) -> tuple[dict[str, Standing], object]:
    """Every first guess's standing, and the split's result (best total, lower bound, counts)."""
    from arena import make_game
    from arena.optimal.split import split_root

    game = make_game(SPEC)
    result = split_root(game, workers=1, journal=journal, max_guesses=MAX_GUESSES, standing=True, seed=False)
    best = result.value
    out = {
        game.guesses[g]: Standing(game.guesses[g], o.bound, o.exact, o.closed or o.bound >= best)
        for g, o in result.openings.items()
    }
    return out, result


def disagreements(ours: dict[str, Standing], published: dict[str, int]) -> list[str]:
    """Where the journal and the published list cannot both be right (module docstring)."""
    wrong = []
    for word, total in published.items():
        s = ours.get(word)
        if s is None:
            wrong.append(f"{word}: published, but not a first guess of this search")
        elif s.exact and s.bound != total:
            wrong.append(f"{word}: solved exactly here at {s.bound:,.0f}, published {total:,}")
        elif not s.exact and s.bound > total:
            wrong.append(f"{word}: proven here to cost at least {s.bound:,.0f}, published {total:,}")
    last = max(published.values())
    for s in ours.values():
        if s.exact and s.word not in published and s.bound <= last:
            wrong.append(
                f"{s.word}: solved exactly here at {s.bound:,.0f}, left out of the published best (<= {last:,})"
            )
    return wrong


def solved_exactly(words: list[str]) -> dict[str, tuple[int, float]]:
    """Each first guess's exact total within six guesses (and the seconds its search took)."""
    from arena import make_game
    from arena.optimal import optimal_tree

    game = make_game(SPEC)
    out = {}
    for word in words:
        tree = optimal_tree(game, openers=(word,), max_guesses=MAX_GUESSES)
        assert tree.exact, word  # no time limit: every search ends proven
        out[word] = (int(tree.value), tree.seconds)
        print(f"{word}: {int(tree.value):,} ({tree.seconds:.0f} s)", flush=True)
    return out


def table(ours: dict[str, Standing], published: dict[str, int]) -> list[str]:
    rows = ["| first guess | published total | here | agrees |", "| --- | --- | --- | --- |"]
    for word, total in published.items():
        s = ours[word]
        if s.exact:
            here, agrees = f"{s.bound:,.0f}, solved exactly", "yes" if s.bound == total else "**no**"
        elif s.closed:
            here, agrees = f">= {s.bound:,.0f}, closed", "yes" if s.bound <= total else "**no**"
        else:
            here, agrees = f">= {s.bound:,.0f}, open", "(open)" if s.bound <= total else "**no**"
        rows.append(f"| {word} | {total:,} | {here} | {agrees} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("journal", type=Path, nargs="?", help="the split's journal (JSON lines)")
    parser.add_argument("--markdown", action="store_true", help="print the comparison as a Markdown table")
    parser.add_argument("--solve", type=int, metavar="N", help="solve the N best published first guesses exactly")
    args = parser.parse_args(argv)
    published = published_totals()
    if args.solve:
        words = list(published)[: args.solve]
        totals = solved_exactly(words)
        wrong = [
            f"{w}: {totals[w][0]:,} here, published {published[w]:,}" for w in words if totals[w][0] != published[w]
        ]
        print("| first guess | published total | solved here | seconds |\n| --- | --- | --- | --- |")
        for w in words:
            print(f"| {w} | {published[w]:,} | {totals[w][0]:,} | {totals[w][1]:.0f} |")
        for line in wrong:
            print("DISAGREES: " + line)
        print(f"{len(words) - len(wrong)} of {len(words)} equal to the published totals")
        return 1 if wrong else 0
    if args.journal is None:
        parser.error("give the journal, or --solve N")
    from arena.core.errors import ArenaError

    try:
        ours, result = standings(args.journal)
    except ArenaError as e:  # a missing or wrong journal: one line, as the arena command says it
        print(f"wordle_hard.py: error: {e}", file=sys.stderr)
        return 2
    closed = sum(s.closed for s in ours.values())
    exact = sorted((s for s in ours.values() if s.exact), key=lambda s: (s.bound, s.word))
    print(
        f"{SPEC} within {MAX_GUESSES}: {len(ours):,} first guesses, {closed:,} closed, {len(ours) - closed:,} open; "
        f"best {result.value:,.0f}, proven >= {result.lower_bound:,.0f}"
        + (" (exact: the best first guess is proven)" if result.exact else "")
    )
    print("solved exactly: " + ", ".join(f"{s.word} {s.bound:,.0f}" for s in exact))
    if args.markdown:
        print("\n".join(table(ours, published)))
    n = len(published)
    same = sum(1 for w, t in published.items() if ours.get(w) and ours[w].exact and ours[w].bound == t)
    bounded = sum(1 for w, t in published.items() if ours.get(w) and not ours[w].exact and ours[w].closed)
    print(
        f"published {n}: {same} solved exactly here with the same total, {bounded} closed by a bound, {n - same - bounded} open"
    )
    wrong = disagreements(ours, published)
    for line in wrong:
        print("DISAGREES: " + line)
    print("no disagreement with the published list" if not wrong else f"{len(wrong)} disagreements")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
