"""`arena report DIR`'s other views of a stored tournament: its meta-games exported
(`--export`), the learning dynamics on them (`--dynamics`) and the one-page HTML report
(`--html`). Each reads the Report only; nothing is run."""

from __future__ import annotations

import sys
from pathlib import Path

from ...core.errors import ArenaError


def check_views(args) -> None:
    """The files asked for, checked before any work."""
    from ...core.outfile import check_output_file

    if args.export:
        from .export import export_format

        export_format(args.export)
        check_output_file(args.export, "--export")
    if args.html:
        from .html import check_html_file

        check_html_file(args.html)
        check_output_file(args.html, "--html")
    if isinstance(args.dynamics, str) and not Path(args.dynamics).is_dir():
        raise ArenaError(f"--dynamics {args.dynamics}: not a folder to draw the plots in")


def show_views(report, args) -> None:
    """Write and print what --export, --dynamics and --html ask for."""
    if args.export or args.dynamics:
        from .export import meta_games

        games = meta_games(report)
        if not games:
            raise ArenaError(
                f"{args.dir}: no meta-game to {'export' if args.export else 'learn on'}: no game has "
                "several choosers, or a cell of each failed or is missing"
            )
        if args.export:
            for game, matrix in games.items():
                path = export_path(args.export, game, len(games))
                matrix.save(path)
                print(f"wrote {path}", file=sys.stderr)
        if args.dynamics:
            from .dynamics import dynamics, plot_path

            for game, matrix in games.items():
                learned = dynamics(matrix)
                print()
                print(learned.summary())
                if isinstance(args.dynamics, str):  # a folder to draw into; the run's own is only read
                    path = plot_path(args.dynamics, game)
                    learned.plot(path)
                    print(f"wrote {path}", file=sys.stderr)
    if args.html:
        from .html import write_html

        write_html(report, args.html)
        print(f"wrote {args.html}", file=sys.stderr)


def export_path(path: str, game: str, games: int) -> Path:
    """The file for one game's meta-game: `path` itself for a single game, else `path` with
    the game's name before the extension."""
    if games == 1:
        return Path(path)
    slug = "".join(c if c.isalnum() else "-" for c in game).strip("-")
    target = Path(path)
    return target.with_name(f"{target.stem}-{slug}{target.suffix}")
