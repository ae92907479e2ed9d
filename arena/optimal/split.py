"""The split: a game's search cut into pieces, (first guess, reply class), searched in parallel
processes (or on a Dask cluster) with one incumbent, a journal to resume from, and a proven
lower bound at any moment.

The optimum is the least over first guesses g of

    C(S, g) = w(S) + sum over non-hit classes S_r(g) of C(S_r(g))        (search/branch.py)

so, apart from pruning, every class of every first guess is an independent problem: a piece.
The parent scores every first guess once (the slot bound of search.score_guesses, its `root
bound`) and takes them best bound first. It opens a first guess by bounding its classes as
the search does before it searches any (the closed forms of small classes, the candidates'
bound and, at a big root, one level of search: Search.guess_value), solves at once the classes
that those close exactly, and hands the others out, smallest first, to the `workers`, each
with the budget

    budget(g, r) = incumbent - w(S) - sum over g's other classes of their best bound

(the best bound: the exact value once a piece is solved, else what is proven so far). A piece
returns C(S_r(g)) with its best subtree when that is below its budget, else a bound at least
the budget, which proves C(S, g) >= incumbent: g is closed. When every class of g is exact,
C(S, g) is known, and it becomes the incumbent if below it. Each worker keeps one search, so
its cache serves all its pieces.

At any moment the optimum is at least

    min( incumbent, min over first guesses not closed of w(S) + sum of their classes' bounds )

(a first guess not yet opened: its root bound); when every first guess is closed this equals
the incumbent, and the optimum is proven. Every piece a worker closes (pieces.py: its exact
value and subtree, or its proven bound) is appended to the journal at once (journal.py), so a
run stopped by the time limit, or killed at any moment, resumes where it stopped and loses at
most the pieces in flight. The journal holds what was proven (bounds, exact values with their
subtrees), never what the parent decided from it: which first guesses a bound closes depends on
the incumbent, so it is decided again on resuming under the resumed run's own incumbent
(proofs.py), and a resumed run ends with the optimum an unkilled run finds, whatever the
incumbent of the run that wrote the journal. The tree is put together from the journal's
subtrees (the best first guess is not searched again)."""

from __future__ import annotations

import functools
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..core.costs import Guesses
from ..core.errors import ArenaError, ArenaTypeError
from ..core.game import Game, Index
from ..parallel.cluster import Cluster, ClusterNumbers, ClusterWorkers, NoWorker
from ..parallel.outcome import returning
from ..parallel.pool import Pool, shared_count, shared_numbers
from ..trees.tree import Tree
from .bounds import INF
from .inputs import check_start
from .journal import Journal, journal_key
from .ledger import Opening, Piece, Split
from .parallelism import Work, fewer_workers, journal_work
from .pieces import WORKER, Opened, Outcome, Task, class_floors, forked_task, remote_task, start_worker
from .problem import Objective, Problem
from .problem import Pool as GuessPool  # the guesses a tree may play; Pool here is the workers
from .records import Limits
from .search import Search
from .search.small_trees import compile_ahead
from .seeds import best_seed, greedy_trees, incumbent_value
from .solve import SEED_METRICS, cheaper_tree, within_limit
from .subtrees import grow_subtree, subtree_guesses


@dataclass
class SplitResult:
    """The split's outcome: the best first guess, its exact cost, the proven lower bound, the best tree, what closed."""

    game: Game
    pool: GuessPool
    best_guess: Index
    value: float
    lower_bound: float  # value and lower_bound in the weights' units (the number of guesses with none)
    openings: dict[Index, Opening] = field(default_factory=dict)
    searched: int = 0  # pieces searched by the workers in this run
    closed: int = 0  # first guesses closed
    pieces: int = 0  # pieces closed, in this run or before it (the journal)
    seconds: float = 0.0
    stopped: bool = False
    tree: list[Index] = field(default_factory=list)  # the best tree's guesses in pre-order
    seed: Tree | None = None  # the greedy tree the split started from, when no first guess beat it
    max_guesses: int | None = None  # the limit every secret is found within (None: none)
    scale: float = 1.0  # the weights' unit: a first guess's bound times this is in value's units
    written_by: str | None = None  # another arena version that wrote the journal (read with `standing`)
    weighted: bool = False  # were weights given? (the value is then the weighted cost)
    work: Work = field(default_factory=Work)  # the work done, its critical path, how busy the workers were
    split_pieces: int = 0  # pieces that split themselves (ledger.py), in this run or the journal's
    journal_unread: int = 0  # the journal's records the time limit left unread (they stay in it)
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM (SplitRun.interrupted_result)

    @property
    def exact(self) -> bool:
        return self.lower_bound >= self.value

    def proven(self) -> list[tuple[Index, float]]:
        """The first guesses whose every class is solved exactly, with their exact costs (in
        value's units: the total number of guesses with equal weights), least first."""
        exact = [(g, o.bound * self.scale) for g, o in self.openings.items() if o.exact]
        return sorted(exact, key=lambda pair: (pair[1], pair[0]))


#: A piece that has searched this many sets splits itself, by default, on one or two workers
#: (`arena optimal --split-after`): measured on 4x7 with 2 workers (benchmarks/bench_parallelism.py),
#: the fewest that cost no wall time; fewer sets make more tasks, each costing the parent and the
#: pipes about a millisecond, and a higher parallelism for more workers.
SPLIT_AFTER = 1000
#: With more workers the pieces are smaller, SPLIT_WORK / workers sets (`split_after_for`), so
#: that the work's parallelism keeps ahead of the workers: about 4 per worker on 5x5, the least
#: parallel of issue 33's three instances (measured: 57.7 at 125 sets, 104 at 62; 4x7 140, 268).
SPLIT_WORK = 1600
#: ... and never fewer than this: below it the tasks' own costs (a path replayed, a subtree
#: read back, the parent's bookkeeping) outgrow what more pieces can share out (5x5 at 50: 17,206
#: sets searched against 10,624 at 1,000).
SPLIT_FEWEST = 50
#: SplitRun's default `split_after`: the sets follow the number of workers (`split_after_for`).
AUTO = "auto"


def split_after_for(workers: int) -> int:
    """The sets a piece searches before it splits itself, by default, for `workers` processes:
    SPLIT_AFTER for one or two, then SPLIT_WORK / workers, at least SPLIT_FEWEST (16 workers:
    100 sets; 32 and more: 50). Pieces that split sooner give a higher parallelism (the speed-up
    no number of workers can exceed) for more work and more tasks: two workers gain nothing from
    it (4x7 at 200 sets: 6.3 s against 5.4 s at 1,000), sixteen are held back without it (5x5
    at 1,000 sets: parallelism 10)."""
    if workers <= 2:
        return SPLIT_AFTER
    return max(SPLIT_FEWEST, min(SPLIT_AFTER, round(SPLIT_WORK / workers)))


@dataclass(frozen=True)
class SplitRun:
    """How the split searches a problem (not what: its Problem). `workers`: processes forked
    (with `executor`, a Dask cluster's: arena.parallel.cluster.connect, pieces kept in flight;
    each of its workers builds the game from its spec). `journal`: a file to resume from and
    append to (journal.py); one of another problem is refused, or with `new_journal` set aside
    as FILE.old. `standing`: search nothing, read what the journal proves (`proven`; one of
    another version too: `written_by`). `incumbent`: a known tree's cost in the weights' units.
    `target`: prove no tree costs less (weights' units), no more: the incumbent is never above
    it, so a first guess closes once proven at least the target, and the bound proven is the
    target (the value stays the tree's: a target is no tree); a tree below it is searched on as
    without one. The journal holds proofs under any target: a later run takes it on.
    `seed`: start from the best greedy tree's cost (the optimum when no first guess beats it:
    SplitResult.seed); `start_tree`, a tree of the caller's over every secret, likewise when it
    costs less (consistent pool: consistent guesses only). `status(text)` after each piece;
    `notice(line)` when fewer processes are forked than `workers`; `alive()` (default: the
    cluster's count): no worker for `no_worker_seconds` is an ArenaError (the journal keeps
    what was closed). `split_after`: a piece that has searched this many sets hands itself
    back and is split into tasks of its own (ledger.py; None: pieces never split); an
    opening searches its classes until it has searched that many too (pieces.search_classes).
    `interrupted_result`: Ctrl-C or SIGTERM ends the search with what it reached
    (SplitResult.interrupted), as the time limit does, instead of a KeyboardInterrupt.
    `hurry`: workers that wait for a task make the pieces running split themselves after a
    twentieth of `split_after` (pieces.hurry), so that pieces are small only where workers
    would sit idle. `push`: a running piece searches under the budget it would be handed out
    with now, as the incumbent falls and its guess's other classes are proven dearer
    (push_rooms, pieces.pushed). Both on forked workers (shared memory) and on a cluster's
    (arena.parallel.cluster.ClusterNumbers: read at most every quarter second)."""

    workers: int = 2
    time_limit: float | None = None
    journal: str | Path | None = None
    new_journal: bool = False
    standing: bool = False
    incumbent: float = INF
    target: float = INF
    seed: bool = True
    start_tree: Tree | None = None
    status: Callable[[str], None] | None = None
    notice: Callable[[str], None] | None = None
    executor: Cluster | None = None
    alive: Callable[[], bool] | None = None
    no_worker_seconds: float = 60.0
    split_after: int | str | None = AUTO
    interrupted_result: bool = False
    hurry: bool = True
    push: bool = True


#: The Problem's settings that split_root's keywords may give (the others are SplitRun's).
PROBLEM_KEYWORDS = ("pool", "weights", "max_guesses")


def split_root(problem: Problem | Game, run: SplitRun | None = None, **given: Any) -> SplitResult:
    """The best first guess over every secret of the problem's game and its tree, the pieces
    (first guess, reply class) searched by the run's workers (module docstring; SplitRun: how).
    A game may stand for the problem, with `pool`, `weights`, `max_guesses` (the first guess
    included; Wordle's six) and SplitRun's settings as keywords: `split_root(game, workers=1,
    journal="j.jsonl")`. With equal weights the value is the total number of guesses."""
    problem, run = split_args(problem, run, given)
    start = time.perf_counter()
    deadline = None if run.time_limit is None else start + run.time_limit  # reading the journal counts too
    split, log, seeded = prepare(problem, run, deadline)
    if run.standing:
        return split_result(split, problem, 0, time.perf_counter() - start, False, seeded, log)
    game, S, w = problem.game, problem.secrets, problem.weights
    workers, executor = run.workers, run.executor
    sym, b, openings, status = split.sym, split.b, split.openings, run.status
    if executor is None and run.split_after is None:  # pieces that split themselves keep any number busy
        workers = fewer_workers(game, S, openings, workers, run.notice)
    WORKER.update(game=game, S=S, b=b, sym=sym, w=w)
    if run.split_after is not None and run.hurry:  # shared with the workers it forks, or on the cluster
        WORKER["idle"] = shared_count() if executor is None else executor.shared_numbers(1)
    if run.push:  # each message's piece's budget, as it falls (push_rooms)
        WORKER["rooms"] = shared_numbers(max(workers, 1)) if executor is None else executor.shared_numbers(workers, INF)
    on = piece_workers(executor, problem, workers, deadline, (run.alive, run.no_worker_seconds))
    before, interrupted = split.pieces_closed, False
    try:
        after = run.split_after if isinstance(run.split_after, int) else None  # (split_args resolved AUTO)
        most = (workers, after, WORKER.get("idle"), WORKER.get("rooms"))
        searched, stopped = search_pieces(split, on, most, deadline, status, start)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (arena.parallel.pool): the workers are ended
        if not run.interrupted_result:
            raise
        searched, stopped, interrupted = split.pieces_closed - before, True, True
    finally:
        if log is not None:
            log.close()
        for shared in (WORKER.get("idle"), WORKER.get("rooms")):
            if isinstance(shared, ClusterNumbers):  # off the scheduler
                shared.close()
        WORKER.clear()
    result = split_result(split, problem, searched, time.perf_counter() - start, stopped, seeded, log)
    return replace(result, interrupted=interrupted)


def split_args(problem: Problem | Game, run: SplitRun | None, given: dict) -> tuple[Problem, SplitRun]:
    """split_root's problem and run, from a Problem and a SplitRun or a game and keywords;
    the problem checked to be one the split searches."""
    if run is not None and not isinstance(run, SplitRun):
        raise ArenaTypeError(f"run must be a SplitRun (give the pool as pool=...), got {run!r:.60}")
    mine = {k: v for k, v in given.items() if k in PROBLEM_KEYWORDS}
    if isinstance(problem, Problem) and mine:
        raise ArenaError(f"{', '.join(mine)}: a Problem carries its own settings (Problem.of takes them)")
    problem = problem if isinstance(problem, Problem) else Problem.of(problem, **mine)
    run = replace(run or SplitRun(), **{k: v for k, v in given.items() if k not in PROBLEM_KEYWORDS})
    workers, refused = run.workers, refusal(problem)
    if refused:
        raise ArenaError(refused)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArenaError(f"workers must be a positive number of processes, got {workers!r}")
    if problem.scale is None and not problem.weights[problem.secrets].sum() > 0:
        raise ArenaError("weights: every secret weighs 0, so every tree costs 0; give some secret a positive weight")
    if run.standing and run.journal is None:
        raise ArenaError("the standing of a split is read from its journal: give a journal")
    if not (isinstance(run.target, (int, float)) and not isinstance(run.target, bool) and run.target > 0):
        raise ArenaError(f"target is the total to prove no tree beats: a positive number, got {run.target!r}")
    if run.split_after == AUTO:
        run = replace(run, split_after=split_after_for(workers))
    elif run.split_after is not None and (
        isinstance(run.split_after, bool) or not isinstance(run.split_after, int) or run.split_after < 1
    ):
        raise ArenaError(
            f"split_after is the sets a piece searches before it splits itself: a positive number, "
            f"None (never) or {AUTO!r} (by the workers), got {run.split_after!r}"
        )
    return problem, run


def refusal(problem: Problem) -> str | None:
    """Why the split cannot search `problem`, in one line (None: it can): it searches the first
    guesses of a game whose guesses hit the secret, with one opening, over every secret, for
    the least (weighted) total."""
    game = problem.game
    if not game.rules.hits or len(game.openings(game.all_secrets)) != 1:
        return f"{game.spec}: the split searches the first guesses of a game whose guesses hit the secret, with one opening"
    if problem.objective != Objective.AVERAGE or problem.openers or len(problem.secrets) != len(game.secrets):
        return "the split searches every first guess over every secret for the least (weighted) total"
    return None


def prepare(
    problem: Problem, run: SplitRun, deadline: float | None = None
) -> tuple[Split, Journal | None, Tree | None]:
    """The parent's bookkeeping before any piece is searched: the journal opened (its key
    checked first, before the root is scored and seeded: a wrong journal costs nothing), every
    first guess scored, the incumbent seeded (the greedy trees grown by the run's workers at
    once, while the parent compiles the search's kernels for the workers it will fork), and
    what the journal proves taken in (the records read by `deadline`: a run's time limit covers
    reading its journal)."""
    game, S, w, pool, max_guesses = problem.game, problem.secrets, problem.weights, problem.pool, problem.max_guesses
    log = None
    if run.journal is not None:
        log = Journal(run.journal, journal_key(problem), set_aside=run.new_journal, read_only=run.standing)
    sym = problem.symmetry()
    if max_guesses is not None and not run.standing:
        within_limit(problem, S, sym, deadline)  # a limit no tree keeps refused at once
    scout = problem.search(symmetry=sym)
    guesses = scout.pool(S, sym)
    bound, spread, b = scout.score_guesses(S, guesses, scout.limit)
    openings = {int(g): Opening(int(g), float(x)) for g, x in zip(guesses, bound) if np.isfinite(x)}
    order = [int(guesses[i]) for i in np.lexsort((spread, bound)) if int(guesses[i]) in openings]
    split = Split(game, scout, S, b, sym, openings, order, run.incumbent / problem.unit)
    forking = run.executor is None and not run.standing
    # the kernels compiled (or loaded) once here, before the workers fork, while the seed trees grow
    compiled = (lambda: compile_ahead(scout.small_trees() if scout.compiled_below else None)) if forking else None
    seeded = None
    if run.seed and not run.standing:
        grown = greedy_trees(game, S, pool, SEED_METRICS, run.workers if forking else 0, meanwhile=compiled)
        seeded = best_seed(grown, S, w, max_guesses)
    elif compiled is not None:
        compiled()
    if run.start_tree is not None:
        check_start(run.start_tree, S, pool, max_guesses)
        seeded = cheaper_tree(seeded, run.start_tree, w, Guesses(), S)  # the start tree only if strictly cheaper
    if seeded is not None and incumbent_value(seeded, w, S=S) < split.incumbent:
        given_by = f"{run.start_tree.guesser}'s tree" if seeded is run.start_tree else "the best greedy tree"
        split.incumbent, split.given = incumbent_value(seeded, w, S=S), given_by
    else:
        seeded = None
    split.held = split.incumbent  # the cost of the tree held (a target is none)
    split.incumbent = min(split.incumbent, run.target / problem.unit)
    if log is not None:
        limits = Limits(
            game,
            S,
            w,
            set(openings),
            functools.partial(subtree_guesses, scout),
            functools.partial(class_floors, scout, S, sym, b),
            max_guesses,
        )
        split.resume(log.proofs(game, limits, deadline))
        split.pieces_closed = log.pieces_read
        if not run.standing:
            log.begin()
            split.log = log
    return split, log, seeded


class PieceWorkers:
    """Where the split's tasks run (arena.parallel): forked workers, each keeping the search the
    parent built (`forked_task`), or a cluster's, each building its own from the game's spec
    (`remote_task`, with the time the parent has left); `submit` sends a task in the form its
    workers take it."""

    def __init__(self, on: Pool | ClusterWorkers, remote: tuple | None, deadline: float | None):
        self.on, self.remote, self.deadline = on, remote, deadline

    def submit(self, tasks: list[Task], split_after: int | None, slot: int = -1) -> tuple:
        """Send a batch of tasks (pieces.run_tasks) as one message; `slot`: the place of the
        shared rooms its piece reads its budget from as it falls (a cluster's workers get the
        shared numbers themselves with it: WORKER's idle and rooms, ClusterNumbers)."""
        if self.remote is None:
            message: tuple = (tasks, split_after, slot)
        else:
            sent, workers = self.remote
            left = None if self.deadline is None else max(self.deadline - time.perf_counter(), 1e-3)
            message = (sent, workers, left, tasks, split_after, (WORKER.get("idle"), WORKER.get("rooms"), slot))
        self.on.submit(message)
        return message


def piece_workers(
    cluster: Cluster | None,
    problem: Problem,
    workers: int,
    deadline: float | None,
    watch: tuple[Callable[[], bool] | None, float],
) -> PieceWorkers:
    """The split's workers: `workers` forked processes, or the pieces sent to `cluster`, whose
    watchdog `watch` sets: (alive, or None for the cluster's own count; its seconds)."""
    if cluster is None:
        warm = functools.partial(start_worker, problem, deadline, workers, os.getpid())
        return PieceWorkers(Pool(workers, functools.partial(returning, forked_task), warm), None, deadline)
    alive, seconds = watch
    on = cluster.workers(functools.partial(returning, remote_task), no_worker_seconds=seconds, alive=alive)
    return PieceWorkers(on, (problem.sent(), workers), deadline)


#: At most this many tasks go to a worker in one message (split.deal).
BATCH = 16

#: The status line is made at most this often (it sums over every first guess: Wordle's 12,972).
STATUS_SECONDS = 0.05


def search_pieces(
    split: Split,
    workers: PieceWorkers,
    most: tuple[int, int | None, Any, Any],
    deadline: float | None,
    status,
    start: float,
) -> tuple[int, bool]:
    """Hand out the split's tasks, `most` = (messages in flight, split_after, idle, rooms), in
    batches (`deal`), until none is left or the deadline passes; (pieces searched, stopped by
    the deadline). `idle`, a value the forked workers share: how many of them wait for a
    task, which makes the pieces running split themselves sooner (pieces.hurry); `rooms`, one
    number a message in flight, its piece's budget as it falls (push_rooms). Leaving, by an
    error too, ends the workers (a cluster's pending pieces are cancelled)."""
    pending: dict[int, tuple[tuple, list[Opening | Piece], int]] = {}
    searched, stopped, shown = 0, False, -math.inf
    on = workers.on
    flying, split_after, idle, rooms = most
    slots = list(range(flying)) if rooms is not None else []
    split.work.begin(flying, split.scout.stats.nodes)
    split.work.split_after = split_after
    with on:
        while True:
            if deadline is not None and time.perf_counter() > deadline:
                stopped = True
            free = flying - len(pending)
            messages = [] if stopped else deal(split, free)
            if idle is not None:  # a running piece hurries to split itself while a worker waits (pieces.hurry)
                idle.value = free - len(messages)
            for tasks in messages:
                slot = slots.pop() if slots else -1
                if slot >= 0:
                    kind, _, limit = tasks[-1]
                    rooms[slot] = limit if kind == "piece" else INF
                sent = workers.submit([(kind, what.path, limit) for kind, what, limit in tasks], split_after, slot)
                pending[id(sent)] = sent, [what for _, what, _ in tasks], slot
            if not pending:
                break
            try:
                finished = on.done()
            except NoWorker as e:
                raise ArenaError(
                    f"no Dask worker for {e.seconds:g} s: the split stopped "
                    "(a --journal keeps the pieces closed; run again to resume)"
                ) from None
            for sent, result in finished:
                _, whats, slot = pending.pop(id(sent))
                if slot >= 0:
                    slots.append(slot)
                split.work.ran(result.seconds, time.perf_counter())
                outcomes = result.value_or_raise()
                for what, outcome in zip(whats, outcomes):
                    split.work.done(what.path, isinstance(what, Opening), outcome.nodes, outcome.seconds)
                    closed, stop = piece_closed(split, what, outcome)
                    searched += closed
                    stopped = stopped or stop  # the deadline passed in the worker: nothing closed
                for what in whats[len(outcomes) :]:  # handed back unsearched (pieces.run_tasks)
                    handed_back(what)
            if rooms is not None:
                push_rooms(split, pending.values(), rooms)
            if status is not None and time.perf_counter() - shown >= STATUS_SECONDS:
                status(split.status(start))
                shown = time.perf_counter()
    if status is not None:
        status(split.status(start))
    return searched, stopped


def push_rooms(split: Split, pending, rooms) -> None:
    """Lower the shared budget of every piece in flight to the one the ledger would hand it
    out with now (Split.room): the incumbent and every node's best only fall and the classes'
    bounds only rise, so it only falls, and a bound the piece proves at least that budget
    does for the ledger what one at least the budget it was sent with would have (the ledger
    measures every result against its own budgets, never the one sent)."""
    for _, whats, slot in pending:
        what = whats[-1]
        if slot >= 0 and isinstance(what, Piece):
            room = split.room(what)
            if room < rooms[slot]:
                rooms[slot] = room


def deal(split: Split, free: int) -> list[list[tuple[str, Opening | Piece, float]]]:
    """Tasks for at most `free` messages, as the ledger hands them out: the first `free` to
    messages of their own (to different workers, as one task at a time would), the rest dealt
    round them, at most BATCH a message, a piece ending its message (it may search for long; a
    task behind it would wait). A task that no message can take is handed back. A worker stops
    at the first task that leaves work behind (pieces.run_tasks) and hands the rest back, so a
    message does what its tasks one at a time would, less the messages: most openings close on
    their first bounds in less time than a message costs."""
    messages: list[list[tuple[str, Opening | Piece, float]]] = []
    turn = 0
    for task in split.tasks() if free > 0 else ():
        if len(messages) < free:
            messages.append([task])
            continue
        takers = [k for k, m in enumerate(messages) if len(m) < BATCH and m[-1][0] != "piece"]
        if not takers:
            handed_back(task[1])
            break
        k = next((k for k in takers if k >= turn), takers[0])
        messages[k].append(task)
        turn = k + 1
    return messages


def handed_back(what: Opening | Piece) -> None:
    """A task of a batch that its worker did not search: the ledger hands it out again."""
    if isinstance(what, Opening):
        what.opening = False
    else:
        what.flying = False


def piece_closed(split: Split, what: Opening | Piece, outcome: Outcome | Opened) -> tuple[int, bool]:
    """What a worker's task tells the split: (pieces searched, 1 or 0; stopped by the deadline).
    A piece that split itself is made a node of its own (Split.expand), with the guesses its
    worker scored."""
    o = split.openings[outcome.path[0]]
    o.seconds, o.nodes = o.seconds + outcome.seconds, o.nodes + outcome.nodes
    if isinstance(outcome, Opened):
        assert isinstance(what, Opening)
        if np.isnan(outcome.bound):
            handed_back(what)
            return 0, True
        split.opened(what, outcome.bound, outcome.classes, (outcome.seconds, outcome.nodes))
        return 0, False
    assert isinstance(what, Piece)
    if outcome.split:
        split.expand(what, outcome.guesses)
        if split.log is not None:  # the bound its node gives it, which no record below may hold yet
            split.log.append(
                split.game, outcome.path, what.bound, what.exact, what.tree, outcome.seconds, outcome.nodes
            )
        return 0, False
    if np.isnan(outcome.value):
        handed_back(what)
        return 0, True
    if split.log is not None:
        split.log.append(
            split.game, outcome.path, outcome.value, outcome.exact, outcome.tree, outcome.seconds, outcome.nodes
        )
    split.closed_piece(what, outcome.value, outcome.exact, outcome.tree)
    return 1, False


def split_result(
    split: Split,
    problem: Problem,
    searched: int,
    seconds: float,
    stopped: bool,
    seeded: Tree | None,
    log: Journal | None,
) -> SplitResult:
    """What the parent knows at the end, in the weights' units."""
    fallback = seeded if split.best_guess < 0 and seeded is not None else None  # nothing beat the greedy tree
    scale = problem.unit
    held = split.incumbent if split.best_guess >= 0 else split.held
    return SplitResult(
        split.game,
        problem.pool,
        split.best_guess if fallback is None else fallback.root.guess,
        held * scale,
        split.lower_bound() * scale,
        split.openings,
        searched,
        split.closed(),
        split.pieces_closed,
        seconds,
        stopped,
        split.best_tree(),
        fallback,
        problem.max_guesses,
        scale,
        None if log is None else log.written_by,
        problem.weighted,
        journal_work(log.lines, split.game) if log is not None and log.read_only else split.work,
        split.split_pieces,
        journal_unread=0 if log is None else log.unread,
    )


def split_tree(result: SplitResult, time_limit: float | None = None):
    """The best tree the split found, put together from its pieces' subtrees (no search), as
    a SolvedTree carrying the split's value, proven bound and effort."""
    from .params import agent_spec
    from .solve import SolvedTree

    game, S = result.game, result.game.all_secrets
    if result.seed is not None:
        root, costs = result.seed.root, np.array([result.seed.guesses, result.seed.misses])
    else:
        search = Search(game, np.ones(len(game.secrets)), result.pool)  # the tree grower reads the rules alone
        root, costs = grow_subtree(search, S, result.tree, (), game.openings(S)[0][0])
    nodes = sum(o.nodes for o in result.openings.values())
    return SolvedTree(
        game,
        agent_spec(result.pool, Objective.AVERAGE, result.max_guesses),
        [root],
        costs[0],
        costs[1],
        covered=S,
        value=result.value,
        lower_bound=min(result.lower_bound, result.value),
        seconds=result.seconds,
        searched=nodes,
        time_limit=time_limit,
        stopped=result.stopped,
        split=result,
        weighted=result.weighted,
    )
