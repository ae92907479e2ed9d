"""Running tasks: in this process, on a local pool of worker processes, or on a Dask cluster.

Workers build each game once (the feedback table is cached per process by make_game) and
return plain data; only the parent process writes to the store, one task at a time, as they
finish. A task fails alone, its error recorded, whether its agent raises or breaks the rules,
runs past the time limit ("timed out after N s"), or takes its process down ("worker died").
Workers never outlive the run, nor do the processes their agents start (see pool.py); a task
that runs an outside agent's code always runs in a worker, so that this holds with one worker
too. On Dask, a cluster left with no live worker for NO_WORKER_SECONDS fails the tasks still
pending ("no Dask worker for 60 s") and the run ends, keeping what was stored; a later run
resumes them.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
import time
import traceback
from collections.abc import Callable, Generator

from agents import make_chooser, make_guesser
from agents.registry import agent_fault

from ...core.errors import ArenaError
from ...games import make_game
from ...parallel.pool import Pool, context, play_in_child
from ...play.match import evaluate_against
from .cells import Task
from .provenance import verify
from .tally import Tally


def play_task(task: Task) -> tuple[str, dict | None, str | None, float]:
    """(status, tally JSON, error, seconds) of one task; never raises for an agent's failure."""

    start = time.perf_counter()
    playing: list = []  # the agents built so far: a failure in their code is told as theirs
    try:
        verify(task.code)  # this process runs the code the task is keyed on, not an older import
        game = make_game(task.game)
        guesser = make_guesser(task.guesser, allow_import=task.allow_import)
        playing.append(guesser)
        strikes = task.strikes or None
        chooser = make_chooser(task.chooser, allow_import=task.allow_import)
        playing.append(chooser)
        result = evaluate_against(game, guesser, chooser, repeat=task.repeat, seed=task.seed, strikes=strikes)
        every = chooser.traits.every_secret_once
        tally = Tally.of(result, every_secret=every)
        return "ok", tally.to_json(), None, time.perf_counter() - start
    except Exception as e:  # an agent's failure is this task's result, not the tournament's end
        return "failed", None, agent_fault(e, tuple(playing)) or _located(e), time.perf_counter() - start


def outside_code(task: Task) -> bool:
    """Does the task run code from outside the project (a module:Class or plug-in agent or
    game)? Such a task runs in a worker process even with one worker: the processes its agent
    starts then end with that worker's process group (pool.py), and a crash ends only the worker."""
    return any(source != "arena" for source, _ in task.code)


def _located(error: BaseException) -> str:
    """An error with the innermost line of the project's code it passed through (not numpy's)."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/arena/" in f.filename or "/agents/" in f.filename] or frames
    where = ours[-1]
    return f"{type(error).__name__}: {error} (at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})"


def _warm(games: list[str]) -> None:
    """Worker start-up: build each game's feedback table once for all the tasks to come."""

    for spec in games:
        try:
            make_game(spec)
        except ArenaError:
            pass  # the task itself will report it


Report = Callable[[Task, tuple], None]

#: A Dask cluster with no live worker this long fails the tasks still pending.
NO_WORKER_SECONDS = 60.0
#: How often a Dask run that is waiting asks the scheduler how many workers it has.
_WORKER_CHECK_SECONDS = 1.0


def run_tasks(
    tasks: list[Task],
    on_done: Report,
    workers: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    progress: bool = False,
    timeout: float | None = None,
    done: int = 0,
) -> None:
    """Run every task, calling on_done(task, result) in this process as each one finishes.

    With `timeout` (seconds), a task still running after it fails "timed out after N s" and
    its worker is replaced; with workers=1 the tasks then run in a child process. `done` tasks
    of the run were finished before (a resumed run): the progress bar counts from there.
    """
    if timeout is not None and not timeout > 0:
        raise ArenaError(f"the task time limit must be a positive number of seconds, got {timeout}")
    if timeout == float("inf"):
        timeout = None
    bar = _Progress(len(tasks) + done, done) if progress else None
    finished = _each_result(tasks, workers, backend, scheduler, timeout)
    try:
        for task, result in finished:
            on_done(task, result)
            if bar:
                bar.step()
    finally:
        finished.close()  # now, not when garbage collected: stops the workers if on_done raised
        if bar:
            bar.close()


def _each_result(
    tasks: list[Task], workers: int, backend: str, scheduler: str | None, timeout: float | None
) -> Generator[tuple[Task, tuple], None, None]:
    if not tasks:
        return
    games = sorted({t.game for t in tasks})
    if backend == "dask":
        yield from _dask(tasks, scheduler, games, timeout)
    elif workers <= 1 and timeout is None and not any(outside_code(t) for t in tasks):
        for task in tasks:
            yield task, play_task(task)
    else:
        if context().get_start_method() == "fork":
            _warm(games)  # once, here: forked workers share the tables instead of each building them
        with Pool(min(workers, len(tasks)), play_task, functools.partial(_warm, games), timeout) as pool:
            yield from pool.run(tasks)


def _dask(tasks: list[Task], scheduler: str | None, games: list[str], timeout: float | None):
    try:
        from dask.distributed import Client  # lazy: heavy
        from dask.distributed import as_completed as dask_completed  # lazy: heavy
        from distributed.scheduler import KilledWorker  # lazy: heavy
    except ImportError:
        raise ArenaError("--backend dask needs Dask: pip install -e '.[dask]'") from None
    if not scheduler:
        raise ArenaError("--backend dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
    if timeout is not None and not hasattr(os, "fork"):
        raise ArenaError("a task time limit on Dask needs workers that can fork (Linux or macOS)")
    client = connect_dask(Client, scheduler)
    try:
        client.run(_warm, games)
        play = play_task if timeout is None else functools.partial(_play_in_child, timeout=timeout)
        futures = client.map(play, tasks, pure=False)
        index = {f.key: t for f, t in zip(futures, tasks)}
        retried = set()
        finished = dask_completed(futures)
        for future in _as_long_as_workers(client, finished):
            if future is None:  # no worker for NO_WORKER_SECONDS: what is pending fails
                for task in list(index.values()):
                    yield task, ("failed", None, f"no Dask worker for {NO_WORKER_SECONDS:g} s", 0.0)
                finished.clear()
                client.cancel(futures)
                return
            task = index.pop(future.key)
            try:
                result = future.result()
            except KilledWorker as e:
                # Dask blames every task that was on a dying worker, not just the one that killed
                # it: play each again alone in a forked child, where only the culprit dies
                if future.key not in retried and hasattr(os, "fork"):
                    again = client.submit(_play_in_child, task, timeout=timeout, pure=False)
                    futures.append(again)
                    index[again.key] = task
                    retried.add(again.key)
                    finished.add(again)
                    continue
                result = "failed", None, f"worker died (Dask: {e})", 0.0
            except Exception as e:  # the cluster failed, not the task: stop (a run with --out resumes)
                raise ArenaError(f"the Dask cluster failed while running {task.key}: {type(e).__name__}: {e}") from None
            yield task, result
    finally:
        client.close()


def _as_long_as_workers(client, finished):
    """The futures of `finished` (a Dask as_completed) as each completes; then None, once, if
    the cluster has had no live worker for NO_WORKER_SECONDS while some were still pending."""
    alone_since: float | None = None
    next_check = time.monotonic() + _WORKER_CHECK_SECONDS
    while not finished.is_empty():
        batch = finished.next_batch(block=False)
        if batch:
            alone_since = None
            yield from batch
            continue
        time.sleep(0.05)
        now = time.monotonic()
        if now < next_check:
            continue
        next_check = now + _WORKER_CHECK_SECONDS
        if client.scheduler_info().get("workers"):
            alone_since = None
        elif alone_since is None:
            alone_since = now
        elif now - alone_since >= NO_WORKER_SECONDS:
            yield None
            return


def _check_address(scheduler: str, example: str) -> None:
    """Refuse a malformed scheduler address before any Client is built (see connect_dask)."""
    from distributed.comm import parse_address  # lazy: heavy
    from distributed.comm.addressing import parse_host_port  # lazy: heavy
    from distributed.comm.registry import get_backend  # lazy: heavy

    try:
        scheme, location = parse_address(scheduler)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location)
    except (ValueError, TypeError) as e:
        raise ArenaError(f"--scheduler {scheduler!r} is not a scheduler address ({e}); {example}") from None


def connect_dask(client, scheduler: str):
    """A Dask client of `scheduler`; one line for an address that is malformed or unreachable.

    A Client that fails half-built is finalised at once (gc.collect): left to the garbage
    collector, its __del__ may run while a later Client starts Dask's event loop, and wait
    forever for the loop's lock that this start-up holds."""
    example = "e.g. tcp://127.0.0.1:8786"
    _check_address(scheduler, example)
    try:
        return client(scheduler, timeout="10s")
    except Exception as e:
        gc.collect()
        if isinstance(e, (OSError, TimeoutError)):
            raise ArenaError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        if isinstance(e, (ValueError, TypeError)):
            raise ArenaError(f"--scheduler {scheduler!r} is not a scheduler address ({e}); {example}") from None
        # any other failure to connect is still about the address given
        raise ArenaError(f"cannot connect to the Dask scheduler at {scheduler}: {type(e).__name__}: {e}") from None


def _play_in_child(task: Task, timeout: float | None) -> tuple:
    """On a Dask worker: the task in a forked child, killed at the time limit if there is one."""
    return play_in_child(play_task, task, timeout)


class _Progress:
    """Tasks done, rate and time left: a tqdm bar on stderr."""

    def __init__(self, total: int, initial: int = 0):
        from tqdm import tqdm  # lazy: heavy (only a run with a progress bar needs it)

        from ...parallel.progress import screen

        # the caller shows it only on a terminal (arena run: stderr is a tty and no --json)
        self.bar = tqdm(total=total, initial=initial, unit="task", file=sys.stderr, **screen())

    def step(self) -> None:
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()
