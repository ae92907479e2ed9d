"""`arena report DIR`: a stored tournament reprinted from DIR/results.sqlite, and its other
views (`--export`, `--dynamics`, `--html`, `--methods`), without running anything."""

from __future__ import annotations

from .common import exit_status, show_report
from .run import add_table_options


def cmd_report(args) -> None:
    """The tables of a stored tournament, from DIR/results.sqlite, without running anything:
    the stored config is read as data (no agent is imported), and no lock is taken."""
    from ..api.tournaments import check_views, show_views, stored_report

    args.out = None
    check_views(args)
    report = stored_report(args.dir)
    if args.methods:  # the paragraph in place of the tables
        print(report.methods())
    else:
        show_report(report, args)
    show_views(report, args)
    exit_status(report, args)


def add_commands(sub) -> None:
    """This module's subcommands, added to the `arena` parser's `sub`."""
    p = sub.add_parser(
        "report",
        help="the tables of a stored tournament (arena run --out DIR)",
        description="Reprint a stored tournament from DIR/results.sqlite. Nothing is run and no "
        "agent is imported: the stored config is read as data. Safe while a run writes.",
    )
    p.add_argument("dir")
    add_table_options(p)
    p.add_argument("--strict", action="store_true", help="exit 1 if any cell failed or was not run yet")
    p.add_argument(
        "--methods",
        action="store_true",
        help="print a methods paragraph for a paper (what was run, how many games, the software and machine)",
    )
    p.add_argument(
        "--export",
        metavar="FILE.nfg",
        help="write each game's meta-game as Gambit's .nfg or a .csv payoff matrix (several games: FILE-GAME.nfg)",
    )
    p.add_argument(
        "--dynamics",
        nargs="?",
        const=True,
        default=False,
        metavar="FOLDER",
        help="replicator dynamics and fictitious play on each meta-game: a table, and with a FOLDER its "
        "plots FOLDER/dynamics-GAME.png (report only reads DIR: it writes nowhere unless told)",
    )
    p.add_argument("--html", metavar="FILE.html", help="write the whole tournament as one self-contained page")
    p.set_defaults(func=cmd_report, no_plots=True)
