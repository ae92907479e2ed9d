"""Worker processes that a task cannot take down with it: time limits, deaths, orphans.

`Pool` keeps N worker processes, each fed one task at a time over its own pipe: given every
task at once (`run`: the tournament), or one at a time as the caller decides what comes next
(`submit`, then `done` for the tasks finished next: the split). The parent waits on every
worker's pipe and process sentinel at once, with a deadline per running task:
  - a result arrives (a TaskResult, arena.parallel.outcome): it is the task's result, and the
    worker takes the next task;
  - a deadline passes: the worker is killed, its task fails "timed out after N s", and a fresh
    worker takes its place;
  - a worker exits without a result (killed, out of memory, os._exit): its task alone fails
    "worker died (signal 9)", and a fresh worker takes its place.
`play_in_child` is the same idea for one task in a one-shot forked child, for processes that
cannot have multiprocessing children (Dask's daemonic workers).

Workers never outlive the parent: on Linux the kernel kills them when it dies
(PR_SET_PDEATHSIG), elsewhere a watchdog thread notices the parent is gone; and the pool kills
its workers when the parent stops early (an exception, Ctrl-C, SIGTERM). Nor do the processes
an agent starts: each worker leads a process group of its own, which its agent's children
join, and the whole group is killed when the worker is retired (its run over, its task timed
out or failed). A child that leaves the group on purpose (setsid) is beyond this, and so is
everything after a SIGKILL of the run itself, which no process can act on.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from ..core.errors import ArenaError
from ..core.resources import THREADS_ENV, threads
from .orphans import die_with_parent
from .outcome import TaskResult, died, timed_out
from .threads import in_worker

__all__ = ["Pool", "context", "end_group", "play_in_child", "died", "shared_count", "shared_numbers", "timed_out"]

Play = Callable[[Any], TaskResult]
#: What a task returns, by its old name (a (status, tally, error, seconds) tuple before issue 32).
Result = TaskResult

_READY = "ready"  # a worker's first message: warmed up, the clock of its first task may start
_GONE, _NOTHING = object(), object()  # what a wake-up can mean besides a message


def context() -> multiprocessing.context.BaseContext:
    """'fork' on Linux, so workers share the parent's built game tables copy-on-write;
    the platform's default elsewhere ('fork' is unsafe on macOS, absent on Windows)."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def shared_count() -> Any:
    """An integer that a parent and the workers it forks afterwards all see (`.value`): one
    writer, the parent, and readers that need no lock (multiprocessing.RawValue)."""
    return context().RawValue("i", 0)


def shared_numbers(n: int) -> Any:
    """`n` floats that a parent and the workers it forks afterwards all see (`[i]`): one
    writer, the parent, and readers that need no lock (multiprocessing.RawArray), each number
    read or written whole."""
    return context().RawArray("d", n)


def _serve(conn: Connection, play: Play, warm: Callable[[], None] | None, parent: int, share: int) -> None:
    """A worker's life: warm up, say so, then play tasks one at a time until told to stop.
    `share`: the threads its compiled loops may use (the cores shared out among the workers)."""
    die_with_parent(parent)
    _lead_group()
    os.environ.setdefault(THREADS_ENV, str(share))
    in_worker()  # numba's pool held to one thread here, not in the user's own process
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it kills us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, inherited by the fork
    if warm:
        try:
            warm()
        except Exception:  # only a head start: a task that needs what failed here reports it
            pass
    conn.send(_READY)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # the parent closed its end: nothing more to do
            return
        if task is None:
            return
        conn.send(play(task))


def _lead_group() -> None:
    """Make this process the leader of a new process group, which the processes it starts join."""
    try:
        os.setpgid(0, 0)
    except OSError:  # already a group or session leader: its group is its own already
        pass


def end_group(pid: int) -> None:
    """Kill the process group that the process `pid` leads (it and whatever its agent started).
    Done before `pid` is reaped, or while members remain, so the group is still that one."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:  # no such group any more (or never made): nothing left to end
        pass


class _Worker:
    """One worker process, its pipe, and the task it is playing (None when idle)."""

    def __init__(self, ctx, play: Play, warm: Callable[[], None] | None, share: int = 1):
        self.conn, theirs = ctx.Pipe()
        self.process = ctx.Process(
            target=_serve, args=(theirs, play, warm, os.getpid(), share), name="arena-worker"
        )  # not daemonic: an agent may start processes
        self.process.start()
        try:  # set here too, so that the group exists whichever of the two runs first
            os.setpgid(self.process.pid, self.process.pid)
        except OSError:  # it has already done so (or exited): either way nothing to do
            pass
        theirs.close()  # only the worker holds its end, so its death reads as end-of-file here
        self.ready = self.broken = False
        self.task: Any = None
        self.started = 0.0

    def idle(self) -> bool:
        """Ready for a task: warmed up, not playing one, its pipe not found broken."""
        return self.ready and self.task is None and not self.broken

    def give(self, task: Any) -> bool:
        """Send the worker `task`; False if it is already gone (the task was never started)."""
        try:
            self.conn.send(task)
        except OSError:
            self.broken = True  # offered no more tasks: its sentinel will retire it
            return False
        self.task, self.started = task, time.perf_counter()
        return True

    def kill(self) -> None:
        """End the worker and every process of its group (what its agent started)."""
        end_group(self.process.pid)
        if self.process.is_alive():
            self.process.kill()
        self.process.join()  # (no second end_group: once reaped, its pid, and so the group id, may be reused)
        self.conn.close()


class Pool:
    """N worker processes playing tasks with `play`, each task within `timeout` seconds.

    `warm` runs once in each worker before its first task (e.g. building the game tables);
    it is not timed. Use as a context manager: leaving it kills every worker still running.
    """

    def __init__(self, size: int, play: Play, warm: Callable[[], None] | None = None, timeout: float | None = None):
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.size, self.play, self.warm, self.timeout = size, play, warm, timeout
        self.ctx = context()
        self.workers: list[_Worker] = []
        self.queue: deque = deque()  # tasks submitted and not yet given to a worker
        self.stillborn = 0  # workers that died before they were ready

    def __enter__(self) -> Pool:
        self._sigterm = _catch_sigterm()
        return self

    def __exit__(self, *exc) -> None:
        try:
            self.close()
        finally:
            if self._sigterm is not None:
                signal.signal(signal.SIGTERM, self._sigterm)

    def close(self) -> None:
        """Stop idle workers politely and kill busy ones (their tasks are abandoned, not recorded)."""
        for worker in self.workers:
            if worker.task is None and worker.process.is_alive():
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
            else:
                end_group(worker.process.pid)
        deadline = time.monotonic() + 2.0
        for worker in self.workers:  # the sentinel, not join: an unreaped worker keeps its group's id
            wait([worker.process.sentinel], max(0.0, deadline - time.monotonic()))
            worker.kill()
        self.workers = []

    def run(self, tasks: Iterable[Any]) -> Iterator[tuple[Any, TaskResult]]:
        """(task, result) for every task, as each finishes; a task that hangs or takes its
        worker down fails alone, and the worker is replaced."""
        for task in tasks:
            self.submit(task)
        while self.in_flight():
            yield from self.done()

    def submit(self, task: Any) -> None:
        """Hand `task` to the next idle worker (hiring one if the pool has room)."""
        self.queue.append(task)

    def start(self) -> None:
        """Give the tasks submitted to workers now, hiring them as the pool has room, and
        return at once: the caller works meanwhile, then collects the results with `done` (or
        `run([])`). A task given this way may wait for its worker's `warm` before it starts,
        and its time limit counts that wait."""
        while self.queue and len(self.workers) < self.size:
            self._hire()
        for worker in self.workers:
            if self.queue and worker.task is None and not worker.broken and worker.give(self.queue[0]):
                self.queue.popleft()

    def in_flight(self) -> int:
        """Tasks submitted and not yet finished."""
        return len(self.queue) + self._busy()

    def done(self) -> list[tuple[Any, TaskResult]]:
        """The tasks that finish next, with their results (at least one, unless none is in
        flight); the tasks submitted meanwhile go to the workers as they become idle."""
        finished: list[tuple[Any, TaskResult]] = []
        while not finished and self.in_flight():
            while self.queue and len(self.workers) < min(self.size, self.in_flight()):
                self._hire()
            for worker in self.workers:
                if self.queue and worker.idle() and worker.give(self.queue[0]):
                    self.queue.popleft()
            finished = self._wait()
        return finished

    def _busy(self) -> int:
        return sum(w.task is not None for w in self.workers)

    def _hire(self) -> None:
        self.workers.append(_Worker(self.ctx, self.play, self.warm, max(1, threads() // self.size)))

    def _wait(self) -> list[tuple[Any, TaskResult]]:
        """Wait for the next message, death or deadline; settle them; return the finished tasks."""
        waits = {w.conn: w for w in self.workers} | {w.process.sentinel: w for w in self.workers}
        ready = wait(list(waits), self._time_left())
        finished, gone = [], []
        for worker in {id(waits[r]): waits[r] for r in ready}.values():
            message = self._receive(worker)
            if message is _GONE:
                gone.append(worker)
            elif message is _NOTHING:
                continue
            elif message == _READY:
                worker.ready = True
            else:
                finished.append((worker.task, message))
                worker.task = None
        now = time.perf_counter()
        for worker in gone:
            worker.kill()
            if worker.task is not None:
                finished.append((worker.task, died(worker.process.exitcode, now - worker.started)))
            elif not worker.ready:
                self._stillborn(worker)
        for worker in self.workers:
            if worker not in gone and self._overdue(worker, now):
                worker.kill()
                finished.append((worker.task, timed_out(self.timeout, now - worker.started)))
                gone.append(worker)
        self.workers = [w for w in self.workers if w not in gone]
        return finished

    def _receive(self, worker: _Worker) -> Any:
        """The worker's message; _GONE if it has ended (pipe closed or process exited);
        _NOTHING if neither (its pipe and sentinel were both quiet)."""
        try:
            if worker.conn.poll():
                return worker.conn.recv()
        except (EOFError, OSError):
            return _GONE
        except Exception as e:  # a result that cannot be unpickled is still only this task's failure
            return TaskResult.failed(
                f"unreadable result: {type(e).__name__}: {e}", time.perf_counter() - worker.started
            )
        # the sentinel fired: the process is ending (its fds close a moment before it can be reaped)
        worker.process.join(1.0)
        return _NOTHING if worker.process.is_alive() else _GONE

    def _stillborn(self, worker: _Worker) -> None:
        """A worker that died warming up: replacements skip the warm-up (each task builds its own
        game, so the culprit fails alone); many such deaths mean workers cannot start at all."""
        self.warm = None
        self.stillborn += 1
        if self.stillborn > 3 * self.size:
            raise ArenaError(
                f"worker processes die as they start ({died(worker.process.exitcode, 0).error}); "
                "is the machine out of memory?"
            )

    def _overdue(self, worker: _Worker, now: float) -> bool:
        return self.timeout is not None and worker.task is not None and now - worker.started >= self.timeout

    def _time_left(self) -> float | None:
        """Seconds until the earliest deadline of a running task (None: no deadline)."""
        if self.timeout is None:
            return None
        starts = [w.started for w in self.workers if w.task is not None]
        if not starts:
            return None
        return max(0.0, min(starts) + self.timeout - time.perf_counter())


def _terminated(signum, frame) -> None:
    raise KeyboardInterrupt("terminated (SIGTERM)")


def _catch_sigterm() -> Any:
    """While a pool runs: SIGTERM stops the run as Ctrl-C does (the pool ends its workers and
    their groups on the way out) instead of ending this process where it stands. The handler
    it replaces, or None where it leaves it be (not the main thread, or a handler already set)."""
    try:
        if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
            return None
        return signal.signal(signal.SIGTERM, _terminated)
    except ValueError:  # not the main thread: signals are not ours to handle here
        return None


def play_in_child(play: Play, task: Any, timeout: float | None, stop: Callable[[], bool] | None = None) -> TaskResult:
    """`play(task)` in a one-shot forked child, killed at `timeout` seconds, when `stop()` says
    so (asked every STOP_POLL seconds; the result then fails as "stopped"), or at once where the
    wait is interrupted (KeyboardInterrupt reaches the caller, the child is gone): for processes
    that may not start multiprocessing children (Dask's workers are daemonic), and for calls
    into native code that no signal stops (the flows' LP, which a first Ctrl-C under a time
    limit stops through `stop`). Needs os.fork."""
    readable, writable = os.pipe()
    start = time.perf_counter()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: play, send the pickled result, and never return into the caller
        code = 0
        try:
            os.close(readable)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, inherited by the fork
            die_with_parent(parent)
            _lead_group()
            in_worker()
            data = pickle.dumps(play(task))
            with os.fdopen(writable, "wb") as out:
                out.write(data)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(writable)
    try:  # as the child does: the group exists whichever of the two runs first
        os.setpgid(pid, pid)
    except OSError:
        pass
    try:
        data, complete = _read_until(readable, None if timeout is None else start + timeout, stop)
    except BaseException:  # Ctrl-C, say: the child goes with the wait, not after its work
        end_group(pid)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    finally:
        os.close(readable)
    end_group(pid)  # it, if it is still running, and whatever its agent started
    if not complete:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    seconds = time.perf_counter() - start
    if not complete and stop is not None and stop():
        return TaskResult.failed("stopped", seconds)
    if not complete:
        return timed_out(timeout, seconds)
    try:
        return pickle.loads(data)
    except Exception:  # nothing, or a cut-off result: the child died before it finished
        return died(os.waitstatus_to_exitcode(status), seconds)


#: How often a forked call's wait asks its `stop` (seconds).
STOP_POLL = 0.2


def _read_until(fd: int, deadline: float | None, stop: Callable[[], bool] | None = None) -> tuple[bytes, bool]:
    """Everything written to `fd` until end-of-file (True), or the deadline passes or `stop()`
    says so (False)."""
    chunks: list[bytes] = []
    while True:
        left = None if deadline is None else deadline - time.perf_counter()
        if (left is not None and left <= 0) or (stop is not None and stop()):
            return b"".join(chunks), False
        # (selectors, not select.select: a busy worker's fds pass 1024; an hour at most at a
        # time: poll takes no more than 2^31 ms, and a time limit may be any number)
        slice_ = 3600.0 if stop is None else STOP_POLL
        if wait([fd], slice_ if left is None else min(left, slice_)):
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks), True
            chunks.append(chunk)
