"""`arena rank`: the best first guesses of a game by a partition metric."""

from __future__ import annotations

from ..core.errors import ArenaError, choices, did_you_mean


def cmd_rank(args) -> None:
    """`arena rank`: the table of the best first guesses (arena.api.catalogue.rank_table)."""
    from ..api.catalogue import METRICS, rank_table
    from ..api.console import make_game

    game = make_game(args.game)
    if args.metric not in METRICS:
        raise ArenaError(
            f"unknown metric {args.metric!r}{did_you_mean(args.metric, METRICS)}; metrics: {choices(METRICS)}"
        )
    if args.top < 1:
        raise ArenaError(f"--top must be at least 1, got {args.top}")
    print(rank_table(game, args.metric, args.top))


def add_commands(sub) -> None:
    """This module's subcommands, added to the `arena` parser's `sub`."""
    p = sub.add_parser("rank", help="the best first guesses by a metric")
    p.add_argument("game")
    p.add_argument("metric", help="minimax, expected, entropy, most-parts or max-frequency")
    p.add_argument("--top", type=int, default=10)
    p.set_defaults(func=cmd_rank)
