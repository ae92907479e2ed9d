"""The root split: every first guess of a game searched in parallel processes, with one
incumbent, a journal to resume from, and a proven lower bound at any moment.

The optimum is the least over first guesses g of

    C(S, g) = w(S) + sum over non-hit classes S_r of C(S_r)        (search.py)

so the first guesses are independent tasks. The parent scores every first guess once (the slot
bound of search.score_guesses, `root bound`), keeps those whose bound is below the incumbent,
best bound first, and hands them out one at a time to `workers` forked processes. Each task is
`Search.guess_value(g, S, incumbent)`: the exact C(S, g) when it is below the incumbent (which
then drops to it: the incumbent the parent holds is shared by every task handed out after), else
a proven bound at least the incumbent (the guess is closed: it cannot beat a tree already
found). Each worker keeps one search, so its cache serves all its tasks.

At any moment the optimum is at least

    min( incumbent, min over first guesses not closed of their best bound )

(a guess's best bound: its root bound, or what a task interrupted by the time limit proved);
when every first guess is closed this equals the incumbent, and the optimum is proven.
Every closed guess is appended to the journal (journal.py: JSON lines keyed by the game, the
contents of the files it reads, the pool, the weights and the project's version), so a run
stopped by the time limit, or killed, resumes where it stopped: a guess closed with bound B
stays closed, as the incumbent only ever drops. A journal of other inputs is refused, and each
record is checked as it is read.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import ArenaError
from ..game import Game, Index
from ..orphans import die_with_parent
from ..resources import THREADS_ENV, memory_limit, threads
from .bounds import INF
from .journal import Journal, Limits, journal_key, weights_digest
from .search import CACHE_SHARE, NO_LIMIT, Search, Timeout, stabilizer
from .solve import invariant, weight_vector

#: The search each worker keeps (set in the parent before forking, or by the initializer).
_WORKER: dict = {}


@dataclass
class Opening:
    """What is known of one first guess: its best lower bound and whether it is closed
    (exact value found, or a bound at least the incumbent)."""

    guess: Index
    bound: float
    exact: bool = False
    closed: bool = False
    seconds: float = 0.0
    nodes: int = 0


@dataclass
class SplitResult:
    """The root split's outcome: the best first guess and its exact cost, the proven lower
    bound on the optimum, and what was closed."""

    game: Game
    pool: str
    best_guess: Index
    value: float
    lower_bound: float  # value and lower_bound in the weights' units (the number of guesses with none)
    openings: dict[Index, Opening] = field(default_factory=dict)
    searched: int = 0  # first guesses searched in this run (tasks finished)
    closed: int = 0
    seconds: float = 0.0
    stopped: bool = False

    @property
    def exact(self) -> bool:
        return self.lower_bound >= self.value


def _start_worker(pool: str, deadline: float | None, workers: int, parent: int) -> None:
    """In a forked worker: one search over the game the parent built (shared copy-on-write),
    its cache a share of what one search may hold (the workers together hold no more). It
    ends with the parent, whatever signal ends that (arena.orphans)."""
    die_with_parent(parent)
    game = _WORKER["game"]
    os.environ.setdefault(THREADS_ENV, str(max(1, threads() // workers)))  # the compiled loops' share of the cores
    budget = int(memory_limit() * CACHE_SHARE / workers)
    _WORKER["search"] = Search(game, _WORKER["w"], pool, None, _WORKER["sym"], deadline, cache_budget=budget)


def _close(guess: Index, limit: float) -> tuple[Index, float, bool, float, int]:
    """A task: C(S, guess) if below `limit`, else a bound >= limit; (guess, value, exact,
    seconds, nodes). Interrupted by the deadline: the bound proven so far is not kept (nan)."""
    return _close_on(_WORKER, guess, limit)


#: On a Dask worker: one search per (game spec, pool), built by the first task that needs it.
_REMOTE: dict = {}


def _close_remote(spec: str, pool: str, workers: int, seconds_left: float | None, guess: Index,
                  limit: float, weights: tuple[str, np.ndarray | None] = ("equal", None)
                  ) -> tuple[Index, float, bool, float, int]:
    """A task on a Dask worker (which the parent did not fork, so it builds the game from its
    spec, once): `_close` on the worker's own search, with the time the parent has left.
    `weights`: (their digest, the search's weights or None for all equal)."""
    key = (spec, pool, weights[0])
    if key not in _REMOTE:
        from ..games import make_game

        game = make_game(spec)
        S = game.all_secrets
        w = np.ones(len(game.secrets)) if weights[1] is None else weights[1]
        sym = stabilizer(game, None if weights[1] is None else invariant(game, S, w))
        search = Search(game, w, pool, None, sym, None,
                        cache_budget=int(memory_limit() * CACHE_SHARE / workers))
        _REMOTE[key] = dict(game=game, S=S, sym=sym, search=search,
                            b=search.score_guesses(S, search.pool(S, sym), NO_LIMIT)[2])
    state = _REMOTE[key]
    state["search"].deadline = None if seconds_left is None else time.perf_counter() + seconds_left
    return _close_on(state, guess, limit)


def _close_on(state: dict, guess: Index, limit: float) -> tuple[Index, float, bool, float, int]:
    search: Search = state["search"]
    S, b = state["S"], state["b"]
    started, nodes = time.perf_counter(), search.stats.nodes
    try:
        value = search.guess_value(int(guess), S, limit, NO_LIMIT, b, state["sym"])
    except Timeout:
        return int(guess), float("nan"), False, time.perf_counter() - started, search.stats.nodes - nodes
    return int(guess), float(value), bool(value < limit), time.perf_counter() - started, search.stats.nodes - nodes


def split_root(game: Game, pool: str = "all", workers: int = 2, time_limit: float | None = None,
               journal: str | Path | None = None, incumbent: float = INF,
               status=None, executor=None, weights: Sequence[float] | np.ndarray | None = None,
               new_journal: bool = False, alive: Callable[[], bool] | None = None,
               no_worker_seconds: float = 60.0) -> SplitResult:
    """The best first guess over every secret of `game`, its first guesses searched by `workers`
    processes (module docstring). `weights`: one per secret (default all equal: the value is
    the total number of guesses). `journal`: a file to resume from and append to (journal.py);
    one of other inputs is refused, or with `new_journal` set aside as FILE.old.
    `incumbent`: the cost of a tree known beforehand, in the weights' units (the search only
    looks for better); `status(text)` is called after each task. `alive()`: does the executor
    still have a worker (a Dask cluster's); none for `no_worker_seconds` is an ArenaError (the
    journal keeps what was closed).
    `executor`: a concurrent.futures executor of the caller's whose workers were not forked
    from this process, such as a Dask cluster's (`client.get_executor()`): each of its workers
    builds the game from its spec once and keeps its own search; `workers` is then the number
    of tasks kept in flight.
    """
    if not game.rules.hits or len(game.openings(game.all_secrets)) != 1:
        raise ArenaError(f"{game.spec}: the root split searches the first guesses of a game whose guesses "
                         "hit the secret, with one opening")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArenaError(f"workers must be a positive number of processes, got {workers!r}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    S = game.all_secrets
    w, scale = weight_vector(game, S, weights)
    if scale is None and not w[S].sum() > 0:
        raise ArenaError("weights: every secret weighs 0, so every tree costs 0; give some secret a positive weight")
    scale = 1.0 if scale is None else scale
    incumbent = incumbent / scale
    sym = stabilizer(game, None if np.all(w == 1) else invariant(game, S, w))
    scout = Search(game, w, pool, None, sym)
    guesses = scout.pool(S, sym)
    bound, spread, b = scout.score_guesses(S, guesses, NO_LIMIT)
    openings = {int(g): Opening(int(g), float(x)) for g, x in zip(guesses, bound) if np.isfinite(x)}
    best_guess = -1
    given = None if weights is None else w * scale
    log = None if journal is None else Journal(journal, journal_key(game, pool, given), set_aside=new_journal)
    limits = Limits(game, S, w, {g: o.bound for g, o in openings.items()})
    for record in [] if log is None else log.records(game, limits):
        o = openings[record.guess]
        o.bound, o.exact = max(o.bound, record.bound), o.exact or record.exact
        if o.exact and o.bound < incumbent:
            incumbent, best_guess = o.bound, record.guess
    for o in openings.values():  # a bound closes a guess only against an incumbent at most it
        o.closed = o.exact or o.bound >= incumbent
    queue = [int(guesses[i]) for i in np.lexsort((spread, bound)) if int(guesses[i]) in openings]
    queue = [g for g in queue if not openings[g].closed]
    searched = 0

    _WORKER.update(game=game, S=S, b=b, sym=sym, w=w)
    pending: dict = {}
    stopped = False
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    own = executor is None
    if executor is None:
        executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                       initargs=(pool, deadline, workers, os.getpid()))

        def submit(g: Index, limit: float):
            return executor.submit(_close, g, limit)
    else:
        remote_weights = ("equal", None) if np.all(w == 1) else (weights_digest(w), w)

        def submit(g: Index, limit: float):
            left = None if deadline is None else max(deadline - time.perf_counter(), 1e-3)
            return executor.submit(_close_remote, game.spec, pool, workers, left, g, limit, remote_weights)
    try:
        with _shut_down(executor, wait_on_error=own):
            while queue or pending:
                while queue and len(pending) < workers:
                    g = queue.pop(0)
                    if openings[g].bound >= incumbent:  # closed by the incumbent without a search
                        openings[g].closed = True
                        continue
                    if deadline is not None and time.perf_counter() > deadline:
                        stopped = True
                        queue.clear()
                        break
                    pending[submit(g, incumbent)] = g
                if not pending:
                    break
                done = _next_done(pending, alive, no_worker_seconds)
                for future in done:
                    del pending[future]
                    g, value, exact, seconds, nodes = future.result()
                    o = openings[g]
                    o.seconds, o.nodes = o.seconds + seconds, o.nodes + nodes
                    if np.isnan(value):
                        stopped = True
                        continue
                    o.bound, o.exact, o.closed = max(o.bound, value), exact, True
                    searched += 1
                    if exact and value < incumbent:
                        incumbent, best_guess = value, g
                    if log is not None:
                        log.append(game, g, value, exact, seconds, nodes)
                    if status is not None:
                        status(split_status(openings, incumbent, best_guess, game, start))
    finally:
        if log is not None:
            log.close()
        _WORKER.clear()
    lower = proven_lower(openings, incumbent)
    closed = sum(1 for o in openings.values() if o.closed or o.bound >= incumbent)
    return SplitResult(game, pool, best_guess, incumbent * scale, lower * scale, openings, searched, closed,
                       time.perf_counter() - start, stopped)


@contextmanager
def _shut_down(executor, wait_on_error: bool):
    """Shut the executor down on leaving: waiting for its tasks, except after an error when
    `wait_on_error` is False (a cluster's executor: its pending tasks are cancelled, as a
    cluster with no worker would never finish them)."""
    try:
        yield
    except BaseException:
        executor.shutdown(wait=wait_on_error)
        raise
    executor.shutdown(wait=True)


def _next_done(pending: dict, alive: Callable[[], bool] | None, no_worker_seconds: float) -> set:
    """The tasks finished next; with `alive`, an ArenaError once no worker has lived for
    `no_worker_seconds` (a cluster whose workers all died never finishes a task)."""
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
            raise ArenaError(f"no Dask worker for {no_worker_seconds:g} s: the root split stopped "
                             "(a --journal keeps the first guesses closed; run again to resume)")


def proven_lower(openings: dict[Index, Opening], incumbent: float) -> float:
    """min(incumbent, the least bound of a first guess not closed)."""
    return min([incumbent] + [o.bound for o in openings.values() if not o.closed and o.bound < incumbent])


def split_status(openings: dict[Index, Opening], incumbent: float, best_guess: Index, game: Game,
                 start: float) -> str:
    """One line: first guesses closed, the best so far, the proven bound, the time."""
    closed = sum(1 for o in openings.values() if o.closed or o.bound >= incumbent)
    best = f"best {incumbent:,.6g} ({game.guesses[best_guess]})" if best_guess >= 0 else "no tree yet"
    return (f"{closed:,}/{len(openings):,} first guesses closed, {best}, proven >= "
            f"{proven_lower(openings, incumbent):,.6g}, {time.perf_counter() - start:,.0f} s")
