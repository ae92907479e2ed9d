"""Tasks on a Dask cluster: the one place that connects to a scheduler, sends tasks to its
workers and watches that it still has some.

`connect(scheduler)` is a `Cluster` (one line for Dask not installed, no address, an address
that is malformed or unreachable). `Cluster.workers(play)` plays tasks on its workers as the
local `Pool` does on forked processes, with the same interface (`submit`, `done`, `run`) and
results (`TaskResult`):
  - with a time limit, each task runs in a forked child of its Dask worker (pool.play_in_child),
    killed at the limit: Dask's workers are daemonic and may not start multiprocessing children;
  - a task whose worker died (Dask's KilledWorker, which blames every task that was on the dying
    worker) is played once more alone in a forked child, where only the culprit dies;
  - a cluster left with no live worker for NO_WORKER_SECONDS (the watchdog) would never finish
    what is pending: `done` raises `NoWorker`, and `run` fails the pending tasks with that line.
"""

from __future__ import annotations

import functools
import gc
import os
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..core.errors import ArenaError
from .outcome import TaskResult
from .pool import Play, play_in_child

__all__ = [
    "NO_WORKER_SECONDS",
    "Cluster",
    "ClusterNumbers",
    "ClusterWorkers",
    "NoWorker",
    "Watchdog",
    "connect",
    "connect_dask",
]

#: A Dask cluster with no live worker this long fails (or stops) the work still pending.
NO_WORKER_SECONDS = 60.0
#: How often a run that is waiting asks the scheduler how many workers it has.
WORKER_CHECK_SECONDS = 1.0
#: How long a run with nothing finished sleeps before it looks again.
_POLL_SECONDS = 0.05
EXAMPLE = "e.g. tcp://127.0.0.1:8786"
#: A worker reads a number the parent shares on the cluster (ClusterNumbers) at most this often:
#: each read is a round trip to the scheduler, where a forked worker reads shared memory.
SHARED_REFRESH = 0.25


class NoWorker(ArenaError):
    """The cluster has had no live worker for `seconds`: what is pending would never finish."""

    def __init__(self, seconds: float):
        super().__init__(f"no Dask worker for {seconds:g} s")
        self.seconds = seconds


class Watchdog:
    """Asks `alive()` (has the cluster a worker?) at most every WORKER_CHECK_SECONDS and raises
    NoWorker once the answer has been no for `seconds` (default NO_WORKER_SECONDS, read when
    the watchdog is made)."""

    def __init__(self, alive: Callable[[], bool], seconds: float | None = None):
        self.alive = alive
        self.seconds = NO_WORKER_SECONDS if seconds is None else seconds
        self.alone_since: float | None = None
        self.next_check = time.monotonic() + WORKER_CHECK_SECONDS

    def progress(self) -> None:
        """Something finished: the cluster has a worker."""
        self.alone_since = None

    def check(self) -> None:
        """Nothing finished yet: raise NoWorker if the cluster has had no worker for too long."""
        now = time.monotonic()
        if now < self.next_check:
            return
        self.next_check = now + WORKER_CHECK_SECONDS
        if self.alive():
            self.alone_since = None
        elif self.alone_since is None:
            self.alone_since = now
        elif now - self.alone_since >= self.seconds:
            raise NoWorker(self.seconds)


def connect(scheduler: str | None, forks: bool = False) -> Cluster:
    """A Cluster of the scheduler at `scheduler`; `forks`: its tasks will run in forked children
    (a time limit), which needs a system that forks."""
    try:
        from dask.distributed import Client  # lazy: heavy
    except ImportError:
        raise ArenaError("--backend dask needs Dask: pip install -e '.[dask]'") from None
    if not scheduler:
        raise ArenaError(f"--backend dask needs --scheduler ADDRESS ({EXAMPLE})")
    if forks and not hasattr(os, "fork"):
        raise ArenaError("a task time limit on Dask needs workers that can fork (Linux or macOS)")
    return Cluster(connect_dask(Client, scheduler))


class Cluster:
    """A connected Dask client; use as a context manager (leaving it closes the client)."""

    def __init__(self, client: Any):
        self.client = client

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.client.close()

    def alive(self) -> bool:
        """Has the cluster a live worker now?"""
        return bool(self.client.scheduler_info().get("workers"))

    def shared_numbers(self, n: int, first: float = 0.0) -> ClusterNumbers:
        """`n` numbers, each `first` to begin with, that the workers read as forked workers
        read pool.shared_numbers (ClusterNumbers)."""
        return ClusterNumbers(self.client, n, first)

    def workers(
        self,
        play: Play,
        warm: Callable[[], None] | None = None,
        timeout: float | None = None,
        no_worker_seconds: float | None = None,
        label: Callable[[Any], str] = str,
        alive: Callable[[], bool] | None = None,
    ) -> ClusterWorkers:
        """Tasks played by `play` on the cluster's workers (module docstring); `warm` runs once
        on each worker first; `label(task)` names a task in the line of a cluster that failed;
        `alive()` tells the watchdog whether a worker lives (default: the scheduler's count)."""
        if warm is not None:
            self.client.run(warm)
        return ClusterWorkers(self, play, timeout, Watchdog(alive or self.alive, no_worker_seconds), label)


class ClusterWorkers:
    """The tasks in flight on a cluster: `submit` them, `done` for the next ones finished. Use
    as a context manager: leaving it cancels what is still pending (after an error)."""

    def __init__(self, cluster: Cluster, play: Play, timeout: float | None, watchdog: Watchdog, label):
        from dask.distributed import as_completed  # lazy: heavy

        self.client, self.base, self.timeout, self.watchdog, self.label = cluster.client, play, timeout, watchdog, label
        self.play = play if timeout is None else functools.partial(play_in_child, play, timeout=timeout)
        self.finished = as_completed()
        self.index: dict[Any, Any] = {}  # future key -> task
        self.futures: list = []
        self.retried: set = set()

    def __enter__(self) -> ClusterWorkers:
        return self

    def __exit__(self, *exc) -> None:
        if self.index:
            self.cancel()

    def submit(self, task: Any, play: Play | None = None) -> None:
        """Send `task` to the cluster."""
        future = self.client.submit(play or self.play, task, pure=False)
        self.futures.append(future)
        self.index[future.key] = task
        self.finished.add(future)

    def in_flight(self) -> int:
        return len(self.index)

    def pending(self) -> list[Any]:
        """The tasks submitted and not yet finished."""
        return list(self.index.values())

    def cancel(self) -> None:
        """Give up what is pending (a cluster with no worker would never finish it)."""
        self.finished.clear()
        self.client.cancel(self.futures)
        self.index.clear()

    def done(self) -> list[tuple[Any, TaskResult]]:
        """The tasks that finish next, with their results (at least one, unless none is in
        flight); NoWorker once the cluster has had no worker for the watchdog's seconds."""
        out: list[tuple[Any, TaskResult]] = []
        while not out and self.index:
            batch = self.finished.next_batch(block=False)
            if not batch:
                time.sleep(_POLL_SECONDS)
                self.watchdog.check()
                continue
            self.watchdog.progress()
            for future in batch:
                settled = self._settle(future)
                if settled is not None:
                    out.append(settled)
        return out

    def _settle(self, future) -> tuple[Any, TaskResult] | None:
        """A finished future's task and result; None when its task was sent again (Dask blamed
        it for a worker's death: played alone in a forked child, only the culprit dies)."""
        from distributed.scheduler import KilledWorker  # lazy: heavy

        task = self.index.pop(future.key)
        try:
            return task, future.result()
        except KilledWorker as e:
            if future.key not in self.retried and hasattr(os, "fork"):
                self.submit(task, functools.partial(play_in_child, self.base, timeout=self.timeout))
                self.retried.add(self.futures[-1].key)
                return None
            return task, TaskResult.failed(f"worker died (Dask: {e})")
        except Exception as e:  # the cluster failed, not the task: stop (a run with a store resumes)
            raise ArenaError(
                f"the Dask cluster failed while running {self.label(task)}: {type(e).__name__}: {e}"
            ) from None

    def run(self, tasks: Iterable[Any]) -> Iterator[tuple[Any, TaskResult]]:
        """(task, result) for every task, as each finishes; once the cluster has had no worker
        for the watchdog's seconds, every task still pending fails with that line."""
        for task in tasks:
            self.submit(task)
        while self.index:
            try:
                finished = self.done()
            except NoWorker as e:
                left = self.pending()
                self.cancel()
                for task in left:
                    yield task, TaskResult.failed(str(e))
                return
            yield from finished


def _check_address(scheduler: str) -> None:
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
        raise ArenaError(f"--scheduler {scheduler!r} is not a scheduler address ({e}); {EXAMPLE}") from None


def connect_dask(client, scheduler: str):
    """A Dask client of `scheduler`; one line for an address that is malformed or unreachable.

    A Client that fails half-built is finalised at once (gc.collect): left to the garbage
    collector, its __del__ may run while a later Client starts Dask's event loop, and wait
    forever for the loop's lock that this start-up holds."""
    _check_address(scheduler)
    try:
        return client(scheduler, timeout="10s")
    except Exception as e:
        gc.collect()
        if isinstance(e, (OSError, TimeoutError)):
            raise ArenaError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        if isinstance(e, (ValueError, TypeError)):
            raise ArenaError(f"--scheduler {scheduler!r} is not a scheduler address ({e}); {EXAMPLE}") from None
        # any other failure to connect is still about the address given
        raise ArenaError(f"cannot connect to the Dask scheduler at {scheduler}: {type(e).__name__}: {e}") from None


class ClusterNumbers:
    """Numbers a parent writes and a Dask cluster's workers read, as forked workers read
    pool.shared_numbers (`numbers[i]`) and pool.shared_count (`numbers.value`: the first): each
    a Dask Variable on the scheduler, written by the parent only when it changes and read by a
    worker at most every SHARED_REFRESH seconds, so what a worker reads may be that much old (a
    budget searched under a moment longer, a hurry taken a moment later: never a wrong number,
    as the readers only use them to stop sooner). Pickled to the workers as its name alone;
    `close` removes the Variables from the scheduler."""

    def __init__(self, client: Any, n: int, first: float = 0.0, name: str | None = None):
        import uuid

        self.client, self.n, self.name = client, n, name or f"arena-shared-{uuid.uuid4().hex}"
        self.written: list[float | None] = [None] * n
        self.read: list[tuple[float, float]] = [(-float("inf"), float(first))] * n  # (when, value)
        if client is not None:  # the parent: every number set, so that no read waits for one
            for i in range(n):
                self[i] = first

    def __getstate__(self) -> dict:
        return {"n": self.n, "name": self.name, "first": self.read[0][1] if self.n else 0.0}

    def __setstate__(self, state: dict) -> None:
        self.__init__(None, state["n"], state["first"], state["name"])  # type: ignore[misc]

    def variable(self, i: int) -> Any:
        from dask.distributed import Variable, get_client  # lazy: heavy

        return Variable(f"{self.name}-{i}", self.client or get_client())

    def __setitem__(self, i: int, value: float) -> None:
        value = float(value)
        if self.written[i] != value:
            self.variable(i).set(value)
            self.written[i] = value

    def __getitem__(self, i: int) -> float:
        if self.written[i] is not None:  # the parent knows what it wrote
            return float(self.written[i])  # type: ignore[arg-type]
        when, value = self.read[i]
        now = time.monotonic()
        if now - when >= SHARED_REFRESH:
            try:
                value = float(self.variable(i).get(timeout=SHARED_REFRESH))
            except Exception:  # the scheduler slow or gone: the last value read stands
                pass
            self.read[i] = (now, value)
        return value

    @property
    def value(self) -> float:
        return self[0]

    @value.setter
    def value(self, number: float) -> None:
        self[0] = number

    def close(self) -> None:
        """Remove the Variables from the scheduler (the parent, at the end of its run)."""
        for i in range(self.n):
            try:
                self.variable(i).delete()
            except Exception:  # a cluster already gone keeps nothing
                pass
