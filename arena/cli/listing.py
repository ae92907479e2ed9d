"""`arena games` and `arena agents`: what there is to play, with its parameters."""

from __future__ import annotations

from ..core.errors import ArenaError


def cmd_games(args) -> None:
    """`arena games`: each game and its parameters (a broken plug-in as one line)."""
    from ..api.catalogue import GAMES

    for name in GAMES:
        try:
            kind = GAMES[name]
        except ArenaError as e:  # a broken plug-in: one line, and the other games still listed
            print(f"{name}: {e}")
            continue
        print(f"{kind.name}: {kind.summary}")
        for p in kind.params.values():
            print(f"    {p.describe()}")


def cmd_agents(args) -> None:
    """`arena agents`: each agent, its role and its parameters."""
    from ..api.catalogue import describe_agents

    for name, role, summary, params in describe_agents():
        print(f"{name} ({role}): {summary}")
        for line in params:
            print(f"    {line}")


def add_commands(sub) -> None:
    """This module's subcommands, added to the `arena` parser's `sub`."""
    sub.add_parser("games", help="the games and their parameters").set_defaults(func=cmd_games)
    sub.add_parser("agents", help="the agents and their parameters").set_defaults(func=cmd_agents)
