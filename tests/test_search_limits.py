"""Long searches check their size first, take --time-limit, and show progress only on a terminal.

Issue 10: `arena equilibrium ... --method enumerate` on Mastermind 3x4 counted trees before its
size check and grew without end; `arena optimal jotto` had no progress and no default limit;
the double oracle's --time-limit waited for a best response that could take hours; the
searches' caches and LPs could grow past any memory.
"""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cli_run import run

from arena import make_game
from arena.core.errors import ArenaError
from arena.equilibrium import double_oracle, enumerate_trees, solve_matrix_game
from arena.equilibrium.enumeration import bounded_count, check_enumeration_size, count_trees, product_size
from arena.optimal import optimal_tree
from arena.optimal.search import Search, stabilizer
from arena.optimal.solve import search_below
from arena.parallel.progress import ProgressLine

ROOT = Path(__file__).resolve().parent.parent


def arena(*argv, stderr=subprocess.PIPE, timeout=60):
    """The command line of this tree, in a child process (its stderr is not a terminal)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "arena.cli.parser", *argv],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        env=env,
        timeout=timeout,
        cwd=ROOT,
    )


# --- the enumeration: counted, bounded, refused before listing ------------------------------------
@pytest.mark.parametrize("extra, what", [([], "undominated guesser trees"), (["--all-trees"], "guesser trees")])
def test_enumerate_on_3x4_refuses_at_once(capsys, extra, what):
    start = time.perf_counter()
    rc, out, err = run(capsys, "equilibrium", "mastermind:pegs=3,colors=4", "--method", "enumerate", *extra)
    assert time.perf_counter() - start < 10
    assert rc == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert f"more than 5,000,000 {what}" in err and "double oracle" in err


@pytest.mark.parametrize(
    "spec, trees, frontier",
    [
        ("mastermind:pegs=2,colors=2", 8, 8),
        ("mastermind:pegs=3,colors=2", 1776, 120),
        ("mastermind:pegs=2,colors=3", 26760, 168),
        ("jotto:first=8", 1709, None),
    ],
)
def test_bounded_counts_of_tiny_games(spec, trees, frontier):
    game = make_game(spec)
    assert bounded_count(game, 10**9, candidates_only=False) == trees == count_trees(game)
    assert bounded_count(game, 100, candidates_only=False) == min(trees, 101)  # saturates past the limit
    lower = bounded_count(game, 10**9, candidates_only=True)
    listed = len(enumerate_trees(game, frontier=True))
    assert lower <= listed  # a lower bound on the frontier
    if frontier is not None:
        assert lower == listed == frontier


def test_the_count_has_its_own_budget():
    game = make_game("mastermind:pegs=3,colors=3")
    with pytest.raises(ArenaError, match="more than 5 candidate sets"):
        check_enumeration_size(game, frontier=True, budget=5)
    with pytest.raises(ArenaError, match="combinations at one decision point"):
        product_size([1000, 1000], 5000, game.spec)


# --- arena optimal: time limit, honest labels, progress ------------------------------------------
def test_optimal_time_limit_is_labelled_not_proven(capsys):
    start = time.perf_counter()
    rc, out, err = run(capsys, "optimal", "jotto:first=400", "--time-limit", "1", "--depth", "1")
    assert rc == 0 and time.perf_counter() - start < 20
    assert "not proven optimal (stopped at the time limit of 1 s)" in out and "proven lower bound" in out
    assert err == ""  # not a terminal: no progress line, and a time limit: no warning
    rc, out, _ = run(capsys, "optimal", "jotto:first=400", "--time-limit", "1", "--json")
    data = json.loads(out)
    assert rc == 0 and data["exact"] is False and data["stopped"] is True and data["time_limit"] == 1
    assert 0 < data["lower_bound"] <= data["value"] == data["total"]
    assert data["gap"] == data["value"] - data["lower_bound"] > 0


def test_optimal_that_finishes_is_proven(capsys):
    rc, out, _ = run(capsys, "optimal", "mastermind:pegs=3,colors=4", "--json")
    data = json.loads(out)
    assert rc == 0 and data["total"] == 206 and data["exact"] is True and data["gap"] == 0
    assert data["stopped"] is False and data["time_limit"] is None


def test_a_big_instance_without_a_limit_is_warned(capsys):
    from arena.api.exact import warn_if_long

    notices: list[str] = []
    warn_if_long(make_game("jotto:first=400"), notices.append)
    warn_if_long(make_game("mastermind"), notices.append)  # 2 s: no warning
    assert len(notices) == 1 and "400 secrets" in notices[0] and "--time-limit" in notices[0]
    rc, _, err = run(capsys, "optimal", "mastermind:pegs=2,colors=3", "--time-limit", "0")
    assert rc == 2 and "--time-limit must be a positive" in err


def test_progress_line_follows_the_search():
    stream = io.StringIO()
    line = ProgressLine("arena optimal", stream=stream, every=0.0, enabled=True)
    tree = optimal_tree(make_game("jotto:first=300"), time_limit=1.0, progress=line)
    line.close()
    text = stream.getvalue()
    assert "sets explored" in text and "proven >= " in text and text.endswith("\r")
    shown = [float(part.split(">= ")[1].split(",")[0].replace(",", "")) for part in text.split("\r") if ">= " in part]
    assert max(shown) <= tree.value  # the proven bound shown never passes the best tree


def test_no_progress_line_when_stderr_is_not_a_terminal():
    assert not ProgressLine("x", stream=io.StringIO()).enabled
    done = arena("optimal", "jotto:first=300", "--time-limit", "1.5", "--json")
    assert done.returncode == 0 and done.stderr == "" and json.loads(done.stdout)["stopped"] is True


def test_progress_line_on_a_terminal():
    leader, follower = pty.openpty()
    try:
        done = arena("optimal", "jotto:first=300", "--time-limit", "2", "--depth", "1", stderr=follower)
        os.set_blocking(leader, False)
        seen = b""
        try:
            while chunk := os.read(leader, 65536):
                seen += chunk
        except (BlockingIOError, OSError):
            pass
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 0 and "not proven optimal" in done.stdout
    assert b"sets explored" in seen and b"\r" in seen


# --- memory: bounded caches, checked LPs --------------------------------------------------------
def test_a_small_cache_budget_forgets_entries_but_not_the_answer():
    game = make_game("mastermind:pegs=4,colors=4")
    search = Search(game, np.ones(len(game.secrets)), symmetry=stabilizer(game), cache_budget=20_000)
    root, costs, value = search_below(search, game.all_secrets, None)
    assert value == 905 and int(costs[0].sum()) == 905 and root.guess >= 0
    assert search.forgotten > 0 and search.cache_bytes <= 20_000 + 1_000


def test_cache_budget_follows_the_memory_limit(monkeypatch):
    game = make_game("mastermind:pegs=3,colors=4")
    monkeypatch.setenv("ARENA_MEMORY_LIMIT", "64M")
    assert Search(game, np.ones(len(game.secrets))).cache_budget == 32 * 2**20


def test_lp_over_the_memory_limit_is_refused(monkeypatch):
    A = np.random.default_rng(0).integers(1, 9, size=(200, 1000)).astype(float)
    monkeypatch.setenv("ARENA_MEMORY_LIMIT", "1M")
    with pytest.raises(ArenaError, match="of a 200 x 1,000 matrix game needs about"):
        solve_matrix_game(A)  # the dominance reduction, before it runs
    monkeypatch.setenv("ARENA_MEMORY_LIMIT", "7M")  # the reduction fits, the LP does not
    with pytest.raises(ArenaError, match=r"the linear program of a \d+ x [\d,]+ matrix game needs about"):
        solve_matrix_game(A)


# --- the double oracle's time limit -------------------------------------------------------------
def test_equilibrium_time_limit_stops_inside_a_best_response(capsys):
    start = time.perf_counter()
    rc, out, err = run(capsys, "equilibrium", "jotto:first=300", "--time-limit", "1", "--json")
    assert rc == 0 and time.perf_counter() - start < 20 and err == ""
    data = json.loads(out)
    assert data["converged"] is False and data["settled"] is False and data["value_exact"] is None
    assert data["lower"] < data["upper"] and data["gap"] == pytest.approx(data["upper"] - data["lower"])
    assert any("not converged" in note for note in data["notes"]) and "stopped by the time limit" in data["method"]


def test_converged_equilibrium_says_so(capsys):
    rc, out, _ = run(capsys, "equilibrium", "mastermind:pegs=2,colors=3", "--json")
    data = json.loads(out)
    assert rc == 0 and data["converged"] is True and data["value_exact"] == "29/12"


def test_double_oracle_stops_before_its_lp_outgrows_the_memory_limit(monkeypatch):
    from arena.equilibrium.symmetry import no_symmetry

    game = make_game("mastermind:pegs=2,colors=3")
    # room for the LP of two trees, not three (the limit as the LP sees it: the best responses'
    # search refuses, rightly, to score guesses in 1.5 KiB)
    monkeypatch.setattr("arena.equilibrium.columns.memory_limit", lambda: 1500)
    stopped = double_oracle(game, symmetry=no_symmetry(game))
    assert not stopped.settled and stopped.lower <= 29 / 12 <= stopped.upper
    assert "over the memory limit (2 trees" in stopped.notes[-1]
