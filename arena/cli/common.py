"""What several subcommands share (arena/cli/parser.py's and those of this package): the guesser a
command plays by itself, and strike limits as the user writes them. Not a command itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import ArenaError

if TYPE_CHECKING:  # arena.core.players imports the engine (numpy): not for parsing the command line
    from ..core.players import GuesserProtocol


def playing_guesser(spec: str, command: str = "evaluate") -> GuesserProtocol:
    """The guesser written `spec`, for a command that plays it by itself (not a person)."""
    from agents import make_guesser

    guesser = make_guesser(spec)
    if guesser.traits.interactive:
        raise ArenaError(f"{spec} plays interactively: use `arena play`, not `arena {command}`")
    return guesser


def strike_limits(text: str | None) -> tuple[int, ...] | None:
    """`6,8,9` as (6, 8, 9)."""
    if not text:
        return None
    try:
        limits = tuple(int(t) for t in text.split(","))
    except ValueError:
        raise ArenaError(f"--strikes {text!r}: give strike limits as integers, like 6,8,9") from None
    if any(k < 1 for k in limits):
        raise ArenaError(f"--strikes {text!r}: every limit must be at least 1")
    return limits
