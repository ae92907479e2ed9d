"""Hangman as a zero-sum game on whole word lists: the table of experiments/game_values.md.

    python experiments/hangman_values.py                 every list, both payoffs: solve, save, replay
    python experiments/hangman_values.py --replay        only replay the saved witnesses
    python experiments/hangman_values.py --small         short lists solved exactly, each value checked
                                                         by the search over every word
    python experiments/hangman_values.py --compare       the double oracle before and after issue 34's
                                                         support search (same process, one after the other)
    python experiments/hangman_values.py --compare-long  the same on the Wordle answers, 120 s each
    python experiments/hangman_values.py --probes SPEC   the first searches (families and their unions)

Each whole-list row is what `arena equilibrium SPEC --payoff P --time-limit T --save FILE --json`
printed (run as a subprocess; its wall seconds beside it), and its check is what `arena evaluate
SPEC equilibrium:file=FILE --exploitability --value-from FILE --json` printed: the upper end the
saved guesser mix replayed on every word, the lower end the exact best response to the saved
chooser mix searched again. The payoff is the misses until the word is determined, or the games
lost within the strikes (`strikes=6`, the default: lost when the misses reach 6).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ARENA = [sys.executable, "-m", "arena.cli"]

#: (name, game spec, payoff, time limit in seconds)
LISTS = [
    ("wordle-misses", "hangman:words=wordle-answers,length=5", "misses", 600),
    ("wordle-lost", "hangman:words=wordle-answers,length=5", "lost", 600),
    ("sgb-misses", "hangman:words=sgb,length=5", "misses", 600),
    ("sgb-lost", "hangman:words=sgb,length=5", "lost", 600),
    ("web2-4-misses", "hangman:length=4", "misses", 600),
    ("web2-4-lost", "hangman:length=4", "lost", 600),
    ("web2-6-misses", "hangman:length=6", "misses", 600),
    ("web2-6-lost", "hangman:length=6", "lost", 600),
]

#: Short lists solved exactly, both ways.
SMALL = [
    ("hangman:length=4,first=20", "misses"),
    ("hangman:length=5,first=40", "misses"),
    ("hangman:length=6,first=40", "misses"),
    ("hangman:length=4,first=20,strikes=3", "lost"),
    ("hangman:length=5,first=40,strikes=3", "lost"),
    ("hangman:length=6,first=80,strikes=3", "lost"),
]


def witness(name: str) -> Path:
    return HERE / "data" / f"hangman-{name}.json.gz"


def arena_json(argv: list[str]) -> tuple[dict, float]:
    """`arena argv... --json` as a subprocess: its JSON object and wall seconds."""
    start = time.perf_counter()
    done = subprocess.run(ARENA + argv + ["--json"], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"arena {' '.join(argv)}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout), seconds


def rel(path: Path) -> str:
    return str(path.relative_to(HERE.parent))


def solve(name: str, spec: str, payoff: str, limit: float) -> dict:
    argv = ["equilibrium", spec, "--payoff", payoff, "--time-limit", f"{limit:g}", "--save", rel(witness(name))]
    data, seconds = arena_json(argv)
    return {"command": "arena " + " ".join(argv), "seconds": seconds, **data}


def replay(spec: str, name: str, limit: float | None = None) -> dict:
    path = rel(witness(name))
    argv = ["evaluate", spec, f"equilibrium:file={path}", "--exploitability", "--value-from", path]
    if limit is not None:  # the search proving the lower end again (default 60 s)
        argv += ["--time-limit", f"{limit:g}"]
    data, seconds = arena_json(argv)
    return {"command": "arena " + " ".join(argv), "seconds": seconds, **data["exploitability"]}


def whole_lists(names: list[str], again: bool, limit: float | None = None) -> None:
    print(
        "| game | words | payoff | lower (proven) | upper (achieved) | width | relative | witness | seconds | command |"
    )
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |")
    for name, spec, payoff, limit in LISTS:
        if names and name not in names:
            continue
        if again:
            row = solve(name, spec, payoff, limit)
            width = row["upper"] - row["lower"]
            print(
                f"| {spec} | {len(row['chooser'])} | {payoff} | {row['lower']:.6f} | {row['upper']:.6f} | "
                f"{width:.6f} | {width / row['upper']:.1%} | {rel(witness(name))} | {row['seconds']:.0f} | "
                f"`{row['command']}` |",
                flush=True,
            )
        check = replay(spec, name, limit)
        lo, hi = check["value_lower"], check["value_upper"]
        print(
            f"| check: replayed | | {payoff} | {lo:.6f} | {hi:.6f} | {hi - lo:.6f} | {(hi - lo) / hi:.1%} | "
            f"worst word {check['worst_secret']} | {check['seconds']:.0f} | `{check['command']}` |",
            flush=True,
        )


def small() -> None:
    """Short lists: the exact value by the support search, then by the search over every word."""
    from arena import make_game
    from arena.equilibrium import double_oracle, letters

    print("| game | payoff | value | seconds | check: search over every word | seconds | agree |")
    print("| --- | --- | --- | ---: | --- | ---: | --- |")
    for spec, payoff in SMALL:
        game = make_game(spec)
        start = time.perf_counter()
        fast = double_oracle(game, cost=payoff)
        fast_s = time.perf_counter() - start
        letters.SUPPORT = False
        try:
            start = time.perf_counter()
            slow = double_oracle(game, cost=payoff)
            slow_s = time.perf_counter() - start
        finally:
            letters.SUPPORT = True
        a = fast.exact.value if fast.exact else None
        b = slow.exact.value if slow.exact else None
        print(
            f"| {game.spec} | {payoff} | {a} ≈ {float(a or 0):.6f} | {fast_s:.1f} | {b} | {slow_s:.1f} | "
            f"{'yes' if a is not None and a == b else 'NO'} |",
            flush=True,
        )


def compare(specs: list[tuple[str, str]]) -> None:
    """The double oracle with the support search (after) and over every word (before)."""
    from arena import make_game
    from arena.equilibrium import double_oracle, letters

    print("| game | payoff | before: over every word | after: on the support | value |")
    print("| --- | --- | ---: | ---: | --- |")
    for spec, payoff in specs:
        game = make_game(spec)
        times = {}
        values = {}
        for support in (False, True):
            letters.SUPPORT = support
            start = time.perf_counter()
            eq = double_oracle(game, cost=payoff)
            times[support] = time.perf_counter() - start
            values[support] = eq.exact.value if eq.exact else None
        letters.SUPPORT = True
        same = values[True] == values[False]
        print(
            f"| {game.spec} | {payoff} | {times[False]:.1f} s | {times[True]:.1f} s | "
            f"{values[True]}{'' if same else ' (DIFFERS: ' + str(values[False]) + ')'} |",
            flush=True,
        )


def compare_long(spec: str, payoff: str, limit: float) -> None:
    """A whole list within `limit` seconds: the bounds the double oracle reaches over every word
    (before: each best response a search over every word, the first to the uniform chooser) and
    over growing rows (after)."""
    from arena import make_game
    from arena.equilibrium import double_oracle, letters

    game = make_game(spec)
    print("| game | payoff | seconds allowed | before: over every word | after: growing rows |")
    print("| --- | --- | ---: | --- | --- |")
    found = {}
    for support in (False, True):
        letters.SUPPORT = support
        start = time.perf_counter()
        eq = double_oracle(game, cost=payoff, time_limit=limit)
        found[support] = (
            f"[{eq.lower:.6f}, {eq.upper:.6f}] ({len(eq.steps)} rounds, {time.perf_counter() - start:.0f} s)"
        )
    letters.SUPPORT = True
    print(f"| {game.spec} | {payoff} | {limit:g} | {found[False]} | {found[True]} |", flush=True)


def probes(spec: str, payoff: str, limit: float) -> None:
    """The double oracle's first searches on a list: the uniform mix on each of its largest
    families and their unions (growing.probes), each searched on its support within `limit`
    seconds: words, proven bound, whether the search finished, seconds."""
    from arena import make_game
    from arena.core.costs import cost_for
    from arena.equilibrium import growing, letters

    game = make_game(spec)
    paid = cost_for(game, payoff)
    print("| words | proven | finished | seconds |")
    print("| ---: | ---: | --- | ---: |")
    for mix in growing.probes(game):
        start = time.perf_counter()
        tree, bound = letters.solved(game, letters.support_mix(mix), paid, limit)
        print(f"| {int((mix > 0).sum())} | {bound:.6f} | {not tree.stopped} | {time.perf_counter() - start:.1f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replay", action="store_true", help="only replay the saved witnesses")
    parser.add_argument("--small", action="store_true", help="short lists, each value checked both ways")
    parser.add_argument("--compare", action="store_true", help="before/after timings of the double oracle")
    parser.add_argument(
        "--compare-long", action="store_true", help="the Wordle answers, 120 s, before and after (misses)"
    )
    parser.add_argument(
        "--replay-limit", type=float, default=None, help="seconds for the search proving a lower end again (default 60)"
    )
    parser.add_argument("--lists", nargs="*", default=[], help="only these rows (names: wordle-misses ...)")
    parser.add_argument(
        "--probes", metavar="SPEC", help="the double oracle's first searches on this list, 60 s each (misses)"
    )
    args = parser.parse_args(argv)
    if args.probes:
        probes(args.probes, "misses", 60)
    elif args.small:
        small()
    elif args.compare_long:
        compare_long("hangman:words=wordle-answers,length=5", "misses", 120)
    elif args.compare:
        compare(SMALL)
    else:
        whole_lists(args.lists, not args.replay, args.replay_limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
