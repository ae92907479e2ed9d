"""A researcher's own study: results that follow the agent's code, configs that grow without
recomputing, every payoff in every output, stored runs loaded in Python, configs read strictly,
and an agent's failure told at its own line."""

import csv
import json
import os
import re
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import arena.core.digests as digests
import arena.study.tournament.play as runner
from arena import make_game
from arena.cli.parser import main
from arena.core.errors import ArenaError
from arena.study.config import load_config, reference
from arena.study.results.report import Report
from arena.study.tournament import expand
from arena.study.tournament.run import run_config

ARENA = str(Path(sys.executable).with_name("arena"))
ROOT = Path(__file__).resolve().parent.parent
SMALL = "mastermind:pegs=3,colors=4"


def readme_guesser() -> str:
    """The README's example guesser, as a user would save it (first_ten.py)."""
    text = (ROOT / "README.md").read_text()
    return re.search(r"```python\n(import numpy as np\n\nfrom agents import Guesser\n.*?)```", text, re.S)[1]


def write(path: Path, text: str) -> str:
    path.write_text(textwrap.dedent(text))
    return str(path)


def arena(*args, cwd, env=None):
    return subprocess.run(
        [ARENA, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(cwd), **(env or {})},
    )


def stored_tallies(out: Path) -> dict[str, str]:
    with sqlite3.connect(out / "results.sqlite") as db:
        return dict(db.execute("SELECT key, tally FROM tasks"))


def csv_rows(path: Path) -> dict[str, dict]:
    with open(path, newline="") as f:
        return {row["label"] + "|" + row["chooser"]: row for row in csv.DictReader(f)}


# --- results follow the code ------------------------------------------------------------------


def test_a_changed_module_class_agent_reruns_exactly_its_cells_with_the_new_number(tmp_path):
    (tmp_path / "first_ten.py").write_text(readme_guesser())
    config = write(
        tmp_path / "c.toml",
        f'''
        game = "{SMALL}"
        choosers = ["uniform", "evil"]
        guessers = ["lowest", "first_ten:FirstTen"]
        ''',
    )
    out = tmp_path / "out"
    first = arena("run", config, "--out", str(out), "--allow-import", "--no-plots", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    before = csv_rows(out / "results.csv")
    source = (tmp_path / "first_ten.py").read_text()
    (tmp_path / "first_ten.py").write_text(source.replace("[:10]", "[:1]"))
    again = arena("run", config, "--out", str(out), "--allow-import", "--no-plots", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "2 tasks reused, 2 to run (2 rerun: first_ten:FirstTen: code changed)" in again.stderr
    after = csv_rows(out / "results.csv")
    assert after["lowest|uniform"] == before["lowest|uniform"] and after["lowest|evil"] == before["lowest|evil"]
    fresh = arena("evaluate", SMALL, "first_ten:FirstTen", "--allow-import", "--json", cwd=tmp_path)
    assert float(after["first_ten:FirstTen|uniform"]["total"]) == json.loads(fresh.stdout)["total"]
    assert after["first_ten:FirstTen|uniform"]["total"] != before["first_ten:FirstTen|uniform"]["total"]
    third = arena("run", config, "--out", str(out), "--allow-import", "--no-plots", cwd=tmp_path)
    assert "4 tasks reused, 0 to run" in third.stderr


PLUGIN = '''
from agents import Guesser


class Pick(Guesser):
    """The consistent guess at a fixed place in the pool."""

    name = "pick"

    def choose(self, game, state):
        pool = game.candidate_guesses(state.candidates)
        return int(pool[min({place}, len(pool) - 1)])
'''


def _plugin(root: Path, version: str, place: int) -> Path:
    """A distribution `arena-study-plugin` installed into root (a folder for PYTHONPATH) as pip
    would leave it: the module and its .dist-info with the `arena.agents` entry point."""
    root.mkdir()
    (root / "study_plugin.py").write_text(PLUGIN.replace("{place}", str(place)))
    info = root / f"arena_study_plugin-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: arena-study-plugin\nVersion: {version}\n")
    (info / "entry_points.txt").write_text("[arena.agents]\npick = study_plugin:Pick\n")
    return root


def test_an_entry_point_agent_reruns_when_its_code_or_its_distribution_changes(tmp_path):
    config = write(tmp_path / "c.toml", f'game = "{SMALL}"\nguessers = ["lowest", "pick"]\n')
    out = str(tmp_path / "out")
    site = _plugin(tmp_path / "v1", "0.1", 1)
    run = arena("run", config, "--out", out, "--no-plots", cwd=tmp_path, env={"PYTHONPATH": str(site)})
    assert run.returncode == 0, run.stderr
    site = _plugin(tmp_path / "v2", "0.1", 2)  # the same version, other code
    run = arena("run", config, "--out", out, "--no-plots", cwd=tmp_path, env={"PYTHONPATH": str(site)})
    assert "1 task reused, 1 to run (1 rerun: pick: code changed)" in run.stderr, run.stderr
    site = _plugin(tmp_path / "v3", "0.2", 2)  # the same code, another release
    run = arena("run", config, "--out", out, "--no-plots", cwd=tmp_path, env={"PYTHONPATH": str(site)})
    assert "1 task reused, 1 to run (1 rerun: pick: arena-study-plugin 0.1 -> 0.2)" in run.stderr, run.stderr
    run = arena("run", config, "--out", out, "--no-plots", cwd=tmp_path, env={"PYTHONPATH": str(site)})
    assert "2 tasks reused, 0 to run" in run.stderr


def test_a_new_project_version_reruns_every_task(tmp_path, monkeypatch):
    config = write(tmp_path / "c.toml", f'game = "{SMALL}"\nguessers = ["lowest", "knuth"]\n')
    out = str(tmp_path / "out")
    run_config(load_config(config), out=out)
    lines = []
    run_config(load_config(config), out=out, notice=lines.append)
    assert lines == [
        "2 tasks reused, 0 to run; 2 tasks for 2 cells (a task: a cell's games, or a block of up to 5 of a random agent's repetitions)"
    ]
    monkeypatch.setattr(digests, "project_version", lambda: "9.9.9")
    lines.clear()
    run_config(load_config(config), out=out, notice=lines.append)
    assert re.fullmatch(
        r"0 tasks reused, 2 to run \(2 rerun: arena changed \(\S+ -> 9\.9\.9\+\w+\)\); 2 tasks .*", lines[0]
    )


def test_a_module_changed_after_this_process_imported_it_is_refused(tmp_path, monkeypatch):
    (tmp_path / "stale_agent.py").write_text(readme_guesser())
    monkeypatch.syspath_prepend(str(tmp_path))
    config = write(tmp_path / "c.toml", f'game = "{SMALL}"\nguesser = "stale_agent:FirstTen"\n')
    run_config(load_config(config, allow_import=True), out=str(tmp_path / "out"))
    (tmp_path / "stale_agent.py").write_text(readme_guesser().replace("[:10]", "[:2]"))
    with pytest.raises(ArenaError, match="changed on disk after this Python process imported it"):
        run_config(load_config(config, allow_import=True), out=str(tmp_path / "out"))
    sys.modules.pop("stale_agent", None)


# --- studies grow -----------------------------------------------------------------------------

HEAD = """
seed = 5
repeat = 4
block = 2
game = "{game}"
chooser = "uniform"
"""
ROW = '[[rows]]\nguesser = "{}"\n'
#: The study, grown three times: a guesser added, a chooser added, the seed of one row changed.
GROWING = [
    HEAD + ROW.format("lowest") + ROW.format("random"),
    HEAD + ROW.format("lowest") + ROW.format("random") + ROW.format("entropy"),
    HEAD
    + ROW.format("lowest")
    + ROW.format("random")
    + ROW.format("entropy")
    + ROW.format("lowest")
    + 'chooser = "evil"\n',
    HEAD
    + ROW.format("lowest")
    + ROW.format("random")
    + "seed = 6\n"
    + ROW.format("entropy")
    + ROW.format("lowest")
    + 'chooser = "evil"\n',
]


def test_a_study_grows_three_times_reusing_every_stored_task_byte_for_byte(tmp_path, monkeypatch):
    played = []
    real = runner.play_task
    monkeypatch.setattr(runner, "play_task", lambda task: played.append(task.key) or real(task))
    out = tmp_path / "grown"
    expected_runs = [3, 1, 1, 2]  # random plays 4 repetitions in blocks of 2: two tasks
    before: dict[str, str] = {}
    for step, (text, runs) in enumerate(zip(GROWING, expected_runs)):
        path = write(tmp_path / f"c{step}.toml", text.replace("{game}", SMALL))
        played.clear()
        lines = []
        config = load_config(path)
        run_config(config, out=str(out), notice=lines.append)
        planned = len(expand(config.cells, config.block))
        assert len(played) == runs, (step, lines)
        assert not set(played) & set(before), "a stored task was computed again"
        now = stored_tallies(out)
        assert all(now[k] == v for k, v in before.items()), "a stored result changed"
        before = now
        if step:
            assert lines[0].startswith(
                f"{planned - runs} tasks reused, {runs} to run ({runs} new); {planned} tasks for "
            )
    fresh = tmp_path / "fresh"
    final = write(tmp_path / "final.toml", GROWING[-1].replace("{game}", SMALL))
    grown_report = run_config(load_config(final), out=str(out))
    fresh_report = run_config(load_config(final), out=str(fresh))
    grown_report.write_csv(tmp_path / "grown.csv")
    fresh_report.write_csv(tmp_path / "fresh.csv")
    assert (tmp_path / "grown.csv").read_bytes() == (tmp_path / "fresh.csv").read_bytes()
    fresh_tallies = stored_tallies(fresh)
    assert all(before[k] == v for k, v in fresh_tallies.items())  # each reused result is a fresh run's bytes
    assert len(before) > len(fresh_tallies)  # the old seed's tasks stay stored, unreported
    assert len(Report.from_dir(out).results) == 4


def test_a_changed_word_file_reruns_only_the_tasks_that_read_it(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("crane\nslate\nghost\nplumb\nfjord\nwaltz\n")
    config = write(tmp_path / "c.toml", f'games = ["jotto:words={words}", "{SMALL}"]\nguesser = "lowest"\n')
    out = str(tmp_path / "out")
    run_config(load_config(config), out=out)
    words.write_text("crane\nslate\nghost\nplumb\n")
    lines = []
    run_config(load_config(config), out=out, notice=lines.append)
    assert lines[0].startswith(f"1 task reused, 1 to run (1 rerun: {words} changed); 2 tasks for 2 cells")


# --- every figure in every output --------------------------------------------------------------

HANGMAN = """
title = "hangman study"
seed = 3
repeat = 4
strikes = [6, 8]
games = ["hangman:length=5,first=40"]
choosers = ["uniform", "evil"]
guessers = ["most-parts", "random"]
"""


@pytest.fixture(scope="module")
def hangman_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("hangman")
    config = write(root / "h.toml", HANGMAN)
    assert main(["run", config, "--out", str(root / "out")]) == 0
    return root / "out", run_config(load_config(config))


def test_hangman_payoffs_agree_in_the_csv_the_frame_the_summary_and_the_meta_game(hangman_run):
    out, report = hangman_run
    rows = csv_rows(out / "results.csv")
    for column in (
        "misses",
        "misses_max",
        "lost6",
        "lost6_rate",
        "lost8",
        "lost8_rate",
        "misses_se",
        "mean_se",
        "mean_ci_low",
        "mean_ci_high",
        "misses_ci_low",
        "misses_ci_high",
    ):
        assert column in rows["random|uniform"], column
    frame = report.to_frame()
    for r in report.results:
        row = rows[f"{r.cell.label}|{r.cell.chooser}"]
        assert float(row["misses"]) == pytest.approx(r.ours["misses"], abs=1e-6)
        assert float(row["lost6_rate"]) == pytest.approx(r.ours["lost6_rate"], abs=1e-6)
        line = frame[(frame.label == r.cell.label) & (frame.chooser == r.cell.chooser)].iloc[0]
        assert line["lost8_rate"] == pytest.approx(r.ours["lost8_rate"], abs=1e-6)
    assert rows["most-parts|uniform"]["misses_se"] == ""  # deterministic against every secret: exact
    summary = (out / "summary.txt").read_text()
    assert "mean misses per game ± standard error (worst) [loss rate within 6, 8 strikes]" in summary
    meta = next(line for line in summary.splitlines() if "meta-game" in line)
    assert "meta-game on mean misses per game: value" in meta and " misses; choosers:" in meta
    solved = report.meta_game("hangman:length=5,first=40")
    choosers, guessers, value = solved.choosers, solved.guessers, solved.value
    assert str(solved) == meta  # the line printed is the MetaGame's own text
    grid = {(c, g): r.ours["misses"] for r in report.results for c, g in [(r.cell.chooser, r.cell.label)]}
    best_guesser_worst = min(max(grid[c, g] for c in choosers) for g in guessers)
    assert value <= best_guesser_worst + 1e-9  # the value is on misses, not guesses


def test_a_config_picks_the_payoff_and_every_output_names_it(tmp_path, monkeypatch):
    import matplotlib.figure

    titles = []
    real = matplotlib.figure.Figure.savefig

    def record(fig, *args, **kwargs):
        titles.append(
            " | ".join(
                t
                for t in [fig._suptitle.get_text() if fig._suptitle else ""]
                + [ax.get_title() for ax in fig.axes]
                + [ax.get_ylabel() for ax in fig.axes]
                if t
            )
        )
        return real(fig, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", record)
    config = write(tmp_path / "h.toml", HANGMAN + 'payoff = "lost6"\n')
    assert main(["run", config, "--out", str(tmp_path / "out")]) == 0
    summary = (tmp_path / "out" / "summary.txt").read_text()
    assert "share of games lost within 6 strikes" in summary
    assert "meta-game on share of games lost within 6 strikes: value" in summary and "% of games lost" in summary
    heat, hist, mix = titles
    assert "share of games lost within 6 strikes" in heat
    assert "guesses per game" in hist
    assert "meta-game on share of games lost within 6 strikes, value" in mix and "of games lost within 6" in mix


def test_payoffs_a_game_cannot_measure_are_refused_in_one_line(tmp_path, capsys):
    for text, message in (
        (f'game = "{SMALL}"\nguesser = "lowest"\npayoff = "misses"\n', "needs a game where misses"),
        ('game = "hangman:first=30"\nguesser = "lowest"\npayoff = "lost7"\n', "add strikes = [7]"),
        (f'game = "{SMALL}"\nguesser = "lowest"\npayoff = "time"\n', "unknown payoff 'time'"),
    ):
        assert main(["run", write(tmp_path / "p.toml", text)]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err


# --- stored runs in Python -------------------------------------------------------------------


def test_from_dir_loads_a_finished_run_as_the_run_returned_it(hangman_run):
    out, report = hangman_run
    stored = Report.from_dir(out)
    assert stored.to_frame().equals(report.to_frame())
    assert stored.summary() == report.summary()
    ranking = stored.ranking()
    assert {r["guesser"] for r in ranking} == {"most-parts", "random"} and all(r["payoff"] == "misses" for r in ranking)
    random_rows = [r for r in ranking if r["guesser"] == "random"]
    assert all(r["ci_low"] < r["mean"] < r["ci_high"] and r["se"] > 0 for r in random_rows)
    assert all(r["se"] is None for r in ranking if r["guesser"] == "most-parts")
    game = "hangman:length=5,first=40"
    grid = stored.grid(game)
    assert grid.columns.name == "mean misses per game" and list(grid.columns) == ["uniform", "evil"]
    assert grid.loc["random", "evil"] == pytest.approx(
        next(r.ours["misses"] for r in report.results if r.cell.label == "random" and r.cell.chooser == "evil")
    )
    solution = stored.meta_game_solution(game)
    assert solution["payoff"] == "misses" and solution["unit"] == "misses"
    assert sum(solution["choosers"].values()) == pytest.approx(1) and sum(
        solution["guessers"].values()
    ) == pytest.approx(1)
    assert solution["value"] == pytest.approx(min(grid.max(axis=1)))  # here the grid has a saddle point


def test_from_dir_loads_a_partial_and_a_failed_run(tmp_path, monkeypatch):
    (tmp_path / "broken.py").write_text(
        textwrap.dedent("""
        from agents import Guesser


        class Broken(Guesser):
            name = "broken"

            def choose(self, game, state):
                return int(game.guesses_naming(state.candidates[:0])[0])
        """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    config = write(
        tmp_path / "c.toml",
        f'game = "{SMALL}"\nchoosers = ["uniform", "evil"]\nguessers = ["lowest", "broken:Broken", "knuth"]\n',
    )
    out = tmp_path / "out"
    real = runner.play_task
    calls = []

    def stop_after_three(task):
        if len(calls) == 3:
            raise KeyboardInterrupt
        calls.append(task)
        return real(task)

    monkeypatch.setattr(runner, "play_task", stop_after_three)
    monkeypatch.setattr(runner, "outside_code", lambda task: False)  # Ctrl-C simulated here, in this process
    with pytest.raises(KeyboardInterrupt, match="3 of 6 tasks are stored"):
        run_config(load_config(config, allow_import=True), out=str(out))
    partial = Report.from_dir(out)
    assert [r.status for r in partial.results].count("not run") == 3
    assert "not solved" in partial.summary()
    monkeypatch.setattr(runner, "play_task", real)
    run_config(load_config(config, allow_import=True), out=str(out))
    done = Report.from_dir(out)
    failed = [r for r in done.results if r.status == "failed"]
    assert len(failed) == 2 and all("broken:Broken failed at broken.py:9 in choose" in r.error for r in failed)
    frame = done.to_frame()
    assert list(frame.status).count("failed") == 2 and frame[frame.status == "failed"]["mean"].isna().all()


def test_from_dir_of_a_directory_without_a_store_says_so(tmp_path):
    with pytest.raises(ArenaError, match="no results.sqlite here"):
        Report.from_dir(tmp_path)


# --- configs are checked ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        (f'game = "{SMALL}"\nguesser = ["lowest", "knuth"]\n', "guesser takes one spec; for a list write guessers"),
        (
            f'game = "{SMALL}"\nguessers = ["lowest"]\nchoser = "evil"\n',
            "unknown key 'choser'; did you mean 'chooser'?",
        ),
        (f'game = "{SMALL}"\n[[rows]]\nguesser = "lowest"\nsed = 4\n', "unknown key 'sed'; did you mean 'seed'?"),
    ],
)
def test_config_mistakes_name_the_key_and_the_nearest_valid_one(tmp_path, text, message):
    with pytest.raises(ArenaError, match=re.escape(message)):
        load_config(write(tmp_path / "c.toml", text))


def test_the_config_reference_page_is_written_from_the_parser_table():
    page = (ROOT / "docs" / "reference" / "config.md").read_text()
    assert page.strip() == reference().strip(), "regenerate it: python -m arena.study.config > docs/reference/config.md"
    assert "docs/reference/config.md" in (ROOT / "README.md").read_text()


# --- an agent that meets a game it cannot play --------------------------------------------------


@pytest.mark.parametrize("game", ["jotto:first=60", SMALL, "hangman:length=5,first=60", "wordle:first=60"])
def test_the_readme_guesser_plays_every_game(tmp_path, monkeypatch, game):
    from agents import make_guesser
    from arena.play.evaluate import evaluate

    (tmp_path / "first_ten_all.py").write_text(readme_guesser())
    monkeypatch.syspath_prepend(str(tmp_path))
    result = evaluate(make_game(game), make_guesser("first_ten_all:FirstTen", allow_import=True))
    assert result.n == len(make_game(game).secrets) and result.max >= 1
    sys.modules.pop("first_ten_all", None)


def test_a_failing_outside_agent_is_one_line_naming_its_own_line(tmp_path):
    (tmp_path / "naming.py").write_text(readme_guesser().replace("candidate_guesses", "guesses_naming"))
    result = arena("evaluate", "hangman:length=5,first=60", "naming:FirstTen", "--allow-import", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert re.fullmatch(
        r"arena evaluate: error: guesser naming:FirstTen failed at naming\.py:\d+ in choose "
        r"\(.*argmax.*\): ValueError: attempt to get argmax of an empty sequence\n",
        result.stderr,
    )
    config = write(tmp_path / "c.toml", 'game = "hangman:length=5,first=60"\nguessers = ["naming:FirstTen"]\n')
    run = arena("run", config, "--allow-import", cwd=tmp_path)
    assert "guesser naming:FirstTen failed at naming.py:" in run.stdout and "fromnumeric" not in run.stdout


# --- smaller ---------------------------------------------------------------------------------


def test_an_installed_guesser_is_not_listed_among_the_choosers(tmp_path):
    site = _plugin(tmp_path / "p", "0.1", 1)
    result = arena("evaluate", SMALL, "lowest", "--chooser", "nobody", cwd=tmp_path, env={"PYTHONPATH": str(site)})
    assert "unknown chooser 'nobody'" in result.stderr and "pick" not in result.stderr.split("choosers:")[1]
    result = arena("evaluate", SMALL, "nobody", cwd=tmp_path, env={"PYTHONPATH": str(site)})
    assert "pick" in result.stderr.split("guessers:")[1]


def test_an_option_of_another_command_gets_the_subcommands_usage(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["evaluate", "mastermind", "knuth", "--workers", "2"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("usage: arena evaluate")
    assert "arena evaluate: error: unrecognized arguments: --workers 2" in err


def test_an_interrupted_run_says_what_it_stored_and_the_resumed_bar_counts_from_there(tmp_path, monkeypatch, capsys):
    config = write(tmp_path / "c.toml", f'game = "{SMALL}"\nguessers = ["lowest", "knuth", "entropy"]\n')
    real = runner.play_task
    calls = []

    def stop_after_one(task):
        if calls:
            raise KeyboardInterrupt
        calls.append(task)
        return real(task)

    monkeypatch.setattr(runner, "play_task", stop_after_one)
    assert main(["run", config, "--out", str(tmp_path / "out"), "--no-plots"]) == 130
    err = capsys.readouterr().err
    assert "arena run: interrupted: 1 of 3 tasks are stored in" in err and "run the same command again" in err
    monkeypatch.setattr(runner, "play_task", real)
    bars = []
    monkeypatch.setattr(
        runner,
        "TaskBar",
        lambda total, initial=0: (
            bars.append((total, initial)) or type("Bar", (), {"step": lambda self: None, "close": lambda self: None})()
        ),
    )
    run_config(load_config(config), out=str(tmp_path / "out"), progress=True)
    assert bars == [(3, 1)]


# --- exploitability -----------------------------------------------------------------------------


def test_exploitability_is_the_worst_secret_less_the_game_value(capsys):
    from agents import make_guesser
    from arena.equilibrium import double_oracle
    from arena.equilibrium.exploitable import exploitability

    game = make_game(SMALL)
    eq = double_oracle(game)
    knuth = exploitability(game, make_guesser("knuth"), equilibrium=eq)
    tree_worst = int(game.tree("knuth").guesses.max())
    assert knuth.worst == tree_worst and knuth.error is None and str(knuth.value) == "219/68"
    assert knuth.exploitability[0] == pytest.approx(tree_worst - 219 / 68)
    random = exploitability(game, make_guesser("random"), repeat=8, seed=3, equilibrium=eq)
    from arena.trees.grow import grow_tree

    per_secret = sum(grow_tree(game, make_guesser("random").seeded(3, r)).guesses for r in range(8)) / 8
    assert random.worst == pytest.approx(per_secret.max()) and random.error > 0
    assert random.worst >= float(random.value) - 1e-9  # no guesser beats the value on its worst secret
    assert main(["evaluate", SMALL, "knuth", "--exploitability"]) == 0
    out = capsys.readouterr().out
    assert "game value: 3.220588 guesses = 219/68 (exact)" in out and "exploitability: 0.779412 guesses" in out
    assert main(["evaluate", SMALL, "knuth", "--time-limit", "3"]) == 2
    assert "give it with --exploitability" in capsys.readouterr().err


def test_the_grid_has_each_guessers_cost_against_its_worst_secret(hangman_run):
    from agents import make_guesser
    from arena.trees.grow import grow_tree

    out, report = hangman_run
    game = "hangman:length=5,first=40"
    worst = report.worst_secrets(game)
    assert worst["most-parts"] == grow_tree(make_game(game), make_guesser("most-parts")).misses.max()
    random = next(r for r in report.results if r.cell.label == "random" and r.cell.chooser == "uniform").ours
    assert random["misses"] <= worst["random"] <= random["misses_max"]
    assert "worst secret" in (out / "summary.txt").read_text().splitlines()[-4]
    assert float(csv_rows(out / "results.csv")["random|uniform"]["misses_worst_secret"]) == worst["random"]


def test_per_secret_totals_add_up_block_by_block():
    from agents import make_guesser
    from arena.play.evaluate import evaluate
    from arena.study.tournament.tally import Tally

    game = make_game(SMALL)
    one, two = (evaluate(game, make_guesser("random"), repeat=3, seed=s) for s in (1, 2))
    both = Tally.of(one, every_secret=True) + Tally.of(two, every_secret=True)
    assert both.secret_guesses == list(one.guesses.sum(axis=0) + two.guesses.sum(axis=0))
    assert both.figures()["worst_secret"] == (one.guesses.sum(axis=0) + two.guesses.sum(axis=0)).max() / 6
    assert Tally.from_json(both.to_json()) == both
