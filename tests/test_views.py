"""A stored tournament's other views (`arena report DIR --export/--dynamics/--html`), and the
one-page HTML report opened in a real headless browser: Chromium runs the page's script, the
tables sort on a click, every plot decodes, and the screenshot is not blank."""

from __future__ import annotations

import base64
import html
import re
import shutil
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest
from cli_run import one_line, run

from arena.cli.parser import main
from arena.study.results.export import read_matrix_game
from arena.study.results.html import html_page
from arena.study.tournament.output import stored_report

CONFIG = """
title = "views of a small tournament"
seed = 5
repeat = 2
games = ["mastermind:pegs=3,colors=4", "jotto:first=120"]
choosers = ["uniform", "evil"]
guessers = ["lowest", "entropy", "rogue_agents:Raise"]
"""
#: The flags Chromium needs here (as root, no network, no screen), and a fresh profile each time.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A stored tournament of two games, with one guesser that fails every cell of its own."""
    where = tmp_path_factory.mktemp("views")
    (where / "t.toml").write_text(textwrap.dedent(CONFIG))
    import sys

    sys.path.insert(0, str(Path(__file__).parent))  # rogue_agents
    try:
        assert main(["run", str(where / "t.toml"), "--out", str(where / "out"), "--no-plots", "--allow-import"]) == 0
    finally:
        sys.path.remove(str(Path(__file__).parent))
    return where / "out"


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    """A stored tournament whose every cell ran: its meta-games can be exported."""
    where = tmp_path_factory.mktemp("measured")
    (where / "t.toml").write_text(textwrap.dedent(CONFIG).replace(', "rogue_agents:Raise"', ""))
    assert main(["run", str(where / "t.toml"), "--out", str(where / "out"), "--no-plots"]) == 0
    return where / "out"


@pytest.fixture(scope="module")
def page(stored, tmp_path_factory):
    path = tmp_path_factory.mktemp("page") / "report.html"
    path.write_text(html_page(stored_report(str(stored)), dynamics=False))
    return path


def test_the_page_holds_grids_plots_failures_and_config(page):
    text = page.read_text()
    assert text.count('<table class="sortable grid">') == 2  # a grid per game
    assert text.count('class="failed"') >= 4  # the failing guesser's cells, in grids and rows
    assert "this guesser always fails" in text and "rogue_agents:Raise" in text
    assert 'title = "views of a small tournament"' in html.unescape(text)  # the stored config, verbatim
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', text)
    assert len(images) == 4  # heat map and histograms per game (no meta-game: cells failed)
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    assert not re.search(r'(src|href)="(?!data:)', text)  # nothing to fetch: one self-contained file


def test_arena_report_writes_the_page_the_games_and_the_dynamics(measured, tmp_path, capsys):
    def files():  # the store's own: SQLite's -wal and -shm files come and go with its readers
        return sorted(p.name for p in measured.iterdir() if not p.name.startswith("results.sqlite-"))

    before = files()
    rc, out, err = run(
        capsys, "report", measured, "--html", tmp_path / "r.html", "--export", tmp_path / "meta.nfg", "--dynamics"
    )
    assert rc == 0, err
    assert files() == before  # report only reads the run's folder
    rc, out, err = run(
        capsys,
        "report",
        measured,
        "--html",
        tmp_path / "r.html",
        "--export",
        tmp_path / "meta.nfg",
        "--dynamics",
        tmp_path,
    )
    assert rc == 0, err
    text = (tmp_path / "r.html").read_text()
    assert text.count("<h3>Dynamics</h3>") == 2 and text.count("data:image/png;base64,") == 2 * 4
    for game in ("mastermind-pegs-3-colors-4", "jotto-first-120"):
        matrix = read_matrix_game(tmp_path / f"meta-{game}.nfg")
        value = float(re.search(rf"{game.split('-')[0]}\S*: meta-game, mean guesses per game: value (\S+);", out)[1])
        assert matrix.value() == pytest.approx(value, abs=1e-4)  # the value printed is the exported game's
        assert (tmp_path / f"dynamics-{game}.png").read_bytes().startswith(b"\x89PNG")
    assert out.count("exploitability") == 2


def test_a_tournament_with_failed_cells_has_no_meta_game_to_export(stored, tmp_path, capsys):
    rc, _, err = run(capsys, "report", stored, "--export", tmp_path / "meta.csv")
    one_line(rc, err, "no meta-game")


def test_report_files_are_checked_before_the_work(measured, tmp_path, capsys):
    rc, _, err = run(capsys, "report", measured, "--export", tmp_path / "meta.txt")
    one_line(rc, err, ".nfg", ".csv")
    rc, _, err = run(capsys, "report", measured, "--html", tmp_path / "page.txt")
    one_line(rc, err, ".html")
    rc, _, err = run(capsys, "report", measured, "--html", tmp_path / "nowhere" / "page.html")
    one_line(rc, err, "does not exist")


def chromium() -> str | None:
    return next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)


def browse(page: Path, *flags: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """Chromium on the page (a fresh profile), its JavaScript run, with `flags`."""
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    return subprocess.run(
        [
            chromium(),
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            "--virtual-time-budget=5000",
            *flags,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


needs_browser = pytest.mark.skipif(chromium() is None, reason="no headless browser here (apt-get install chromium)")


@needs_browser
def test_in_a_browser_the_tables_become_sortable_and_every_plot_decodes(page, tmp_path):
    done = browse(page, "--dump-dom", tmp_path=tmp_path)
    dom = done.stdout
    assert dom.count('data-ready="sortable"') == dom.count('class="sortable') > 0, done.stderr[-2000:]
    assert 'data-images-shown="4 of 4"' in dom


@needs_browser
def test_a_click_on_a_head_sorts_its_table(page, tmp_path):
    clicked = tmp_path / "clicked.html"
    heads = re.findall(r"<th>([^<]*)</th>", page.read_text().split('<table class="sortable cells"')[1])
    column = heads.index("mean") + 1
    click = (
        '<script>window.addEventListener("load", function () {'
        f'document.querySelector("table.cells th:nth-child({column})").click(); }});</script></body>'
    )
    clicked.write_text(page.read_text().replace("</body>", click))
    dom = browse(clicked, "--dump-dom", tmp_path=tmp_path).stdout
    table = dom.split('<table class="sortable cells"')[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1])
    means = [re.findall(r"<td[^>]*>([^<]*)</td>", row)[column - 1] for row in rows]
    numbers = [float(m) for m in means if m]
    assert len(numbers) == 8 and numbers == sorted(numbers)
    assert 'class="sorted-asc"' in table


@needs_browser
def test_the_screenshot_shows_the_page(page, tmp_path):
    shot = tmp_path / "shot.png"
    browse(page, f"--screenshot={shot}", "--window-size=1200,2400", tmp_path=tmp_path)
    import matplotlib.image  # lazy: heavy

    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.shape[:2] == (2400, 1200)
    colours = np.unique((pixels * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert pixels.std() > 0.05 and len(colours) > 500  # text, tables and the heat map's colours, not a blank page


def test_heat_map_numbers_are_dark_on_light_cells_and_light_on_dark(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from arena.study.tournament.output import ink_on

    image = plt.imshow(np.array([[4.0, 8.0]]), cmap="viridis")  # viridis: dark purple to light yellow
    assert (ink_on(image, 4.0), ink_on(image, 8.0)) == ("white", "black")
    plt.close("all")
