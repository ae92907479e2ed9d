"""What an agent prints stays off the results: under --json, stdout is the JSON alone, in one
process and with workers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_run import run

SPEC = "mastermind:pegs=2,colors=3"
TESTS = Path(__file__).parent


def config(tmp_path, text: str, name: str = "c.toml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_an_agent_s_print_stays_off_stdout_under_json(capsys):
    rc, out, err = run(capsys, "evaluate", SPEC, "rogue_agents:Chatty", "--json", "--allow-import")
    assert rc == 0, err
    assert json.loads(out)["n"] == 9 and "chatty:" in err
    rc, out, err = run(capsys, "evaluate", SPEC, "rogue_agents:Chatty", "--allow-import")
    assert rc == 0 and "chatty:" in out  # without --json, stdout is as ever


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_tournament_s_json_is_clean_whatever_its_agents_print(tmp_path, workers):
    path = config(tmp_path, f'games = ["{SPEC}"]\nguessers = ["rogue_agents:Chatty", "lowest"]\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), str(TESTS.parent)])}
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli.parser", "run", path, "--json", "--allow-import", "--workers", workers],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    json.loads(done.stdout)
    assert "chatty:" in done.stderr
