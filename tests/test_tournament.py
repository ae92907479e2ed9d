"""Tournaments: seeds per task, parallel runs, the results store, a run killed and resumed."""

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from plugin_package import install_package

from arena.cli.parser import main
from arena.core.errors import ArenaError
from arena.study.config import load_config
from arena.study.tournament import expand, task_seed
from arena.study.tournament.run import Execution, run_config

ARENA = str(Path(sys.executable).with_name("arena"))

CONFIG = """
title = "small tournament"
seed = 42
repeat = 6
block = 2
games = ["mastermind:pegs=3,colors=4", "jotto:first=200", "hangman:length=5,first=300"]
guessers = ["lowest", "random", "entropy:ties=exact", "max-frequency"]
"""


def write(tmp_path, text=CONFIG, name="t.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_task_seeds_depend_on_identity_not_order():
    assert task_seed(1, "g", "c", "q", 0) == task_seed(1, "g", "c", "q", 0)
    assert len({task_seed(1, "g", "c", "q", b) for b in range(50)}) == 50
    assert task_seed(1, "g", "c", "q", 0) != task_seed(2, "g", "c", "q", 0)


def test_random_agents_split_into_blocks(tmp_path):
    config = load_config(write(tmp_path))
    tasks = expand(config.cells, config.block)
    random = [t for t in tasks if t.guesser == "random"]
    assert [t.repeat for t in random if t.game == "jotto:first=200"] == [2, 2, 2]
    assert all(t.repeat == 1 for t in tasks if t.guesser != "random")


def test_same_seed_same_csv_whatever_the_workers(tmp_path):
    path = write(tmp_path)
    one, two = tmp_path / "one", tmp_path / "two"
    for out, workers in [(one, "1"), (two, "2")]:
        assert main(["run", path, "--workers", workers, "--out", str(out), "--no-plots"]) == 0
    assert (one / "results.csv").read_bytes() == (two / "results.csv").read_bytes()


def test_same_csv_on_a_local_dask_cluster(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    path = write(tmp_path)
    assert main(["run", path, "--out", str(tmp_path / "local"), "--no-plots"]) == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        assert (
            main(
                [
                    "run",
                    path,
                    "--backend",
                    "dask",
                    "--scheduler",
                    cluster.scheduler_address,
                    "--out",
                    str(tmp_path / "dask"),
                    "--no-plots",
                ]
            )
            == 0
        )
    assert (tmp_path / "local" / "results.csv").read_bytes() == (tmp_path / "dask" / "results.csv").read_bytes()


def test_a_killed_run_resumes_to_the_same_results(tmp_path):
    config = write(tmp_path, CONFIG.replace("repeat = 6", "repeat = 40"))
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    subprocess.run([ARENA, "run", config, "--out", str(whole), "--no-plots"], check=True, capture_output=True)
    process = subprocess.Popen(
        [ARENA, "run", config, "--out", str(killed), "--no-plots"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    store = killed / "results.sqlite"
    deadline = time.time() + 60
    while time.time() < deadline and process.poll() is None:
        if store.exists() and _stored(store) >= 5:
            break
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    done_before = _stored(store)
    assert 0 < done_before, "the run should have stored some tasks before it was killed"
    subprocess.run([ARENA, "run", config, "--out", str(killed), "--no-plots"], check=True, capture_output=True)
    assert (whole / "results.csv").read_bytes() == (killed / "results.csv").read_bytes()
    total = len(expand(load_config(config).cells, 2))
    assert _stored(store) == total  # no task lost or stored twice


def _stored(path) -> int:
    import sqlite3

    try:
        with sqlite3.connect(path) as db:
            return db.execute("SELECT count(*) FROM tasks").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_changed_config_runs_only_its_new_tasks_and_force_discards(tmp_path, capsys):
    out = str(tmp_path / "out")
    assert main(["run", write(tmp_path), "--out", out, "--no-plots"]) == 0
    held = _stored(tmp_path / "out" / "results.sqlite")
    changed = write(tmp_path, CONFIG.replace("seed = 42", "seed = 43"), "u.toml")
    capsys.readouterr()
    assert main(["run", changed, "--out", out, "--no-plots"]) == 0
    assert "reused" in capsys.readouterr().err
    grown = _stored(tmp_path / "out" / "results.sqlite")
    assert grown > held  # the old seed's results are kept beside the new ones
    assert main(["run", changed, "--out", out, "--force", "--no-plots"]) == 0
    assert _stored(tmp_path / "out" / "results.sqlite") == grown - held


def test_report_reprints_a_stored_tournament(tmp_path, capsys):
    out = str(tmp_path / "out")
    assert main(["run", write(tmp_path), "--out", out, "--no-plots"]) == 0
    first = capsys.readouterr().out
    assert main(["report", out]) == 0
    again = capsys.readouterr().out
    strip = lambda text: [line for line in text.splitlines() if not re.match(r"^\d+ cells; ", line)]
    assert strip(first) == strip(again)
    assert main(["report", str(tmp_path / "nothing")]) == 2


BROKEN = """
from agents import Guesser


class Broken(Guesser):
    name = "broken"

    def choose(self, game, state):
        raise ValueError("this agent always fails")
"""


def test_an_agent_that_raises_fails_its_own_cells(tmp_path, capsys, monkeypatch):
    (tmp_path / "brokenagent.py").write_text(BROKEN)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    path = write(tmp_path, 'game = "mastermind:pegs=2,colors=3"\nguessers = ["lowest", "brokenagent:Broken"]\n')
    assert main(["run", path, "--allow-import"]) == 0  # a module:Class agent imports only when allowed
    out = capsys.readouterr().out
    assert (
        "FAILED 'brokenagent:Broken': guesser brokenagent:Broken failed at brokenagent.py:9 in choose "
        '(raise ValueError("this agent always fails")): ValueError: this agent always fails'
    ) in out
    from agents import imports_allowed

    with imports_allowed():
        report = run_config(load_config(path))
    assert report.results[0].error is None and report.results[1].error.endswith("ValueError: this agent always fails")


def test_how_a_run_runs_is_one_value_or_its_fields_one_by_one(tmp_path):
    """run_config takes an Execution, or its fields as keywords (which override it): the same
    results either way; a bad backend in either is the one-line error."""
    config = load_config(write(tmp_path, 'game = "mastermind:pegs=2,colors=3"\nguessers = ["lowest", "random"]\n'))
    given = run_config(config, execution=Execution(workers=1, timeout=60.0))
    loose = run_config(config, workers=1, timeout=60.0)
    overridden = run_config(config, execution=Execution(backend="nowhere"), backend="local")
    assert [r.ours for r in given.results] == [r.ours for r in loose.results] == [r.ours for r in overridden.results]
    for how in ({"execution": Execution(backend="nowhere")}, {"backend": "nowhere"}):
        with pytest.raises(ArenaError, match="unknown backend 'nowhere'; backends: local, dask"):
            run_config(config, **how)


PLUGIN = {
    "pyproject.toml": """
        [build-system]
        requires = ["setuptools"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "arena-plugin-demo"
        version = "0.1"

        [project.entry-points."arena.agents"]
        second-lowest = "plugin_demo:SecondLowest"
        """,
    "plugin_demo.py": '''
        from agents import Guesser


        class SecondLowest(Guesser):
            """The second consistent guess when there are two or more, else the only one."""

            name = "second-lowest"

            def choose(self, game, state):
                pool = game.candidate_guesses(state.candidates)
                return int(pool[min(1, len(pool) - 1)])
        ''',
}


def test_a_third_party_package_plugs_in_through_the_entry_point(tmp_path):
    target = install_package(tmp_path, PLUGIN)
    config = write(tmp_path, 'game = "mastermind:pegs=2,colors=3"\nguessers = ["lowest", "second-lowest"]\n')
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run([ARENA, "run", config], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    assert "second-lowest" in run.stdout and "FAILED" not in run.stdout
    agents = subprocess.run([ARENA, "agents"], capture_output=True, text=True, env=env).stdout
    assert "second-lowest (guesser)" in agents
