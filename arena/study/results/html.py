"""A tournament as one self-contained HTML page: open it anywhere, no server, no network.

The page holds, for each game with a chooser x guesser grid, the grid (a sortable table: click
a column's head) with the terminal's figures, its heat map and histograms, the meta-game with
its equilibrium mixes, its tied strategies and every pure equilibrium strategy, and the learning
dynamics beside it; then every cell's row (sortable too), the failed cells with
their errors, the printed tables and the config. Plots are PNGs inlined as base64; the sorting
is a few lines of inline JavaScript. Built from a Report (`arena report DIR --html FILE`).
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

from ...core.costs import loss_limits, strikes_in
from ...core.errors import ArenaError
from .report import grid_text

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
div.wide { overflow-x: auto; max-width: 100%; }
table.cells { font-size: .8em; } table.cells td { white-space: nowrap; }
table.cells td.error { white-space: normal; text-align: left; min-width: 18em; }
ul.meta, p.dynamics { line-height: 1.4; }
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
    from ..tournament.output import equilibrium_mixes, heat_map, histograms

    pay = report.payoff_for(game)
    worst = report.worst_secrets(game)
    out = [
        f"<h2>{html.escape(game)}</h2>",
        "<h3>Guessers against choosers</h3>",
        f'<p class="note">{html.escape(grid_note(pay, cells, bool(worst)))}; a failed cell says so.</p>',
        grid_table(choosers, guessers, cells, pay, worst),
    ]
    out.append(image(lambda f: heat_map(game, choosers, guessers, cells, f, pay), f"heat map of {game}"))
    out.append(
        image(
            lambda f: histograms(game, choosers, guessers, cells, f, pay.plotted),
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
    out.append(meta_game_notes(report, game, cells))
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
            out.append(dynamics_section(learned))
            out.append(image(learned.plot, f"dynamics of {game}"))
    return out


#: Two figures of a meta-game this close are the same (deterministic agents tie exactly; a
#: mean is a float, so allow its rounding).
TIE = 1e-9


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= TIE * max(1.0, abs(a), abs(b))


def equivalent_strategies(names: list[str], payoffs: list[list[float]]) -> list[list[str]]:
    """The sets (two or more) of strategies whose payoffs against every opponent are the same:
    `payoffs[k]` is strategy `names[k]`'s row. Each set in the order of `names`."""
    groups: list[list[int]] = []
    for k, vector in enumerate(payoffs):
        for group in groups:
            if all(_same(x, y) for x, y in zip(payoffs[group[0]], vector)):
                group.append(k)
                break
        else:
            groups.append([k])
    return [[names[k] for k in group] for group in groups if len(group) > 1]


def pure_equilibrium_strategies(names: list[str], payoffs: list[list[float]], value: float, side: str) -> list[str]:
    """The pure strategies that guarantee the game's `value` on their own, so each is an
    equilibrium strategy: a chooser (`side="chooser"`, maximising) whose worst payoff is the
    value, a guesser (minimising its cost) whose worst cost is."""
    if side == "chooser":
        return [n for n, row in zip(names, payoffs) if min(row) >= value or _same(min(row), value)]
    return [n for n, row in zip(names, payoffs) if max(row) <= value or _same(max(row), value)]


def meta_game_notes(report, game: str, cells: dict) -> str:
    """What the mixes alone hide: strategies that tie (identical rows or columns of the grid),
    and every pure strategy that is an equilibrium strategy, not only the one the solver named."""
    solution = report.meta_game_solution(game)
    if solution is None:
        return ""
    pay = report.payoff_for(game)
    choosers, guessers = list(solution["choosers"]), list(solution["guessers"])
    matrix = [[cells[c, g].ours[pay.figure] for g in guessers] for c in choosers]
    sides = {
        "guesser": (guessers, [[matrix[i][j] for i in range(len(choosers))] for j in range(len(guessers))], "rows"),
        "chooser": (choosers, matrix, "columns"),
    }
    items = []
    for side, (names, payoffs, lines) in sides.items():
        mix = solution[f"{side}s"]
        pure = pure_equilibrium_strategies(names, payoffs, solution["value"], side)
        for group in equivalent_strategies(names, payoffs):
            weight = sum(mix[n] for n in group)
            if group[0] in pure:
                claim = "either is an equilibrium strategy, as is any mix of them"
            elif weight > TIE:
                claim = f"their {weight:.3f} of the equilibrium mix can be split between them in any proportion"
            else:
                claim = "the mix the solver found gives them no weight"
            items.append(f"{' = '.join(group)} ({side}s): identical {lines} in the grid, {claim}")
        if pure:
            items.append(
                f"{side}s that guarantee the value on their own (pure equilibrium strategies): {', '.join(pure)}"
            )
        else:
            items.append(f"no single {side} guarantees the value: the equilibrium needs a mix")
    return '<ul class="meta">' + "".join(f"<li>{html.escape(t)}</li>" for t in items) + "</ul>"


def dynamics_section(learned) -> str:
    """The learning dynamics as prose and a table, in the page's own font."""
    rows_average, columns_average = learned.time_average()
    rounds = len(learned.play_rows) - 1
    prose = (
        f"How choosers and guessers that adapt would move on this meta-game: fictitious play "
        f"({rounds:,} rounds; its last empirical mix) and replicator dynamics (t = 0 to "
        f"{learned.times[-1]:g}; the shares averaged over time), beside the equilibrium (value "
        f"{learned.value:.4f}). Distance from an equilibrium (exploitability): fictitious play "
        f"{learned.exploitability(learned.play_rows[-1], learned.play_columns[-1]):.4f}, replicator "
        f"time average {learned.exploitability(rows_average, columns_average):.4f}."
    )
    body = []
    for side, names, eq, play, average in (
        ("chooser", learned.game.rows, learned.equilibrium_rows, learned.play_rows[-1], rows_average),
        ("guesser", learned.game.columns, learned.equilibrium_columns, learned.play_columns[-1], columns_average),
    ):
        for k, name in enumerate(names):
            body.append(
                f"<tr><td>{side}</td><td>{html.escape(name)}</td><td>{eq[k]:.3f}</td>"
                f"<td>{play[k]:.3f}</td><td>{average[k]:.3f}</td></tr>"
            )
    return (
        f'<p class="dynamics">{html.escape(prose)}</p>'
        '<table class="sortable dynamics"><thead><tr><th>side</th><th>strategy</th><th>equilibrium</th>'
        "<th>fictitious play</th><th>replicator (time average)</th></tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def grid_note(pay, cells: dict, worst: bool) -> str:
    """What the grid's cells hold, as the terminal's summary heads its grid."""
    limits = loss_limits(k for r in cells.values() for k in r.ours)
    errors = pay.error is not None and any(pay.error in r.ours for r in cells.values() if r is not None)
    text = pay.title + (" ± standard error" if errors else "")
    text += " (worst game)" if pay.worst else ""
    text += f" [loss rate within {', '.join(map(str, limits))} strikes]" if limits else ""
    return text + ("; worst secret: its cost against the worst chooser" if worst else "")


def grid_table(choosers: list[str], guessers: list[str], cells: dict, pay, worst: dict[str, float]) -> str:
    """The guesser x chooser grid on the payoff `pay`, each cell as the terminal's summary prints
    it (its mean, ± its standard error where random agents repeat, the worst game, the loss
    rates), then the worst-secret column (`Report.worst_secrets`) where there is one; sortable."""
    limits = loss_limits(k for r in cells.values() for k in r.ours)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in choosers)
    head += "<th>worst secret</th>" if worst else ""
    rows = []
    for g in guessers:
        tds = []
        for c in choosers:
            r = cells.get((c, g))
            if r is None:
                tds.append("<td></td>")
            elif not r.measured or pay.figure not in r.ours:
                text = grid_text(r, pay, limits)
                tds.append(f'<td class="failed" title="{html.escape(r.error or "")}">{html.escape(text)}</td>')
            else:
                text = grid_text(r, pay, limits)
                tds.append(f'<td data-sort="{r.ours[pay.figure]!r}">{html.escape(text)}</td>')
        if worst:
            tds.append(f'<td data-sort="{worst[g]!r}">{worst[g]:.3f}</td>' if g in worst else "<td></td>")
        rows.append(f"<tr><td>{html.escape(g)}</td>{''.join(tds)}</tr>")
    return (
        f'<div class="wide"><table class="sortable grid"><thead><tr><th>guesser</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def mix_table(side: str, names, mix) -> str:
    rows = "".join(f"<tr><td>{html.escape(n)}</td><td>{p:.3f}</td></tr>" for n, p in zip(names, mix))
    return (
        f'<table class="sortable mix"><thead><tr><th>{side}</th><th>probability</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )


#: The every-cell table's columns shown as one: a mean's 95% interval, from its two ends.
INTERVALS = ("_ci_low", "_ci_high")


def cells_section(report) -> str:
    """Every cell's row, with results.csv's columns less those empty in every row, the two ends
    of each interval shown as one column; one number format per column (`column_format`)."""
    columns, rows = report.columns(), report.rows()
    keep = [k for k, name in enumerate(columns) if any(row[k] not in (None, "") for row in rows)]
    shown = [columns[k] for k in keep if not columns[k].endswith(INTERVALS[1])]
    formats = {name: column_format(name, [row[k] for row in rows]) for k, name in enumerate(columns) if k in keep}
    body = []
    for values in rows:
        field = dict(zip(columns, values))
        tds = []
        for name in shown:
            v = field[name]
            if name.endswith(INTERVALS[0]):
                high = field[name[: -len(INTERVALS[0])] + INTERVALS[1]]
                text = "" if v is None else f"[{v:{formats[name]}}, {high:{formats[name]}}]"
            elif v is None:
                text = ""
            else:
                text = format(v, formats[name]) if formats[name] and _number(v) else str(v)
            mark = ' class="failed"' if name == "status" and v != "ok" else ""
            mark += ' class="error"' if name == "error" else ""
            sort = f' data-sort="{v!r}"' if formats[name] and _number(v) else ""
            tds.append(f"<td{mark}{sort}>{html.escape(text)}</td>")
        body.append(f"<tr>{''.join(tds)}</tr>")
    heads = [n[: -len(INTERVALS[0])] + " 95% interval" if n.endswith(INTERVALS[0]) else n for n in shown]
    head = "".join(f"<th>{html.escape(n)}</th>" for n in heads)
    return (
        '<h2>Every cell</h2><p class="note">results.csv\'s columns (those with a figure in some row); '
        "counts with thousands separators, means and their errors to 3 decimals, rates as percentages.</p>"
        f'<div class="wide"><table class="sortable cells"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def column_format(column: str, values: list) -> str:
    """The one format of an every-cell column, by its kind: "" (as text) for names, verdicts
    and seeds; counts with thousands separators (one decimal where one is an average over
    repetitions); rates as percentages; every other figure, a mean, to 3 decimals."""
    numbers = [v for v in values if _number(v)]
    kind = column.removeprefix("published_")
    if not numbers or column == "seed":
        return ""
    if kind.endswith("_rate"):
        return ".1%"
    if kind in ("total", "max", "misses_max", "repeat") or strikes_in(kind) is not None:
        return ",.0f" if all(float(v).is_integer() for v in numbers) else ",.1f"
    return ".3f"


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


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
