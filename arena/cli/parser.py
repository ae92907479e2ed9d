"""The `arena` command: the parser, and `main`, which runs the subcommand parsed. Every
subcommand is a module of arena/cli/ (arena.cli.COMMANDS) over the Python API (arena/api/);
a user's mistake (ArenaError) or an agent's (RuleBreak) is one line on stderr and exit status 2.

Start-up: this module and arena/cli/* import at their top only what parsing the command
line needs (no numpy, no game, no agent), so that `arena --help`, `--version` and a mistyped
option cost Python's start-up and argparse; each command imports what it uses when it runs."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from ..api import console
from ..core.errors import ArenaError, RuleBreak


class _Version(argparse.Action):
    """`--version`: the installed version, read only when asked for (importlib.metadata costs start-up)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(
            option_strings, dest, nargs=0, default=default, help=help or "show program's version number and exit"
        )

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"arena {console.version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand (each command module's `add_commands`, in COMMANDS' order)."""
    parser = argparse.ArgumentParser(
        prog="arena", description="Guessing games as contests between a chooser and a guesser."
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    from . import command_modules

    for module in command_modules():
        module.add_commands(sub)
    _add_allow_import(sub)
    return parser


#: Subcommands that never build an agent from a spec: no --allow-import (`report` reads the store only).
NO_AGENT_SPECS = frozenset({"games", "agents", "rank", "report", "warm"})


def _add_allow_import(sub) -> None:
    """`--allow-import` on every subcommand that builds agents from specs (those of
    arena/cli/* included), where the subcommand has not declared it itself."""
    for name, p in sub.choices.items():
        if name not in NO_AGENT_SPECS and "--allow-import" not in p._option_string_actions:
            p.add_argument(
                "--allow-import",
                action="store_true",
                help="let module:Class agent specs (here or in a config) import Python modules, which runs their code",
            )


def _parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The arguments; one the subcommand does not take is refused with that subcommand's usage
    (`arena evaluate: error: unrecognized arguments: --workers 2`), not the top level's."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        sub.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _agent_imports(args: argparse.Namespace) -> contextlib.AbstractContextManager:
    """Whether `module:Class` specs may import their module (agents.registry.imports_allowed),
    for a command that builds agents; the others (NO_AGENT_SPECS: `arena games`, ...) do not
    import the agents at all (about 0.05 s of start-up)."""
    if not hasattr(args, "allow_import"):
        return contextlib.nullcontext()
    return console.agent_imports(args.allow_import)


def main(argv: list[str] | None = None) -> int:
    """`arena ARGV...`: the exit status (0, 1 from --check or --strict, 2 for a mistake, 130 for Ctrl-C)."""
    args = _parse(build_parser(), argv)  # --help and --version end here, before the agents are imported
    try:
        with (
            _agent_imports(args),
            console.notes_on_stderr(args.command),
            console.stdout_for_json_only(bool(getattr(args, "json", False))),
        ):  # module:Class specs import only when asked
            args.func(args)
    except (ArenaError, RuleBreak) as e:
        print(f"arena {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `arena ... | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:  # an output file that cannot be written: the user's path, not our bug
        where = f"{e.filename}: " if e.filename else ""
        print(f"arena {args.command}: error: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except MemoryError:  # an estimate that missed: still one line, and nothing stored is lost
        print(
            f"arena {args.command}: error: out of memory; the instance is too big for this machine "
            "(ARENA_MEMORY_LIMIT sets the budget that instances are checked against)",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt as e:
        saved = f": {e}" if str(e) else ""  # what was kept, where the command knows (arena run --out)
        print(f"arena {args.command}: interrupted{saved}", file=sys.stderr)
        return 130
    except Exception as e:  # an agent from outside the project failed: its line, not our traceback
        fault = console.agent_fault(e)
        if fault is None:
            raise
        print(f"arena {args.command}: error: {fault}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
