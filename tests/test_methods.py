"""A run's provenance (arena/study/tournament/methods.py): provenance.json, the head of summary.txt,
the HTML page's foot, `arena report DIR --methods`, and a damaged record refused in one line."""

from __future__ import annotations

import json

import numpy
import pytest
from cli_run import run

from arena.study.results.report import Report
from arena.study.tournament.methods import FILE, methods, read

CONFIG = """title = "provenance"
games = ["mastermind:pegs=2,colors=3"]
choosers = ["uniform", "evil"]
guessers = ["knuth", "random"]
repeat = 3
seed = 11
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    base = tmp_path_factory.mktemp("methods")
    config = base / "c.toml"
    config.write_text(CONFIG)
    from arena.cli.parser import main

    assert main(["run", str(config), "--out", str(base / "out"), "--no-plots"]) == 0
    return base / "out"


def test_the_record_says_what_computed_the_figures(run_dir):
    rec = json.loads((run_dir / FILE).read_text())
    assert rec["format"] == "arena-provenance/1" and rec["numpy"] == numpy.__version__ and rec["seeds"] == "11"
    assert rec["code"].startswith(rec["arena"] + "+") and rec["date"].endswith("Z")
    import hashlib

    assert rec["config_sha256"] == hashlib.sha256(CONFIG.encode()).hexdigest()
    summary = (run_dir / "summary.txt").read_text().splitlines()
    assert summary[0].startswith(f"# Guessing Arena {rec['arena']} (code {rec['code']}), run {rec['date']}")
    assert Report.from_dir(run_dir).provenance == rec


def test_arena_report_methods_prints_the_paragraph(run_dir, capsys):
    rc, out, err = run(capsys, "report", str(run_dir), "--methods")
    assert rc == 0, err
    assert out.startswith("We ran 4 cells with Guessing Arena ")
    for needle in (
        "Games: mastermind:pegs=2,colors=3.",
        "Choosers: uniform and evil.",
        "Guessers: knuth and random.",
        "3 times where an agent is random, with seeds 11: ",
        "linear programming",
        "CITATION.cff",
    ):
        assert needle in out, needle
    games = 9 * 3 + 9 * 1 + 1 * 3 + 1  # uniform: every secret (random 3 times); evil: one game each (random 3)
    assert f": {games:,} games in all." in out


def test_the_html_page_ends_with_the_provenance(run_dir, tmp_path, capsys):
    rc, _, err = run(capsys, "report", str(run_dir), "--html", str(tmp_path / "p.html"))
    assert rc == 0, err
    page = (tmp_path / "p.html").read_text()
    assert '<table id="provenance">' in page and '<p id="methods">We ran 4 cells' in page


@pytest.mark.parametrize(
    "damage",
    ["not json", "[1, 2]", '{"format": "other"}', '{"format": "arena-provenance/1", "x": 1}', "no code", "other run"],
)
def test_a_record_that_cannot_be_cited_is_left_out_and_the_results_still_shown(run_dir, tmp_path, capsys, damage):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(run_dir, copy)
    rec = json.loads((copy / FILE).read_text())
    if damage == "no code":
        damage = json.dumps({k: v for k, v in rec.items() if k != "code"})
    elif damage == "other run":  # left by an earlier run of another config
        damage = json.dumps(rec | {"config_sha256": "0" * 64})
    (copy / FILE).write_text(damage)
    assert "problem" in read(copy, Report.from_dir(run_dir).config.text)
    rc, out, err = run(capsys, "report", str(copy))
    assert rc == 0 and "knuth" in out, err  # the results are still shown
    rc, out, err = run(capsys, "report", str(copy), "--methods")
    assert rc == 0 and "its provenance record cannot be cited" in out and rec["code"] not in out


def test_a_run_removes_the_last_runs_record_when_it_starts(run_dir, tmp_path):
    import shutil

    from arena.cli.parser import main

    copy = tmp_path / "copy"
    shutil.copytree(run_dir, copy)
    (copy / FILE).write_text(json.dumps({"format": "arena-provenance/1", "problem": "stale"}))
    config = tmp_path / "c.toml"
    config.write_text(CONFIG)
    assert main(["run", str(config), "--out", str(copy), "--no-plots"]) == 0
    rec = read(copy)
    assert rec is not None and "problem" not in rec and rec["config_sha256"]


def test_a_run_without_a_record_says_so():
    class Bare:
        config = type("C", (), {"cells": [], "title": "t"})()
        results: list = []

        def grids(self):
            return {}

    assert "no provenance record was stored" in methods(Bare(), None)
