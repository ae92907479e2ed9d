"""Configs and specs are data: a `module:Class` agent spec imports its module (which runs the
module's code) only with `--allow-import` (or `allow_import=True`, or `with imports_allowed()`),
never finds modules through the current directory on its own, and every way it can go wrong is
one line and exit 2. Installed entry-point agents need no flag."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import one_line, run

from agents import imports_allowed, make_chooser, make_guesser, registry
from arena.cli.parser import build_parser
from arena.core.errors import ArenaError

ROOT = Path(__file__).resolve().parents[1]
SMALL = "mastermind:pegs=2,colors=3"

#: A guesser module that leaves a marker file when it is imported: the proof that its code ran.
PAYLOAD = """
from pathlib import Path
Path({marker!r}).write_text("imported")
from agents.simple import Lowest

class Sneaky(Lowest):
    name = "sneaky"
"""


@pytest.fixture
def payload(tmp_path, monkeypatch, request):
    """(module name, marker path): a module on sys.path whose import writes the marker."""
    name = f"payload_{request.node.name.split('[')[0]}_{os.getpid()}"
    marker = tmp_path / "marker"
    (tmp_path / f"{name}.py").write_text(PAYLOAD.format(marker=str(marker)))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name, marker
    sys.modules.pop(name, None)


def test_module_spec_without_the_flag_imports_nothing(capsys, payload):
    name, marker = payload
    rc, out, err = run(capsys, "evaluate", SMALL, f"{name}:Sneaky")
    one_line(rc, err, f"guesser '{name}:Sneaky' would import Python module {name}", "--allow-import")
    assert not marker.exists() and name not in sys.modules and out == ""


def test_module_spec_with_the_flag_plays(capsys, payload):
    name, marker = payload
    rc, out, err = run(capsys, "evaluate", SMALL, f"{name}:Sneaky", "--allow-import")
    assert rc == 0, err
    assert marker.exists()
    same = run(capsys, "evaluate", SMALL, "lowest")[1].replace("lowest", f"{name}:Sneaky")
    timeless = [line for line in out.splitlines() if not line.endswith(" s")]  # the line with the seconds
    assert timeless == [line for line in same.splitlines() if not line.endswith(" s")] and len(timeless) > 3


def test_nested_spec_in_a_chooser_needs_the_flag_too(capsys, payload):
    """spoiler:against=pkg:Class builds its guesser later, under the permission it was built with."""
    name, marker = payload
    rc, _, err = run(capsys, "evaluate", SMALL, "lowest", "--chooser", f"spoiler:against={name}:Sneaky")
    one_line(rc, err, "--allow-import")
    assert not marker.exists()
    rc, _, err = run(
        capsys, "evaluate", SMALL, "lowest", "--chooser", f"spoiler:against={name}:Sneaky", "--allow-import"
    )
    assert rc == 0, err
    assert marker.exists()


def test_python_api_default_keyword_and_context(payload):
    name, marker = payload
    with pytest.raises(ArenaError, match="--allow-import"):
        make_guesser(f"{name}:Sneaky")
    with imports_allowed(), pytest.raises(ArenaError, match="--allow-import"):
        make_guesser(f"{name}:Sneaky", allow_import=False)  # the keyword wins over the context
    assert not marker.exists()
    with imports_allowed():
        assert make_guesser(f"{name}:Sneaky").label == f"{name}:Sneaky"
    assert marker.exists()
    assert make_guesser(f"{name}:Sneaky:openers=12", allow_import=True).values["openers"] == ("12",)
    # a chooser made with permission keeps it for the guesser it builds later, outside the context
    spoiler = make_chooser(f"spoiler:against={name}:Sneaky", allow_import=True)
    assert spoiler.target().name == "sneaky"


def test_the_current_directory_is_not_searched(tmp_path):
    """A module beside the user is found only if the user puts its directory on PYTHONPATH
    (`-P`: Python itself adds nothing, as with the installed `arena` script)."""
    marker = tmp_path / "marker"
    (tmp_path / "cwdagent.py").write_text(PAYLOAD.format(marker=str(marker)))
    argv = [sys.executable, "-P", "-m", "arena.cli.parser", "evaluate", SMALL, "cwdagent:Sneaky", "--allow-import"]
    proc = subprocess.run(
        argv, capture_output=True, text=True, timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
    one_line(proc.returncode, proc.stderr, "cwdagent:Sneaky", "No module named 'cwdagent'", "PYTHONPATH")
    assert not marker.exists()
    proc = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])},
    )
    assert proc.returncode == 0, proc.stderr
    assert marker.exists()


def test_registry_leaves_sys_path_alone(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = list(sys.path)
    run(capsys, "evaluate", SMALL, "nosuchmodule_xyz:Thing", "--allow-import")
    assert sys.path == before


@pytest.mark.parametrize(
    "spec, needles",
    [
        (".payload:X", ["relative module path", "package.module:Class"]),
        ("..pkg.mod:Y", ["relative module path"]),
        ("pkg..mod:Y", ["is not a module path"]),
        ("nosuchmodule_xyz.sub:Thing", ["cannot be imported", "No module named 'nosuchmodule_xyz'"]),
        ("agents.simple:Nothing", ["module agents.simple has no 'Nothing'"]),
        ("agents.chooser:Uniform", ["is not a guesser"]),
        ("arena.core.spec:Param", ["is not a guesser"]),
        ("agents.simple:mix64", ["is not a guesser"]),
    ],
)
@pytest.mark.parametrize("flag", [[], ["--allow-import"]])
def test_bad_module_specs_are_one_line(capsys, spec, needles, flag):
    rc, _, err = run(capsys, "evaluate", SMALL, spec, *flag)
    if not flag and "module path" not in needles[0]:  # a well-formed path: refused before any lookup
        needles = ["--allow-import"]
    one_line(rc, err, *needles)


def test_wrong_role_class_is_one_line(capsys):
    rc, _, err = run(capsys, "evaluate", SMALL, "lowest", "--chooser", "agents.simple:Lowest", "--allow-import")
    one_line(rc, err, "is not a chooser")


def test_module_that_fails_while_importing_is_one_line(capsys, tmp_path, monkeypatch):
    (tmp_path / "brokenagent_mod.py").write_text("x = 1 / 0\n")
    (tmp_path / "exitagent_mod.py").write_text("import sys\nsys.exit(3)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        rc, _, err = run(capsys, "evaluate", SMALL, "brokenagent_mod:G", "--allow-import")
        one_line(rc, err, "failed while importing", "ZeroDivisionError")
        rc, _, err = run(capsys, "evaluate", SMALL, "exitagent_mod:G", "--allow-import")
        one_line(rc, err, "failed while importing", "SystemExit")
    finally:
        sys.modules.pop("brokenagent_mod", None)
        sys.modules.pop("exitagent_mod", None)


def test_entry_point_agents_need_no_flag(capsys, monkeypatch):
    """An installed plug-in (group arena.agents) is code the user installed: no flag needed."""
    from agents.simple import Lowest

    class Plugin(Lowest):
        name = "plugged"

    class EntryPoint:
        name, value = "plugged", "someplugin:Plugin"

        def load(self):
            return Plugin

    monkeypatch.setattr(registry, "entry_points", lambda group: [EntryPoint()])
    assert make_guesser("plugged").name == "plugged"
    rc, out, err = run(capsys, "evaluate", SMALL, "plugged")
    assert rc == 0, err


def test_registered_name_with_a_capital_is_not_a_module(capsys):
    rc, _, err = run(capsys, "evaluate", SMALL, "entropy:X")
    one_line(rc, err, "'X' is not of the form key=value")


@pytest.mark.parametrize(
    "command", ["evaluate", "tree", "run", "play", "solve", "hardest", "compare", "optimal", "equilibrium"]
)
def test_every_command_that_builds_agents_takes_the_flag(command):
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert "--allow-import" in sub.choices[command]._option_string_actions


def test_report_never_imports_so_takes_no_flag(capsys):
    rc, _, err = run(capsys, "report", "somewhere", "--allow-import")
    assert rc == 2 and "unrecognized arguments: --allow-import" in err


def test_flag_does_not_outlive_the_command(capsys, payload):
    name, marker = payload
    assert run(capsys, "evaluate", SMALL, "lowest", "--allow-import")[0] == 0
    with pytest.raises(ArenaError, match="--allow-import"):
        make_guesser(f"{name}:Sneaky")
    assert not marker.exists()


def test_commands_without_agent_specs_do_not_import_the_agents():
    """`arena games` (and the other NO_AGENT_SPECS commands) start without the agents package:
    its import is part of every agent command's start-up, not theirs."""
    probe = (
        "import sys\nfrom arena.cli.parser import main\n"
        "assert main(['games']) == 0\n"
        "assert 'agents' not in sys.modules, sorted(m for m in sys.modules if m.startswith('agents'))\n"
    )
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert ran.returncode == 0, ran.stderr


def test_a_greedy_evaluation_does_not_import_the_exact_search():
    """The registry reads the `optimal` agent's parameters (arena.optimal.params), not the
    search: arena.optimal loads solve.py only when its solver is asked for."""
    probe = (
        "import sys\nfrom arena.cli.parser import main\n"
        "assert main(['evaluate', 'mastermind:pegs=2,colors=3', 'knuth']) == 0\n"
        "assert 'arena.optimal.solve' not in sys.modules\n"
        "from arena.optimal import optimal_tree\n"
        "assert 'arena.optimal.solve' in sys.modules and callable(optimal_tree)\n"
    )
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert ran.returncode == 0, ran.stderr
