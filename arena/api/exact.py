"""The exact solver asked from user input, for the command line and the Python API alike:
what was asked (`OptimalRequest`) checked in one place, the Problem built from it
(arena.optimal.problem), and one of three solvers chosen (`plan_optimal`): the split over
worker processes or a Dask cluster (`workers`), the improvement of a guesser's tree (`start`),
or the one search (arena.optimal.optimal_tree). `arena optimal` builds a request from its flags
(messages then name the flags) and `game.optimal(**keywords)` from its keywords; both run
`solve_optimal` and get the same SolvedTree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from ..core import checks as door
from ..core.costs import Lost, cost_for
from ..core.errors import ArenaError
from ..core.game import Game, Index
from ..core.spec import plus_list
from ..games import make_game
from ..optimal.inputs import check_choice
from ..optimal.problem import Objective, Problem
from ..optimal.search import ctrl_c_stops
from ..optimal.solve import SolvedTree
from ..parallel.progress import ProgressLine

#: What the command line takes from here beside the request (it imports only the API).
__all__ = ["OptimalRequest", "ProgressLine", "ctrl_c_stops", "make_game", "plan_optimal", "plus_list", "run_plan"]

#: Above this many secrets (with no symmetry to cut the search; Mastermind has one) the exact
#: search is not expected to finish in minutes, and a run without a time limit is warned:
#: jotto:first=200 takes about 30 s, first=400 does not finish in 120 s; Mastermind from scratch
#: (benchmarks/bench_optimal.py --scratch): 4x7 (2,401 codes) 24 s, Bulls and Cows (5,040) 83 s.
LONG_WITHOUT_SYMMETRY = 300
LONG_WITH_SYMMETRY = 6_000

SOLVERS = ("split", "start", "search")


@dataclass(frozen=True)
class OptimalRequest:
    """What a user asked of the exact solver: the problem (Problem.of's settings; `objective`
    may also be "lost", the lost-games cost's average; `weights_file` a weights file or a saved
    equilibrium, read for the game) and how to search it: `time_limit` (seconds), `workers`
    (split the search: processes, or pieces in flight on a cluster), `start` (a deterministic
    guesser's spec: improve its tree), `bound_levels` (with `start`: the L-level bound too),
    `journal`, `new_journal`, `standing`, `backend` ("local" or "dask"), `scheduler`,
    `oversubscribe`, `log_every` and `split_after` (the split's: a piece that has searched
    this many sets splits itself; None the split's default, 0 never), `target` (the split's:
    prove no tree costs less than this total, in the weights' units, and no more). `flags`: name the settings as the command
    line's flags in messages (`--time-limit`), not as keywords (`time_limit`)."""

    secrets: Sequence[Index] | np.ndarray | None = None
    weights: Sequence[float] | np.ndarray | None = None
    weights_file: str | None = None
    pool: str = "all"
    objective: str = "average"
    max_guesses: int | None = None
    cost: str | None = None
    openers: Sequence[Index | str] = ()
    time_limit: float | None = None
    workers: int | None = None
    start: str | None = None
    bound_levels: int = 1
    journal: str | None = None
    new_journal: bool = False
    standing: bool = False
    backend: str = "local"
    scheduler: str | None = None
    oversubscribe: bool = False
    log_every: float | None = None
    split_after: int | None = None
    target: float | None = None
    flags: bool = False

    def named(self, setting: str) -> str:
        """A setting as the user wrote it: `--max` on the command line, `max_guesses` in Python."""
        if not self.flags:
            return setting
        return "--" + {"max_guesses": "max", "weights_file": "weights"}.get(setting, setting).replace("_", "-")


@dataclass(frozen=True)
class Plan:
    """The request checked (its split settings completed: the workers capped at the CPUs, one
    to read a journal's standing), its problem and the solver chosen (one of SOLVERS)."""

    request: OptimalRequest
    game: Game
    problem: Problem
    solver: str

    @property
    def ctrl_c_stops(self) -> bool:
        """Does Ctrl-C stop the search with its best tree (a time-limited search in this
        process; the split's workers take Ctrl-C themselves, keeping the journal)?"""
        return self.request.time_limit is not None and self.solver != "split"


def request_of(given: dict[str, Any]) -> OptimalRequest:
    """The request of Python keywords (`game.optimal(pool="consistent")`), one ArenaError for
    a keyword that is none of its settings."""
    door.settings(given, [f.name for f in fields(OptimalRequest) if f.name != "flags"], "optimal")
    return OptimalRequest(**given)


def plan_optimal(game: Game, request: OptimalRequest, notice: Callable[[str], None] | None = None) -> Plan:
    """The request checked (each setting, and which combine), its problem built and its solver
    chosen; `notice(line)` is told what the user should know before a long run."""
    door.game(game)
    request = checked_settings(request)
    objective, cost = ("average", Lost.name) if request.objective == "lost" else (request.objective, request.cost)
    cost_for(game, cost)
    check_start(request)
    if request.standing:
        request = check_standing(request)
    if request.workers is not None:
        request = check_split(request)
    else:
        check_no_split(request)
    weights = request_weights(game, request)
    problem = Problem.of(
        game, request.secrets, weights, request.pool, objective, request.max_guesses, cost, request.openers
    )
    solver = "split" if request.workers is not None else "start" if request.start else "search"
    if request.time_limit is None and not request.openers and solver == "search" and notice is not None:
        warn_if_long(game, notice)
    return Plan(request, game, problem, solver)


def checked_settings(request: OptimalRequest) -> OptimalRequest:
    """The settings checked one by one (those of the problem are checked by Problem.of)."""
    named = request.named
    if door.integer(request.bound_levels, named("bound_levels")) < 1:
        raise ArenaError(f"{named('bound_levels')} must be at least 1, got {request.bound_levels}")
    if request.flags and request.time_limit is not None and not request.time_limit > 0:
        raise ArenaError(f"{named('time_limit')} must be a positive number of seconds, got {request.time_limit:g}")
    request = replace(request, time_limit=door.seconds(request.time_limit, named("time_limit")))
    check_choice("objective", request.objective, ("average", "worst", "fewest-at-worst", "lost"))
    if request.objective == "lost" and request.cost not in (None, Lost.name):
        raise ArenaError(
            f"{named('objective')} lost counts lost games: it cannot be combined with {named('cost')} {request.cost}"
        )
    if request.weights is not None and request.weights_file is not None:
        raise ArenaError("weights: give the weights or a weights file, not both")
    if request.split_after is not None:
        after = door.integer(request.split_after, named("split_after"))
        if after < 0 or request.workers is None:
            raise ArenaError(
                f"{named('split_after')} is the sets a piece of the split searches before it splits itself "
                f"(0: never), with {named_workers(request)}; got {after}"
                + ("" if request.workers is not None else f" without {named('workers')}")
            )
    if request.log_every is not None and (request.workers is None or request.standing):
        raise ArenaError(f"{named('log_every')} logs the status of a split that searches: give {named('workers')} N")
    if request.target is not None and (request.workers is None or request.standing):
        raise ArenaError(
            f"{named('target')} is the total a split proves no tree beats: give {named('workers')} N (and no "
            f"{named('standing')})"
        )
    target = request.target
    if target is not None and (
        isinstance(target, bool)
        or not isinstance(target, (int, float, np.integer, np.floating))
        or not (math.isfinite(target) and target > 0)
    ):
        raise ArenaError(f"{named('target')} must be a positive total (in the weights' units), got {target!r}")
    if request.log_every is not None and not request.log_every > 0:
        raise ArenaError(f"{named('log_every')} must be a positive number of seconds, got {request.log_every:g}")
    return request


def check_start(request: OptimalRequest) -> None:
    """`start` improves a guesser's whole tree for the average with equal weights."""
    named = request.named
    if request.start and request.openers:
        raise ArenaError(
            f"{named('start')} improves a guesser's whole tree: it cannot be combined with {named('openers')}"
        )
    weighted = request.weights is not None or request.weights_file is not None
    limited = request.max_guesses is not None and request.workers is None
    if request.start and (weighted or limited or request.objective != "average"):
        raise ArenaError(
            f"{named('start')} improves a guesser's tree for the average with equal weights: "
            f"it cannot be combined with {named('weights')}, {named('objective')} worst, "
            f"or {named('max_guesses')} without {named('workers')}"
        )


def check_standing(request: OptimalRequest) -> OptimalRequest:
    """`standing` reads a split's journal and searches nothing (one worker reads it)."""
    named = request.named
    if not request.journal:
        raise ArenaError(f"{named('standing')} reads what a split's journal proves: give {named('journal')} FILE.jsonl")
    clash = [
        flag
        for flag, given in (
            (named("new_journal"), request.new_journal),
            (named("time_limit"), request.time_limit is not None),
            (f"{named('backend')} dask", request.backend != "local"),
        )
        if given
    ]
    if clash:
        raise ArenaError(f"{named('standing')} searches nothing: it cannot be combined with {clash[0]}")
    return request if request.workers is not None else replace(request, workers=1)


def check_split(request: OptimalRequest) -> OptimalRequest:
    """`workers` splits the root of the plain average: refuse what it does not combine with,
    and cap the processes at the CPUs (unless `oversubscribe`)."""
    named = request.named
    clash = [
        flag
        for flag, given in (
            (named("openers"), bool(request.openers)),
            (named("objective"), request.objective != "average"),
            (named("cost"), request.cost is not None),
        )
        if given
    ]
    if clash:
        raise ArenaError(
            f"{named('workers')} searches every first guess for the least (weighted) total: "
            f"it cannot be combined with {clash[0]}"
        )
    workers = cast_workers(request)
    if workers < 1:
        raise ArenaError(f"{named('workers')} must be a positive number of processes, got {workers}")
    if request.backend not in ("local", "dask"):
        raise ArenaError(f"{named('backend')} must be local or dask, got {request.backend!r}")
    if request.standing:
        return request
    from ..core.resources import capped_workers

    return replace(request, workers=capped_workers(workers, request.oversubscribe, "arena optimal", request.backend))


def cast_workers(request: OptimalRequest) -> int:
    return door.integer(request.workers, request.named("workers"))


def check_no_split(request: OptimalRequest) -> None:
    """Without `workers`, the split's own settings have nothing to do."""
    named, workers = request.named, named_workers(request)
    if request.oversubscribe:
        raise ArenaError(f"{named('oversubscribe')} allows more split workers than CPUs: give {workers}")
    if request.backend != "local" or request.scheduler:
        raise ArenaError(
            f"{named('backend')} and {named('scheduler')} send the split's pieces to a cluster: give {workers}"
        )
    if request.journal or request.new_journal:
        raise ArenaError(f"{named('journal')} records the pieces the split closes: give {workers} too")


def named_workers(request: OptimalRequest) -> str:
    return f"{request.named('workers')} N" if request.flags else "workers=N"


def request_weights(game: Game, request: OptimalRequest) -> Any:
    """The weights given, or read from the weights file: for the split a weights file, for the
    one search also the chooser's mix of a saved equilibrium."""
    if request.weights_file is None:
        return request.weights
    if request.workers is not None:
        from ..core.weights import read_weights

        return read_weights(request.weights_file, game)
    return read_weights_or_mix(request.weights_file, game)


def read_weights_or_mix(path: str, game: Game) -> np.ndarray:
    """Secret weights from a weights file, or the chooser's mix of an equilibrium saved by
    `arena equilibrium --save` (.json or .json.gz; the witness of a proven lower bound:
    searching against it proves the bound again)."""
    from agents.equilibrium import saved_chooser_mix

    from ..core.weights import read_weights
    from ..equilibrium.solution import NotAnEquilibrium, read_saved

    try:
        read_saved(path, game)  # a saved equilibrium for another game or word list is refused here
    except NotAnEquilibrium:
        return read_weights(path, game)  # not a saved equilibrium: it says what is wrong with it
    return saved_chooser_mix(game, path)


def warn_if_long(game: Game, notice: Callable[[str], None]) -> None:
    """One notice, before a search that is not expected to finish in minutes: the instance's
    size, and how to bound the run."""
    n = len(game.secrets)
    symmetric = game.rules.hits and game.symmetry() is not None
    if n > (LONG_WITH_SYMMETRY if symmetric else LONG_WITHOUT_SYMMETRY):
        kind = "" if symmetric else " and no symmetry to exploit"
        notice(
            f"{game.spec} has {n:,} secrets{kind}: the exact search may not finish for hours; "
            "--time-limit SECONDS stops it with the best tree found and a proven lower bound"
        )


def solve_optimal(
    game: Game,
    request: OptimalRequest,
    progress: ProgressLine | None = None,
    notice: Callable[[str], None] | None = None,
) -> SolvedTree:
    """The exact tree the request asks for (plan_optimal, then run_plan)."""
    return run_plan(plan_optimal(game, request, notice), progress, notice)


def run_plan(
    plan: Plan, progress: ProgressLine | None = None, notice: Callable[[str], None] | None = None
) -> SolvedTree:
    """The planned solver run: the split, the improvement of a start tree, or the one search."""
    from ..optimal import optimal_tree
    from ..optimal.solve import refine

    request = plan.request
    try:
        if plan.solver == "split":
            return split_tree(plan, progress, notice)
        if plan.solver == "start":
            start = start_tree(plan.game, request.start or "")
            return refine(plan.game, start, plan.problem.pool, request.time_limit, request.bound_levels, progress)
        return optimal_tree(plan.problem, request.time_limit, progress)
    finally:
        if progress is not None:
            progress.close()


def start_tree(game: Game, spec: str):
    """The tree of the deterministic guesser `spec`, the start of a search."""
    from agents import make_guesser

    from ..trees.grow import grow_tree

    guesser = make_guesser(spec)
    if not guesser.deterministic:
        raise ArenaError(f"--start needs a deterministic guesser, not {spec!r}")
    return grow_tree(game, guesser)


def split_tree(plan: Plan, progress: ProgressLine | None, notice: Callable[[str], None] | None) -> SolvedTree:
    """The split (arena.optimal.split): the pieces (first guess, reply class) searched by the
    workers, and the best tree put together from their subtrees, with the split's proven bound
    and effort; one ArenaError when it found no tree (nothing closed, or none within the limit)."""
    from ..optimal.split import AUTO, SplitRun, split_root
    from ..optimal.split import split_tree as tree_of
    from ..parallel import cluster as dask

    request, game = plan.request, plan.game

    def status(text: str) -> None:
        if progress is not None and progress.due():
            progress.show(text)

    run = SplitRun(
        workers=request.workers or 1,
        split_after=AUTO if request.split_after is None else request.split_after or None,
        time_limit=request.time_limit,
        journal=request.journal,
        new_journal=request.new_journal,
        standing=request.standing,
        start_tree=start_tree(game, request.start) if request.start else None,
        target=math.inf if request.target is None else float(request.target),
        status=status,
        notice=notice,
        no_worker_seconds=dask.NO_WORKER_SECONDS,
        interrupted_result=request.flags,  # the command prints what was reached, then exits 130
    )
    cluster = dask_cluster(request)
    try:
        result = split_root(plan.problem, replace(run, executor=cluster))
    finally:
        if cluster is not None:
            cluster.close()
    if result.best_guess < 0 and request.standing:
        raise ArenaError(
            f"{game.spec}: the journal {request.journal} holds no first guess solved exactly "
            f"({result.closed:,} of {len(result.openings):,} closed, proven >= {result.lower_bound:,.6g}); "
            f"give {request.named('start')} GUESSER (tree:file=TREE.json) to report that tree against what it proves"
        )
    if result.best_guess < 0 and not result.stopped and request.max_guesses is not None:
        raise ArenaError(f"{game.spec}: no tree finds every secret within {request.max_guesses} guesses")
    if result.best_guess < 0 and result.interrupted:
        raise KeyboardInterrupt(
            f"stopped before any first guess was solved ({result.closed:,} of {len(result.openings):,} closed, "
            f"proven >= {result.lower_bound:,.6g})"
            + (
                f"; run again with {request.named('journal')} FILE to keep what is closed"
                if not request.journal
                else ""
            )
        )
    if result.best_guess < 0:
        raise ArenaError(
            f"{game.spec}: no first guess was solved before the time limit "
            f"({result.closed:,} of {len(result.openings):,} closed, proven >= "
            f"{result.lower_bound:,.6g}); run again with {request.named('journal')} to resume"
        )
    return tree_of(result, request.time_limit)


def dask_cluster(request: OptimalRequest) -> Any:
    """With the dask backend: the cluster of the scheduler (the split's pieces go to its
    workers: arena.parallel.cluster), else None."""
    named = request.named
    if request.backend == "local":
        if request.scheduler:
            raise ArenaError(f"{named('scheduler')} is for {named('backend')} dask")
        return None
    from ..parallel.cluster import connect

    return connect(request.scheduler)


def optimal_json(tree: SolvedTree) -> dict:
    """The figures `arena optimal --json` prints: the tree's own (its nodes left out), the
    mean, the sets searched, the cost's total and worst where it is not guesses, the split's
    and the adversaries' figures, and the timings."""
    from ..core.costs import Guesses
    from ..games import timings

    costs = tree.costs[tree.secrets]
    return (
        {k: v for k, v in tree.to_json().items() if k not in ("root", "openings")}
        | {"mean": round(float(costs.mean()), 6), "searched": tree.searched}
        | ({} if tree.cost == Guesses.name else {"cost_total": int(costs.sum()), "cost_worst": int(costs.max())})
        | adversaries(tree)
        | tree.figures()
        | timings(tree.game, tree.seconds)
    )


def optimal_text(tree: SolvedTree, interrupted: bool = False) -> str:
    """What `arena optimal` prints before the table: the tree's report (SolvedTree.report),
    and against the adversaries where the objective is the worst case of a game without hits."""
    figures = adversaries(tree)
    if not figures:
        return tree.report(interrupted)
    unit = tree.unit
    return "\n".join(
        [
            tree.report(interrupted),
            f"adaptive chooser: the best adaptive (evil) chooser forces exactly {figures['adaptive_value']} {unit} "
            f"against the best guesser (the exact worst case above)",
            f"greedy evil chooser: forces {figures['greedy_evil_forces']} {unit} against this tree; the best "
            f"guesser against it needs {figures['fewest_against_greedy_evil']} {unit}",
        ]
    )


def adversaries(tree: SolvedTree) -> dict:
    """With objective worst on a game that commits to no secret's cost by misses (Hangman): the
    exact worst case is what the best adaptive chooser forces against the best guesser; beside
    it, what the greedy evil chooser forces against this tree, and the least any guesser needs
    against the greedy evil chooser (a search of its replies)."""
    if tree.objective != Objective.WORST or tree.game.rules.hits or not tree.exact:
        return {}
    from agents import make_chooser

    from ..optimal.against import conceded, fewest_against

    evil = make_chooser("evil")
    forced = max(conceded(tree.game, root, evil, tree.cost) for root in tree.roots)
    least = max(fewest_against(tree.game, evil, root.candidates, tree.cost).value for root in tree.roots)
    return {
        "adaptive_value": int(tree.costs[tree.secrets].max()),
        "greedy_evil_forces": int(forced),
        "fewest_against_greedy_evil": int(least),
    }
