"""Running tasks: a hanging agent, a dying worker or a dying parent never loses or corrupts results.

The misbehaving guessers live in tests/rogue_agents.py (imported as `rogue_agents:Class`).
"""

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena.cli.parser import main
from arena.core.errors import ArenaError
from arena.parallel.outcome import Status, TaskResult
from arena.parallel.pool import Pool, play_in_child
from arena.study.tournament.play import play_task, run_tasks
from arena.study.tournament.tasks import Task

TESTS = Path(__file__).parent
ROOT = TESTS.parent
SMALL = "mastermind:pegs=3,colors=4"


def well_behaved() -> list[Task]:
    """Tasks over two games, deterministic and random guessers, each with its own seed."""
    tasks = [
        Task(0, SMALL, "uniform", "lowest", 0, 1, 11),
        Task(1, "jotto:first=200", "uniform", "lowest", 0, 1, 12),
        Task(2, SMALL, "evil", "entropy", 0, 1, 13, (6,)),
    ]
    tasks += [Task(3, SMALL, "uniform", "random", b, 2, 100 + b) for b in range(3)]
    return tasks


def rogue(name: str, cell: int = 9) -> Task:
    return Task(cell, SMALL, "uniform", f"rogue_agents:{name}", 0, 1, 7, allow_import=True)


def kept(result: TaskResult) -> tuple:
    """A TaskResult without its seconds (they are not results)."""
    assert isinstance(result, TaskResult) and isinstance(result.status, Status)
    return result.status, result.value, result.error


def collect(tasks, **options) -> dict:
    """{task: (status, tally, error)} of a run (seconds left out: they are not results)."""
    results = {}
    run_tasks(tasks, lambda task, result: results.__setitem__(task, kept(result)), **options)
    assert len(results) == len(tasks)
    return results


@pytest.fixture(scope="module")
def plain():
    """The well-behaved tasks' results in this process, the way they were always run."""
    return collect(well_behaved())


def workers_left() -> list:
    return [p for p in multiprocessing.active_children() if p.name == "arena-worker"]


def assert_others_identical(results: dict, plain: dict) -> None:
    for task, expected in plain.items():
        assert results[task] == expected, task


@pytest.mark.parametrize("workers", [1, 2])
def test_a_hanging_agent_times_out_alone(workers, plain):
    hang = rogue("Hang")
    start = time.perf_counter()
    results = collect([hang] + well_behaved(), workers=workers, timeout=2)
    assert results[hang] == ("failed", None, "timed out after 2 s")
    assert_others_identical(results, plain)
    assert time.perf_counter() - start < 20
    assert workers_left() == []  # the hung worker was killed, the others stopped


@pytest.mark.parametrize("workers, timeout", [(1, 30), (2, None), (2, 30)])
def test_a_dying_worker_fails_its_own_task_only(workers, timeout, plain):
    suicide, exit_ = rogue("Suicide", 9), rogue("Exit", 10)
    tasks = well_behaved()
    results = collect(tasks[:2] + [suicide] + tasks[2:] + [exit_], workers=workers, timeout=timeout)
    assert results[suicide] == ("failed", None, "worker died (signal 9)")
    assert results[exit_] == ("failed", None, "worker died (exit code 3)")
    assert_others_identical(results, plain)


def test_results_do_not_depend_on_the_number_of_workers_or_the_limit(plain):
    for workers, timeout in [(1, 60), (2, 60), (3, None)]:
        assert collect(well_behaved(), workers=workers, timeout=timeout) == plain


def test_a_raising_on_done_stops_every_worker():
    def on_done(task, result):
        raise RuntimeError("the store is full")

    with pytest.raises(RuntimeError):
        run_tasks([rogue("Hang")] + well_behaved(), on_done, workers=2, timeout=60)
    assert workers_left() == []


def test_the_progress_line_is_kept(capsys):
    run_tasks(well_behaved()[:3], lambda task, result: None, workers=2, progress=True)
    assert "3/3 [" in capsys.readouterr().err  # tqdm: done/total [elapsed<left, rate]


def test_the_time_limit_must_be_positive():
    for bad in (0, -1, float("nan")):
        with pytest.raises(ArenaError, match="positive"):
            run_tasks(well_behaved(), lambda task, result: None, timeout=bad)


def test_play_in_child_times_out_and_reports_deaths():
    assert kept(play_in_child(play_task, rogue("Hang"), 1)) == ("failed", None, "timed out after 1 s")
    assert kept(play_in_child(play_task, rogue("Suicide"), 30)) == ("failed", None, "worker died (signal 9)")
    task = well_behaved()[-1]
    assert kept(play_in_child(play_task, task, 30)) == kept(play_task(task))


def _double(x):
    return TaskResult.done({"x": 2 * x}, 0.0)


def _die():
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_that_dies_warming_up_is_replaced_without_the_warm_up():
    with Pool(1, _double, warm=_die) as pool:
        results = dict(pool.run(range(5)))
        assert pool.stillborn == 1
    assert results == {x: _double(x) for x in range(5)}


def _threads(x):
    return TaskResult.done({"threads": os.environ.get("ARENA_THREADS")}, 0.0)


def test_the_workers_share_the_cores_out_for_their_compiled_loops(monkeypatch):
    """Each of N workers may run its compiled loops (arena/core/kernels.py) on cores // N threads, so
    a pool does not oversubscribe the machine; a user's ARENA_THREADS is kept."""
    from arena.core.resources import cores

    monkeypatch.delenv("ARENA_THREADS", raising=False)
    with Pool(2, _threads) as pool:
        shares = {result.value["threads"] for _, result in pool.run(range(4))}
    assert shares == {str(max(1, cores() // 2))}
    monkeypatch.setenv("ARENA_THREADS", "5")
    with Pool(2, _threads) as pool:
        assert {result.value["threads"] for _, result in pool.run(range(2))} == {"5"}


# ----- a killed parent leaves no worker behind -------------------------------------------------

PARENT = """
import sys
from arena.study.tournament.tasks import Task
from arena.study.tournament.play import run_tasks

workers, timeout = int(sys.argv[1]), float(sys.argv[2])
hang = [Task(i, "mastermind:pegs=3,colors=4", "uniform", "rogue_agents:Hang", i, 1, i, allow_import=True)
        for i in range(3)]
run_tasks(hang, lambda task, result: None, workers=workers, timeout=timeout)
"""


def alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie nobody has reaped yet counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def gone_within(pids, seconds: float) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def wait_for_pids(path: Path, count: int, seconds: float = 30) -> list[int]:
    deadline = time.time() + seconds
    while time.time() < deadline:
        pids = [int(line) for line in path.read_text().split()] if path.exists() else []
        if len(pids) >= count:
            return pids
        time.sleep(0.05)
    raise AssertionError(f"only {path.read_text() if path.exists() else 'no'} hanging workers started")


@pytest.mark.parametrize("workers", [1, 2])
def test_killing_the_parent_kills_its_workers(tmp_path, workers):
    script, pids = tmp_path / "parent.py", tmp_path / "pids"
    script.write_text(PARENT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)]), "ARENA_TEST_PIDS": str(pids)}
    parent = subprocess.Popen(
        [sys.executable, str(script), str(workers), "600"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        hung = wait_for_pids(pids, workers)
    finally:
        parent.kill()
        parent.wait()
    assert gone_within(hung, 5), f"workers {hung} outlived their parent"


WATCHED = """
import os, sys, threading, time
from arena.parallel.orphans import _watch

middle = os.getpid()
child = os.fork()
if child == 0:
    threading.Thread(target=_watch, args=(middle,), daemon=True).start()
    while True:
        time.sleep(0.1)
print(child, flush=True)
while True:
    time.sleep(0.1)
"""


def test_the_watchdog_ends_a_worker_whose_parent_died(tmp_path):
    """The fallback for platforms without PR_SET_PDEATHSIG."""
    script = tmp_path / "watched.py"
    script.write_text(WATCHED)
    middle = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}
    )
    try:
        child = int(middle.stdout.readline())
    finally:
        middle.kill()
        middle.wait()
    assert gone_within([child], 5)


# ----- Dask --------------------------------------------------------------------------------------


@pytest.mark.parametrize("address", ["garbage", "tcp://", "http://x:notaport", "tcp://x:notaport"])
def test_a_malformed_scheduler_address_is_one_line(address, tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    with pytest.raises(ArenaError, match="not a scheduler address"):
        run_tasks(well_behaved(), lambda task, result: None, backend="dask", scheduler=address)
    config = tmp_path / "t.toml"
    config.write_text(
        textwrap.dedent(f"""
        games = ["{SMALL}"]
        guessers = ["lowest"]
    """)
    )
    assert main(["run", str(config), "--backend", "dask", "--scheduler", address, "--no-plots"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes; a task whose worker dies is not retried (allowed-failures 0)."""
    distributed = pytest.importorskip("dask.distributed")
    import dask

    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(TESTS)])  # the workers import rogue_agents
    try:
        with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
            with distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster:
                yield cluster.scheduler_address
    finally:
        if saved is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = saved


def test_dask_with_a_time_limit_fails_hanging_and_dying_tasks_alone(cluster, plain):
    hang, suicide = rogue("Hang", 9), rogue("Suicide", 10)
    results = collect([hang, suicide] + well_behaved(), backend="dask", scheduler=cluster, timeout=2)
    assert results[hang] == ("failed", None, "timed out after 2 s")
    assert results[suicide] == ("failed", None, "worker died (signal 9)")
    assert_others_identical(results, plain)


def test_dask_worker_death_fails_its_own_task_only(cluster, plain):
    """Dask fails (KilledWorker) every task that was on the dead worker: each is played again
    alone in a child process, so that only the culprit fails."""
    suicide = rogue("Suicide")
    results = collect([suicide] + well_behaved(), backend="dask", scheduler=cluster)
    assert results[suicide] == ("failed", None, "worker died (signal 9)")
    assert_others_identical(results, plain)
