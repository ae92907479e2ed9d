"""The `arena` command: the parser only. Each subcommand is a module here, which defines
`add_commands(subparsers)` (its subcommands, with `set_defaults(func=...)`) and a `cmd_...`
function that builds a request for the Python API (arena/api/), calls it and prints what it
returns; nothing here imports below the API but arena.core.errors (tests/test_architecture.py).
The command line imports the modules named in COMMANDS, so a new command is a new module and
its name there. A command raises ArenaError or RuleBreak for a user's or an agent's mistake.
Modules, one idea each:

    parser       the parser of every subcommand, and `main`, which runs the one parsed
    evaluate     `arena evaluate`: a guesser against every secret or a chooser; its exploitability
    rank         `arena rank`: the best first guesses by a metric
    tree         `arena tree`: a guesser's strategy table, saved or drawn
    listing      `arena games` and `arena agents`: what there is, with its parameters
    run          `arena run`: a config run, judged, printed and stored
    report       `arena report`: a stored tournament reprinted, exported, drawn
    equilibrium  `arena equilibrium`: the chooser against the guesser as a zero-sum game, solved
    hardest      `arena hardest` and `arena compare`: the hardest secrets, distributions compared
    optimal      `arena optimal`: the exact tree of least expected guesses, with its lower bound
    play         `arena play` (one game, agents or people either side) and `arena solve`
    warm         `arena warm`: the compiled kernels built ahead, at set-up
    common       what several commands share (a tournament's report shown, --repeat): no
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
COMMANDS = ("evaluate", "rank", "tree", "listing", "run", "report", "equilibrium", "hardest", "optimal", "play", "warm")

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
