"""Mastermind's game values beyond the published ones: the table of experiments/game_values.md.

    python experiments/game_values.py                              3x5, 3x6, 4x5 and 5x3, 6x3, 5x4
    python experiments/game_values.py --games mastermind:colors=7 mastermind:pegs=5,colors=5 \\
        --time-limit 900 --initial knuth,entropy,most-parts,optimal   4x7 and 5x5, bracketed
    python experiments/game_values.py --check                      each value found again by the slow path
    python experiments/game_values.py --slow                       the same values, by the path the speed-ups replaced
    python experiments/game_values.py --games mastermind:colors=8 \
        --check-file experiments/data/mastermind-colors-8-equilibrium.json.gz   a saved value, checked by the slow path

Each row is what `arena equilibrium SPEC` prints (the command is in the row): the value (an
exact fraction when the double oracle converged and its rational strategies checked out, else
the bracket it reached and its gap), the uniform chooser's value beside it (the least mean
number of guesses when every secret is equally likely, the first best response), the chooser's
mix by code type (each code of a type equally likely), how many trees the guesser mixes, how
many best responses it took, and the time. With --check each instance is solved a second time
by the path the speed-ups replaced (no code-type symmetry in the LP: one row per secret; the
candidates' bound, the symmetric-weights shortcut and the reuse of earlier trees all off), and
the two values are compared exactly.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from fractions import Fraction

import numpy as np

from arena import make_game
from arena.cli.equilibrium import initial_trees
from arena.equilibrium import double_oracle
from arena.equilibrium.oracle import OracleSettings
from arena.equilibrium.symmetry import no_symmetry

#: 3x5, 3x6, 4x5 (pegs x colours), then the same sizes with pegs and colours exchanged.
DEFAULT = [
    "mastermind:pegs=3,colors=5",
    "mastermind:pegs=3",
    "mastermind:colors=5",
    "mastermind:pegs=5,colors=3",
    "mastermind:pegs=6,colors=3",
    "mastermind:pegs=5,colors=4",
]


def command(spec: str, time_limit: float | None, initial: str | None) -> str:
    """The command that prints this instance's solution."""
    parts = [f"arena equilibrium {make_game(spec).spec}"]
    if time_limit is not None:
        parts.append(f"--time-limit {time_limit:g}")
    if initial:
        parts.append(f"--initial {initial}")
    return " ".join(parts)


def mix(eq) -> str:
    """The chooser's mix by code type: exact fractions where recovered."""
    return " ".join(
        f"{label}:{x if x is not None else round(p, 4)}" for label, _, p, x in eq.chooser_by_row() if p > 1e-12
    )


@contextlib.contextmanager
def slow_path():
    """The speed-ups of issue 24 switched off, for the cross-check."""
    import arena.equilibrium.oracle as oracle
    import arena.games.mastermind_symmetry as symmetry
    import arena.optimal.search.closures as closures

    saved = closures.WEIGHTED_CANDIDATES, symmetry.SYMMETRIC_WEIGHTS, oracle.REUSE
    closures.WEIGHTED_CANDIDATES = symmetry.SYMMETRIC_WEIGHTS = oracle.REUSE = False
    try:
        yield
    finally:
        closures.WEIGHTED_CANDIDATES, symmetry.SYMMETRIC_WEIGHTS, oracle.REUSE = saved


def other_side(game, eq) -> Fraction:
    """The value checked from the chooser's side by the path the speed-ups replaced: the exact
    best response to the rational chooser mix (each code of a type equally likely), found with
    the candidates' bound and the symmetric-weights shortcut off, and its expected cost under
    that mix in exact arithmetic. It equals the value exactly when the mix is optimal (the
    guesser's side is proven by the rational guesser mix over every secret: oracle._exact)."""
    return slow_value(game, eq.exact.row, eq.symmetry)


def slow_value(game, rows, symmetry) -> Fraction:
    """The expected cost, in fractions, of the slow path's exact best response to the chooser
    mix `rows` (exact probabilities over the symmetry's rows, each code of a row equally likely)."""
    from arena.equilibrium import best_response
    from arena.equilibrium.response import mix_problem

    sizes = symmetry.sizes
    chooser = np.array([float(rows[o]) / sizes[o] for o in symmetry.orbit])
    with slow_path():
        tree = best_response(mix_problem(game, chooser / chooser.sum()))
    totals = symmetry.totals(tree.costs)[0]
    return sum((x * Fraction(int(t), int(n)) for x, t, n in zip(rows, totals, sizes)), Fraction(0))


def check_file(spec: str, path: str) -> str:
    """A saved equilibrium's exact value checked by the slow path's best response to its rational
    chooser mix: the check row of the table. The file is read as `arena evaluate --value-from`
    reads it (solution.read_saved: its format and key; witness.saved_chooser: the mix checked,
    its exact fractions by row agreeing with its floats by secret)."""
    from arena.equilibrium.solution import read_saved
    from arena.equilibrium.symmetry import symmetry_of
    from arena.equilibrium.witness import fraction, saved_chooser

    game = make_game(spec)
    saved = read_saved(path, game)
    _, exact = saved_chooser(path, game, saved)
    if exact is None:
        raise SystemExit(f"{path}: no exact chooser mix by row to check (an equilibrium not proven in fractions)")
    claimed = fraction(saved.get("value_exact"), f"{path}: value_exact")
    symmetry = symmetry_of(game)
    rows = [Fraction(0)] * len(symmetry.labels)
    for secret, row in enumerate(symmetry.orbit.tolist()):
        rows[row] += exact[secret]
    start = time.perf_counter()
    needed = slow_value(game, rows, symmetry)
    verdict = "agrees" if needed == claimed else f"DISAGREES with the file's {saved['value_exact']}"
    return (
        f"| check: the slow path's best response to the saved rational chooser mix | | {needed} | | | "
        f"{verdict} | | | {time.perf_counter() - start:.1f} | "
        f"`python experiments/game_values.py --games {game.spec} --check-file {path}` |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=DEFAULT, help="game specs (default: %(default)s)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per instance (default: none)")
    parser.add_argument(
        "--initial", default=None, metavar="G1,G2", help="seed the guesser's side with these guessers' trees"
    )
    parser.add_argument("--check", action="store_true", help="solve each instance again by the slow path")
    parser.add_argument(
        "--check-limit",
        type=int,
        default=250,
        metavar="N",
        help="with --check: also the double oracle over every secret by the slow path, "
        "for games of at most N secrets (default %(default)s)",
    )
    parser.add_argument(
        "--slow",
        action="store_true",
        help="solve by the path the speed-ups replaced (to time them; the values are the same)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per instance")
    parser.add_argument(
        "--check-file",
        metavar="FILE",
        help="check the value a saved equilibrium (arena equilibrium --save) claims by the slow path, "
        "solving nothing else",
    )
    args = parser.parse_args(argv)
    if args.check_file:
        from arena.core.errors import ArenaError

        for spec in args.games:
            try:
                print(check_file(spec, args.check_file), flush=True)
            except ArenaError as e:  # a file that is not this game's saved equilibrium: one line
                raise SystemExit(f"game_values.py: {e}") from None
        return 0
    if not args.json:
        print(
            "| instance | secrets | value | bounds | uniform chooser | chooser's mix by type | trees | "
            "best responses | seconds | command |"
        )
        print("| --- | ---: | --- | --- | ---: | --- | ---: | ---: | ---: | --- |")
    for spec in args.games:
        game = make_game(spec)
        start = time.perf_counter()
        with slow_path() if args.slow else contextlib.nullcontext():
            # the slow path adds no tree a round besides the best response (issue 34's extra trees)
            extra = () if args.slow else OracleSettings.extra
            eq = double_oracle(game, time_limit=args.time_limit, initial=initial_trees(game, args.initial), extra=extra)
        seconds = time.perf_counter() - start
        row = {"command": command(spec, args.time_limit, args.initial), **eq.to_json()}
        if args.check and eq.exact is not None and eq.settled:
            start = time.perf_counter()
            needed = other_side(game, eq)
            row["check"] = {
                "method": "the slow path's best response to the rational chooser mix",
                "value_exact": str(needed),
                "seconds": round(time.perf_counter() - start, 1),
                "agrees": needed == eq.exact.value,
            }
            if len(game.secrets) <= args.check_limit:
                with slow_path():
                    start = time.perf_counter()
                    again = double_oracle(game, symmetry=no_symmetry(game), time_limit=args.time_limit, extra=())
                row["check_lp"] = {
                    "method": "the double oracle over every secret, by the slow path",
                    "value_exact": str(again.exact.value) if again.exact else None,
                    "lower": again.lower,
                    "upper": again.upper,
                    "seconds": round(time.perf_counter() - start, 1),
                    "agrees": bool(again.exact and eq.exact.value == again.exact.value),
                    "brackets": again.lower - 1e-9 <= float(eq.exact.value) <= again.upper + 1e-9,
                }
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        value = f"{eq.exact.value} ≈ {float(eq.exact.value):.6f}" if eq.exact and eq.settled else "not converged"
        uniform = f"{eq.uniform:.6f}" if eq.uniform is not None else "not reached"
        print(
            f"| {game.spec} | {len(game.secrets):,} | {value} | [{eq.lower:.6f}, {eq.upper:.6f}] gap {eq.gap:.2g} | "
            f"{uniform} | {mix(eq)} | {len(eq.trees)} | {len(eq.steps)} | {seconds:.1f} | `{row['command']}` |",
            flush=True,
        )
        if "check" in row:
            check = row["check"]
            print(
                f"| check: {check['method']} | | {check['value_exact']} | | | "
                f"{'agrees' if check['agrees'] else 'DISAGREES'} | | | {check['seconds']} | "
                f"`python experiments/game_values.py --games {game.spec} --check` |",
                flush=True,
            )
        if "check_lp" in row:
            check = row["check_lp"]
            verdict = (
                "agrees"
                if check["agrees"]
                else "not converged; its bracket holds the value"
                if check["value_exact"] is None and check["brackets"]
                else "DISAGREES"
            )
            print(
                f"| check: {check['method']} | | {check['value_exact']} | [{check['lower']:.6f}, "
                f"{check['upper']:.6f}] | | {verdict} | | | "
                f"{check['seconds']} | `arena equilibrium {game.spec} --no-symmetry` |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
