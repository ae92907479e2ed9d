"""Subcommands of `arena` beyond the core ones in arena/cli/parser.py.

Each module here defines `add_commands(subparsers)`, which adds its subcommands with
`set_defaults(func=...)`; the command line imports the modules named in COMMANDS, so a new
command is a new module and its name there. A command raises ArenaError or RuleBreak for a user's or an agent's mistake.
Modules, one idea each:

    play         `arena play` (one game, agents or people either side) and `arena solve`
    hardest      `arena hardest` and `arena compare`: the hardest secrets, distributions compared
    optimal      `arena optimal`: the exact tree of least expected guesses, with its lower bound
    equilibrium  `arena equilibrium`: the chooser against the guesser as a zero-sum game, solved
    parser       the parser and the core subcommands (run, report, evaluate, tree, ...); `main`
    common       what several commands share (the guesser a command plays, strike limits): no
                 command of its own

`command_modules()` imports every command module (arena/cli/parser.py adds their subcommands).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType

#: The command modules, by name: a fixed list, since listing the package's files
#: (pkgutil.iter_modules) imports `inspect`, a tenth of `arena --help`'s start-up.
#: tests/test_startup.py checks it against the files here: a new command module goes in it.
COMMANDS = ("equilibrium", "hardest", "optimal", "play")

#: Modules of this package that hold no command.
HELPERS = frozenset({"common", "parser", "__main__"})


def command_modules() -> Iterator[ModuleType]:
    """Every command module of this package, by name (each has `add_commands(subparsers)`)."""
    for name in COMMANDS:
        yield importlib.import_module(f"{__name__}.{name}")


def main(argv: list[str] | None = None) -> int:
    """The `arena` command (arena.cli.parser.main), under its old name `arena.cli.main`."""
    from .parser import main as run

    return run(argv)
