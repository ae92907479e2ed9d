"""Every limit holds inside the compiled subtree search (issue 31).

`arena optimal jotto --time-limit 60` spent 819 s in one call of the compiled search
(SmallTrees.solve_classes), deaf to its deadline and to Ctrl-C; the compiled calls now return
to Python every CHUNK_SECONDS. These run the real commands in child processes on full Jotto
(2,845 words, where the compiled search is used), with limits as short as still reach it.
The kernels are compiled (or loaded from numba's cache) once here first, so that the wall
times below are the searches' and not a first run's compile (which is announced on stderr).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cli_run import run

from arena.games import make_game
from arena.optimal.search import STOP, Search, branch, ctrl_c_stops, small_trees

ROOT = Path(__file__).resolve().parent.parent
#: What a limit may be passed by, in seconds of wall time: the work after the search (the
#: tree's costs, printing) and a slow, shared machine; the search stops within a chunk.
MARGIN = 15


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels():
    """The compiled kernels, loaded from numba's cache (compiled there on a first run)."""
    game = make_game("mastermind:pegs=2,colors=5")
    search = Search(game, np.ones(len(game.secrets)))
    search.compiled_below = branch.SMALL_TREE
    assert search.solve(np.arange(len(game.secrets))) == 81  # 2x5's optimum
    assert search.small_trees() is not None


def start(*argv: str) -> subprocess.Popen:
    """`arena argv...` of this tree in a child process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "arena.cli.parser", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


def finish(child: subprocess.Popen, within: float) -> tuple[int, str, str, float]:
    """(exit status, stdout, stderr, seconds) of a child that must end within `within` s."""
    begun = time.perf_counter()
    try:
        out, err = child.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise AssertionError(f"still running after {within:g} s") from None
    return child.returncode, out, err, time.perf_counter() - begun


def test_optimal_jotto_stops_at_its_time_limit():
    began = time.perf_counter()
    rc, out, err, _ = finish(start("optimal", "jotto", "--time-limit", "10", "--json"), 10 + MARGIN + 30)
    assert time.perf_counter() - began < 10 + MARGIN, "the time limit did not hold"
    data = json.loads(out)
    assert rc == 0 and data["stopped"] is True and data["exact"] is False
    assert 0 < data["lower_bound"] < data["total"]  # what was reached, printed


def test_equilibrium_jotto_stops_at_its_time_limit():
    began = time.perf_counter()
    rc, out, err, _ = finish(start("equilibrium", "jotto", "--time-limit", "20", "--json"), 20 + MARGIN + 30)
    assert time.perf_counter() - began < 20 + MARGIN, "the time limit did not hold"
    data = json.loads(out)
    assert rc == 0 and data["converged"] is False
    assert 0 < data["lower"] < data["upper"]  # the bounds reached, printed


# `arena equilibrium` alone: its in-process test below (the double oracle's Ctrl-C) keeps CI's
# budget; `python -m pytest tests/test_compiled_limits.py` with ARENA_SLOW_TESTS=1 runs both.
COMMANDS = ["optimal", "equilibrium"] if os.environ.get("ARENA_SLOW_TESTS") else ["optimal"]


@pytest.mark.parametrize("command", COMMANDS)
def test_ctrl_c_during_the_compiled_search_ends_the_run_with_its_bounds(command):
    """Ctrl-C 12 s into `arena optimal jotto` or `arena equilibrium jotto`, in the compiled
    search (from about 7 s on, for minutes in one call before): the run ends within a few
    seconds, and under a time limit it prints the bounds reached first. (SIGTERM keeps its
    default, which ends the process at once, compiled code or not: the journal keeps what the
    split closed.)"""
    child = start(command, "jotto", "--time-limit", "600")
    time.sleep(12)
    assert child.poll() is None
    child.send_signal(signal.SIGINT)
    rc, out, err, seconds = finish(child, 30)
    assert seconds < 5 and rc == 130
    assert (
        err.strip().splitlines()[-1]
        == f"arena {command}: interrupted: stopped by Ctrl-C; what it reached is printed above"
    )
    if command == "optimal":
        assert "not proven optimal (stopped by Ctrl-C or SIGTERM)" in out and "proven lower bound" in out
    else:
        assert "stopped by Ctrl-C, not converged" in out and "<= value <=" in out


# --- Ctrl-C under a time limit: the searches stop as at their deadline (in this process) ---------
def test_ctrl_c_stops_sets_the_request_and_says_so_on_leaving():
    before = signal.getsignal(signal.SIGINT)
    with ctrl_c_stops(False) as ctrl_c:  # without a time limit: Ctrl-C is Python's KeyboardInterrupt
        assert signal.getsignal(signal.SIGINT) is before
    assert not ctrl_c.asked
    with ctrl_c_stops(True) as ctrl_c:
        signal.raise_signal(signal.SIGINT)
        assert STOP.asked
        with pytest.raises(KeyboardInterrupt):  # a second Ctrl-C: at once
            signal.raise_signal(signal.SIGINT)
    assert ctrl_c.asked and not STOP.asked and signal.getsignal(signal.SIGINT) is before
    with ctrl_c_stops(True) as ctrl_c:
        pass
    assert not ctrl_c.asked


@pytest.fixture
def ctrl_c_in_the_search(monkeypatch):
    """Ctrl-C pressed once, at the search's first deadline check."""
    checked = Search.check_deadline

    def press(self):
        if not STOP.asked:
            signal.raise_signal(signal.SIGINT)
        checked(self)

    monkeypatch.setattr(Search, "check_deadline", press)


def test_ctrl_c_prints_what_the_optimal_search_reached(capsys, ctrl_c_in_the_search):
    rc, out, err = run(capsys, "optimal", "jotto:first=300", "--time-limit", "60")
    assert rc == 130 and "not proven optimal (stopped by Ctrl-C or SIGTERM)" in out and "proven lower bound" in out
    assert err.strip() == "arena optimal: interrupted: stopped by Ctrl-C; what it reached is printed above"


def test_ctrl_c_prints_the_bounds_the_double_oracle_reached(capsys, ctrl_c_in_the_search):
    rc, out, err = run(capsys, "equilibrium", "jotto:first=300", "--time-limit", "60", "--json")
    data = json.loads(out)
    assert rc == 130 and data["converged"] is False and data["lower"] < data["upper"]
    assert data["notes"][0].startswith("stopped by Ctrl-C, not converged")
    assert err.strip() == "arena equilibrium: interrupted: stopped by Ctrl-C; what it reached is printed above"


def test_a_first_run_says_it_compiles(capsys, monkeypatch):
    """The note on stderr while the kernels compile (numba's cache cold: faked here)."""
    monkeypatch.setattr(small_trees, "_announced", False)
    monkeypatch.setattr(small_trees, "_compiled", lambda kernel: False)
    monkeypatch.setattr(branch, "COMPILED_CELLS", 0)  # a small game in the compiled search
    rc, out, err = run(capsys, "optimal", "mastermind:pegs=2,colors=5")
    assert rc == 0 and "proven optimal" in out
    assert err == f"arena optimal: note: {small_trees.COMPILE_NOTE}\n"
    rc, out, err = run(capsys, "optimal", "mastermind:pegs=2,colors=5")
    assert rc == 0 and err == ""  # once a process
