"""A tournament as one self-contained HTML page: open it anywhere, no server, no network.

The page holds, for each game with a chooser x guesser grid, the grid (a sortable table: click
a column's head), its heat map and histograms, the meta-game with its equilibrium mixes and
the learning dynamics beside it; then every cell's row (sortable too), the failed cells with
their errors, the printed tables and the config. Plots are PNGs inlined as base64; the sorting
is a few lines of inline JavaScript. Built from a Report (`arena report DIR --html FILE`).
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

from .errors import ArenaError

STYLE = """
body { font-family: system-ui, Helvetica, Arial, sans-serif; margin: 1.5em auto; max-width: 1200px; color: #222; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 1.8em; }
table { border-collapse: collapse; margin: .6em 0 1em; font-size: .85em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
th { background: #eef2f8; cursor: pointer; user-select: none; }
th:first-child, td:first-child { text-align: left; }
th.sorted-asc::after { content: " \\25B2"; } th.sorted-desc::after { content: " \\25BC"; }
td.failed { color: #b00020; font-weight: bold; }
img { max-width: 100%; border: 1px solid #ddd; margin: .4em 0; display: block; }
pre { background: #f6f8fa; padding: .7em; overflow-x: auto; font-size: .8em; }
.note { color: #555; font-size: .9em; }
div.wide { overflow-x: auto; }
"""

#: Click a head to sort its table by that column (numbers as numbers), again to reverse.
SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th").forEach(function (th, column) {
    th.addEventListener("click", function () {
      var body = table.tBodies[0], rows = Array.from(body.rows);
      var up = !th.classList.contains("sorted-asc");
      table.querySelectorAll("th").forEach(function (h) { h.classList.remove("sorted-asc", "sorted-desc"); });
      th.classList.add(up ? "sorted-asc" : "sorted-desc");
      var key = function (row) {
        var text = row.cells[column].getAttribute("data-sort") || row.cells[column].textContent.trim();
        var number = parseFloat(text.replace(/,/g, ""));
        return isNaN(number) ? text.toLowerCase() : number;
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (typeof x !== typeof y) { x = String(x); y = String(y); }
        return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1);
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
  table.setAttribute("data-ready", "sortable");
});
window.addEventListener("load", function () {  // how many plots the browser decoded (the tests read it)
  var shown = Array.from(document.images).filter(function (i) { return i.complete && i.naturalWidth > 0; });
  document.body.setAttribute("data-images-shown", shown.length + " of " + document.images.length);
});
"""


def write_html(report, path: str | Path, dynamics: bool = True) -> Path:
    """Write the page of `report` (a tournament's Report) to `path`."""
    path = Path(path)
    path.write_text(html_page(report, dynamics), encoding="utf-8")
    return path


def check_html_file(path: str) -> None:
    if not path.lower().endswith((".html", ".htm")):
        raise ArenaError(f"--html {path}: name an .html file")


def html_page(report, dynamics: bool = True) -> str:
    """The whole page as text."""
    title = html.escape(report.config.title or "tournament")
    summary = report.summary()
    parts = [
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>',
        f"<style>{STYLE}</style></head><body>",
        f"<h1>{title}</h1>",
        f'<p class="note">{len(report.results)} cells, {len(report.failed)} without figures; '
        f"{report.seconds:.1f} s of work. Click a column's head to sort a table.</p>",
    ]
    for game, (choosers, guessers, cells) in report.grids().items():
        parts += game_section(report, game, choosers, guessers, cells, dynamics)
    parts += cells_section(report), failed_section(report)
    parts.append("<h2>Printed tables</h2>")
    parts.append(f"<pre>{html.escape(report.table(cells=not report.grids()))}\n\n{html.escape(summary)}</pre>")
    parts.append("<h2>Config</h2>")
    parts.append(f'<pre id="config">{html.escape(report.config.text or "(no config text stored)")}</pre>')
    parts.append("<h2>Provenance</h2>")
    parts.append(f'<p id="methods">{html.escape(report.methods())}</p>')
    if report.provenance:
        rows = "".join(
            f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in report.provenance.items()
        )
        parts.append(f'<table id="provenance">{rows}</table>')
    parts.append(f"<script>{SCRIPT}</script></body></html>\n")
    return "\n".join(parts)


def game_section(report, game: str, choosers: list[str], guessers: list[str], cells: dict, dynamics: bool) -> list[str]:
    """A game's grid, plots, meta-game and dynamics, on the game's payoff (`Report.payoff_for`)."""
    from .payoff import GUESSES, MISSES
    from .tournament.output import equilibrium_mixes, heat_map, histograms

    pay = report.payoff_for(game)
    worst = " (worst game)" if pay.worst else ""
    out = [
        f"<h2>{html.escape(game)}</h2>",
        "<h3>Guessers against choosers</h3>",
        f'<p class="note">{html.escape(pay.title)}{worst}; a failed cell says so.</p>',
        grid_table(choosers, guessers, cells, pay),
    ]
    out.append(image(lambda f: heat_map(game, choosers, guessers, cells, f, pay), f"heat map of {game}"))
    out.append(
        image(
            lambda f: histograms(game, choosers, guessers, cells, f, MISSES if pay is MISSES else GUESSES),
            f"histograms of {game}",
        )
    )
    out.append("<h3>Meta-game</h3>")
    if game not in report.mixes:
        out.append("<p>Not solved: a cell failed or is missing.</p>")
        return out
    row_names, row, column_names, column, value = report.mixes[game]
    out.append(f"<p>Value <b>{html.escape(pay.describe(value))}</b> to the chooser; the equilibrium mixes:</p>")
    out.append(mix_table("chooser", row_names, row))
    out.append(mix_table("guesser", column_names, column))
    out.append(
        image(
            lambda f: equilibrium_mixes(game, row_names, row, column_names, column, value, f, pay),
            f"equilibrium mixes of {game}",
        )
    )
    if dynamics:
        from .dynamics import dynamics as learn
        from .export import meta_games

        games = meta_games(report)
        if game in games:
            learned = learn(games[game])
            out.append("<h3>Dynamics</h3>")
            out.append(f"<pre>{html.escape(learned.summary())}</pre>")
            out.append(image(learned.plot, f"dynamics of {game}"))
    return out


def grid_table(choosers: list[str], guessers: list[str], cells: dict, pay) -> str:
    """The guesser x chooser grid on the payoff `pay`: its mean (and the worst game, where one
    exists), sortable."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in choosers)
    rows = []
    for g in guessers:
        tds = []
        for c in choosers:
            r = cells.get((c, g))
            if r is None:
                tds.append("<td></td>")
            elif not r.measured or pay.figure not in r.ours:
                tds.append(f'<td class="failed" title="{html.escape(r.error or "")}">{html.escape(r.status)}</td>')
            else:
                v = r.ours[pay.figure]
                text = f"{v:.1%}" if pay.key.startswith("lost") else f"{v:.3f}"
                if pay.worst and pay.worst in r.ours:
                    text += f" ({r.ours[pay.worst]})"
                tds.append(f'<td data-sort="{v!r}">{text}</td>')
        rows.append(f"<tr><td>{html.escape(g)}</td>{''.join(tds)}</tr>")
    return (
        f'<table class="sortable grid"><thead><tr><th>guesser</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def mix_table(side: str, names, mix) -> str:
    rows = "".join(f"<tr><td>{html.escape(n)}</td><td>{p:.3f}</td></tr>" for n, p in zip(names, mix))
    return (
        f'<table class="sortable mix"><thead><tr><th>{side}</th><th>probability</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )


def cells_section(report) -> str:
    """Every cell's row, with results.csv's columns (every payoff figure, the standard errors,
    what was published, the status and the error)."""
    columns = report.columns()
    rows = []
    for values in report.rows():
        tds = []
        for name, v in zip(columns, values):
            mark = ' class="failed"' if name == "status" and v != "ok" else ""
            tds.append(f"<td{mark}>{html.escape(_shown(name, v))}</td>")
        rows.append(f"<tr>{''.join(tds)}</tr>")
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    return (
        f'<h2>Every cell</h2><div class="wide"><table class="sortable cells"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _shown(column: str, value) -> str:
    """A cell's figure as the table shows it: means to 4 decimals, counts with commas."""
    if value is None:
        return ""
    if isinstance(value, float) and value != int(value):
        return f"{value:.4f}"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{int(value):,}"
    return str(value)


def failed_section(report) -> str:
    failed = report.failed
    if not failed:
        return '<h2>Failed cells</h2><p id="failed">None: every cell ran.</p>'
    items = "".join(
        f"<li><b>{html.escape(r.cell.label)}</b> against {html.escape(r.cell.chooser)} on "
        f"{html.escape(r.cell.game)}: {html.escape(r.status)}: {html.escape(r.error or '')}</li>"
        for r in failed
    )
    return f'<h2>Failed cells</h2><ul id="failed">{items}</ul>'


def image(draw, alt: str) -> str:
    """A plot drawn by `draw(file)` into memory, inlined as a base64 PNG."""
    buffer = io.BytesIO()
    draw(buffer)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'
