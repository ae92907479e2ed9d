"""A piece's work, on a worker of the split (split.py): open a first guess (bound its classes,
solve those the closed forms solve) or solve one of its classes under a budget, on the search
the worker keeps: forked from the parent (`WORKER`, its search built by `start_worker`) or on a
Dask worker, which builds its own from the game's spec (`remote_task`).
"""

from __future__ import annotations

import math
import os
import time

from ..core.game import Index, Indexes
from ..core.resources import THREADS_ENV, memory_limit, threads
from ..parallel.orphans import die_with_parent
from .problem import Problem, SentProblem
from .search import CACHE_SHARE, LEVEL_SIZE, NO_LIMIT, Search, Timeout
from .subtrees import closed_value, subtree

#: The search each worker keeps (set in the parent before forking, or by the initializer).
WORKER: dict = {}


def start_worker(problem: Problem, deadline: float | None, workers: int, parent: int) -> None:
    """In a forked worker: one search of `problem` over the game the parent built (shared
    copy-on-write), its cache a share of what one search may hold (the workers together hold
    no more). It ends with the parent, whatever signal ends that (arena.parallel.orphans)."""
    die_with_parent(parent)
    os.environ.setdefault(THREADS_ENV, str(max(1, threads() // workers)))  # the compiled loops' share of the cores
    budget = int(memory_limit() * CACHE_SHARE / workers)
    WORKER["search"] = Search.of(problem, symmetry=WORKER["sym"], deadline=deadline, cache_budget=budget)


#: What a piece returns: (guess, reply, value, exact, subtree or None, seconds, nodes).
Outcome = tuple[Index, int, float, bool, "list[Index] | None", float, int]
#: What opening a first guess returns: (guess, its bound, its classes as (reply, bound,
#: exact, subtree or None) or [] when the bound reached the limit, seconds, nodes).
Classes = list[tuple[int, float, bool, "list[Index] | None"]]
Opened = tuple[Index, float, Classes, float, int]


def forked_task(kind: str, guess: Index, reply: int, limit: float) -> Outcome | Opened:
    """A task on a forked worker: open the first guess `guess` (kind "open", `limit` the
    incumbent) or solve its piece `reply` under the budget `limit` (kind "piece")."""
    return run_task(WORKER, kind, guess, reply, limit)


#: On a Dask worker: one search per problem (game spec, pool, weights, limit), built by the first task that needs it.
REMOTE: dict = {}


def remote_task(
    sent: SentProblem, workers: int, seconds_left: float | None, kind: str, guess: Index, reply: int, limit: float
) -> Outcome | Opened:
    """A task on a Dask worker (which the parent did not fork, so it builds the problem from
    `sent`, its game from its spec, once): `forked_task` on the worker's own search, with the
    time the parent has left."""
    key = sent.cache_key()
    if key not in REMOTE:
        REMOTE[key] = search_state(sent.built(), workers)
    state = REMOTE[key]
    state["search"].deadline = None if seconds_left is None else time.perf_counter() + seconds_left
    return run_task(state, kind, guess, reply, limit)


def search_state(problem: Problem, workers: int) -> dict:
    """A worker's own search of `problem` (every secret of its game), its cache a `workers`-th
    share, with what the tasks read beside it: the secrets, the symmetry and the root's score
    bound."""
    S, sym = problem.secrets, problem.symmetry()
    search = problem.search(symmetry=sym, cache_budget=int(memory_limit() * CACHE_SHARE / workers))
    return dict(
        game=problem.game, S=S, sym=sym, search=search, b=search.score_guesses(S, search.pool(S, sym), NO_LIMIT)[2]
    )


def run_task(state: dict, kind: str, guess: Index, reply: int, limit: float) -> Outcome | Opened:
    return open_guess(state, guess, limit) if kind == "open" else solve_piece(state, guess, reply, limit)


def solve_piece(state: dict, guess: Index, reply: int, budget: float) -> Outcome:
    """The class `reply` of the first guess `guess`, on the search `state` holds: its exact
    value and subtree if below `budget`, else a bound >= budget; nan if the deadline passed."""
    search: Search = state["search"]
    S, sym = state["S"], state["sym"]
    C = search.game.consistent(S, guess, reply)
    left = search.limit - 1
    allowed = search.class_allowed(None, guess, reply, C)
    search.root_key = None
    started, nodes = time.perf_counter(), search.stats.nodes
    try:
        value = search.solve(C, budget, left, None if sym is None else sym.after(guess), allowed, state["b"])
        tree = subtree(search, C, left, allowed) if value < budget else None
    except Timeout:
        return int(guess), int(reply), math.nan, False, None, time.perf_counter() - started, search.stats.nodes - nodes
    return (
        int(guess),
        int(reply),
        float(value),
        value < budget,
        tree,
        time.perf_counter() - started,
        search.stats.nodes - nodes,
    )


def first_bounds(search: Search, guess: Index, S: Indexes, b: int) -> tuple[list[tuple[int, Indexes]], list[float]]:
    """The non-hit classes of the first guess `guess` and the bound each has before anything
    is searched (the slot table's, or with weights the class bound): where opening a guess
    starts, so every bound a run proves for a class, and w(S) plus their sum for the guess,
    is at least this (the journal refuses a record below it)."""
    classes = search.classes_of(guess, S)
    if search.uniform:
        table = search.table_list(b)
        return classes, [table[len(c)] for _, c in classes]
    return classes, [search.class_bound(c, b, search.limit - 1) for _, c in classes]


def open_guess(state: dict, guess: Index, limit: float) -> Opened:
    """The classes of the first guess `guess` bounded as the search bounds them before it
    searches any (Search.guess_value: the slot bound, the closed forms of small classes and
    the candidates' bound, and at a big root one level of search), and those the closed forms
    solve, with their subtrees. When the bound reaches `limit` no class is returned (the guess
    cannot beat the incumbent); nan if the deadline passed."""
    search: Search = state["search"]
    S, sym, b = state["S"], state["sym"], state["b"]
    started, nodes = time.perf_counter(), search.stats.nodes
    left = search.limit - 1
    classes, bounds = first_bounds(search, guess, S, b)
    total = search.weight(S) + sum(bounds)
    keys: list = [None] * len(classes)
    try:
        if not search.restricted and total < limit:
            total = search.known_class_bounds(classes, bounds, keys, total, limit, left, b)
        if len(S) >= LEVEL_SIZE and total < limit:
            total = search.level_bounds(
                guess, classes, bounds, total, limit, left, None if sym is None else sym.after(guess), None
            )
        out: Classes = []
        for (r, C), bound in zip(classes if total < limit else [], bounds):
            value = closed_value(search, C, left)
            tree = None if value is None else subtree(search, C, left, search.class_allowed(None, guess, r, C))
            out.append((int(r), float(bound if value is None else value), value is not None, tree))
    except Timeout:
        return int(guess), math.nan, [], time.perf_counter() - started, search.stats.nodes - nodes
    return int(guess), float(total), out, time.perf_counter() - started, search.stats.nodes - nodes
