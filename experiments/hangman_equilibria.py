"""Hangman as a zero-sum game on small word lists: the tables of experiments/hangman_equilibria.md.

    python experiments/hangman_equilibria.py                  every instance of the table (~12 min)
    python experiments/hangman_equilibria.py --quick          the hand-made lists and two tiny web2 lists (seconds)
    python experiments/hangman_equilibria.py --instances ake web2:5:20 hangman:length=6,first=10
    python experiments/hangman_equilibria.py --reach --budget 300   how far each solver goes on web2 length 5
    python experiments/hangman_equilibria.py --json           one JSON object per instance instead

The chooser picks a word of the list (the guesser is told its length), the guesser plays a
letter decision tree, and the chooser is paid the misses until the word is determined (one
candidate left). For each list a row gives, each beside the command that prints it:

* uniform: the fewest expected misses when every word is equally likely, exact
  (`arena optimal SPEC`: arena.optimal.optimal_tree);
* value: the game's value, the chooser's best mix against the guesser's best mix
  (`arena equilibrium SPEC`: the double oracle, arena.equilibrium.double_oracle), with the
  chooser's support: the words it picks and their probabilities, the "hardest words";
* worst: the fewest misses in the worst case (`arena optimal SPEC --objective worst`), which is
  what the best adaptive (evil) chooser forces against the best guesser, beside what the greedy
  evil chooser forces against that tree and the fewest any guesser needs against greedy evil.

A second table does the same for the chance of losing with 2 and 3 strikes (cost `lost`):
the fewest games lost against the uniform chooser (`--objective lost`) and the game's value
(`--payoff lost`). Every figure is computed by the same functions the commands call; the
seconds are wall time on the shared machine.

`--reach` doubles N in `hangman:length=5,first=N` from 10 until a solver is stopped by the
--budget (seconds), for each solver in turn, and prints the largest list it solved exactly.

(`arena run` configs evaluate guessers cell by cell and have no place for a game's value, so
this is a script, as experiments/equilibria.py is.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from arena import make_game
from arena.api.exact import adversaries
from arena.core.errors import ArenaError
from arena.equilibrium import double_oracle
from arena.optimal import optimal_tree

DATA = Path(__file__).parent / "data"
#: Hand-made lists (experiments/data/NAME.txt), by the name --instances accepts.
HAND_MADE = {
    "ake": "one family: eight words that differ in the first letter only",
    "at": "one family of three-letter words",
    "mixed": "two to five letters: the length is told",
    "ill": "seven -ill words that share three letters, and three words that share none",
}
#: web2 lists `hangman:length=L,first=N`: N doubles while the double oracle takes minutes at most.
WEB2 = {4: (10, 20, 40), 5: (10, 20, 40, 80), 6: (10, 20, 40, 80)}
QUICK_WEB2 = {5: (10, 20)}
STRIKES = (2, 3)
SUPPORT_SHOWN = 6  # a longer support is abbreviated to its most likely words


def hand_made_spec(name: str) -> str:
    """The game spec of a hand-made list, its path relative to the repository (so the commands
    in the table run from the repository's root)."""
    path = DATA / f"{name}.txt"
    if not path.exists():
        raise SystemExit(f"no list {path}; hand-made lists: {', '.join(HAND_MADE)}")
    try:
        path = path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:  # run from elsewhere: the absolute path
        path = path.resolve()
    return f"hangman:words={path}"


def instance_spec(name: str) -> str:
    """`ake` (a hand-made list), `web2:5:20` (hangman:length=5,first=20) or a game spec."""
    if name in HAND_MADE:
        return hand_made_spec(name)
    if name.startswith("web2:"):
        _, length, first = name.split(":")
        return f"hangman:length={int(length)},first={int(first)}"
    return name


def with_strikes(spec: str, strikes: int) -> str:
    return f"{spec}{',' if ':' in spec else ':'}strikes={strikes}"


@dataclass
class MissesRow:
    """One list under the misses payoff (means are per word, totals over the list)."""

    spec: str
    words: int
    uniform: float  # fewest expected misses, every word equally likely
    uniform_seconds: float
    value: float  # the game's value (the midpoint of lower and upper if not settled)
    value_exact: str | None
    lower: float
    upper: float
    uniform_in_oracle: float | None  # the double oracle's own first best response: must equal `uniform`
    support: dict[str, float]  # word -> probability, most likely first
    support_exact: dict[str, str]
    trees: int
    value_seconds: float
    worst: int  # fewest misses in the worst case = the best adaptive chooser's exact value
    worst_mean: float  # the least mean among trees with that worst case
    greedy_evil_forces: int
    fewest_against_greedy_evil: int
    worst_seconds: float
    commands: list[str] = field(default_factory=list)


@dataclass
class LostRow:
    """One list and strike limit under the lost payoff (the chance of losing)."""

    list: str  # the list's spec, without the strikes
    spec: str
    words: int
    strikes: int
    uniform: float  # fewest games lost / words, every word equally likely
    uniform_seconds: float
    value: float
    value_exact: str | None
    lower: float
    upper: float
    support: dict[str, float]
    support_exact: dict[str, str]
    value_seconds: float
    commands: list[str] = field(default_factory=list)


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def chooser_support(eq) -> tuple[dict[str, float], dict[str, str]]:
    """The words the equilibrium chooser picks, most likely first, with the exact probabilities
    where the solution was recovered in rationals."""
    # equal probabilities differ in the LP's last digits: rounded, they sort by the word
    rows = sorted((r for r in eq.chooser_by_row() if r[2] > 0), key=lambda r: (-round(r[2], 9), r[0]))
    return ({label: p for label, _, p, _ in rows}, {label: str(x) for label, _, _, x in rows if x is not None})


def misses_row(spec: str, time_limit: float | None = None) -> MissesRow:
    """Uniform optimum, game value and chooser support, worst case and greedy evil, for one list."""
    game = make_game(spec)
    uniform, uniform_s = timed(lambda: optimal_tree(game, time_limit=time_limit))
    eq, eq_s = timed(lambda: double_oracle(game, time_limit=time_limit))

    def worst_case():
        tree = optimal_tree(game, objective="worst", time_limit=time_limit)
        return tree, adversaries(tree)  # the tree knows its objective (worst)

    (worst, evil), worst_s = timed(worst_case)
    support, exact = chooser_support(eq)
    n = len(game.secrets)
    costs = worst.costs[worst.secrets]
    return MissesRow(
        game.spec,
        n,
        uniform.value / n if uniform.exact else float("nan"),
        uniform_s,
        eq.value,
        str(eq.exact.value) if eq.exact else None,
        eq.lower,
        eq.upper,
        eq.uniform,
        support,
        exact,
        len(eq.trees),
        eq_s,
        int(costs.max()),
        float(costs.mean()),
        evil.get("greedy_evil_forces", -1),
        evil.get("fewest_against_greedy_evil", -1),
        worst_s,
        [
            f"arena optimal {game.spec}",
            f"arena equilibrium {game.spec}",
            f"arena optimal {game.spec} --objective worst",
        ],
    )


def lost_row(spec: str, strikes: int, time_limit: float | None = None) -> LostRow:
    """The fewest games lost against the uniform chooser, and the value of the lost payoff."""
    game = make_game(with_strikes(spec, strikes))
    uniform, uniform_s = timed(lambda: optimal_tree(game, cost="lost", time_limit=time_limit))
    eq, eq_s = timed(lambda: double_oracle(game, time_limit=time_limit, cost="lost"))
    n = len(game.secrets)
    return LostRow(
        spec,
        game.spec,
        n,
        strikes,
        uniform.value / n if uniform.exact else float("nan"),
        uniform_s,
        eq.value,
        str(eq.exact.value) if eq.exact else None,
        eq.lower,
        eq.upper,
        *chooser_support(eq),
        eq_s,
        [f"arena optimal {game.spec} --objective lost", f"arena equilibrium {game.spec} --payoff lost"],
    )


def support_text(support: dict[str, float], exact: dict[str, str] | None = None) -> str:
    """`fill 1/7, hill 1/7, ... (+2)`: the most likely words with their probabilities."""
    exact = exact or {}
    shown = [f"{w} {exact.get(w, f'{p:.3f}')}" for w, p in list(support.items())[:SUPPORT_SHOWN]]
    more = len(support) - SUPPORT_SHOWN
    return ", ".join(shown) + (f" ... (+{more})" if more > 0 else "")


def value_text(value: float, exact: str | None, lower: float, upper: float) -> str:
    if upper - lower > 1e-6:
        return f"{lower:.4f} .. {upper:.4f} (stopped)"
    return f"{value:.4f}" + (f" = {exact}" if exact else "")


def commands_text(commands: list[str]) -> str:
    return "<br>".join(f"`{c}`" for c in commands)


MISSES_HEADER = (
    "| list | words | uniform: fewest mean misses (s) | value (s) | uniform = value? | chooser's support "
    "(words: probability) | worst case = adaptive chooser / greedy evil forces / fewest vs greedy evil (s) "
    "| commands |\n| --- | ---: | ---: | --- | --- | --- | --- | --- |"
)
LOST_HEADER = (
    "| list | words | strikes | uniform: fewest lost (s) | value (s) | chooser's support | commands |\n"
    "| --- | ---: | ---: | ---: | --- | --- | --- |"
)


def misses_line(r: MissesRow) -> str:
    same = "yes" if abs(r.value - r.uniform) <= 1e-9 else f"+{r.value - r.uniform:.4f}"
    return (
        f"| {r.spec} | {r.words} | {r.uniform:.4f} ({r.uniform_seconds:.2f}) | "
        f"{value_text(r.value, r.value_exact, r.lower, r.upper)} ({r.value_seconds:.2f}) | {same} | "
        f"{len(r.support)} of {r.words}: {support_text(r.support, r.support_exact)} | "
        f"{r.worst} / {r.greedy_evil_forces} / {r.fewest_against_greedy_evil} ({r.worst_seconds:.2f}) | "
        f"{commands_text(r.commands)} |"
    )


def lost_line(r: LostRow) -> str:
    return (
        f"| {r.spec} | {r.words} | {r.strikes} | {r.uniform:.4f} ({r.uniform_seconds:.2f}) | "
        f"{value_text(r.value, r.value_exact, r.lower, r.upper)} ({r.value_seconds:.2f}) | "
        f"{len(r.support)} of {r.words}: {support_text(r.support, r.support_exact)} | {commands_text(r.commands)} |"
    )


def instances(args) -> list[str]:
    if args.instances:
        return [instance_spec(name) for name in args.instances]
    web2 = QUICK_WEB2 if args.quick else WEB2
    return [hand_made_spec(name) for name in HAND_MADE] + [
        f"hangman:length={length},first={n}" for length, ns in web2.items() for n in ns
    ]


def study(specs: list[str], strikes: tuple[int, ...], time_limit: float | None, as_json: bool) -> None:
    """Both tables (or their rows as JSON), row by row as they are solved."""
    if not as_json:
        print("### Misses until the word is determined\n\n" + MISSES_HEADER, flush=True)
    for spec in specs:
        row = misses_row(spec, time_limit)
        print(json.dumps({"table": "misses", **asdict(row)}) if as_json else misses_line(row), flush=True)
    if not strikes:
        return
    if not as_json:
        print("\n### The chance of losing within the strikes\n\n" + LOST_HEADER, flush=True)
    for spec in specs:
        for k in strikes:
            row = lost_row(spec, k, time_limit)
            print(json.dumps({"table": "lost", **asdict(row)}) if as_json else lost_line(row), flush=True)


#: --reach: what each solver is, as a function of (spec, budget) -> (exact?, figure, seconds).
def reach_uniform(spec, budget):
    tree = optimal_tree(make_game(spec), time_limit=budget)
    return tree.exact and not tree.stopped, f"{tree.value:g} misses in all", f"arena optimal {spec}"


def reach_worst(spec, budget):
    tree = optimal_tree(make_game(spec), objective="worst", time_limit=budget)
    worst = int(tree.costs[tree.secrets].max())
    return tree.exact and not tree.stopped, f"worst {worst}", f"arena optimal {spec} --objective worst"


def reach_lost(spec, budget):
    spec = with_strikes(spec, 3)
    tree = optimal_tree(make_game(spec), cost="lost", time_limit=budget)
    return tree.exact and not tree.stopped, f"{tree.value:g} lost", f"arena optimal {spec} --objective lost"


def reach_value(spec, budget):
    eq = double_oracle(make_game(spec), time_limit=budget)
    return (
        eq.settled and eq.exact is not None,
        value_text(eq.value, str(eq.exact.value) if eq.exact else None, eq.lower, eq.upper),
        f"arena equilibrium {spec}",
    )


REACH = {"uniform": reach_uniform, "worst": reach_worst, "lost": reach_lost, "value": reach_value}


def reach(length: int, budget: float, solvers: list[str], start: int = 10) -> None:
    """For each solver: N = start, 2 start, ... until the solver is stopped by the budget."""
    print("| solver | N | solved exactly? | figure | seconds | command |\n| --- | ---: | --- | --- | ---: | --- |")
    for name in solvers:
        n, largest = start, None
        while True:
            spec = f"hangman:length={length},first={n}"
            try:
                (exact, figure, command), seconds = timed(lambda: REACH[name](spec, budget))
            except ArenaError as e:  # a solver that gives up under the time limit: say so, go on
                exact, figure, command, seconds = False, f"failed: {e}", "", budget
            print(
                f"| {name} | {n} | {'yes' if exact else 'no (stopped)'} | {figure} | {seconds:.1f} | "
                f"{f'`{command}`' if command else ''} |",
                flush=True,
            )
            if not exact or n >= len(make_game(f"hangman:length={length}").secrets):
                break
            largest, n = (n, seconds), 2 * n
        print(
            f"<!-- {name}: largest solved exactly: first={largest[0] if largest else '-'}"
            f" in {largest[1] if largest else 0:.1f} s -->",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the hand-made lists and web2 length 5, first 10 and 20")
    parser.add_argument(
        "--instances",
        nargs="+",
        metavar="NAME",
        help=f"lists to solve: {', '.join(HAND_MADE)} (experiments/data), web2:L:N "
        "(hangman:length=L,first=N) or any hangman spec",
    )
    parser.add_argument(
        "--strikes",
        default=",".join(map(str, STRIKES)),
        help="strike limits for the lost table, comma-separated ('' for none; default 2,3)",
    )
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per solve (default: none)")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    parser.add_argument("--reach", action="store_true", help="how far each solver goes on hangman:length=L,first=N")
    parser.add_argument("--length", type=int, default=5, help="--reach: the word length (default 5)")
    parser.add_argument("--budget", type=float, default=300, help="--reach: seconds per solve (default 300)")
    parser.add_argument("--start", type=int, default=10, help="--reach: the first N (default 10)")
    parser.add_argument("--solvers", default=",".join(REACH), help=f"--reach: which of {', '.join(REACH)}")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.reach:
        reach(args.length, args.budget, [s for s in args.solvers.split(",") if s], args.start)
    else:
        strikes = tuple(int(k) for k in args.strikes.split(",") if k.strip())
        study(instances(args), strikes, args.time_limit, args.json)
    if not args.json:
        print(f"\n({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
