"""Start-up: each command imports what it uses, and the fixed indexes that make that possible
(agents.registry.INDEX, arena.cli.COMMANDS) agree with what they index.

Nothing here is timed (a shared machine's seconds prove nothing): each guard runs a command in
a fresh Python and reads which modules it loaded. The figures are in benchmarks/README.md."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
from importlib.machinery import PathFinder
from pathlib import Path

import numpy as np
import pytest

import arena.cli
from agents import make_chooser, make_guesser
from agents.registry import INDEX, ROLES, agent_modules, builtin, registered
from arena.core import plugins
from arena.core.errors import ArenaError
from arena.games.mastermind import replies_in

ROOT = Path(__file__).resolve().parents[1]

#: What no command below needs: compiled loops (numba), the equilibrium solvers (scipy,
#: nashpy), the tournament's pool and store, and configs (tomllib).
NEVER = (
    "numba",
    "scipy",
    "nashpy",
    "multiprocessing",
    "sqlite3",
    "tomllib",
    "arena.core.kernels",
    "arena.study.tournament",
)


def loaded_by(*argv: str) -> set[str]:
    """The modules loaded by `arena ARGV...` run in a fresh Python (its output thrown away)."""
    script = (
        "import contextlib, io, json, sys\n"
        "from arena.cli.parser import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    try:\n"
        "        status = main(sys.argv[1:])\n"
        "    except SystemExit as e:\n"
        "        status = e.code\n"
        "print(json.dumps({'status': status, 'modules': sorted(sys.modules)}))\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run(
        [sys.executable, "-c", script, *argv], capture_output=True, text=True, timeout=120, env=env, check=True
    )
    result = json.loads(proc.stdout)
    assert result["status"] in (0, None), proc.stdout
    return set(result["modules"])


def under(modules: set[str], *packages: str) -> set[str]:
    """The modules of `modules` that are among `packages` or inside one of them."""
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


# --- the indexes -------------------------------------------------------------------------------


def test_the_agent_index_is_the_registry():
    """Every name a module of the agents package registers (AGENTS, ALIASES) is in INDEX under
    that module, and INDEX names nothing else: a new agent, or a stale name, fails here."""
    found: dict[str, dict[str, str]] = {role: {} for role in ROLES}
    for module in agent_modules():
        for role, names in registered(module).items():
            for name in names:
                assert name not in found[role], f"{role} {name!r} registered by {found[role].get(name)} and {module}"
                found[role][name] = module
    assert found == INDEX
    assert {role: sorted(table) for role, table in builtin().items()} == {r: sorted(INDEX[r]) for r in ROLES}


def test_the_command_list_is_the_package():
    files = {info.name for info in pkgutil.iter_modules(arena.cli.__path__)}
    assert set(arena.cli.COMMANDS) == files - arena.cli.HELPERS
    for module in arena.cli.command_modules():
        assert callable(module.add_commands)


def test_the_package_offers_its_classes_when_asked():
    import agents
    from agents.base import Guesser
    from agents.simple import Lowest

    assert agents.Guesser is Guesser and agents.Lowest is Lowest and "Lowest" in agents.__all__
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        agents.Nothing  # noqa: B018


@pytest.mark.parametrize("role, make", [("guesser", make_guesser), ("chooser", make_chooser)])
def test_an_unknown_name_lists_every_registered_one(role, make):
    with pytest.raises(ArenaError) as error:
        make("no-such-agent")
    listed = str(error.value).partition(f"{role}s: ")[2].split(", ")
    assert set(builtin()[role]) <= set(listed)


# --- what each command loads -------------------------------------------------------------------


def test_help_and_version_load_no_numpy_and_no_game():
    """Parsing the command line needs argparse and the command modules, nothing of the engine."""
    for argv in (["--help"], ["--version"], ["optimal", "--help"]):
        modules = loaded_by(*argv)
        assert not under(modules, "numpy", "agents", "arena.core.game", "arena.games", *NEVER), argv


def test_import_arena_loads_no_importlib_abc():
    """arena.moved's finder is duck-typed: importlib.abc would bring importlib.resources,
    tempfile and shutil into every command's start-up."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = "import sys, arena; print(sorted(m for m in sys.modules if m in ('importlib.abc', 'importlib.resources')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == "[]"


def test_import_arena_loads_no_numpy():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = "import sys, arena; print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'agents')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.strip() == "[]"


def test_listing_the_games_loads_no_agent_and_no_compiled_code():
    modules = loaded_by("games")
    assert not under(modules, "agents", "arena.optimal", "arena.games.multisets", *NEVER)
    if not plugins.may_declare("arena.games"):  # no plug-in game installed here
        assert not under(modules, "importlib.metadata")


def test_a_tiny_evaluation_loads_only_its_own_agents():
    """`knuth` against `uniform`: the scoring guessers' module and the choosers', found through
    the index, not every agent module (the exact search, the equilibrium, the tree players)."""
    modules = loaded_by("evaluate", "mastermind:pegs=2,colors=3", "knuth")
    assert under(modules, "agents") == {"agents", "agents.base", "agents.chooser", "agents.registry", "agents.scoring"}
    assert not under(modules, "arena.optimal", "arena.equilibrium", "arena.games.multisets", *NEVER)


def test_a_tiny_exact_solve_loads_no_compiled_code():
    modules = loaded_by("optimal", "mastermind:pegs=2,colors=2", "--json")
    assert "arena.optimal.solve" in modules
    # no agent is built: --allow-import's context is set without importing the agents; no
    # shipped word list is read: importlib.resources (tempfile, ...) is not loaded; nothing is
    # digested: hashlib (OpenSSL) is not loaded either (issue 33)
    heavy = ("agents", "importlib.resources", "tempfile", "hashlib")
    assert not under(modules, *heavy, "arena.equilibrium", "arena.games.multisets", *NEVER)


def test_a_small_mastermind_solve_loads_no_numpy_ma():
    """numpy.ma is 30 ms, a tenth of a small solve's start-up; a first np.unique imports it
    (numpy 2.4's asks np.ma.is_masked), so Mastermind counts its replies instead (replies_in)."""
    modules = loaded_by("optimal", "mastermind:pegs=3,colors=3")
    assert not under(modules, "numpy.ma", *NEVER)


def test_replies_in_is_np_unique():
    rng = np.random.default_rng(33)
    for case in range(60):
        dtype = (np.uint8, np.uint16)[case % 2]
        rows = rng.integers(0, 1 + case * 4, size=(1 + case % 5, 1 + case), dtype=dtype)
        got = replies_in(rows)
        assert got.dtype == rows.dtype and np.array_equal(got, np.unique(rows))


# --- plug-ins: importlib.metadata asked only when a distribution may declare one ---------------


def distribution(folder: Path, name: str, entry_points: str | None) -> Path:
    """A distribution installed in `folder` as pip leaves one: its .dist-info, with entry points."""
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points)
    return folder


def test_plugins_are_those_importlib_metadata_finds(tmp_path, monkeypatch):
    from importlib.metadata import entry_points as installed

    site = distribution(tmp_path / "site", "with_games", "[arena.games]\nboard = board_game:GAME\n")
    distribution(site, "scripts_only", "[console_scripts]\nboard = board_game:main\n")
    distribution(site, "no_entry_points", None)
    (site / "broken.egg-info").write_text("Metadata-Version: 1.0\n")  # an .egg-info file, not a folder
    for group in ("arena.games", "arena.agents"):  # this installation as it is: never fewer than importlib's
        assert plugins.may_declare(group) or not list(installed(group=group))
    monkeypatch.syspath_prepend(str(site))
    assert plugins.may_declare("arena.games")
    assert [(ep.name, ep.value) for ep in plugins.entry_points("arena.games")] == [("board", "board_game:GAME")]
    monkeypatch.setattr(sys, "path", [str(site), str(tmp_path / "missing")])
    # Python's own finders only: a test before this one may have imported a package that adds
    # a distribution finder of its own (Dask imports the importlib_metadata backport's), which
    # may_declare rightly leaves to importlib.metadata.
    own = [f for f in sys.meta_path if f is PathFinder or not hasattr(f, "find_distributions")]
    monkeypatch.setattr(sys, "meta_path", own)
    assert not plugins.may_declare("arena.agents") and plugins.entry_points("arena.agents") == []
    assert not list(installed(group="arena.agents"))


def test_a_zip_on_the_path_is_left_to_importlib_metadata(tmp_path, monkeypatch):
    archive = tmp_path / "plugins.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip file
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert plugins.may_declare("arena.games")
