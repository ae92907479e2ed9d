"""A config run as a tournament: tasks, an optional store to resume from, and the Report."""

from __future__ import annotations

import hashlib
import json
import time

from ..errors import ArenaError
from .cells import expand
from .runner import run_tasks
from .store import Store
from .tally import Tally

BACKENDS = ("local", "dask")


def fingerprint(tasks) -> str:
    """What the results depend on: every task's identity, size, seed and strike limits."""
    text = json.dumps([[t.key, t.repeat, t.seed, list(t.strikes)] for t in tasks])
    return hashlib.sha256(text.encode()).hexdigest()


def run(config, progress: bool = False, workers: int = 1, backend: str = "local", scheduler: str | None = None,
        out: str | None = None, force: bool = False):
    from ..report import Report, judge

    if backend not in BACKENDS:
        raise ArenaError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if workers < 1:
        raise ArenaError(f"--workers must be at least 1, got {workers}")
    start = time.perf_counter()
    tasks = expand(config.cells, config.block)
    store = Store(out, fingerprint(tasks), config.text, force) if out else None
    results = store.results() if store else {}
    pending = [t for t in tasks if t.key not in results]

    def on_done(task, result) -> None:
        results[task.key] = result
        if store:
            status, tally, error, seconds = result
            store.save(task, status, tally, error, seconds)

    try:
        run_tasks(pending, on_done, workers=workers, backend=backend, scheduler=scheduler, progress=progress)
    finally:
        if store:
            store.close()
    judged = []
    for i, cell in enumerate(config.cells):
        mine = [results[t.key] for t in tasks if t.cell == i]
        errors = [r[2] for r in mine if r[0] != "ok"]
        seconds = sum(r[3] for r in mine)
        if errors:
            judged.append(judge(cell, {}, seconds, errors[0]))
            continue
        tally = sum((Tally.from_json(r[1]) for r in mine[1:]), Tally.from_json(mine[0][1]))
        judged.append(judge(cell, tally.figures(), seconds, histogram=tally.histogram))
    return Report(config, judged, time.perf_counter() - start)
