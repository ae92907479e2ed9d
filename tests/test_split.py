"""The split below the root (arena/optimal/split.py): pieces (first guess, reply class) searched
by workers with one incumbent, every piece closed journaled with its subtree or its bound.

The same optimum, proven, as the one-process search, and a tree that costs it; a journal cut
after any of its records (a kill at any moment) resumes to the same optimum, searching only
the pieces it lost; a run killed with SIGKILL, on forked workers and on a Dask cluster started
as a user starts one (`dask scheduler`, two `dask worker`s), resumes to the one process's
optimum.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from cli_run import run

from agents import make_guesser
from arena import make_game
from arena.api.exact import optimal_text
from arena.core.errors import ArenaError
from arena.optimal import optimal_tree
from arena.optimal import split as split_module
from arena.optimal.ledger import Opening, Piece
from arena.optimal.split import split_root, split_tree
from arena.trees.grow import grow_tree

ARENA = str(Path(sys.executable).with_name("arena"))
DASK = Path(sys.executable).with_name("dask")
#: Long enough (73 pieces, about 2 s on two cores) to be killed part way.
KILLED = "mastermind:pegs=5,colors=4"


@pytest.mark.parametrize(
    "spec, pool, weighted",
    [
        ("mastermind:pegs=3,colors=4", "all", False),
        ("mastermind:pegs=4,colors=4", "consistent", False),
        ("mastermind:pegs=3,colors=4", "all", True),
        ("jotto:first=40", "all", False),
    ],
)
def test_the_split_finds_the_one_process_optimum_and_its_tree(spec, pool, weighted):
    game = make_game(spec)
    w = 1 + np.arange(len(game.secrets)) % 3 if weighted else np.ones(len(game.secrets))
    plain = optimal_tree(game, pool=pool, weights=w if weighted else None)
    result = split_root(game, pool=pool, workers=2, weights=w if weighted else None)
    tree = split_tree(result)
    assert result.exact and result.value == result.lower_bound == plain.value
    assert float(tree.guesses[game.all_secrets] @ w) == plain.value and tree.exact
    assert tree.root.guess == result.best_guess and result.closed == len(result.openings)


def test_a_journal_cut_after_any_record_resumes_to_the_same_optimum(tmp_path):
    """A kill at any moment leaves the journal's first k records (the last perhaps cut short):
    resumed from each, the optimum is the same and only the pieces lost are searched again.
    (One worker, so that both runs hand out the pieces in the same order; with more, which
    pieces a first guess needs before it closes depends on which finish first.)"""
    game = make_game("mastermind:pegs=3,colors=4")
    full = tmp_path / "full.jsonl"
    first = split_root(game, workers=1, journal=full, split_after=None)  # every class a piece of its own
    lines = full.read_text().splitlines(keepends=True)
    assert first.exact and first.value == 206 and pieces(full) == first.searched >= 5
    for k in range(1, len(lines) + 1):
        cut = tmp_path / f"cut{k}.jsonl"
        cut.write_text("".join(lines[:k]) + (lines[k][:25] if k < len(lines) else ""))
        kept = pieces(cut)
        again = split_root(game, workers=1, journal=cut, split_after=None)  # one worker: the order of the first run
        assert again.exact and again.value == again.lower_bound == 206, k
        assert again.searched == first.searched - kept, k  # the pieces after the cut, no more
        assert split_tree(again).value == 206


def test_the_standing_of_a_journal_is_read_without_searching(capsys, tmp_path):
    """--standing: what a journal proves, nothing searched and nothing written: the optimum of
    a finished run, every first guess solved exactly with its total, each total what the
    one-process search finds after that first guess; a journal cut part way proves only a
    bound; one of another arena version is read, and said to be (a resumed run refuses it)."""
    spec = "mastermind:pegs=3,colors=4"
    game = make_game(spec)
    journal = tmp_path / "j.jsonl"
    split_root(game, workers=1, journal=journal)
    before = journal.read_bytes()
    rc, out, err = run(capsys, "optimal", spec, "--standing", "--journal", str(journal), "--json")
    figures = json.loads(out)
    assert rc == 0 and figures["total"] == 206 and figures["exact"] and figures["searched_pieces"] == 0, err
    proven = figures["proven_first_guesses"]
    assert proven and min(proven.values()) == 206 and journal.read_bytes() == before
    for word, total in proven.items():
        assert optimal_tree(game, openers=(word,)).value == total, word
    lines = journal.read_text().splitlines(keepends=True)
    key = json.loads(lines[0]) | {"version": "0.0.1+other"}
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps(key) + "\n" + "".join(lines[1:]))
    rc, out, err = run(capsys, "optimal", spec, "--standing", "--journal", str(other))
    assert rc == 0 and "written by arena 0.0.1+other" in out and "first guesses solved exactly" in out, err
    rc, out, err = run(capsys, "optimal", spec, "--workers", "1", "--journal", str(other))
    assert rc == 2 and "written by arena 0.0.1+other" in err, err
    part = tmp_path / "part.jsonl"
    part.write_text(lines[0])
    rc, out, err = run(capsys, "optimal", spec, "--standing", "--journal", str(part))
    assert rc == 2 and "holds no first guess solved exactly" in err and "Traceback" not in err, err
    assert "give --start GUESSER" in err
    # with a start tree (MM(5,6)'s journal has no first guess solved exactly): that tree, reported
    # against the bound the journal proves, read under it as the incumbent
    rc, out, err = run(capsys, "optimal", spec, "--standing", "--journal", str(part), "--start", "knuth", "--json")
    figures = json.loads(out)
    knuth = int(grow_tree(game, make_guesser("knuth")).guesses.sum())
    assert rc == 0 and figures["total"] == knuth > 206 and not figures["exact"], err
    assert 0 < figures["lower_bound"] <= 206 and figures["searched_pieces"] == 0 and part.read_text() == lines[0]


def test_a_log_of_the_status_for_a_run_in_the_background(capsys):
    """--log-every: whole status lines on stderr, each with its time, even with --json and no terminal."""
    rc, out, err = run(
        capsys, "optimal", "mastermind:pegs=3,colors=4", "--workers", "1", "--log-every", "0.001", "--json"
    )
    lines = err.splitlines()
    assert rc == 0 and json.loads(out)["total"] == 206 and lines, err
    assert all(line[:2] == "20" and "arena optimal: " in line and "proven >= " in line for line in lines), err
    assert "\r" not in err
    rc, out, err = run(capsys, "optimal", "mastermind:pegs=3,colors=4", "--log-every", "5")
    assert rc == 2 and "give --workers N" in err, err


def test_the_status_line_shows_the_bounds():
    lines: list[str] = []
    result = split_root(make_game("mastermind:pegs=4,colors=4"), workers=2, status=lines.append)
    assert result.value == 905 and lines and "pieces" in lines[-1]
    assert "best 905 (" in lines[-1] and "proven >= 905" in lines[-1], lines[-1]
    assert any("no tree yet" in line or "proven >= " in line for line in lines)


def test_a_start_tree_is_the_first_incumbent_and_changes_no_answer(capsys):
    """A guesser's tree (`--start`) seeds the split when it costs less than the greedy trees:
    the optimum is the same; given the optimal tree itself, nothing beats it and it is returned."""
    game = make_game("mastermind:pegs=3,colors=4")
    best = optimal_tree(game)
    again = split_root(game, workers=2, start_tree=best)
    assert again.exact and again.value == again.lower_bound == best.value == 206
    assert again.seed is best and "optimal" in again.seed.guesser
    from arena.trees.grow import grow_tree

    lookahead = grow_tree(game, make_guesser("lookahead"))
    seeded = split_root(game, workers=1, start_tree=lookahead)
    assert seeded.exact and seeded.value == 206
    rc, out, err = run(
        capsys, "optimal", "mastermind:pegs=3,colors=4", "--workers", "1", "--start", "lookahead", "--json"
    )
    assert rc == 0 and json.loads(out)["total"] == 206 and json.loads(out)["exact"], err


def test_a_start_tree_of_another_pool_is_refused(capsys):
    """Under the consistent pool an incumbent that plays an inconsistent guess would be cheaper
    than any tree searched, and the split would return it as the optimum: refused."""
    rc, out, err = run(
        capsys,
        "optimal",
        "mastermind:pegs=3,colors=4",
        "--workers",
        "1",
        "--pool",
        "consistent",
        "--start",
        "lookahead",
    )
    assert rc == 2 and "not consistent" in err and "Traceback" not in err, err


def test_a_limit_no_tree_meets_is_said_so(capsys):
    rc, out, err = run(capsys, "optimal", "mastermind:pegs=3,colors=4", "--workers", "1", "--max", "3")
    assert rc == 2 and "no tree finds every secret within 3 guesses" in err and "Traceback" not in err, err


def test_the_split_under_a_guess_limit_is_the_one_process_optimum(tmp_path):
    """--max with --workers: each piece searched within the guesses the limit leaves. On a
    weighted 2x6 the limit binds (1,172 without it, worst 6; 1,183 within five); the journal
    resumes under the same limit and is refused under another."""
    game = make_game("mastermind:pegs=2,colors=6")
    w = 1 + (np.arange(len(game.secrets)) * 7) % 20
    plain = optimal_tree(game, weights=w, max_guesses=5)
    assert plain.value == 1183 and optimal_tree(game, weights=w).value == 1172
    journal = tmp_path / "max5.jsonl"
    result = split_root(game, workers=2, weights=w, max_guesses=5, journal=journal)
    tree = split_tree(result)
    assert result.exact and result.value == result.lower_bound == 1183
    assert tree.guesses[game.all_secrets].max() <= 5 and float(tree.guesses[game.all_secrets] @ w) == 1183
    assert "max=5" in tree.guesser
    again = split_root(game, workers=1, weights=w, max_guesses=5, journal=journal)
    assert again.value == 1183 and again.searched == 0
    with pytest.raises(ArenaError, match="guess limit"):
        split_root(game, workers=1, weights=w, max_guesses=6, journal=journal)


def pieces(journal: Path) -> int:
    """The pieces a journal holds (its other lines: the key, first guesses closed by bound)."""
    try:
        lines = journal.read_text().splitlines()
    except OSError:
        return 0
    return sum(1 for line in lines[1:] if line.endswith("}") and "reply" in json.loads(line))


def kill_when(proc: subprocess.Popen, journal: Path, closed: int, timeout: float = 60) -> bool:
    """SIGKILL `proc` once `journal` holds `closed` pieces; False if it ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if pieces(journal) >= closed:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return True
        time.sleep(0.01)
    return False


def resumed(capsys, argv: list[str]) -> dict:
    """The run resumed, in this process (`arena` argv[1:])."""
    rc, out, err = run(capsys, *argv[1:])
    assert rc == 0, err
    return json.loads(out)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers")
def test_a_run_killed_part_way_resumes_to_the_same_optimum(capsys, tmp_path):
    journal = tmp_path / "j.jsonl"
    argv = [ARENA, "optimal", KILLED, "--workers", "2", "--split-after", "20", "--journal", str(journal), "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    killed = kill_when(proc, journal, 8)
    kept = pieces(journal)
    figures = resumed(capsys, argv)
    assert figures["exact"] and figures["total"] == figures["lower_bound"] == optimal_tree(make_game(KILLED)).value
    if killed:
        assert figures["searched_pieces"] == figures["pieces"] - kept < figures["pieces"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(not DASK.exists(), reason="Dask is not installed (pip install -e '.[dask]')")
def test_a_dask_cluster_started_by_hand_killed_and_resumed(capsys, tmp_path):
    """`dask scheduler` and two `dask worker` processes on 127.0.0.1, as a user starts them; the
    split is killed part way and resumed: the one process's optimum. (The split starts with
    the cluster: its client waits for the scheduler, the pieces for the workers.)"""
    spec = "mastermind:pegs=4,colors=4"
    address = f"tcp://127.0.0.1:{free_port()}"
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    cluster = [
        subprocess.Popen(
            [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--no-dashboard"],
            **quiet,
        )
    ]
    try:
        cluster += [
            subprocess.Popen(
                [
                    str(DASK),
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--host",
                    "127.0.0.1",
                    "--no-dashboard",
                ],
                **quiet,
            )
            for _ in range(2)
        ]
        journal = tmp_path / "j.jsonl"
        argv = [
            ARENA,
            "optimal",
            spec,
            "--workers",
            "2",
            "--backend",
            "dask",
            "--scheduler",
            address,
            "--journal",
            str(journal),
            "--split-after",
            "20",
            "--json",
        ]
        proc = subprocess.Popen(argv, **quiet)
        killed = kill_when(proc, journal, 3)
        kept = pieces(journal)
        figures = resumed(capsys, argv)
    finally:
        for p in reversed(cluster):
            p.terminate()
        for p in cluster:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
    assert figures["exact"] and figures["total"] == figures["lower_bound"] == optimal_tree(make_game(spec)).value
    if killed:
        assert figures["searched_pieces"] == figures["pieces"] - kept < figures["pieces"]


def test_an_interrupted_split_returns_what_it_reached():
    """Ctrl-C or SIGTERM (a KeyboardInterrupt in the parent, arena.parallel.pool) with
    `interrupted_result`: the result so far, stopped and interrupted, its bound proven; without
    it, the KeyboardInterrupt goes on (a Python caller's Ctrl-C is theirs)."""
    game = make_game(KILLED)
    seen: list[str] = []

    def press(line: str) -> None:
        seen.append(line)
        if len(seen) == 4:
            raise KeyboardInterrupt

    result = split_root(game, workers=2, split_after=20, status=press, interrupted_result=True)
    assert result.interrupted and result.stopped and len(seen) == 4
    assert result.lower_bound <= optimal_tree(game).value <= result.value
    text = optimal_text(split_tree(result), interrupted=True)  # no time limit: was a TypeError
    assert "not proven optimal (stopped by Ctrl-C or SIGTERM)" in text or "proven optimal" in text
    seen.clear()
    with pytest.raises(KeyboardInterrupt):
        split_root(game, workers=2, split_after=20, status=press)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forked workers")
def test_sigterm_prints_what_the_split_reached(tmp_path):
    """SIGTERM to `arena optimal --workers 2 --journal`: the best tree and the proven bound so
    far on stdout, one line on stderr, status 130; the journal resumes to the optimum."""
    journal = tmp_path / "j.jsonl"
    argv = [ARENA, "optimal", KILLED, "--workers", "2", "--split-after", "20", "--journal", str(journal), "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and pieces(journal) < 3:
        time.sleep(0.01)
    if proc.poll() is not None:
        pytest.skip("the run ended before it could be stopped")
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    figures = json.loads(out)
    assert proc.returncode == 130 and figures["stopped"] and figures["lower_bound"] <= figures["total"], err
    assert err.strip().endswith(
        "interrupted: stopped by Ctrl-C or SIGTERM; what the split reached is printed above (a journal keeps it)"
    )
    again = split_root(make_game(KILLED), workers=1, journal=journal)
    assert again.exact and again.value == optimal_tree(make_game(KILLED)).value


class Handed:
    """A ledger stand-in for split.deal: hands out `tasks` in order, marking each in flight."""

    def __init__(self, kinds: str):
        self.given: list = []
        self.all = [
            ("open", Opening(i, 0.0), 9.0) if kind == "o" else ("piece", Piece(i, 0, np.arange(2), 0.0), 9.0)
            for i, kind in enumerate(kinds)
        ]

    def tasks(self):
        for kind, what, limit in self.all:
            if kind == "open":
                what.opening = True
            else:
                what.flying = True
            yield kind, what, limit


def dealt(messages) -> list[str]:
    return ["".join(("o" if kind == "open" else "p") + str(what.guess) for kind, what, _ in m) for m in messages]


@pytest.mark.parametrize(
    "kinds, free, want",
    [
        ("oooooo", 2, ["o0o2o4", "o1o3o5"]),  # the first two to different workers, then round them
        ("opop", 2, ["o0o2p3", "p1"]),  # a piece ends its message: none waits behind it
        ("ooopooooo", 1, ["o0o1o2p3"]),
        ("pp", 1, ["p0"]),  # one piece a message: the second handed back
        ("oooo", 0, []),  # no worker free: nothing handed out (nothing left flagged in flight)
    ],
)
def test_tasks_are_dealt_one_piece_a_message_and_the_rest_handed_back(kinds, free, want):
    ledger = Handed(kinds)
    messages = split_module.deal(ledger, free)
    assert dealt(messages) == want
    sent = {id(what) for m in messages for _, what, _ in m}
    for kind, what, _ in ledger.all:  # a task not sent is not left in flight (else never handed out again)
        assert (what.opening if kind == "open" else what.flying) == (id(what) in sent), (kind, what.guess)


@pytest.mark.parametrize("weighted", [False, True])
def test_a_target_below_the_optimum_is_proven_and_no_more(weighted, tmp_path):
    """`target`: every first guess closed once proven at least the target, so the proven bound
    is the target itself, the value the tree held (not the target: a target is no tree); the
    journal it writes holds proofs, which a run without a target takes on to the optimum."""
    game = make_game("mastermind:pegs=3,colors=4")
    w = 1 + np.arange(len(game.secrets)) % 3 if weighted else None
    optimum = optimal_tree(game, weights=w).value
    journal = tmp_path / "j.jsonl"
    for target in (optimum - 20, optimum - 1, optimum):
        lines: list[str] = []
        capped = split_root(game, workers=2, weights=w, target=target, journal=journal, status=lines.append)
        assert capped.lower_bound == target and not capped.exact
        assert (
            capped.value > optimum
            and capped.seed is not None
            and capped.value
            == float(capped.seed.guesses[game.all_secrets] @ (np.ones(len(game.secrets)) if w is None else w))
        )
        assert f"target {target:,.6g}" in lines[-1], lines[-1]
    above = split_root(game, workers=2, weights=w, target=optimum + 1, journal=journal)
    assert above.exact and above.value == optimum
    fresh = split_root(game, workers=1, weights=w, journal=tmp_path / "fresh.jsonl")
    assert fresh.exact and fresh.value == optimum


def test_a_target_from_the_command_line(capsys):
    rc, out, err = run(capsys, "optimal", "mastermind:pegs=3,colors=4", "--workers", "2", "--target", "200", "--json")
    found = json.loads(out)
    assert rc == 0 and found["lower_bound"] == 200 and not found["exact"] and found["total"] > 206, err
    for given, why in ((["--target", "200"], "give --workers N"), (["--workers", "1", "--target", "-3"], "positive")):
        rc, out, err = run(capsys, "optimal", "mastermind:pegs=3,colors=4", *given)
        assert rc == 2 and why in err and "Traceback" not in err and err.count("\n") == 1, err
