"""`arena equilibrium GAME`: the chooser against the guesser as a zero-sum game, solved.

arena equilibrium mastermind:pegs=3,colors=4            the whole game (double oracle)
arena equilibrium jotto:first=8 --method enumerate      against every tree, listed
arena equilibrium mastermind --guessers knuth,entropy   against a named set of guessers
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.errors import ArenaError
from ..core.outfile import print_json

if TYPE_CHECKING:  # every command module is imported for `arena --help`, which needs no numpy
    from fractions import Fraction

METHODS = ("oracle", "enumerate")


def _fraction(x: Fraction | None, width: int = 0) -> str:
    return f"{str(x) if x is not None else '':<{width}}"


def split_specs(text: str) -> list[str]:
    """`knuth,entropy:pool=all,small=3` -> ["knuth", "entropy:pool=all,small=3"]: a comma
    starts a new spec unless what follows is another key=value of the spec before it."""
    specs: list[str] = []
    for token in (t.strip() for t in text.split(",")):
        if specs and "=" in token and ":" not in token:
            specs[-1] += "," + token
        elif token:
            specs.append(token)
    return specs


def solve(args):
    """The Equilibrium the arguments ask for."""
    from ..core.costs import cost_for
    from ..equilibrium import double_oracle, solve_enumerated, solve_restricted
    from ..equilibrium.symmetry import no_symmetry
    from ..games import make_game

    game = make_game(args.game)
    cost = cost_for(game, args.payoff).name
    if args.time_limit is not None and not args.time_limit > 0:
        raise ArenaError(f"--time-limit must be positive, got {args.time_limit}")
    if args.bounds_from and (args.guessers is not None or args.method == "enumerate"):
        raise ArenaError(
            "--bounds-from folds bounds on the whole game's value into the double oracle's: "
            "give it without --guessers and --method enumerate"
        )
    if args.guessers is not None:
        specs = split_specs(args.guessers)
        if not specs:
            raise ArenaError("--guessers needs at least one guesser spec, e.g. --guessers knuth,entropy")
        from agents import make_guesser

        return solve_restricted(game, [make_guesser(spec) for spec in specs], cost)
    if args.method == "enumerate":
        try:
            return solve_enumerated(game, frontier=not args.all_trees, cost=cost, time_limit=args.time_limit)
        except ValueError as e:
            raise ArenaError(str(e)) from None
    if args.time_limit is None:
        warn_if_long(game, args.no_symmetry)
    from ..parallel.progress import ProgressLine, is_terminal  # arena.optimal: only for this command

    terminal = is_terminal(sys.stderr) and not args.json
    search_line = ProgressLine("arena equilibrium: best response", enabled=terminal)
    progress = None
    if args.progress or terminal:

        def progress(step):
            steps.append(step)
            search_line.close()
            print(
                f"  best response {len(steps)}: {step.lower:.6f} <= value <= {step.upper:.6f} "
                f"({step.trees} trees, {step.seconds:.1f} s)",
                file=sys.stderr,
                flush=True,
            )

        steps = []
    symmetry = no_symmetry(game) if args.no_symmetry else None
    initial = initial_trees(game, args.initial)
    if args.response_limit is not None and not args.response_limit > 0:
        raise ArenaError(f"--response-limit must be positive, got {args.response_limit}")
    try:
        if args.response_limit is not None:
            from ..equilibrium.certify import certified_bounds

            if args.time_limit is None or args.no_symmetry:
                raise ArenaError(
                    "--response-limit bounds a game too big to solve: give it with --time-limit "
                    "(and without --no-symmetry)"
                )
            return certified_bounds(
                game, args.time_limit, args.response_limit, initial, cost, progress, args.bounds_from or ()
            )
        from ..equilibrium.verified import fold

        eq = double_oracle(
            game,
            symmetry=symmetry,
            time_limit=args.time_limit,
            progress=progress,
            search_progress=search_line if terminal else None,
            cost=cost,
            initial=initial,
        )
        return fold(eq, args.time_limit, args.bounds_from or ())
    finally:
        search_line.close()


def initial_trees(game, specs: str | None) -> tuple:
    """The trees of the guessers named in `specs` (comma-separated), which seed the guesser's side."""
    if specs is None:
        return ()
    from agents import make_guesser

    from ..trees.grow import grow_tree

    named = split_specs(specs)
    if not named:
        raise ArenaError("--initial needs at least one guesser spec, e.g. --initial knuth,entropy")
    return tuple(grow_tree(game, make_guesser(spec)) for spec in named)


def warn_if_long(game, no_symmetry: bool) -> None:
    """One line on stderr before a double oracle that is not expected to finish in minutes:
    each round is an exact best response, as long as `arena optimal` on the same game."""
    from ..api.exact import LONG_WITH_SYMMETRY, LONG_WITHOUT_SYMMETRY

    n = len(game.secrets)
    symmetric = not no_symmetry and game.symmetry() is not None
    if n > (LONG_WITH_SYMMETRY if symmetric else LONG_WITHOUT_SYMMETRY):
        print(
            f"arena equilibrium: {game.spec} has {n:,} secrets: each exact best response may take hours; "
            "--time-limit SECONDS stops with the bounds reached (value in [lower, upper])",
            file=sys.stderr,
            flush=True,
        )


def report(eq, check=None) -> str:
    """The solution as text: value, bounds, method, time, then both mixes."""
    from ..equilibrium.plans import first_guesses

    game = eq.game
    n = len(game.secrets)
    lines = [f"equilibrium of {game.spec}: {n:,} secret{'s' if n != 1 else ''}"]
    exact = f" = {eq.exact.value} (exact)" if eq.exact else ""
    unit = eq.unit
    if eq.settled:
        lines.append(f"value = {eq.value:.6f} {unit}{exact}")
    else:
        lines.append(f"value: between {eq.lower:.6f} and {eq.upper:.6f} {unit} (not converged, gap {eq.gap:.2g})")
    lines.append(f"bounds: {eq.lower:.6f} <= value <= {eq.upper:.6f}; gap {eq.gap:.2g}")
    lines += [f"  {b.line()}" for b in eq.bounds]
    if eq.uniform is not None:
        lines.append(
            f"uniform chooser: {eq.uniform:.6f} (the least mean number of {unit} when every secret is equally likely)"
        )
    lines.append(f"method: {eq.method}")
    lines += [f"note: {n}" for n in eq.notes]
    if check is not None:
        lines.append(check_line(eq, check))
    lines.append(f"time: {eq.seconds:.2f} s")
    lines.append("")
    rows = eq.chooser_by_row()
    if not eq.symmetry.trivial:
        lines.append("chooser mix by code type (each code of a type equally likely):")
        lines.append(f"  {'type':<8} {'codes':>6} {'probability':>12}  {'exact':<10} {'each code':<10}")
        for label, size, p, x in rows:
            each = _fraction(x / size if x is not None else None)
            lines.append(f"  {label:<8} {size:>6,} {p:>12.6f}  {_fraction(x, 10)} {each}".rstrip())
    else:
        chosen = [r for r in rows if r[2] > 0]
        lines.append(f"chooser mix: {len(chosen)} of {len(rows)} secrets")
        lines.append(f"  {'secret':<10} {'probability':>12}  {'exact':<10}")
        for label, _, p, x in sorted(chosen, key=lambda r: -r[2]):
            lines.append(f"  {label:<10} {p:>12.6f}  {_fraction(x)}".rstrip())
        never = [r[0] for r in rows if r[2] == 0]
        if never:
            lines.append(
                f"  never chosen: {', '.join(never[:12])}" + (f" ... (+{len(never) - 12})" if len(never) > 12 else "")
            )
    lines.append("")
    carried = "" if eq.symmetry.trivial else f" (each played with a uniformly random element of {eq.symmetry.group})"
    lines.append(f"guesser mix: {len(eq.trees)} tree{'s' if len(eq.trees) != 1 else ''}{carried}:")
    mix = eq.guesser_mix()
    width = max([5] + [len(_fraction(x)) for _, _, x in mix])
    lines.append(
        f"  {'probability':>11}  {'exact':<{width}} {'total':>7} {'worst':>5}  "
        "first guess; second guesses after the commonest replies"
    )
    for p, tree, x in mix:
        costs = eq.tree_costs(tree)
        lines.append(
            f"  {p:>11.6f}  {_fraction(x, width)} {int(costs.sum()):>7,} {int(costs.max()):>5}  {first_guesses(tree)}"
        )
        if not eq.symmetry.trivial and len(eq.symmetry.labels) <= 8:  # what tells the trees apart
            means = eq.symmetry.averages(costs)[0]
            lines.append(
                " " * (15 + width)
                + "mean by type: "
                + ", ".join(f"{label} {m:.4f}" for label, m in zip(eq.symmetry.labels, means))
            )
    return "\n".join(line.rstrip() for line in lines)


@dataclass(frozen=True)
class FailedCheck:
    """A cross-check that could not run: why, and the checks the value rests on instead."""

    reason: str
    ran: str


def cross_check(eq):
    """nashpy's solution of the payoff matrix of the trees the guesser mixes, or a FailedCheck
    where nashpy finds none (its Lemke-Howson fails on many games of trees above about 10x10)."""
    import numpy as np

    from ..equilibrium import nashpy_solution
    from ..equilibrium.payoff import PayoffMatrix

    try:
        return nashpy_solution(PayoffMatrix.of(np.array([eq.tree_costs(t) for t in eq.trees]), eq.symmetry).A)
    except (RuntimeError, ArithmeticError, ValueError, np.linalg.LinAlgError) as e:
        ran = (
            f"the exact check (both rational mixes verified in fractions: value {eq.exact.value})"
            if eq.exact is not None
            else "linprog's mixes, checked by their exploitability"
        )
        return FailedCheck(" ".join(str(e).split()), ran)


def check_line(eq, check) -> str:
    """The cross-check in one line: its value and whether it agrees, or why it could not run."""
    if isinstance(check, FailedCheck):
        return f"nashpy check: could not run ({check.reason}); the value rests on {check.ran}"
    agree = "agrees" if abs(check.value - eq.value) <= 1e-6 else "DISAGREES"
    return f"nashpy check: value {check.value:.6f} by {check.method} ({agree})" + (
        f"; nashpy warned: {'; '.join(check.warnings)}" if check.warnings else ""
    )


def cmd_equilibrium(args) -> None:
    """`arena equilibrium`; under a time limit, Ctrl-C stops the double oracle as the limit
    would (the bounds reached are printed), a second Ctrl-C at once."""
    from ..optimal.search import ctrl_c_stops
    from .optimal import STOPPED

    oracle = args.method == "oracle" and args.guessers is None
    if args.export:
        from ..core.outfile import check_output_file
        from ..study.results.export import export_format

        export_format(args.export)
        check_output_file(args.export, "--export")  # before the work, not after it
    with ctrl_c_stops(args.time_limit is not None and oracle) as ctrl_c:
        eq = solve(args)
    _print(eq, args)
    if ctrl_c.asked:
        raise KeyboardInterrupt(STOPPED)


def _print(eq, args) -> None:
    """The equilibrium found: exported, checked (--check), saved and printed."""

    if args.export:
        from ..study.results.export import equilibrium_game

        equilibrium_game(eq).save(args.export)
        print(f"arena equilibrium: the game solved written to {args.export}", file=sys.stderr)
    check = None
    if args.check:  # nashpy on the payoff matrix of the trees the guesser mixes
        check = cross_check(eq)
    if args.save:
        eq.save(args.save)
    if args.json:
        from ..games import timings

        data = eq.to_json() | timings(eq.game, eq.seconds)
        if isinstance(check, FailedCheck):
            data["nashpy"] = {"error": check.reason, "checked_by": check.ran}
        elif check is not None:
            data["nashpy"] = {"value": check.value, "method": check.method, "warnings": list(check.warnings)}
        print_json(data)
        return
    print(report(eq, check))
    if args.save:
        print(f"\nsaved to {args.save} (play it with the guesser equilibrium:file={args.save})")


def add_commands(sub) -> None:
    p = sub.add_parser("equilibrium", help="solve chooser against guesser as a zero-sum game")
    p.add_argument("game", help="game spec, e.g. mastermind:pegs=3,colors=4 or jotto:first=12")
    p.add_argument(
        "--guessers", metavar="G1,G2,...", help="restrict the guesser to these guessers' trees (comma-separated specs)"
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        default="oracle",
        help="oracle: double oracle with exact best responses (default); "
        "enumerate: list every undominated tree (tiny games only)",
    )
    p.add_argument(
        "--all-trees", action="store_true", help="with --method enumerate: every tree, not only undominated ones"
    )
    p.add_argument("--no-symmetry", action="store_true", help="do not reduce Mastermind to code types")
    p.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop the double oracle after this long (a best response under way included) "
        "and report the bounds reached, not converged",
    )
    p.add_argument(
        "--initial",
        metavar="G1,G2,...",
        help="seed the double oracle's guesser side with these guessers' trees (comma-separated specs)",
    )
    p.add_argument(
        "--response-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop each best response after this long and go on (games too big to solve: "
        "the bounds stay proven); the chooser's mix saved is the one the lower bound is proven against",
    )
    p.add_argument(
        "--payoff",
        default=None,
        metavar="COST",
        help="what the chooser wins: guesses (Jotto, Mastermind); on Hangman misses (the default: "
        "misses until the word is determined), lost (games lost within the strikes) or "
        "guesses (letters until determined)",
    )
    p.add_argument(
        "--bounds-from",
        action="append",
        metavar="FILE",
        help="fold in the bounds this file proves, each proven again: a saved equilibrium (its guesser "
        "mix replayed, its chooser mix's best response searched) or a split's journal (`arena optimal "
        "GAME --journal FILE`: the optimum against the uniform chooser); may be repeated",
    )
    p.add_argument("--check", action="store_true", help="also solve the final payoff matrix with nashpy")
    p.add_argument(
        "--progress",
        action="store_true",
        help="print the bounds after each best response on stderr (the default on a terminal, without --json)",
    )
    p.add_argument("--save", metavar="FILE.json", help="save the solution with its trees (for equilibrium:file=)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--export",
        metavar="FILE.nfg",
        help="write the matrix game solved (chooser rows x the guesser's trees) as Gambit's .nfg "
        "or a .csv payoff matrix (the double oracle's: its final restricted game)",
    )
    p.set_defaults(func=cmd_equilibrium)
