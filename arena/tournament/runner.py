"""Running tasks: in this process, on a local process pool, or on a Dask cluster.

Workers build each game once (the feedback table is cached per process by make_game) and
return plain data; only the parent process writes to the store, one task at a time, as they
finish. A task whose agent raises or breaks the rules fails alone: its error is recorded.
"""

from __future__ import annotations

import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Iterable

from ..errors import ArenaError
from .cells import Task


def play_task(task: Task) -> tuple[str, dict | None, str | None, float]:
    """(status, tally JSON, error, seconds) of one task; never raises for an agent's failure."""
    from agents import make_guesser
    from ..evaluate import evaluate
    from ..games import make_game
    from .tally import Tally

    start = time.perf_counter()
    try:
        game = make_game(task.game)
        guesser = make_guesser(task.guesser)
        strikes = task.strikes or None
        if task.chooser == "uniform":
            result = evaluate(game, guesser, repeat=task.repeat, seed=task.seed, strikes=strikes)
        else:
            from ..match import evaluate_against
            from agents.registry import make_chooser
            result = evaluate_against(game, guesser, make_chooser(task.chooser), repeat=task.repeat,
                                      seed=task.seed, strikes=strikes)
        return "ok", Tally.of(result).to_json(), None, time.perf_counter() - start
    except Exception as e:  # an agent's failure is this task's result, not the tournament's end
        where = traceback.extract_tb(e.__traceback__)[-1]
        error = f"{type(e).__name__}: {e} (at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})"
        return "failed", None, error, time.perf_counter() - start


def _warm(games: list[str]) -> None:
    """Worker start-up: build each game's feedback table once for all the tasks to come."""
    from ..games import make_game

    for spec in games:
        try:
            make_game(spec)
        except ArenaError:
            pass  # the task itself will report it


Report = Callable[[Task, tuple], None]


def run_tasks(tasks: list[Task], on_done: Report, workers: int = 1, backend: str = "local",
              scheduler: str | None = None, progress: bool = False) -> None:
    """Run every task, calling on_done(task, result) in this process as each one finishes."""
    bar = _Progress(len(tasks)) if progress else None
    finished = _each_result(tasks, workers, backend, scheduler)
    for task, result in finished:
        on_done(task, result)
        if bar:
            bar.step()
    if bar:
        bar.close()


def _each_result(tasks: list[Task], workers: int, backend: str, scheduler: str | None) -> Iterable[tuple[Task, tuple]]:
    if not tasks:
        return
    games = sorted({t.game for t in tasks})
    if backend == "dask":
        yield from _dask(tasks, scheduler, games)
    elif workers <= 1:
        for task in tasks:
            yield task, play_task(task)
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=_warm, initargs=(games,)) as pool:
            futures = {pool.submit(play_task, t): t for t in tasks}
            for future in as_completed(futures):
                yield futures[future], future.result()


def _dask(tasks: list[Task], scheduler: str | None, games: list[str]):
    try:
        from dask.distributed import Client, as_completed as dask_completed
    except ImportError:
        raise ArenaError("--backend dask needs Dask: pip install 'guessing-arena[dask]'") from None
    if not scheduler:
        raise ArenaError("--backend dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as e:
        raise ArenaError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    try:
        client.run(_warm, games)
        futures = client.map(play_task, tasks, pure=False)
        index = {f.key: t for f, t in zip(futures, tasks)}
        for future in dask_completed(futures):
            yield index[future.key], future.result()
    finally:
        client.close()


class _Progress:
    """Tasks done, rate and time left, on one line of stderr."""

    def __init__(self, total: int):
        self.total, self.done, self.start = total, 0, time.perf_counter()

    def step(self) -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate else 0.0
        width = 30
        filled = int(width * self.done / self.total)
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} tasks, "
              f"{rate:.1f}/s, {left:.0f} s left ", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        print(file=sys.stderr, flush=True)
