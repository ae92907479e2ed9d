"""The split's wait on its workers' futures: the next pieces done (an ArenaError once a Dask
cluster has had no worker for a while, as its pending pieces would never finish), and the
executor shut down on leaving (without waiting on a cluster's pending pieces after an error)."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, wait
from contextlib import contextmanager

from ..core.errors import ArenaError

__all__ = ["next_done", "shut_down"]


@contextmanager
def shut_down(executor, wait_on_error: bool):
    """Shut the executor down on leaving: waiting for its tasks, except after an error when
    `wait_on_error` is False (a cluster's executor: its pending tasks are cancelled, as a
    cluster with no worker would never finish them)."""
    try:
        yield
    except BaseException:
        executor.shutdown(wait=wait_on_error)
        raise
    executor.shutdown(wait=True)


def next_done(pending: dict, alive: Callable[[], bool] | None, no_worker_seconds: float) -> set:
    """The pieces finished next; with `alive`, an ArenaError once no worker has lived for
    `no_worker_seconds` (a cluster whose workers all died never finishes a piece)."""
    if alive is None:
        return wait(pending, return_when=FIRST_COMPLETED)[0]
    alone_since = None
    while True:
        done = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)[0]
        if done:
            return done
        if alive():
            alone_since = None
        elif alone_since is None:
            alone_since = time.perf_counter()
        elif time.perf_counter() - alone_since >= no_worker_seconds:
            raise ArenaError(
                f"no Dask worker for {no_worker_seconds:g} s: the split stopped "
                "(a --journal keeps the pieces closed; run again to resume)"
            )
