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

from arena.games import make_game
from arena.optimal.search import Search, branch

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
        [sys.executable, "-m", "arena.cli", *argv],
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


@pytest.mark.parametrize("sent, status", [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM)])
def test_a_signal_during_the_compiled_search_ends_the_run(sent, status):
    """Ctrl-C (or SIGTERM) 12 s into `arena optimal jotto`, in its compiled search (from about
    7 s on, for minutes in one call before): the run ends within a few seconds."""
    child = start("optimal", "jotto", "--time-limit", "600")
    time.sleep(12)
    assert child.poll() is None
    child.send_signal(sent)
    rc, _, err, seconds = finish(child, 30)
    assert seconds < 5 and rc == status
    if sent == signal.SIGINT:
        assert err.strip().splitlines()[-1] == "arena optimal: interrupted"
