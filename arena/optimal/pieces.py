"""A piece's work, on a worker of the split (split.py): open a guess (bound its classes, solve
those the closed forms solve) or solve one of its classes under a budget, on the search the
worker keeps: forked from the parent (`WORKER`, its search built by `start_worker`) or on a
Dask worker, which builds its own from the game's spec (`remote_task`).

A task names where it is by its path from the root (ledger.py): (g1, r1, ..., h) for the guess
h to open, (g1, r1, ..., h, r) for the class r that h leaves. The worker walks the path down
(`walk`: the class, its symmetry, the guesses the path allows and the guesses left), as the
one-process search would have reached that class. A piece given `split_after` hands itself back
unsolved once it has searched that many sets (`Outcome.split`), with its class's guesses
scored and ordered (`Outcome.guesses`, `node_guesses`): the parent then splits it into tasks of
its own; the sets it searched stay in this worker's cache. A message carries a batch of tasks
(`run_tasks`): most openings are closed by their first bounds in a fraction of a millisecond,
less than a message between two processes costs.
"""

from __future__ import annotations

import functools
import math
import os
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ..core.game import Index, Indexes
from ..core.resources import THREADS_ENV, memory_limit, threads
from ..parallel.orphans import die_with_parent
from .problem import Problem, SentProblem
from .search import CACHE_SHARE, LEVEL_SIZE, NO_LIMIT, Search, Timeout, class_searched
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


#: An opening searches its classes until it has searched this share of `split_after` sets: enough
#: to solve the small classes that would each be a task too short to hand out, short enough that
#: the chain opening -> piece -> opening ... (the critical path) is not lengthened by much.
OPENING_SHARE = 4

#: Where a task is: guesses and replies from the root, (g1, r1, ..., h) or (g1, r1, ..., h, r).
Path = tuple[int, ...]

#: A task: ("open", the guess's path, what it must beat) or ("piece", the class's path, its budget).
Task = tuple[str, Path, float]

#: A node's guesses, best first: (guess, the bound it has before anything is searched).
Scored = list[tuple[int, float]]


class Outcome(NamedTuple):
    """What a piece returns: its exact value and subtree (guesses in pre-order) below its
    budget, else a bound at least the budget; `split`: it searched `split_after` sets and hands
    itself back (value nan, as when the deadline passed: nothing proven), with its class's
    guesses scored (`guesses`, node_guesses) so that the parent need not score them."""

    path: Path
    value: float
    exact: bool
    tree: list[Index] | None
    split: bool
    seconds: float
    nodes: int
    guesses: Scored | None = None


#: An opened guess's classes, each (reply, bound, exact, subtree or None).
Classes = list[tuple[int, float, bool, "list[Index] | None"]]


class Opened(NamedTuple):
    """What opening a guess returns: its bound and its classes, or none when the bound reached
    the limit; nan if the deadline passed."""

    path: Path
    bound: float
    classes: Classes
    seconds: float
    nodes: int


def forked_task(tasks: list[Task], split_after: int | None = None, slot: int = -1) -> list[Outcome | Opened]:
    """A batch of tasks on a forked worker (run_tasks); `slot`: where the parent pushes the
    budget of its piece as it falls (`rooms`, shared with the forked workers; -1: nowhere)."""
    return run_tasks(WORKER, tasks, split_after, slot)


#: On a Dask worker: one search per problem (game spec, pool, weights, limit), built by the first task that needs it.
REMOTE: dict = {}


def remote_task(
    sent: SentProblem,
    workers: int,
    seconds_left: float | None,
    tasks: list[Task],
    split_after: int | None = None,
    shared: tuple[Any, Any, int] = (None, None, -1),
) -> list[Outcome | Opened]:
    """A batch of tasks on a Dask worker (which the parent did not fork, so it builds the
    problem from `sent`, its game from its spec, once): `forked_task` on the worker's own
    search, with the time the parent has left; `shared`: (idle, rooms, slot), the numbers the
    parent shares on the cluster (arena.parallel.cluster.ClusterNumbers, or None) and the
    batch's place among the rooms, read as forked workers read theirs."""
    key = sent.cache_key()
    if key not in REMOTE:
        REMOTE[key] = search_state(sent.built(), workers)
    state = REMOTE[key]
    state["search"].deadline = None if seconds_left is None else time.perf_counter() + seconds_left
    idle, rooms, slot = shared
    state.update(idle=idle, rooms=rooms)
    return run_tasks(state, tasks, split_after, slot if rooms is not None else -1)


def search_state(problem: Problem, workers: int) -> dict:
    """A worker's own search of `problem` (every secret of its game), its cache a `workers`-th
    share, with what the tasks read beside it: the secrets, the symmetry and the root's score
    bound."""
    S, sym = problem.secrets, problem.symmetry()
    search = problem.search(symmetry=sym, cache_budget=int(memory_limit() * CACHE_SHARE / workers))
    return dict(
        game=problem.game, S=S, sym=sym, search=search, b=search.score_guesses(S, search.pool(S, sym), NO_LIMIT)[2]
    )


def run_task(
    state: dict, kind: str, path: Path, limit: float, split_after: int | None = None, slot: int = -1
) -> Outcome | Opened:
    """One task on the search `state` holds: open the guess at the end of `path` (kind "open",
    `limit` what it must beat) or solve the class at its end under the budget `limit` ("piece",
    its budget tightened while it runs where `slot` names a place of `state["rooms"]`)."""
    search: Search = state["search"]
    idle = state.get("idle")
    if idle is not None and split_after is not None:
        search.report = functools.partial(hurry, idle, search.stats.nodes + max(1, split_after // HURRY_SHARE))
    try:
        if kind == "open":
            return open_guess(state, path, limit, split_after)
        rooms = state.get("rooms") if slot >= 0 else None
        return solve_piece(state, path, limit, split_after, None if rooms is None else (rooms, slot))
    finally:
        search.report = None


def run_tasks(state: dict, tasks: list[Task], split_after: int | None = None, slot: int = -1) -> list[Outcome | Opened]:
    """The tasks of a batch in turn, each under the limit it was handed out with, until one
    leaves work behind it: a piece, or an opening that does not close (its classes become
    pieces, which the search takes before the next guess; the deadline). The outcomes of
    those searched; the tasks after them are handed back unsearched. `slot`: the batch's
    place among the shared rooms (its piece's, run_task)."""
    out = []
    for kind, path, limit in tasks:
        outcome = run_task(state, kind, path, limit, split_after, slot)
        out.append(outcome)
        if not isinstance(outcome, Opened) or outcome.classes or math.isnan(outcome.bound):
            break
    return out


class Tightened(Exception):
    """A running piece's budget fell below the one it searches under (the parent pushed a lower
    one: the incumbent fell, or its guess's other classes were proven dearer): it searches
    again under `budget`, the sets finished before answered by the search's cache."""

    def __init__(self, budget: float):
        super().__init__(budget)
        self.budget = budget


def pushed(report: Callable[[Search], None] | None, room: tuple[Any, int], budget: list[float]) -> Callable:
    """A progress callback (every 64 sets) that calls `report` and raises Tightened once the
    room the parent shares (`room`: the array and the piece's place in it) is below `budget[0]`."""
    rooms, slot = room

    def check(search: Search) -> None:
        if report is not None:
            report(search)
        if rooms[slot] < budget[0]:
            raise Tightened(float(rooms[slot]))

    return check


class Place(NamedTuple):
    """A class reached by a path: its secrets, the symmetry left, the guesses the path allows
    (None: every guess) and the guesses left."""

    secrets: Indexes
    sym: Any
    allowed: Any
    left: int


def walk(search: Search, S: Indexes, sym: Any, path: Path) -> Place:
    """The class that the guesses and replies of `path` (an even length) lead to from S, as
    the search reaches it (search/hits.py: the symmetry after each guess, the class's allowed
    guesses); a path that leaves no class is a ValueError."""
    C, allowed, left = S, None, search.limit
    for guess, reply in zip(path[::2], path[1::2]):
        C = search.game.consistent(C, guess, reply)
        if len(C) == 0 or search.game.finished(reply):
            raise ValueError(f"{path!r} leaves no class")
        allowed = search.class_allowed(allowed, guess, reply, C)
        sym = None if sym is None else sym.after(guess)
        left -= 1
    return Place(C, sym, allowed, left)


def solve_piece(
    state: dict, path: Path, budget: float, split_after: int | None = None, room: tuple[Any, int] | None = None
) -> Outcome:
    """The class at the end of `path`, on the search `state` holds: its exact value and subtree
    if below `budget`, else a bound >= budget; nan if the deadline passed or (`split`) once it
    has searched `split_after` sets. With `room` (a shared array and a place in it) the budget
    falls while it runs to what the parent pushes there (`pushed`): the search starts again
    under the lower one, and what it returns is measured against that (a bound at least the
    lower budget is what the parent's ledger then needs; split.push_rooms)."""
    search: Search = state["search"]
    place = walk(search, state["S"], state["sym"], path)
    search.root_key = None
    started, nodes = time.perf_counter(), search.stats.nodes
    search.node_limit = None if split_after is None else nodes + split_after
    now, report = [budget], search.report
    if room is not None:
        search.report = pushed(report, room, now)
    try:
        while True:
            try:
                value = search.solve(place.secrets, now[0], place.left, place.sym, place.allowed, state["b"])
                break
            except Tightened as lower:
                now[0] = lower.budget
        search.report = report  # the subtree is read back under no push
        tree = subtree(search, place.secrets, place.left, place.allowed) if value < now[0] else None
    except Timeout:
        value = math.nan
    finally:
        split, search.node_limit = search.past_node_limit(), None
    if math.isnan(value):
        guesses = node_guesses(search, place) if split else None
        return Outcome(
            path, math.nan, False, None, split, time.perf_counter() - started, search.stats.nodes - nodes, guesses
        )
    return Outcome(
        path, float(value), value < now[0], tree, False, time.perf_counter() - started, search.stats.nodes - nodes
    )


#: A piece splits itself after this share of `split_after` sets once a worker waits for a task.
HURRY_SHARE = 20


def hurry(idle, soonest: int, search: Search) -> None:
    """The search's progress callback in a task (every few sets): while `idle` (a value the
    parent shares with its forked workers) says a worker waits for a task, a task that has
    searched past `soonest` sets under a node limit (a piece; an opening searching its
    classes) reaches it at once: the piece splits itself, the opening hands its classes back
    as pieces, and the idle worker gets a share of the work. Outside a node limit (a deadline
    is all that stops those parts) nothing changes."""
    if search.node_limit is not None and idle.value > 0 and search.stats.nodes >= soonest:
        search.node_limit = min(search.node_limit, search.stats.nodes)


def node_guesses(search: Search, place: Place) -> Scored:
    """The guesses of a class that split itself, as its node takes them (ledger.Split.expand):
    one per symmetry class, those that can find every secret in the guesses left, scored as
    the root's are (search.score_guesses) and ordered by bound, then by the spread of their
    classes."""
    guesses = search.pool(place.secrets, place.sym, place.allowed)
    bound, spread, _ = search.score_guesses(place.secrets, guesses, place.left)
    return [(int(guesses[i]), float(bound[i])) for i in np.lexsort((spread, bound)) if np.isfinite(bound[i])]


def first_bounds(
    search: Search, guess: Index, S: Indexes, b: int, left: int | None = None
) -> tuple[list[tuple[int, Indexes]], list[float]]:
    """The non-hit classes of `guess` at S (with `left` guesses to spend there: the search's
    limit at the root) and the bound each has before anything is searched (the slot table's,
    or with weights the class bound): where opening a guess starts, so every bound a run proves
    for a class, and w(S) plus their sum for the guess, is at least this (the journal refuses
    a record below it)."""
    left = search.limit if left is None else left
    classes = search.classes_of(guess, S)
    if search.uniform:
        table = search.table_list(b)
        return classes, [table[len(c)] for _, c in classes]
    return classes, [search.class_bound(c, b, left - 1) for _, c in classes]


def class_floors(
    scout: Search, S: Indexes, sym, b: int, path: Path, secrets: Indexes | None = None
) -> dict[int, float]:
    """The bound of each class of the guess at the end of `path` before anything is searched
    (pieces.first_bounds at the class the path leads to, or at `secrets` where the caller has
    found that class already): what the journal's records must reach."""
    if secrets is None:
        place = walk(scout, S, sym, path[:-1])
        secrets, left = place.secrets, place.left
    else:
        left = scout.limit - len(path) // 2  # the guesses the path played before its last
    if scout.uniform:  # first_bounds' slot table by class size: the sizes alone (a journal's every record)
        sizes = np.bincount(scout.game.table[path[-1], secrets], minlength=scout.game.n_codes)
        if scout.hit >= 0:
            sizes[scout.hit] = 0
        table = scout.table_list(b)
        return {r: float(table[sizes[r]]) for r in np.flatnonzero(sizes).tolist()}
    classes, bounds = first_bounds(scout, path[-1], secrets, b, left)
    return {int(r): float(x) for (r, _), x in zip(classes, bounds)}


def open_guess(state: dict, path: Path, limit: float, split_after: int | None = None) -> Opened:
    """The classes of the guess at the end of `path` bounded as the search bounds them before
    it searches any (Search.guess_value: the slot bound, the closed forms of small classes and
    the candidates' bound, and at a big class one level of search), and those the closed forms
    solve, with their subtrees; given `split_after`, the classes then searched one by one as
    the search would (`search_classes`) until a share of that many sets (OPENING_SHARE) are
    searched. When the bound
    reaches `limit` no class is returned (the guess cannot beat it); nan if the deadline passed."""
    search: Search = state["search"]
    place, guess, b = walk(search, state["S"], state["sym"], path[:-1]), path[-1], state["b"]
    S, left = place.secrets, place.left - 1
    started, nodes = time.perf_counter(), search.stats.nodes
    classes, bounds = first_bounds(search, guess, S, b, place.left)
    total = search.weight(S) + sum(bounds)
    keys: list = [None] * len(classes)
    solved: set[int] = set()
    try:
        if not search.restricted and total < limit:
            total = search.known_class_bounds(classes, bounds, keys, total, limit, left, b)
        if len(S) >= LEVEL_SIZE and total < limit:
            below = None if place.sym is None else place.sym.after(guess)
            total = search.level_bounds(guess, classes, bounds, total, limit, left, below, place.allowed)
        if split_after is not None and total < limit:
            sets = max(1, split_after // OPENING_SHARE)
            total = search_classes(search, place, guess, (classes, bounds, keys, b), (total, limit), sets, solved)
        out: Classes = []
        for j, ((r, C), bound) in enumerate(zip(classes if total < limit else [], bounds)):
            value = bound if j in solved else closed_value(search, C, left)
            allowed = search.class_allowed(place.allowed, guess, r, C)
            tree = None if value is None else subtree(search, C, left, allowed)
            out.append((int(r), float(bound if value is None else value), value is not None, tree))
        if out:  # the guess's bound is w(S) plus its classes' as sent (the journal checks it)
            total = max(total, search.weight(S) + sum(bound for _, bound, _, _ in out))
            out = out if total < limit else []
    except Timeout:
        return Opened(path, math.nan, [], time.perf_counter() - started, search.stats.nodes - nodes)
    return Opened(path, float(total), out, time.perf_counter() - started, search.stats.nodes - nodes)


def search_classes(
    search: Search, place: Place, guess: Index, bounded: tuple, totals: tuple[float, float], sets: int, solved: set[int]
) -> float:
    """An opened guess's classes (`bounded`: the classes, their bounds and cache keys, smallest
    first, and the node's b) searched one by one as Search.guess_value searches them, each under what is left of
    the limit once the others' bounds are reserved, until the guess's total reaches the limit
    (returned: it cannot beat it) or `sets` sets are searched (the class under way is left to a
    piece of its own). The bounds are raised in place, each class solved exactly put in
    `solved`; the new total is returned. A deadline is a Timeout, as in any search."""
    classes, bounds, keys, b = bounded
    total, limit = totals
    below = None if place.sym is None else place.sym.after(guess)
    left = place.left - 1
    search.node_limit = search.stats.nodes + sets
    try:
        for j, (r, C) in enumerate(classes):
            known = closed_value(search, C, left)
            if known is not None:  # closed, maybe only since it was bounded: an earlier class's search
                total += known - bounds[j]  # solved one symmetric to it (one cache key)
                bounds[j] = known
                if total >= limit:
                    return total
                continue
            allowed = search.class_allowed(place.allowed, guess, r, C)
            budget = limit - (total - bounds[j])
            value = search.solve(C, budget, left, below, allowed, b, keys[j])
            total = class_searched(total, bounds[j], value, budget, limit)
            bounds[j] = value
            if total >= limit:
                return total
            solved.add(j)
    except Timeout:
        if not search.past_node_limit():
            raise  # the deadline, not the sets
    finally:
        search.node_limit = None
    return total
