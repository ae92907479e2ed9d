"""`arena warm`: the compiled code built ahead, once, at set-up (README's second step)."""

from __future__ import annotations

import sys


def cmd_warm(args) -> None:
    """`arena warm`: every kernel compiled or loaded (arena.api.compiling.warm), said on stderr."""
    from ..api.compiling import warm

    print(
        "arena: compiling the exact search's kernels and Hangman's support search (once; about a minute)...",
        file=sys.stderr,
        flush=True,
    )
    for what, seconds in warm():
        print(f"arena: {what} ready ({seconds:.1f} s)", file=sys.stderr)


def add_commands(sub) -> None:
    """This module's subcommands, added to the `arena` parser's `sub`."""
    p = sub.add_parser(
        "warm",
        help="compile the exact search's and Hangman's support search's kernels ahead (once, at set-up)",
        description="Compile (numba) the kernels a first exact search or Hangman double oracle would "
        "compile, so that it loads them from the cache instead; a second run only loads them.",
    )
    p.set_defaults(func=cmd_warm)
