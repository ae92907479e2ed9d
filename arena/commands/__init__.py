"""Subcommands of `arena` beyond the core ones in arena/cli.py.

Each module here defines `add_commands(subparsers)`, which adds its subcommands with
`set_defaults(func=...)`; the command line finds the modules by itself, so a new command is a
new module. A command raises ArenaError or RuleBreak for a user's or an agent's mistake.
Modules, one idea each:

    play         `arena play` (one game, agents or people either side) and `arena solve`
    hardest      `arena hardest` and `arena compare`: the hardest secrets, distributions compared
    optimal      `arena optimal`: the exact tree of least expected guesses, with its lower bound
    equilibrium  `arena equilibrium`: the chooser against the guesser as a zero-sum game, solved
    common       what several commands share (the guesser a command plays, strike limits): no
                 command of its own

`command_modules()` imports every command module (arena/cli.py adds their subcommands).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from types import ModuleType

#: Modules of this package that hold no command.
HELPERS = frozenset({"common"})


def command_modules() -> Iterator[ModuleType]:
    """Every command module of this package, by name (each has `add_commands(subparsers)`)."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name not in HELPERS:
            yield importlib.import_module(f"{__name__}.{info.name}")
