"""A config run as a tournament: tasks, an optional store to resume from, and the Report.

A failed task (an agent that raised, broke the rules, ran past its time limit or killed its
worker) is a result like any other: stored with its error, shown as its cell's failure, and
kept when the run resumes unless `retry_failed` asks to run it again.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypedDict, Unpack

from ...core.errors import ArenaError
from ...core.words import SHIPPED
from ..config import Cell, Config
from ..results.report import Report, judge_cell
from .methods import FILE as PROVENANCE
from .play import run_tasks
from .store import Store
from .tasks import expand, file_digest, files_read

BACKENDS = ("local", "dask")


def fingerprint(tasks) -> str:
    """What the results depend on: every task's key, in order (keys hash seeds, sizes, strike
    limits and the contents of every file read)."""
    text = json.dumps([t.key for t in tasks])
    return hashlib.sha256(text.encode()).hexdigest()


class FileWatch:
    """The files a run reads and the contents its tasks are keyed on: checked before every
    result is kept, so a file edited mid-run never mixes two versions into one table."""

    def __init__(self, files: dict[str, str]):
        self.files = {name: digest for name, digest in files.items() if name not in SHIPPED}

    def changed(self) -> str | None:
        """The first file whose contents are no longer those the tasks were keyed on."""
        for name, digest in self.files.items():
            try:
                if file_digest(name) != digest:
                    return name
            except ArenaError:  # deleted or unreadable: changed as surely
                return name
        return None


def check_timeout(timeout: float | None) -> float | None:
    """A per-task time limit in seconds (None: no limit)."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0:
        raise ArenaError(f"task time limit {timeout!r}: give a number of seconds > 0")
    return float(timeout)


@dataclass(frozen=True)
class Execution:
    """How a run's tasks are run, which changes how soon the results come, never what they are:
    `workers` processes on the `backend` ("local", or "dask" at `scheduler`), each task stopped
    after `timeout` seconds (None: the config's task_timeout), a progress bar if `progress`."""

    workers: int = 1
    backend: str = "local"
    scheduler: str | None = None
    timeout: float | None = None
    progress: bool = False


class ExecutionKeywords(TypedDict, total=False):
    """Execution's fields, as run_config also takes them one by one (`workers=2`)."""

    workers: int
    backend: str
    scheduler: str | None
    timeout: float | None
    progress: bool


def run_config(
    config: Config,
    *,
    out: str | None = None,
    force: bool = False,
    retry_failed: bool = False,
    allow_import: bool | None = None,
    notice: Callable[[str], None] | None = None,
    execution: Execution | None = None,
    **how: Unpack[ExecutionKeywords],
):
    """Run every cell (in blocks of seeded tasks: see arena.study.tournament) and judge it.

    How the tasks run is `execution` (an Execution), or its fields given one by one (`workers=2,
    backend="dask", scheduler=..., timeout=..., progress=True`), which override it; `timeout` is
    the per-task time limit in seconds (default: the config's task_timeout).

    With `out`, every finished task is committed to DIR/results.sqlite, a store of results by
    content: a later run of this config, or of a grown or changed one, reuses every result whose
    key (specs, seeds, files, code) it holds and runs only the rest (failed ones too with
    `retry_failed`); `force` discards the store first. `notice(line)` is told what is reused and
    why each task runs. `allow_import` (default: as the config was loaded) lets module:Class
    agents be imported. Returns an arena.study.results.report.Report; a failed cell is a failed
    Result in it, not an exception.
    """
    run = replace(execution or Execution(), **how)
    if run.backend not in BACKENDS:
        raise ArenaError(f"unknown backend {run.backend!r}; backends: {', '.join(BACKENDS)}")
    from ...core.checks import workers as checked_workers  # the one check, the command line's too

    workers = checked_workers(run.workers, "--workers")
    timeout = check_timeout(run.timeout if run.timeout is not None else config.task_timeout)
    allow = config.allow_import if allow_import is None else allow_import
    start = time.perf_counter()
    files = config.files if config.files is not None else files_read(config.cells)
    watch = FileWatch(files)
    _stop_if_changed(watch, out, None)  # edited since the config was checked
    tasks = expand(config.cells, config.block, files=files, allow_import=allow, where=config.path or "the config")
    store = Store(out, fingerprint(tasks), config.text, force, plan=tasks, files=files) if out else None
    if out:  # the last run's record would describe other results until this run writes its own
        (Path(out) / PROVENANCE).unlink(missing_ok=True)
    stored = [0]
    try:
        results, damaged = store.results(tasks) if store else ({}, {})
        pending = [t for t in tasks if t.key not in results or (retry_failed and not results[t.key].ok)]
        if store and notice and store.held:  # a store with results in it: say what is reused, what runs and why
            earlier = store.earlier(t.slot for t in pending if t.key not in results and t.key not in damaged)
            notice(plan_line(tasks, pending, results, earlier, damaged) + what_a_task_is(config, tasks))
        stored[0] = len(tasks) - len(pending)

        def on_done(task, result) -> None:
            _stop_if_changed(watch, out, stored[0])
            if store:
                store.check()
                store.save(task, result)
            results[task.key] = result
            stored[0] += 1

        run_tasks(
            pending,
            on_done,
            workers=min(workers, max(1, len(pending))),
            backend=run.backend,
            scheduler=run.scheduler,
            progress=run.progress,
            timeout=timeout,
            done=len(tasks) - len(pending),
        )
    except KeyboardInterrupt:
        if not store:
            raise
        raise KeyboardInterrupt(
            f"{stored[0]} of {len(tasks)} tasks are stored in {out}; run the same command again to resume"
        ) from None
    finally:
        if store:
            store.close()
    by_cell: list[list] = [[] for _ in config.cells]
    for t in tasks:
        by_cell[t.cell].append(results.get(t.key))
    return Report(
        config, [judge_cell(cell, mine) for cell, mine in zip(config.cells, by_cell)], time.perf_counter() - start
    )


def plan_line(tasks, pending, results: dict, earlier: dict[str, tuple[dict, dict]], damaged: dict | None = None) -> str:
    """What a run with a store will do: `48 tasks reused, 12 to run (10 new; 2 rerun: first-ten:
    code changed)`, the reasons read off the stored results each rerun task replaces; a damaged
    stored result is run again, and the first one's damage is told."""
    reasons: dict[str, int] = {}
    new = retried = 0
    damaged = damaged or {}
    for task in pending:
        if task.key in damaged:
            continue
        if task.key in results:
            retried += 1
        elif task.slot not in earlier:
            new += 1
        else:
            why = rerun_reason(task, *earlier[task.slot])
            reasons[why] = reasons.get(why, 0) + 1
    parts = [f"{new} new"] if new else []
    parts += [f"{retried} failed, run again"] if retried else []
    parts += [f"{n} rerun: {why}" for why, n in reasons.items()]
    if damaged:
        parts.append(f"{len(damaged)} damaged, run again: {next(iter(damaged.values()))}")
    reused = len(tasks) - len(pending)
    detail = f" ({'; '.join(parts)})" if parts else ""
    return f"{reused:,} task{'s' * (reused != 1)} reused, {len(pending):,} to run{detail}"


def what_a_task_is(config, tasks) -> str:
    """`; 84 tasks for 60 cells (a task: ...)`: the unit the store keeps, beside the cells the
    tables show (a run says "84 tasks" and its report "60 cells")."""
    return (
        f"; {len(tasks):,} tasks for {len(config.cells):,} cells (a task: a cell's games, or a block of up "
        f"to {config.block} of a random agent's repetitions)"
    )


def rerun_reason(task, code: dict, files: dict) -> str:
    """Why a task runs although the store held a result for its place: what differs between the
    code and files it was made with and those of the task now."""
    now_code, now_files = dict(task.code), dict(task.files)
    changed = [f"{name} changed" for name in sorted(now_files) if name in files and files[name] != now_files[name]]
    if code.get("arena", now_code["arena"]) != now_code["arena"]:
        changed.append(f"arena changed ({code['arena']} -> {now_code['arena']})")
    for source, digest in now_code.items():
        spec, _, what = source.partition(" | ")
        if not what or code.get(source, digest) == digest:
            continue
        if what.startswith("distribution "):
            changed.append(f"{spec}: {what.split(' ', 1)[1]} {code[source]} -> {digest}")
        elif f"{spec}: code changed" not in changed:
            changed.append(f"{spec}: code changed")
    if not changed and set(now_code) != set(code):
        changed.append("the code it runs changed")
    return ", ".join(changed) or "its inputs changed"


def _stop_if_changed(watch: FileWatch, out: str | None, stored: int | None) -> None:
    name = watch.changed()
    if name is not None:
        kept = f"; the {stored} results stored before are kept in {out}" if out and stored is not None else ""
        raise ArenaError(
            f"{name} changed during the run, so its results would mix two versions of it: "
            f"stopped{kept} (restore the file, or run again: the tasks that read it then run with the new one)"
        )


def run_cell(cell: Cell):
    """One cell, run on its own (in this process, no store): an arena.study.results.report.Result."""
    return run_config(Config(cell.label, [cell])).results[0]
