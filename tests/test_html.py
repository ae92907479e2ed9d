"""The HTML page shows what the terminal shows (issue 35): the grid's `± standard error` and
worst-secret column, an every-cell table with one number format per column, histograms where
tied guessers stay visible, the meta-game's ties and every pure equilibrium strategy, and the
dynamics as prose and a table; every name escaped."""

from __future__ import annotations

import html
import re
import textwrap
from html.parser import HTMLParser

import numpy as np
import pytest
from cli_run import run

from arena.cli.parser import main
from arena.study.results.html import column_format, equivalent_strategies, html_page, pure_equilibrium_strategies
from arena.study.tournament.output import histogram_figure, stored_report

#: knuth is minimax (its own summary says so): two deterministic guessers with identical rows.
#: The second's label and the title carry markup that the page must escape.
TIED = "minimax <i>Knuth</i> &amp;"
CONFIG = f"""
title = "ties <b>and</b> & escapes"
seed = 3
repeat = 3
games = ["mastermind:pegs=3,colors=4"]
choosers = ["uniform", "evil", "minimax"]
guessers = ["lowest", "knuth", {{ spec = "minimax", label = "{TIED}" }}, "entropy", "random"]
"""
GAME = "mastermind:pegs=3,colors=4"


@pytest.fixture(scope="module")
def ties(tmp_path_factory):
    where = tmp_path_factory.mktemp("ties")
    (where / "t.toml").write_text(textwrap.dedent(CONFIG))
    assert main(["run", str(where / "t.toml"), "--out", str(where / "out"), "--no-plots"]) == 0
    return where / "out"


@pytest.fixture(scope="module")
def page(ties) -> str:
    return html_page(stored_report(str(ties)), dynamics=True)


def table(text: str, css: str) -> tuple[list[str], list[list[str]]]:
    """The heads and the rows' cell texts (unescaped) of the first table of class `css`."""
    found = text.split(f'<table class="sortable {css}">')[1].split("</table>")[0]
    heads = [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", found)]
    rows = [
        [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", found.split("<tbody>")[1])
    ]
    return heads, rows


def test_the_grid_holds_what_the_terminal_prints(ties, page, capsys):
    rc, out, err = run(capsys, "report", ties)
    assert rc == 0, err
    heads, rows = table(page, "grid")
    assert heads[-1] == "worst secret" and "± standard error" in html.unescape(page)
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("guesser "))
    lw = max(len("guesser"), *(len(row[0]) for row in rows))
    for row, line in zip(rows, lines[header + 1 :]):
        assert line.startswith(f"{row[0]:<{lw}} ")
        width = (len(line) - lw - 1 - (len(row) - 2)) // (len(row) - 1)
        assert line[lw + 1 :] == " ".join(f"{t:>{width}}" for t in row[1:])  # cell for cell, as printed
    random = next(row for row in rows if row[0] == "random")
    assert all("±" in t for t in random[1:-1]) and random[-1] == "4.333"


def test_every_cell_table_fits_and_formats_each_column_one_way(ties, page):
    assert '<div class="wide"><table class="sortable cells">' in page  # scrolls inside the page
    heads, rows = table(page, "cells")
    assert "mean 95% interval" in heads and "mean_ci_high" not in heads
    assert "misses" not in heads and "error" not in heads  # empty in every row: left out
    patterns = {
        "count": r"\d{1,3}(,\d{3})*",
        "average count": r"\d{1,3}(,\d{3})*\.\d",
        "mean": r"-?\d+\.\d{3}",
        "interval": r"\[-?\d+\.\d{3}, -?\d+\.\d{3}\]",
        "text": r".*[^\d.,].*|\d+",
    }
    for k, head in enumerate(heads):
        texts = [row[k] for row in rows if row[k]]
        assert texts, head
        kinds = {next(n for n, p in patterns.items() if re.fullmatch(p, t)) for t in texts}
        assert len(kinds) == 1, (head, texts)
    first = {h: next(row[k] for row in rows if row[k]) for k, h in enumerate(heads)}
    kind_of = {h: next(n for n, p in patterns.items() if re.fullmatch(p, t)) for h, t in first.items()}
    assert kind_of["mean"] == kind_of["std"] == kind_of["worst_secret"] == "mean"
    assert kind_of["max"] == "count" and kind_of["total"] == "average count"  # repetitions averaged


def test_column_formats_by_kind():
    assert format(6029, column_format("total", [6029, 12000])) == "6,029"
    assert format(6029.5, column_format("total", [6029, 6029.5])) == "6,029.5"
    assert format(2200.4, column_format("mean", [2200.4, 3])) == "2200.400"
    assert format(3, column_format("published_mean", [2200.4, 3])) == "3.000"
    assert format(0.125, column_format("lost6_rate", [0.125])) == "12.5%"
    assert column_format("seed", [2026]) == column_format("status", ["ok"]) == column_format("mean", [None]) == ""


def test_tied_guessers_stay_visible_in_the_histograms(ties):
    report = stored_report(str(ties))
    choosers, guessers, cells = report.grids()[GAME]
    figure = histogram_figure(GAME, choosers, guessers, cells)
    for ax in figure.axes:
        lines = {line.get_label().split(" (=")[0]: line for line in ax.get_lines()}
        knuth, other = lines["knuth"], lines[TIED]
        assert TIED in knuth.get_label() and "knuth" in other.get_label()  # the legend says they coincide
        assert list(knuth.get_ydata()) == list(other.get_ydata())
        assert all(a != b for a, b in zip(knuth.get_xdata(), other.get_xdata()))  # side by side, not on top
        assert knuth.get_marker() != other.get_marker()
        assert knuth.get_label() in [t.get_text() for t in ax.get_legend().get_texts()]
        assert "identical, drawn side by side" in ax.get_legend().get_title().get_text()
    lowest = {line.get_label(): line for line in figure.axes[0].get_lines()}["lowest"]
    assert all(float(x).is_integer() for x in lowest.get_xdata())  # a line of its own: not moved
    import matplotlib.pyplot as plt

    plt.close(figure)


def test_the_meta_game_names_every_pure_equilibrium_strategy_and_the_ties(ties, page):
    notes = html.unescape(page.split('<ul class="meta">')[1].split("</ul>")[0])
    assert f"knuth = {TIED} (guessers): identical rows in the grid, either is an equilibrium strategy" in notes
    solution = stored_report(str(ties)).meta_game_solution(GAME)
    assert solution["guessers"]["entropy"] == pytest.approx(1)  # the solver names one of three
    assert f"pure equilibrium strategies): knuth, {TIED}, entropy<" in notes
    assert "choosers that guarantee the value on their own (pure equilibrium strategies): evil, minimax" in notes


def test_ties_and_pure_strategies_agree_with_the_solver():
    """200 random zero-sum games with a duplicated guesser: the duplicate is named, and every
    pure equilibrium strategy the solver finds is among those named."""
    from arena.equilibrium.matrix import solve_matrix_game

    rng = np.random.default_rng(35)
    for _ in range(200):
        m, n = rng.integers(2, 5, size=2)
        matrix = rng.integers(0, 4, size=(m, n)).astype(float)
        copy = int(rng.integers(n))
        matrix = np.column_stack([matrix, matrix[:, copy]])  # guesser n copies guesser `copy`
        solution = solve_matrix_game(matrix)
        choosers, guessers = [f"c{i}" for i in range(m)], [f"g{j}" for j in range(n + 1)]
        columns = matrix.T.tolist()
        groups = equivalent_strategies(guessers, columns)
        assert any({f"g{copy}", f"g{n}"} <= set(group) for group in groups)
        for group in groups:
            assert all(columns[guessers.index(a)] == columns[guessers.index(group[0])] for a in group)
        pure_guessers = pure_equilibrium_strategies(guessers, columns, solution.value, "guesser")
        pure_choosers = pure_equilibrium_strategies(choosers, matrix.tolist(), solution.value, "chooser")
        for j in np.flatnonzero(solution.column > 1 - 1e-9):
            assert guessers[j] in pure_guessers
        for i in np.flatnonzero(solution.row > 1 - 1e-9):
            assert choosers[i] in pure_choosers
        for g in pure_guessers:  # each guarantees the value against every chooser
            assert matrix[:, guessers.index(g)].max() <= solution.value + 1e-9
        assert (f"g{copy}" in pure_guessers) == (f"g{n}" in pure_guessers)


def test_the_dynamics_are_prose_and_a_table_not_monospace(ties, page):
    from arena.study.results.dynamics import dynamics
    from arena.study.results.export import meta_games

    section = page.split("<h3>Dynamics</h3>")[1].split("<img")[0]
    assert "<pre" not in section and '<p class="dynamics">' in section
    heads, rows = table(section, "dynamics")
    assert heads == ["side", "strategy", "equilibrium", "fictitious play", "replicator (time average)"]
    summary = dynamics(meta_games(stored_report(str(ties)))[GAME]).summary().splitlines()
    printed = [line.split()[-3:] for line in summary if line.startswith(("  chooser ", "  guesser "))]
    assert [row[2:] for row in rows] == printed  # the figures the terminal prints
    assert re.search(r"exploitability\): fictitious play \d\.\d{4}, replicator time average \d\.\d{4}", section)


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.add(tag)


def test_every_name_is_escaped(page):
    parser = Tags()
    parser.feed(page)
    assert "i" not in parser.tags  # the label's <i> is text, not markup
    assert "<b>and</b>" not in page and "ties &lt;b&gt;and&lt;/b&gt; &amp; escapes" in page
    assert html.escape(TIED) in page and TIED not in page
