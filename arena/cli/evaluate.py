"""`arena evaluate`: a guesser against every secret, or against a chooser; with
`--exploitability`, its cost against its worst secret beside the game's value."""

from __future__ import annotations

from ..api.console import print_json
from ..core.errors import ArenaError
from .common import check_repeat


def cmd_evaluate(args) -> None:
    """`arena evaluate`: the evaluation, printed as it prints itself (Evaluation.report)."""
    from ..api import console
    from ..api.evaluations import evaluate_against, plot_histogram

    check_repeat(args.repeat)
    if args.plot:
        console.check_plot_file(args.plot)  # before the work, not after it
    game, guesser = console.make_game(args.game), console.playing_guesser(args.guesser)
    chooser = console.make_chooser(args.chooser)
    seed = args.seed if args.seed is not None else guesser.values.get("seed", 0)
    if args.value_from is not None and not args.exploitability:
        raise ArenaError(
            "--value-from gives the game value beside the guesser's worst secret: give it with --exploitability"
        )
    if args.payoff is not None and not args.exploitability:
        raise ArenaError("--payoff is what the guesser's worst secret costs: give it with --exploitability")
    if args.time_limit is not None and not args.exploitability:
        raise ArenaError("--time-limit bounds the game value's search: give it with --exploitability")
    time_limit = console.seconds(args.time_limit, "--time-limit")
    result = evaluate_against(
        game, guesser, chooser, repeat=args.repeat, seed=seed, strikes=console.strike_limits(args.strikes)
    )
    exploit = _exploitability(args, game, guesser, seed, time_limit) if args.exploitability else None
    if args.plot:
        plot_histogram([result], args.plot)
    if args.json:
        extra = {"exploitability": exploit.to_json()} if exploit else {}
        print_json(result.to_json() | console.timings(game, result.seconds) | extra)
        return
    print(result.report())
    if args.plot:
        print(f"histogram written to {args.plot}")
    if exploit:
        print(f"exploitability of {exploit.guesser} ({exploit.cost}):")
        for line in exploit.lines():
            print(f"  {line}")


def _exploitability(args, game, guesser, seed: int, time_limit: float | None):
    """The guesser's cost against its worst secret, beside the game's value."""
    from ..api.evaluations import exploitability

    if args.chooser != "uniform":
        raise ArenaError("--exploitability plays the guesser against its worst secret, not --chooser")
    if time_limit is None and args.value_from is None:
        from .equilibrium import warn_if_long

        warn_if_long(game, no_symmetry=False)
    return exploitability(
        game,
        guesser,
        repeat=args.repeat,
        seed=seed,
        time_limit=time_limit,
        value_from=args.value_from,
        cost=args.payoff,
    )


def add_commands(sub) -> None:
    """This module's subcommands, added to the `arena` parser's `sub`."""
    p = sub.add_parser("evaluate", help="play a guesser against every secret")
    p.add_argument("game", help="game spec, e.g. mastermind or jotto:words=web2")
    p.add_argument("guesser", help="guesser spec, e.g. knuth or entropy:pool=all,small=3")
    p.add_argument("--repeat", type=int, default=1, help="repetitions for random guessers (default 1)")
    p.add_argument("--seed", type=int, default=None, help="seed for random guessers (default: the guesser's seed=)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="write a histogram")
    p.add_argument("--strikes", metavar="K,K,...", help="report losses at these strike limits (Hangman)")
    p.add_argument(
        "--exploitability",
        action="store_true",
        help="also the guesser's cost against its worst secret beside the game value (double oracle)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --exploitability: stop the game value's search, bracketing it (with --value-from: "
        "the search proving the file's lower end again; default 60 s)",
    )
    p.add_argument(
        "--value-from",
        metavar="FILE.json",
        default=None,
        help="with --exploitability: the game value's bounds proven again from the witnesses in an "
        "equilibrium saved by `arena equilibrium --save` (its guesser mix replayed, its chooser mix "
        "searched against), instead of solving the game; what the file only claims is printed as a claim",
    )
    p.add_argument(
        "--payoff",
        metavar="COST",
        default=None,
        help="with --exploitability: what the worst secret costs (Hangman: misses, lost or guesses; "
        "default: the --value-from file's payoff, else the game's own)",
    )
    p.add_argument(
        "--chooser",
        default="uniform",
        help="chooser spec (default uniform: every secret once); evil, minimax, spoiler: what they force",
    )
    p.set_defaults(func=cmd_evaluate)
