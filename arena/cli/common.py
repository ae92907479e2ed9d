"""What several subcommands share: a tournament's report shown (`arena run`, `arena report`),
the exit status it gives, and the check on `--repeat`. Not a command itself."""

from __future__ import annotations

import sys

from ..api.console import print_json
from ..core.errors import ArenaError


def check_repeat(repeat: int) -> None:
    """`--repeat` counts repetitions: 0 or fewer would evaluate nothing."""
    if repeat < 1:
        raise ArenaError(f"--repeat must be at least 1, got {repeat}")


def show_report(report, args) -> None:
    """A tournament's report as `arena run` and `arena report` print it: its CSV and outputs
    written where asked, then its JSON, or its tables and summary."""
    if args.csv:
        report.write_csv(args.csv)
    if getattr(args, "out", None):
        from ..api.tournaments import write_outputs

        for path in write_outputs(report, args.out, plots=not args.no_plots):
            print(f"wrote {path}", file=sys.stderr)
    if args.json:
        print_json(report.to_json())
        return
    print(report.report(cells=args.cells))


def exit_status(report, args) -> None:
    """1 with --check unless every published figure is reproduced, or with --strict if a cell failed."""
    if args.check and not report.all_agree or getattr(args, "strict", False) and report.failed:
        sys.exit(1)
