"""`arena run CONFIG`: a tournament or a reproduction run, judged and printed; with `--out DIR`,
stored as it runs (a rerun resumes) with its outputs beside the store."""

from __future__ import annotations

import argparse
import sys

from .common import exit_status, show_report


def cmd_run(args) -> None:
    """Run a config; with --out, store each task as it finishes (one writer per directory)."""
    from ..api import console
    from ..api.tournaments import load_config, run_config, writing

    config = load_config(args.config, allow_import=getattr(args, "allow_import", False))
    workers = console.workers(args.workers, args.oversubscribe, "arena run", args.backend)
    timeout = args.task_timeout if args.task_timeout is not None else config.task_timeout
    with writing(args.out):  # held while the store and the outputs beside it are written
        report = run_config(
            config,
            progress=not args.json and sys.stderr.isatty(),
            workers=workers,
            backend=args.backend,
            scheduler=args.scheduler,
            out=args.out,
            force=args.force,
            retry_failed=args.retry_failed,
            timeout=timeout,
            notice=lambda line: print(f"arena run: {args.out}: {line}", file=sys.stderr),
        )
        show_report(report, args)
    exit_status(report, args)


def seconds(text: str) -> float:
    """--task-timeout: seconds, a number > 0 (arena.core.checks.seconds, as every time limit)."""
    from ..api.console import seconds as checked
    from ..core.errors import ArenaError

    try:
        return checked(float(text), "--task-timeout") or 0.0
    except (ValueError, ArenaError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds > 0") from None


def add_commands(sub) -> None:
    """This module's subcommands, added to the `arena` parser's `sub`."""
    p = sub.add_parser(
        "run",
        help="run a TOML config and print its table",
        description="Run a TOML config and print its table. An agent that raises, breaks the rules or runs past "
        "--task-timeout fails its own cells only: they are marked FAILED in the table, results.csv "
        "(status and error columns) and summary.txt, and the run goes on. Exit status: 0 when the "
        "run completed, 1 with --check if a published figure was not reproduced or with --strict "
        "if a cell failed, 2 for a mistake in the command or the config. With --out DIR, a second "
        "run resumes (failed tasks are kept unless --retry-failed); one run writes to DIR at a time.",
    )
    p.add_argument("config", help="a TOML file (see experiments/)")
    add_table_options(p)
    p.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 if any cell failed (by default a run that completes exits 0, failed cells "
        "marked FAILED in its table, results.csv and summary.txt)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes on this machine (default 1; at most the CPU count unless --oversubscribe)",
    )
    p.add_argument(
        "--oversubscribe", action="store_true", help="allow --workers above the CPU count (up to 8 per CPU, or 64)"
    )
    p.add_argument(
        "--task-timeout",
        type=seconds,
        metavar="SECONDS",
        help="fail a task that runs longer (default: the config's task_timeout, else no limit)",
    )
    p.add_argument("--backend", default="local", help="local (a process pool) or dask")
    p.add_argument("--scheduler", metavar="ADDRESS", help="the Dask scheduler, e.g. tcp://127.0.0.1:8786")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="store results in DIR/results.sqlite (a rerun resumes) and write results.csv, summary.txt and plots there",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="discard stored results of a different config (or a damaged store) and start afresh",
    )
    p.add_argument(
        "--retry-failed",
        action="store_true",
        help="with --out, run again the stored tasks that failed (by default a resumed run keeps "
        "failures as results and runs only the tasks not stored yet)",
    )
    p.add_argument("--no-plots", action="store_true", help="with --out, skip the plots")
    p.set_defaults(func=cmd_run)


def add_table_options(p: argparse.ArgumentParser) -> None:
    """The options `arena run` and `arena report` share: how the results are printed and checked."""
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument(
        "--cells",
        action="store_true",
        help="also print every cell's row before a tournament's grids (a reproduction always does)",
    )
    p.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    p.add_argument("--check", action="store_true", help="exit 1 unless every published figure is reproduced")
