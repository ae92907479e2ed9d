"""What a task run by the parallel layer returns: a `TaskResult`, its status a `Status`.

A task ends in one of three ways: it returned (ok, with its value: a tournament task's tally as
JSON data, a split piece's outcome), or it failed (its error in one line: an agent that raised,
a time limit, a worker that died, a cluster left with no worker), or it was not run yet (a
stored tournament's task that no run has reached). Where a task raised in a worker, the
exception travels with its result when it can be pickled, so that the caller may raise it
again as its own (the split does: a piece has no failure of its own to report).
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["Status", "TaskResult", "timed_out", "died", "returning"]


class Status(StrEnum):
    """How a task ended; the value is the word the store and the reports use."""

    OK = "ok"
    FAILED = "failed"
    NOT_RUN = "not run"


@dataclass(frozen=True)
class TaskResult:
    """One task's result: its status, its value (None unless ok), its error (None when ok) and
    the seconds it ran. `raised`: the exception a failed task raised, where it could travel."""

    status: Status
    value: Any = None
    error: str | None = None
    seconds: float = 0.0
    raised: BaseException | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.status is Status.OK

    @classmethod
    def done(cls, value: Any, seconds: float) -> TaskResult:
        """A task that returned `value`."""
        return cls(Status.OK, value, None, seconds)

    @classmethod
    def failed(cls, error: str, seconds: float = 0.0, raised: BaseException | None = None) -> TaskResult:
        """A task that failed with `error` (one line)."""
        return cls(Status.FAILED, None, error, seconds, raised)

    def value_or_raise(self) -> Any:
        """The value of a task that returned; else the exception it raised, or an error naming
        why it failed (its worker died, say) for a caller with no failure of its own to report."""
        if self.ok:
            return self.value
        if self.raised is not None:
            raise self.raised
        from ..core.errors import ArenaError

        raise ArenaError(f"a worker's task failed: {self.error}")


def timed_out(timeout: float | None, seconds: float) -> TaskResult:
    """A task killed at its deadline (`timeout` seconds after it started)."""
    return TaskResult.failed(f"timed out after {timeout:g} s" if timeout is not None else "timed out", seconds)


def died(exitcode: int | None, seconds: float) -> TaskResult:
    """A task whose process ended without a result: a signal (negative code) or an exit code."""
    how = f"signal {-exitcode}" if exitcode is not None and exitcode < 0 else f"exit code {exitcode}"
    return TaskResult.failed(f"worker died ({how})", seconds)


def returning(run: Callable[..., Any], args: tuple) -> TaskResult:
    """`run(*args)` as a TaskResult: its value, or its exception (carried when it pickles, for
    the caller to raise again). The play of a pool whose tasks are plain calls (the split's)."""
    start = time.perf_counter()
    try:
        return TaskResult.done(run(*args), time.perf_counter() - start)
    except Exception as e:
        raised: Exception | None = e
        try:
            pickle.dumps(e)
        except Exception:  # it would not travel back from a worker: its line does
            raised = None
        return TaskResult.failed(f"{type(e).__name__}: {e}", time.perf_counter() - start, raised)
