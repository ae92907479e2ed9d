"""Running tasks: in this process, on a local pool of worker processes, or on a Dask cluster.

Workers build each game once (the feedback table is cached per process by make_game) and
return plain data; only the parent process writes to the store, one task at a time, as they
finish. A task fails alone, its error recorded, whether its agent raises or breaks the rules,
runs past the time limit ("timed out after N s"), or takes its process down ("worker died").
Workers never outlive the run, nor do the processes their agents start (see pool.py); a task
that runs an outside agent's code always runs in a worker, so that this holds with one worker
too. On Dask, a cluster left with no live worker for arena.parallel.cluster.NO_WORKER_SECONDS
fails the tasks still pending ("no Dask worker for 60 s") and the run ends, keeping what was
stored; a later run resumes them. How tasks reach processes (forked workers, a cluster) is
arena.parallel's; this module says what a task is and plays it.
"""

from __future__ import annotations

import functools
import time
import traceback
from collections.abc import Callable, Generator

from agents import make_chooser, make_guesser
from agents.registry import agent_fault

from ...core.errors import ArenaError
from ...games import make_game
from ...parallel.cluster import connect
from ...parallel.outcome import TaskResult
from ...parallel.pool import Pool, context
from ...parallel.progress import TaskBar
from ...play.match import evaluate_against
from .provenance import verify
from .tally import Tally
from .tasks import Task


def play_task(task: Task) -> TaskResult:
    """One task's result (its value the tally as JSON data); never raises for an agent's failure."""

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
        return TaskResult.done(tally.to_json(), time.perf_counter() - start)
    except Exception as e:  # an agent's failure is this task's result, not the tournament's end
        return TaskResult.failed(agent_fault(e, tuple(playing)) or _located(e), time.perf_counter() - start)


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


Report = Callable[[Task, TaskResult], None]


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
    bar = TaskBar(len(tasks) + done, done) if progress else None
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
) -> Generator[tuple[Task, TaskResult], None, None]:
    if not tasks:
        return
    games = sorted({t.game for t in tasks})
    if backend == "dask":
        with connect(scheduler, forks=timeout is not None) as cluster:
            on_cluster = cluster.workers(play_task, functools.partial(_warm, games), timeout, label=lambda t: t.key)
            yield from on_cluster.run(tasks)
    elif workers <= 1 and timeout is None and not any(outside_code(t) for t in tasks):
        for task in tasks:
            yield task, play_task(task)
    else:
        if context().get_start_method() == "fork":
            _warm(games)  # once, here: forked workers share the tables instead of each building them
        with Pool(min(workers, len(tasks)), play_task, functools.partial(_warm, games), timeout) as pool:
            yield from pool.run(tasks)
