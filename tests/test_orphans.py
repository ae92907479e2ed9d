"""No orphan worker, no endless wait.

`arena optimal --workers 2` and `arena equilibrium` are killed with SIGTERM, SIGHUP and SIGKILL
while working: no process of theirs is left, and a pipe they wrote to closes (`... | cat`
ends). A Dask run whose cluster has no live worker fails what is pending and ends.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena.cli.parser import main

ARENA = str(Path(sys.executable).with_name("arena"))
COMMANDS = {
    "optimal": [ARENA, "optimal", "jotto:first=400", "--workers", "2", "--time-limit", "120"],
    "equilibrium": [ARENA, "equilibrium", "mastermind:pegs=4,colors=4", "--time-limit", "120"],
}


def children(pid: int) -> set[int]:
    """Every live descendant of `pid` (from /proc; zombies count as ended)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=lambda s: s.name)
def test_a_killed_parent_leaves_no_process(command, sig):
    # SIGHUP at its default (a run started under nohup, as a background CI run may be, ignores
    # it, and so would the command it starts): the test is of a hangup that ends the parent.
    proc = subprocess.Popen(
        COMMANDS[command],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline:  # working: the split's workers started, or a few seconds in
            workers = children(proc.pid)
            if len(workers) >= 2 if command == "optimal" else time.monotonic() > deadline - 58:
                break
            time.sleep(0.1)
        if command == "optimal":
            assert len(workers) >= 2, "the root split's workers never started"
        proc.send_signal(sig)
        proc.wait(30)
        left = {pid for pid in workers if alive(pid)}
        end = time.monotonic() + 10
        while left and time.monotonic() < end:  # the kernel's kill is delivered a moment later
            time.sleep(0.1)
            left = {pid for pid in left if alive(pid)}
        assert not left, f"{command} left {left} running after {sig.name}"
        proc.stdout.read()  # end-of-file: nothing holds the pipe any more (`| cat` ends)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()


CONFIG = """
seed = 1
games = ["mastermind:pegs=2,colors=4"]
guessers = ["lowest", "knuth"]
"""


def test_a_dask_cluster_without_workers_fails_the_pending_tasks_and_ends(tmp_path, monkeypatch, capsys):
    """Every task pending while no worker lives for NO_WORKER_SECONDS fails; what is stored is
    kept, and a run with a worker resumes the failed ones."""
    distributed = pytest.importorskip("dask.distributed")
    from arena.parallel import cluster as dask

    monkeypatch.setattr(dask, "NO_WORKER_SECONDS", 1.0)
    config = tmp_path / "t.toml"
    config.write_text(textwrap.dedent(CONFIG))
    out = tmp_path / "out"
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=None) as cluster:
        start = time.monotonic()
        rc = main(
            [
                "run",
                str(config),
                "--backend",
                "dask",
                "--scheduler",
                cluster.scheduler_address,
                "--out",
                str(out),
                "--no-plots",
            ]
        )
        assert time.monotonic() - start < 30
    captured = capsys.readouterr()
    shown = captured.out + captured.err + (out / "results.csv").read_text()
    assert rc == 0 and "no Dask worker for 1 s" in shown, shown  # failed cells are results, as ever
    assert (out / "results.sqlite").exists()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        rc = main(
            [
                "run",
                str(config),
                "--backend",
                "dask",
                "--scheduler",
                cluster.scheduler_address,
                "--out",
                str(out),
                "--no-plots",
                "--retry-failed",
            ]
        )
    assert rc == 0, capsys.readouterr()


def test_the_split_workers_die_with_their_parent_in_process():
    """The mechanism itself: a forked worker armed with die_with_parent ends when its parent does."""
    from arena.parallel.orphans import die_with_parent

    read, write = os.pipe()
    middle = os.fork()
    if middle == 0:  # the parent to be killed: it forks a worker, reports its pid, and waits
        os.close(read)
        worker = os.fork()
        if worker == 0:
            die_with_parent(os.getppid())
            time.sleep(60)
            os._exit(0)
        os.write(write, str(worker).encode())
        time.sleep(60)
        os._exit(0)
    os.close(write)
    worker = int(os.read(read, 64))
    os.close(read)
    time.sleep(0.3)
    os.kill(middle, signal.SIGKILL)
    os.waitpid(middle, 0)
    end = time.monotonic() + 10
    while alive(worker) and time.monotonic() < end:
        time.sleep(0.05)
    assert not alive(worker)


# --- --method enumerate: its real size, and the time limit ------------------------------------


def test_enumerate_stops_at_the_time_limit(capsys):
    from arena import ArenaError, make_game
    from arena.equilibrium.enumeration import enumerate_trees

    start = time.monotonic()
    with pytest.raises(ArenaError, match="time limit of 0.5 s"):
        enumerate_trees(make_game("mastermind:pegs=2,colors=4"), frontier=True, time_limit=0.5)
    assert time.monotonic() - start < 5
    from cli_run import one_line, run

    rc, out, err = run(
        capsys, "equilibrium", "mastermind:pegs=2,colors=4", "--method", "enumerate", "--time-limit", "1"
    )
    one_line(rc, err, "time limit of 1 s", "double oracle")


def test_enumerate_refuses_a_listing_past_its_real_size():
    """The count checks pass (L(root) is small), the listing itself grows past the budget."""
    from arena import ArenaError, make_game
    from arena.equilibrium.enumeration import check_enumeration_size, enumerate_trees

    game = make_game("mastermind:pegs=2,colors=3")
    check_enumeration_size(game, frontier=True)
    assert len(enumerate_trees(game, frontier=True)) == 168
    with pytest.raises(ArenaError, match="more than 1,000 cells"):
        enumerate_trees(game, frontier=True, max_cells=1_000)


def test_the_root_split_on_a_cluster_without_workers_ends(capsys, monkeypatch, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    from cli_run import one_line, run

    from arena.parallel import cluster as dask

    monkeypatch.setattr(dask, "NO_WORKER_SECONDS", 1.0)
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=None) as cluster:
        start = time.monotonic()
        rc, out, err = run(
            capsys,
            "optimal",
            "mastermind:pegs=2,colors=4",
            "--workers",
            "2",
            "--backend",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
            "--journal",
            tmp_path / "j.jsonl",
        )
        assert time.monotonic() - start < 30
    one_line(rc, err, "no Dask worker for 1 s")
