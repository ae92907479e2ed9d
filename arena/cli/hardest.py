"""`arena hardest` and `arena compare`: which secrets a guesser finds hardest, and how two or
more guessers' distributions compare (with the published study's two-panel plot)."""

from __future__ import annotations

from ..core.errors import ArenaError
from .common import check_repeat


def cmd_hardest(args) -> None:
    from ..api.console import make_game, playing_guesser
    from ..api.evaluations import evaluate, hardest

    if args.top < 1:
        raise ArenaError(f"--top must be at least 1, got {args.top}")
    check_repeat(args.repeat)
    game = make_game(args.game)
    result = evaluate(game, playing_guesser(args.guesser, "hardest"), repeat=args.repeat, seed=args.seed)
    rows = hardest(game, result, args.top)
    strikes = game.rules.strikes
    print(
        f"hardest secrets of {game.spec} for {result.guesser}"
        + (f" (worst of {result.repeat} repetitions)" if result.repeat > 1 else "")
    )
    head = f"{'rank':>4}  {'secret':<24}" + (f" {'misses':>6}" if strikes else "") + f" {'guesses':>7}"
    print(head)
    for rank, (secret, misses, guesses) in enumerate(rows, 1):
        line = f"{rank:>4}  {secret:<24}" + (f" {misses:>6}" if strikes else "") + f" {guesses:>7}"
        print(line + ("  lost" if game.loses(misses) else ""))


def cmd_compare(args) -> None:
    from ..api.console import check_plot_file, make_game, playing_guesser, strike_limits
    from ..api.evaluations import cost_for, evaluate, paired_lines, plot_distributions

    check_repeat(args.repeat)
    if args.plot:
        check_plot_file(args.plot)  # before the evaluations, not after them
    game = make_game(args.game)
    limits = strike_limits(args.strikes) or game.default_strikes()  # none where misses are no strikes
    guessers = [playing_guesser(g, "compare") for g in args.guessers]  # every spec checked before any is played
    results = [
        evaluate(game, guesser, repeat=args.repeat, seed=args.seed, strikes=limits or None) for guesser in guessers
    ]
    width = max(len(r.guesser) for r in results)
    head = f"{'guesser':<{width}} {'mean':>6} {'worst':>5}"
    if game.rules.strikes:
        head += f" {'misses':>6} {'worst':>5}" + "".join(f" {'lost@' + str(k):>9}" for k in limits)
    print(f"{game.spec}: {len(game.secrets):,} secrets")
    print(head + f" {'seconds':>8}")
    for r in results:
        line = f"{r.guesser:<{width}} {r.mean:>6.3f} {r.max:>5}"
        if game.rules.strikes:
            line += f" {r.misses_mean:>6.3f} {r.misses_max:>5}" + "".join(f" {r.lost(k):>9,}" for k in limits)
        print(line + f" {r.seconds:>8.2f}")
    for line in paired_lines(results, cost_for(game), [g.deterministic for g in guessers]):
        print(line)
    if args.plot:
        plot_distributions(results, args.plot)
        print(f"distributions written to {args.plot}")


def add_commands(sub) -> None:
    p = sub.add_parser("hardest", help="the secrets that take a guesser the most misses or guesses")
    p.add_argument("game")
    p.add_argument("guesser")
    p.add_argument("--top", type=int, default=20)
    p.add_argument("--repeat", type=int, default=1, help="repetitions for random guessers (worst kept)")
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=cmd_hardest)

    p = sub.add_parser("compare", help="several guessers side by side on one game, with a plot")
    p.add_argument("game")
    p.add_argument("guessers", nargs="+", metavar="GUESSER")
    p.add_argument("--strikes", metavar="K,K,...", help="report losses at these strike limits (Hangman)")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--plot", metavar="FILE.png", help="the distributions of guesses (and misses) on one figure")
    p.set_defaults(func=cmd_compare)
