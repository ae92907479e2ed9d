"""arena.parallel: the one layer that starts processes and talks to Dask, what its tasks return
(TaskResult, a Status), its watchdog, and one thread per worker (issues 32 and 33).

The first test reads every module's source (ast): outside arena/parallel/, no module imports
multiprocessing, subprocess, concurrent.futures' process pool, dask or distributed, nor calls
os.fork (or its kin). No agent runs as a subprocess of the referee today, so the rule has no
exception; one that did would be listed in ALLOWED with its reason.
"""

from __future__ import annotations

import ast
import functools
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.core.errors import ArenaError
from arena.parallel import cluster
from arena.parallel.outcome import Status, TaskResult, died, returning, timed_out
from arena.parallel.pool import Pool
from arena.parallel.threads import KEEP, POOLS, USERS, in_worker, one_thread_each

ROOT = Path(__file__).resolve().parents[1]
#: Modules outside arena/parallel/ that may start processes, each with its reason (none today).
ALLOWED: dict[str, str] = {}
#: Imports that start processes or reach a cluster: a name, or a name and what is taken from it.
FORBIDDEN_MODULES = ("multiprocessing", "subprocess", "dask", "distributed", "concurrent.futures.process")
FORBIDDEN_NAMES = {"concurrent.futures": {"ProcessPoolExecutor"}}
#: os functions that start a process.
FORBIDDEN_OS = {"fork", "forkpty", "system", "popen", "posix_spawn", "posix_spawnp"} | {
    f"spawn{s}" for s in ("l", "le", "lp", "lpe", "v", "ve", "vp", "vpe")
}


def process_starts(source: str, where: str) -> list[str]:
    """Each place in `source` that imports a process or cluster library or calls os.fork and kin."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
            taken = FORBIDDEN_NAMES.get(node.module, set())
            found += [f"{where}:{node.lineno}: {node.module}.{a.name}" for a in node.names if a.name in taken]
        found += [
            f"{where}:{node.lineno}: import {name}"
            for name in names
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN_MODULES)
        ]
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_OS:
            if isinstance(node.value, ast.Name) and node.value.id == "os":
                found.append(f"{where}:{node.lineno}: os.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [f"{where}:{node.lineno}: os.{a.name}" for a in node.names if a.name in FORBIDDEN_OS]
    return found


def outside_the_layer() -> list[Path]:
    paths = sorted((ROOT / "arena").rglob("*.py")) + sorted((ROOT / "agents").rglob("*.py"))
    return [p for p in paths if (ROOT / "arena" / "parallel") not in p.parents]


def test_only_the_parallel_layer_starts_processes_or_talks_to_dask():
    paths = outside_the_layer()
    assert len(paths) > 100  # the whole project is read
    found = []
    for path in paths:
        where = str(path.relative_to(ROOT))
        if where not in ALLOWED:
            found += process_starts(path.read_text(), where)
    assert found == [], found


def test_the_process_check_sees_one():
    for line in (
        "import multiprocessing",
        "from multiprocessing.connection import wait",
        "import subprocess",
        "from concurrent.futures import ProcessPoolExecutor",
        "from dask.distributed import Client",
        "import distributed.scheduler",
        "pid = os.fork()",
        "os.posix_spawn(path, argv, env)",
        "from os import fork",
    ):
        assert process_starts(f"def f():\n    {line}\n", "x.py"), line
    fine = "from concurrent.futures import ThreadPoolExecutor\nimport os\nos.getpid()\nimport threading\n"
    assert process_starts(fine, "x.py") == []


# --- what a task returns -------------------------------------------------------------------------


def test_a_task_result_is_typed_and_travels():
    ok, failed = TaskResult.done({"n": 1}, 0.5), TaskResult.failed("boom", 1.0)
    assert ok.ok and ok.status is Status.OK and ok.value == {"n": 1} and ok.error is None
    assert not failed.ok and failed.status is Status.FAILED and failed.value is None and failed.error == "boom"
    assert [s.value for s in Status] == ["ok", "failed", "not run"] and Status.NOT_RUN == "not run"
    assert pickle.loads(pickle.dumps(ok)) == ok  # it crosses a pipe to the parent
    assert timed_out(2, 2.1).error == "timed out after 2 s" and timed_out(None, 1).error == "timed out"
    assert died(-9, 0).error == "worker died (signal 9)" and died(3, 0).error == "worker died (exit code 3)"


def _raise(error: Exception):
    raise error


class Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("not this one")


def test_a_call_returns_its_value_or_carries_its_exception():
    assert returning(divmod, (7, 2)).value_or_raise() == (3, 1)
    result = returning(_raise, (ArenaError("a piece's own line"),))
    assert result.error == "ArenaError: a piece's own line"
    with pytest.raises(ArenaError, match="^a piece's own line$"):
        result.value_or_raise()
    lost = returning(_raise, (Unpicklable("odd"),))
    assert lost.raised is None and lost.error == "Unpicklable: odd"
    with pytest.raises(ArenaError, match="a worker's task failed: Unpicklable: odd"):
        lost.value_or_raise()


def _suicide(_):
    os.kill(os.getpid(), 9)


def test_a_pool_takes_tasks_one_by_one():
    """The split's use: submit, then the next done, deciding what to submit from what finished;
    an exception in a worker comes back to be raised again, a death as its one line."""
    with Pool(2, functools.partial(returning, divmod)) as pool:
        pool.submit((7, 2))
        assert pool.in_flight() == 1
        (task, result), *_ = pool.done()
        assert task == (7, 2) and result.value == (3, 1)
        for n in range(5):
            pool.submit((n, 2))
        seen = {}
        while pool.in_flight():
            seen.update(pool.done())
        assert {task: r.value for task, r in seen.items()} == {(n, 2): divmod(n, 2) for n in range(5)}
        assert pool.done() == []  # nothing in flight: nothing to wait for
    with Pool(1, functools.partial(returning, _raise)) as pool:
        pool.submit((ArenaError("its line"),))
        with pytest.raises(ArenaError, match="^its line$"):
            pool.done()[0][1].value_or_raise()
    with Pool(1, _suicide) as pool:
        pool.submit(0)  # (not None: None tells a worker to stop)
        with pytest.raises(ArenaError, match=r"a worker's task failed: worker died \(signal 9\)"):
            pool.done()[0][1].value_or_raise()


def test_a_pool_started_runs_its_tasks_while_the_caller_works():
    """`start` hands the tasks out and returns at once (the split's seed trees grow while the
    parent compiles); the results are collected after, every one of them."""
    with Pool(2, functools.partial(returning, _started_at)) as pool:
        for n in range(3):
            pool.submit((n,))
        pool.start()
        assert pool.in_flight() == 3 and len(pool.queue) == 1  # two given now, one waits for a worker
        time.sleep(1.0)  # the caller's own work
        worked_until = time.time()
        got = {task: result.value for task, result in pool.run([])}
    assert sorted(got) == [(0,), (1,), (2,)]
    assert sorted(started < worked_until for _, started in got.values()) == [False, True, True]


def _started_at(n: int) -> tuple[int, float]:
    return n, time.time()


# --- the watchdog --------------------------------------------------------------------------------


def test_the_watchdog_barks_once_a_cluster_has_had_no_worker_for_its_seconds(monkeypatch):
    monkeypatch.setattr(cluster, "WORKER_CHECK_SECONDS", 0.0)
    answers = iter([True, False, False, True, False, False, False])
    watchdog = cluster.Watchdog(lambda: next(answers), 0.05)
    watchdog.check()  # a worker
    watchdog.check()  # alone from now
    watchdog.check()
    watchdog.check()  # a worker again: the clock starts over
    watchdog.check()
    watchdog.progress()  # a task finished: a worker lives
    assert watchdog.alone_since is None
    watchdog.check()
    import time

    time.sleep(0.06)
    with pytest.raises(cluster.NoWorker, match=r"^no Dask worker for 0\.05 s$"):
        watchdog.check()
    monkeypatch.setattr(cluster, "NO_WORKER_SECONDS", 7.0)
    assert cluster.Watchdog(lambda: True).seconds == 7.0  # read when made: a test may shorten it


def test_the_dask_messages_are_said_once(monkeypatch):
    pytest.importorskip("dask.distributed")
    with pytest.raises(ArenaError, match=r"^--backend dask needs --scheduler ADDRESS \(e\.g\. tcp://127"):
        cluster.connect(None)
    with pytest.raises(ArenaError, match="is not a scheduler address"):
        cluster.connect("garbage")
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if Dask were not installed
    with pytest.raises(ArenaError, match=r"^--backend dask needs Dask: pip install -e '\.\[dask\]'$"):
        cluster.connect("tcp://127.0.0.1:8786")


# --- one thread per worker -----------------------------------------------------------------------


def test_the_thread_pools_get_one_thread_unless_the_user_asked():
    env = {"OMP_NUM_THREADS": " "}
    assert one_thread_each(env) == dict.fromkeys(POOLS, "1") and "NUMBA_NUM_THREADS" not in env
    assert one_thread_each(env) == {}
    for name in USERS:  # any one set by the user (OpenBLAS reads its own before OMP's): none set
        env = {name: "2"}
        assert one_thread_each(env) == {} and env == {name: "2"}
    env = {KEEP: "keep"}
    assert one_thread_each(env) == {} and env == {KEEP: "keep"}


def test_numba_gets_one_thread_only_in_workers_where_arena_chose():
    env: dict[str, str] = {}
    assert in_worker(env, arena_chose=True) == {"NUMBA_NUM_THREADS": "1"} == env
    assert in_worker({}, arena_chose=False) == {}
    assert in_worker({"NUMBA_NUM_THREADS": "4"}, arena_chose=True) == {}
    assert in_worker({KEEP: "keep"}, arena_chose=True) == {}


def test_workers_follow_what_the_import_chose(monkeypatch):
    """In this process's environment: arena set the pools (nothing was set), so a worker gets
    NUMBA_NUM_THREADS=1 too."""
    from arena.parallel import threads

    monkeypatch.setattr(threads, "_chosen", {})
    for name in (*USERS, KEEP):  # empty counts as not set (and monkeypatch removes them after)
        monkeypatch.setenv(name, "")
    assert in_worker() == {}  # the import chose nothing (yet)
    assert one_thread_each() == dict.fromkeys(POOLS, "1") and os.environ["OMP_NUM_THREADS"] == "1"
    assert in_worker() == {"NUMBA_NUM_THREADS": "1"} and os.environ["NUMBA_NUM_THREADS"] == "1"


def _after_import(code: str, **settings: str) -> str:
    """What `code` prints in a fresh interpreter after `import arena`, with only `settings`
    of the thread variables set."""
    env = {k: v for k, v in os.environ.items() if k not in (*USERS, KEEP)} | settings
    run = subprocess.run([sys.executable, "-c", "import arena; " + code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_a_users_omp_setting_is_kept():
    """OMP_NUM_THREADS=2 alone: arena sets no other variable (OPENBLAS_NUM_THREADS=1 would win)."""
    code = (
        "import os; print([os.environ.get(n) for n in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS')])"
    )
    assert _after_import(code, OMP_NUM_THREADS="2") == "['2', None, None]"
    assert _after_import(code) == "['1', '1', '1']"


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="numba's pool has one thread on one CPU")
def test_numba_threads_are_the_users_after_import_arena():
    pytest.importorskip("numba")
    code = "import os, numba; numba.set_num_threads(2); print(numba.get_num_threads(), os.environ.get('NUMBA_NUM_THREADS'))"
    assert _after_import(code) == "2 None"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="counts threads in /proc")
def test_arena_loads_numpy_with_one_thread():
    """`import arena` first, then numpy and scipy's linear algebra: no BLAS threads wait beside
    the main one; a user's setting is kept."""
    code = (
        "import os, arena, numpy, scipy.linalg; numpy.ones((64, 64)) @ numpy.ones((64, 64)); "
        "print(len(os.listdir('/proc/self/task')), os.environ['OPENBLAS_NUM_THREADS'])"
    )
    env = {k: v for k, v in os.environ.items() if k not in (*USERS, KEEP)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "1"], out
    env["OPENBLAS_NUM_THREADS"] = "2"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split()[1] == "2", out
