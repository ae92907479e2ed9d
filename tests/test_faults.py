"""A tournament with a raising, a hanging and a worker-killing guesser: it completes, writes every
output, marks those cells failed, and every other cell is exactly what a clean run gives."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGINS = Path(__file__).parent  # tests/rogue_agents.py
GRID = """
title = "faults"
seed = 3
repeat = 4
game = "mastermind:pegs=3,colors=3"
choosers = ["uniform", "evil"]
guessers = [{guessers}]
"""
GOOD = ['"lowest"', '"random"', '"knuth"']
BAD = ['"rogue_agents:Raise"', '"rogue_agents:Hang"', '"rogue_agents:Suicide"']


def arena(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), str(Path(__file__).parents[1])])}
    return subprocess.run(
        [sys.executable, "-m", "arena.cli.parser", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


def rows(path: Path) -> dict[tuple[str, str], dict]:
    with open(path, newline="") as f:
        return {(r["label"], r["chooser"]): r for r in csv.DictReader(f)}


@pytest.mark.parametrize("workers", ["1", "2"])
def test_faulty_agents_fail_only_their_cells(tmp_path, workers):
    clean_config, faulty_config = tmp_path / "clean.toml", tmp_path / "faulty.toml"
    clean_config.write_text(GRID.format(guessers=", ".join(GOOD)))
    faulty_config.write_text(GRID.format(guessers=", ".join(GOOD[:2] + BAD + GOOD[2:])))
    clean = arena("run", str(clean_config), "--out", str(tmp_path / "clean"), cwd=tmp_path)
    assert clean.returncode == 0, clean.stderr
    faulty = arena(
        "run",
        str(faulty_config),
        "--out",
        str(tmp_path / "faulty"),
        "--workers",
        workers,
        "--task-timeout",
        "5",
        "--allow-import",
        cwd=tmp_path,
    )
    assert faulty.returncode == 0, faulty.stderr
    assert "Traceback" not in faulty.stderr
    out = tmp_path / "faulty"
    for name in [
        "results.csv",
        "summary.txt",
        "heatmap-mastermind-pegs-3-colors-3.png",
        "histograms-mastermind-pegs-3-colors-3.png",
    ]:
        assert (out / name).is_file(), f"{name} not written"
    got, want = rows(out / "results.csv"), rows(tmp_path / "clean" / "results.csv")
    assert len(got) == 12
    for key, row in want.items():
        assert got[key] == row, f"{key} differs from the clean run"
    errors = {key[0]: row["error"] for key, row in got.items() if row["status"] != "ok"}
    assert set(errors) == {"rogue_agents:Raise", "rogue_agents:Hang", "rogue_agents:Suicide"}
    assert "always fails" in errors["rogue_agents:Raise"]
    assert "timed out after 5" in errors["rogue_agents:Hang"]
    assert "died" in errors["rogue_agents:Suicide"]  # with a time limit even one worker is a child process
    summary = (out / "summary.txt").read_text()
    assert summary.count("failed") >= 6
    report = arena("report", str(out), cwd=tmp_path)  # reads the store, imports nothing
    assert report.returncode == 0, report.stderr
    assert "rogue_agents:Hang" in report.stdout
    strict = arena("report", str(out), "--strict", cwd=tmp_path)
    assert strict.returncode == 1
