"""The processes an agent starts end with the run: each worker leads a process group, killed
when the worker is retired, the run ends, or it is stopped by Ctrl-C or SIGTERM; and a task of
an outside agent runs in a worker even with one. `--workers` answers at once however large."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from arena.cli.parser import main

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups and /proc: Linux")

ARENA = str(Path(sys.executable).with_name("arena"))
GAME = "mastermind:pegs=2,colors=3"

SPAWNER = """\
import os
import subprocess
import time

from agents.simple import Lowest


class Spawn(Lowest):
    \"\"\"Starts `sleep 600` at its first move (noting its pid), then plays as lowest.\"\"\"

    name = "spawn"

    def choose(self, game, state):
        if not getattr(self, "started", False):
            self.started = True
            child = subprocess.Popen(["sleep", "600"])
            with open(os.environ["SPAWN_PIDS"], "a") as f:
                f.write(f"{child.pid}\\n")
        return super().choose(game, state)


class Hang(Spawn):
    \"\"\"Starts its child, then never returns.\"\"\"

    name = "hang"

    def choose(self, game, state):
        super().choose(game, state)
        while True:
            time.sleep(0.1)
"""


def alive(pid: int) -> bool:
    """Is `pid` a running process (not gone, not a zombie waiting to be reaped)?"""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def left_running(pids_file: Path, seconds: float = 5.0) -> list[int]:
    """The noted children still running after up to `seconds` (a kill takes a moment)."""
    pids = [int(p) for p in pids_file.read_text().split()] if pids_file.exists() else []
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    running = [p for p in pids if alive(p)]
    for pid in running:  # never leave them behind, even when the test fails
        os.kill(pid, signal.SIGKILL)
    return running


@pytest.fixture
def spawner(tmp_path, monkeypatch):
    module = f"spawner_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{module}.py").write_text(SPAWNER)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("SPAWN_PIDS", str(tmp_path / "pids"))
    yield module, tmp_path / "pids"
    sys.modules.pop(module, None)
    left_running(tmp_path / "pids", 0)  # whatever a failed test left behind


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_agents_child_process_ends_with_the_run(spawner, tmp_path, capsys, workers):
    module, pids = spawner
    config = tmp_path / "c.toml"
    config.write_text(f'game = "{GAME}"\nguessers = ["{module}:Spawn", "lowest"]\nchoosers = ["uniform", "evil"]\n')
    argv = ["run", str(config), "--allow-import", "--no-plots", "--workers", workers]
    assert main(argv) == 0, capsys.readouterr().err
    assert len(pids.read_text().split()) == 2  # one per task of the spawning agent, each in a worker
    assert left_running(pids) == []


def test_a_timed_out_agents_child_process_ends_with_its_worker(spawner, tmp_path, capsys):
    module, pids = spawner
    config = tmp_path / "c.toml"
    config.write_text(f'game = "{GAME}"\nguessers = ["{module}:Hang", "lowest"]\n')
    assert main(["run", str(config), "--allow-import", "--no-plots", "--task-timeout", "1"]) == 0
    assert "timed out after 1 s" in capsys.readouterr().out
    assert left_running(pids) == []


def as_from_a_shell() -> None:
    """The run's signals as a terminal's shell gives them: Ctrl-C neither ignored nor blocked.
    In the full suite under .ci/run the run, started from a test worker, let SIGINT wait for
    ever (twice, at two commits) while SIGTERM stopped it, and alone it passes: the worker had
    come to ignore or block SIGINT, which a child inherits (not found which test leaves it so)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_run_ends_the_agents_child_processes(spawner, tmp_path, sig):
    module, pids = spawner
    config = tmp_path / "c.toml"
    config.write_text(f'game = "{GAME}"\nguessers = ["lowest", "{module}:Hang"]\n')
    out = tmp_path / "out"
    run = subprocess.Popen(
        [ARENA, "run", str(config), "--allow-import", "--no-plots", "--out", str(out), "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        preexec_fn=as_from_a_shell,
    )
    try:
        deadline = time.monotonic() + 60
        while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pids.exists(), "the agent never started its child"
        run.send_signal(sig)
        _, err = run.communicate(timeout=30)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    assert left_running(pids) == []


def test_a_huge_worker_count_answers_at_once_in_one_line(tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text(f'game = "{GAME}"\nguesser = "random"\nrepeat = 6\nblock = 1\n')
    cpus = os.cpu_count() or 1
    start = time.monotonic()
    assert main(["run", str(config), "--no-plots", "--workers", "100000"]) == 0
    err = capsys.readouterr().err
    assert f"using {cpus} (--oversubscribe to use {max(64, 8 * cpus)})" in err
    assert main(["run", str(config), "--no-plots", "--workers", "100000", "--oversubscribe"]) == 0
    err = capsys.readouterr().err
    assert f"using {max(64, 8 * cpus)} (8 per CPU, or 64, whichever is more)" in err
    assert len([line for line in err.splitlines() if line.startswith("arena run:")]) == 1
    assert time.monotonic() - start < 60  # the issue: no answer in 120 s


def test_sigterm_stops_a_pool_as_ctrl_c_does_and_the_old_handler_comes_back():
    from arena.parallel.outcome import TaskResult
    from arena.parallel.pool import Pool

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt, match="SIGTERM"):
        with Pool(1, lambda task: TaskResult.done(None, 0.0)):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises here at once
    assert signal.getsignal(signal.SIGTERM) is before
