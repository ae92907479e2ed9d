"""The code behind an outside agent's results, and its failures told under its own name.

A task's key covers every module an outside agent imports from outside its own package (a
helper beside it on PYTHONPATH), found by what the import loaded and what it asked for, so
editing a helper reruns exactly the tasks of the agents that use it. A failure is told under
the agent whose code raised, even when several agents' classes share one file, and one agent
is named one way (its spec as written) in every message.
"""

from __future__ import annotations

import csv
import importlib
import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from agents import make_guesser
from agents.registry import agent_fault
from arena.study.tournament.provenance import imported_code, task_code

ARENA = str(Path(sys.executable).with_name("arena"))
GAME = "mastermind:pegs=3,colors=3"


def arena(*args, cwd):
    return subprocess.run(
        [ARENA, *args], capture_output=True, text=True, cwd=cwd, env={**os.environ, "PYTHONPATH": str(cwd)}
    )


def totals(path: Path) -> dict[str, float]:
    with open(path, newline="") as f:
        return {row["label"]: float(row["total"]) for row in csv.DictReader(f)}


PICK = """\
{imports}
from agents.simple import Lowest


class Pick(Lowest):
    name = "pick"

    def choose(self, game, state):
        c = state.candidates
        return int(c[min(len(c) - 1, {offset})])
"""


def test_editing_a_helper_module_reruns_exactly_the_agents_that_import_it(tmp_path):
    """The issue's reproduction: `myagent:Pick` imports `helper_mod` beside it; changing
    helper_mod.OFFSET reran nothing ("2 tasks reused, 0 to run", total 89, fresh: 80)."""
    (tmp_path / "helper_mod.py").write_text("import helper_two\n\nOFFSET = 0\n")
    (tmp_path / "helper_two.py").write_text("SHIFT = 0\n")
    (tmp_path / "myagent.py").write_text(PICK.format(imports="import helper_mod", offset="helper_mod.OFFSET"))
    (tmp_path / "other.py").write_text(PICK.format(imports="from helper_mod import OFFSET", offset="OFFSET"))
    (tmp_path / "plain.py").write_text(PICK.format(imports="", offset="0"))
    config = tmp_path / "c.toml"
    config.write_text(f'game = "{GAME}"\nguessers = ["myagent:Pick", "other:Pick", "plain:Pick", "lowest"]\n')
    out = str(tmp_path / "out")
    run = ["run", str(config), "--out", out, "--allow-import", "--no-plots"]
    assert arena(*run, cwd=tmp_path).returncode == 0
    assert totals(tmp_path / "out" / "results.csv")["myagent:Pick"] == 89
    (tmp_path / "helper_mod.py").write_text("import helper_two\n\nOFFSET = 2\n")
    again = arena(*run, cwd=tmp_path)
    assert "2 tasks reused, 2 to run (1 rerun: myagent:Pick: code changed; 1 rerun: other:Pick: code changed)" in (
        again.stderr
    ), again.stderr
    fresh = arena("evaluate", GAME, "myagent:Pick", "--allow-import", "--json", cwd=tmp_path)
    stored = totals(tmp_path / "out" / "results.csv")
    assert stored["myagent:Pick"] == stored["other:Pick"] == json.loads(fresh.stdout)["total"] != 89
    (tmp_path / "helper_two.py").write_text("SHIFT = 1\n")  # imported by the helper: followed too
    assert "2 tasks reused, 2 to run" in arena(*run, cwd=tmp_path).stderr
    assert "4 tasks reused, 0 to run" in arena(*run, cwd=tmp_path).stderr


@pytest.fixture
def modules(tmp_path, monkeypatch):
    """Fresh module names for this test (this process keeps what it imported)."""
    tag = uuid.uuid4().hex[:8]
    monkeypatch.syspath_prepend(str(tmp_path))
    names = {k: f"{k}_{tag}" for k in ("helper", "deeper", "user", "sharer", "alone", "early")}
    files = {
        "deeper": "SHIFT = 0\n",
        "helper": f"import {names['deeper']}\nimport numpy\n\nOFFSET = 0\n",
        "user": PICK.format(imports=f"import {names['helper']}", offset="0"),
        "sharer": PICK.format(imports=f"from {names['helper']} import OFFSET", offset="OFFSET"),
        "alone": PICK.format(imports="import json", offset="0"),
        "early": PICK.format(imports=f"import {names['helper']} as h", offset="0"),
    }
    for key, text in files.items():
        (tmp_path / f"{names[key]}.py").write_text(textwrap.dedent(text))
    yield names
    for name in names.values():
        sys.modules.pop(name, None)


def sources(spec: str) -> set[str]:
    return {what.rpartition(" | ")[2] for what, _ in task_code(GAME, "uniform", spec)}


def test_the_key_covers_the_modules_an_agent_imports_and_no_others(modules):
    n = modules
    for key in ("user", "sharer", "alone"):
        make_guesser(f"{n[key]}:Pick", allow_import=True)
    # the helper's own helper, and the installed distribution it imports (by name and version)
    own = {"arena", f"module {n['helper']}", f"module {n['deeper']}", "distribution numpy"}
    assert sources(f"{n['user']}:Pick") == own | {f"module {n['user']}"}
    # imported after the helper was loaded, through `from helper import OFFSET`: found all the same
    assert sources(f"{n['sharer']}:Pick") == own | {f"module {n['sharer']}"}
    assert sources(f"{n['alone']}:Pick") == {"arena", f"module {n['alone']}"}  # json, agents: not keyed
    # a module imported before the registry saw it: what it refers to is followed instead
    importlib.import_module(n["early"])
    make_guesser(f"{n['early']}:Pick", allow_import=True)
    assert sources(f"{n['early']}:Pick") == own | {f"module {n['early']}"}
    assert imported_code("not_loaded_anywhere") == []


# --- failures told under the right agent's name --------------------------------------------------


ROGUE = """\
from agents.simple import Lowest


class Stubborn(Lowest):
    name = "stubborn"

    def choose(self, game, state):
        return 0


class Raiser(Lowest):
    name = "raiser"

    def choose(self, game, state):
        raise ValueError("raiser's own bug")
"""


def test_a_failure_is_filed_under_the_agent_that_failed(tmp_path, monkeypatch, capsys):
    """The issue's reproduction: Raiser's exception was stored as `guesser rogue:Stubborn failed
    at rogue.py:10`, and Stubborn was called `stubborn` in its own cell."""
    from arena.cli.parser import main

    module = f"rogue_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{module}.py").write_text(ROGUE)
    monkeypatch.syspath_prepend(str(tmp_path))
    config = tmp_path / "c.toml"
    config.write_text(f'game = "{GAME}"\nguessers = ["{module}:Stubborn", "{module}:Raiser"]\n')
    out = tmp_path / "out"
    assert main(["run", str(config), "--out", str(out), "--workers", "1", "--allow-import", "--no-plots"]) == 0
    capsys.readouterr()
    with open(out / "results.csv", newline="") as f:
        errors = {row["label"]: row["error"] for row in csv.DictReader(f)}
    assert errors[f"{module}:Raiser"].startswith(f"guesser {module}:Raiser failed at {module}.py:15 in choose")
    assert f"guesser {module}:Stubborn makes no progress" in errors[f"{module}:Stubborn"]
    sys.modules.pop(module, None)


def test_a_fault_in_a_shared_file_outside_any_agent_method_names_every_candidate(tmp_path, monkeypatch):
    module = f"shared_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{module}.py").write_text(ROGUE + "\n\ndef helper():\n    raise KeyError('x')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    a = make_guesser(f"{module}:Stubborn", allow_import=True)
    b = make_guesser(f"{module}:Raiser", allow_import=True)
    helper = sys.modules[module].helper
    try:
        helper()
    except KeyError as e:
        error = e
    assert agent_fault(error, (b,)).startswith(f"guesser {module}:Raiser failed at {module}.py:")  # the one playing
    both = agent_fault(error)
    assert both.startswith(f"one of guesser {module}:Stubborn or guesser {module}:Raiser failed"), both
    assert a.label == f"{module}:Stubborn"
    sys.modules.pop(module, None)
