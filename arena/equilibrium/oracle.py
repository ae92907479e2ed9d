"""Exact values by column generation (the double oracle): the chooser's LP mix over secrets,
then the guesser's exact best response to it, until the bounds meet.

With T the trees found so far, each round

1. solves the game of the chooser (every secret, or every code type; see symmetry.py)
   against T by LP: its value U is an upper bound on the true value (the guesser can do at
   least this well with T alone), and its optimal chooser mix is q;
2. finds the guesser's exact best response t to q: its expected cost L = q . cost(t) is a
   lower bound (q holds every guesser to at least L);
3. stops when U - L <= tolerance, and otherwise adds t to T (t is new: every tree of T costs
   at least U against q, and t costs L < U).

The chooser's pure strategies are all present from the start, so only the guesser's side
grows, and the loop ends after finitely many rounds with U = L = the value. The answer pairs
the guesser's last LP mix (it guarantees U) with the chooser mix that reached the best L (it
guarantees L): the LP's last chooser mix is optimal against T only, not necessarily against
every tree.

Smoothing (Wentges 1997): the LP's mixes jump from corner to corner, and a best response to a
corner is both slow to find and a poor column. So the best response is taken against
alpha * q_best + (1 - alpha) * q, between the mix that reached the best lower bound so far and
the LP's. Any chooser mix gives a valid lower bound; if the tree found does not improve the LP
(q . cost(t) >= U), the next round uses q itself (alpha = 0), which guarantees progress.

A mix q often leaves secrets at probability 0. The best response is searched on q's support
alone (the same optimum on a few hundred secrets where Wordle has 2,315: response.on_support;
Hangman's letters.py), completed on the others by a greedy tree aimed at q' = (1 - eps) q + eps
* uniform (response.with_uniform, good where q puts nothing). On Wordle's LP mix (566 secrets),
120 s: 3.207 against q, where the search over every secret against q' found 3.869.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..core.costs import Guesses
from ..core.errors import ArenaError, ArenaTypeError
from ..core.game import Game
from ..optimal.problem import Objective, Pool, Problem
from ..optimal.search import STOP
from ..trees.tree import Tree
from . import flows, letters
from .columns import Columns
from .growing import grow_oracle
from .matrix import solve_matrix_game
from .pace import QUICK, SEARCH, Pace
from .payoff_matrix import PayoffMatrix
from .rational import ExactSolution, as_fractions, conceded, guaranteed, rational_strategies
from .response import (
    SOLVER,
    OnTheSplit,
    best_response,
    bounded_best_response,
    mix_problem,
    weighted_greedy_tree,
    with_uniform,
)
from .resume import Resumed, load_state, save_state, state_key
from .solution import Equilibrium, Step
from .symmetry import Symmetry, symmetry_of
from .warm_lp import WARM_CELLS, WarmLP

#: Bounds closer than this count as met (the LP itself works to about 1e-9).
TOLERANCE = 1e-7
#: How far the chooser's mix is pulled toward the best one so far before a best response.
SMOOTHING = 0.5
#: The columns a round may add besides its best response (_extra).
EXTRA = ("greedy", "worst", "flows", "closure")
#: Start each best response from the cheapest tree found so far against its mix (its cost is
#: the search's first budget); False starts from nothing (the tests compare both).
REUSE = True


@dataclass(frozen=True)
class OracleSettings:
    """How the double oracle runs (not what it solves: that is its Problem).

    `symmetry` defaults to the game's own (Mastermind: code types); `initial` trees seed the
    guesser's side; `time_limit` (seconds) stops the loop with the bounds reached so far.
    With `certify`, exact rational strategies are recovered and proven (one more exact best
    response, against the rational chooser mix itself). `progress` is told each round's bounds;
    `search_progress` (an arena.parallel.progress.ProgressLine) follows each best response's search.

    For games too big to solve (certify.py): `response_limit` (seconds) stops each best response
    there (the first, to the uniform chooser, gets a third of `time_limit` if that is more,
    unless `search_every` > 1) and goes on to the next round, each round also adding a quick
    weighted greedy tree aimed at its mix (response.weighted_greedy_tree) (a stopped search
    still gives a column and a proven lower bound), until `time_limit`; `witness` returns as
    the chooser's mix the very mix the lower bound was proven against (the round's, without
    its dust: letters.support_mix) instead of the LP's.

    `extra` names the columns each round adds besides its best response (_extra: "greedy",
    "worst", "flows", "closure": the flows' steps also try every guess at every state, Hangman's
    letters, flows.closure_guesses; () none). `split`: each best response searched by the split's workers, journaled
    (response.OnTheSplit). `state` (a file) is written after every round and resumed from where
    it exists (resume.py: its trees replayed, its lower bound only a claim until this run's first
    best response, to the mix it was proven against, proves it again). `search_every` K > 1: the
    search runs every K-th round, and the rounds between add only the weighted greedy trees
    (against the smoothed mix a search would answer, and the "greedy" extra): on Wordle 14 s a
    round where a search stopped after 2 s took 30 s (its seed trees and root bound), and its
    tree was the greedy one (_quick_round); the upper end falls by more a second, the lower end
    only in the rounds that search. `search_every="auto"`: the kind of round whose last one
    lowered the upper end faster a second (pace.py)."""

    symmetry: Symmetry | None = None
    tolerance: float = TOLERANCE
    time_limit: float | None = None
    initial: Sequence[Tree] = ()
    certify: bool = True
    smoothing: float = SMOOTHING
    progress: Callable[[Step], None] | None = None
    search_progress: Any = None
    response_limit: float | None = None
    witness: bool = False
    state: str | Path | None = None
    extra: tuple[str, ...] = ("greedy", "flows")
    split: OnTheSplit | None = None
    search_every: int | str = 1


@dataclass
class _Loop:
    """The double oracle's state between rounds: the trees and their LP (its solution, value
    `upper` and chooser mix `q` over rows), the best lower bound and the mix that reached it,
    the uniform chooser's value once known, and what each round recorded."""

    problem: Problem
    settings: OracleSettings
    symmetry: Symmetry
    columns: Columns
    start: float
    q: np.ndarray
    best_q: np.ndarray
    best_mix: np.ndarray
    lower: float = -np.inf
    upper: float = np.inf
    uniform_value: float | None = None
    solution: Any = None
    alpha: float = 0.0  # no smoothing until there is a best mix to pull toward
    stops: int = 0  # best responses stopped by a time limit
    worst: int = 0  # the best responses to the worst secrets (settings.extra), beside the rounds'
    quick: int = 0  # the rounds that searched nothing (settings.search_every)
    stopped: bool = False  # the last best response was stopped
    settled: bool = False
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    resumed: Resumed | None = None  # the state this run went on from
    flow_steps: flows.FlowSteps = field(default_factory=flows.FlowSteps)  # settings.extra's "flows"
    pace: Pace = field(default_factory=Pace)  # what each kind of round gained (search_every "auto")
    kind: str = SEARCH  # the kind of the round running (pace.py)
    warm: WarmLP | None = None  # the LP kept between rounds, once the game is big (warm_lp.py)

    def save(self) -> None:
        """The state after a round, where the settings name a file (resume.py): what an earlier
        session claimed is kept until this run proves more."""
        path, earlier = self.settings.state, self.resumed
        if path is None:
            return
        lower, rows = (None if self.lower == -np.inf else self.lower), self.best_q
        if (
            earlier is not None
            and earlier.claimed_lower is not None
            and (lower is None or earlier.claimed_lower > lower)
        ):
            lower, rows = earlier.claimed_lower, earlier.best_rows
        uniform = self.uniform_value
        if uniform is None and earlier is not None:
            uniform = earlier.claimed_uniform
        before = (earlier.rounds, earlier.seconds) if earlier is not None else (0, 0.0)
        key = state_key(self.problem.game, self.problem.cost.name, self.symmetry)
        progress = (before[0] + len(self.steps), before[1] + time.perf_counter() - self.start)
        playing = () if self.solution is None else np.flatnonzero(self.solution.column > 0).tolist()
        save_state(path, key, self.columns.encode(playing), rows, (lower, uniform), progress)

    def solve_lp(self) -> None:
        A = self.columns.payoff().A
        if self.warm is None and A.size >= WARM_CELLS:  # a big game: its LP kept between rounds
            self.warm = WarmLP(A.shape[0])
        self.solution = solve_matrix_game(A) if self.warm is None else self.warm.solve(A, stop=self.out_of_time)
        self.q, self.upper = self.solution.row, self.solution.value

    def out_of_time(self) -> bool:
        """Has the run been asked to stop (Ctrl-C under a time limit), or its time limit passed?
        A warm LP is cancelled then, the last round's mixes answering (warm_lp.py)."""
        limit = self.settings.time_limit
        return STOP.asked or (limit is not None and time.perf_counter() - self.start > limit)


def double_oracle(problem: Problem | Game, settings: OracleSettings | None = None, **given: Any) -> Equilibrium:
    """The equilibrium of the whole game (every secret against every guesser tree): `problem`
    is the game and the payoff (its cost, arena.core.costs: default the game's own; Hangman also
    guesses or lost), each best response's problem weighted by the chooser's mix; `settings`
    how the loop runs (OracleSettings). A game may stand for the problem, with `cost` and the
    settings given as keywords: `double_oracle(game, time_limit=60, cost="misses")`."""
    problem, settings = oracle_args(problem, settings, given)
    game, paid = problem.game, problem.cost
    symmetry = symmetry_of(game) if settings.symmetry is None else settings.symmetry
    if letters.SUPPORT and letters.fits(game, paid) and not letters.searchable(game) and symmetry.trivial:
        # a long Hangman list: the rows grow from the hardest words (growing.py), and no search
        # over every word against the uniform chooser
        return grow_oracle(
            problem,
            settings.time_limit,
            settings.tolerance,
            tuple(settings.initial),
            settings.smoothing,
            settings.progress,
            settings.state,
            settings.extra,
        )
    n = len(game.secrets)
    uniform = np.full(n, 1.0 / n)
    q = symmetry.gather(uniform)  # the chooser's mix over rows: the first best response is to the uniform chooser
    loop = _Loop(problem, settings, symmetry, Columns(symmetry, paid), time.perf_counter(), q, q, symmetry.spread(q))
    loop.flow_steps.closure = "closure" in settings.extra
    # the first best response is to the uniform chooser (its value is reported beside the game's),
    # also when initial trees give the LP a mix of its own; resumed, to the mix the state's
    # lower bound was proven against, which proves it again
    first: np.ndarray | None = _resume(loop) if settings.state is not None else None
    if first is None:
        first = symmetry.gather(uniform)
    for tree in settings.initial:
        loop.columns.add(tree)
    if loop.columns.trees:
        loop.solve_lp()
    while True:
        began, before = time.perf_counter(), loop.upper
        done = _round(loop, first, uniform)
        loop.pace.record(loop.kind, before - loop.upper, time.perf_counter() - began)
        loop.save()
        if done:
            return _equilibrium(loop)
        first = None


def _resume(loop: _Loop) -> np.ndarray | None:
    """Take in the state file's trees, if it exists (checked: resume.load_state), and say so in a
    note; the mix over rows the first best response is to (None: a fresh run)."""
    problem, path = loop.problem, loop.settings.state
    assert path is not None
    resumed = loop.resumed = load_state(path, problem.game, problem.cost.name, loop.symmetry)
    if resumed is None:
        return None
    for tree in resumed.trees:
        loop.columns.add(tree)
    claim = (
        f"; its lower end {resumed.claimed_lower:.6f} is its claim, proven again only by this run's "
        "first best response (to the mix it was proven against)"
        if resumed.claimed_lower is not None
        else ""
    )
    loop.notes.append(
        f"resumed from {path}: {len(resumed.trees)} trees replayed on every secret, after {resumed.rounds} "
        f"rounds and {resumed.seconds:.0f} s{claim}"
    )
    loop.best_q = resumed.best_rows
    return resumed.best_rows


def oracle_args(
    problem: Problem | Game, settings: OracleSettings | None, given: dict
) -> tuple[Problem, OracleSettings]:
    """double_oracle's problem and settings, from a Problem and OracleSettings or a game and keywords."""
    if settings is not None and not isinstance(settings, OracleSettings):
        raise ArenaTypeError(f"settings must be OracleSettings (give a symmetry as symmetry=...), got {settings!r:.60}")
    if not isinstance(problem, Problem):
        problem = Problem.of(problem, cost=given.pop("cost", None))
    elif "cost" in given:
        raise ArenaError("cost: a Problem carries its own cost (Problem.of takes it)")
    whole = len(problem.secrets) == len(problem.game.secrets) and problem.max_guesses is None
    if problem.objective != Objective.AVERAGE or problem.openers or problem.pool != Pool.ALL or not whole:
        raise ArenaError(
            "the double oracle solves the whole game: every secret against every tree (a problem of "
            "the average over all guesses, no limit, no openers)"
        )
    settings = replace(settings or OracleSettings(), **given)
    extra = settings.extra
    if not isinstance(extra, (tuple, list)) or not all(isinstance(k, str) and k in EXTRA for k in extra):
        raise ArenaError(f"extra: {settings.extra!r:.60} is not a tuple of {', '.join(EXTRA)}")
    if "closure" in extra and "flows" not in extra:
        raise ArenaError(
            "extra: closure is a kind of flows step (every guess tried at every state): give it with flows"
        )
    every = settings.search_every
    if every != "auto" and (isinstance(every, bool) or not isinstance(every, int) or every < 1):
        raise ArenaError(
            f"search_every: {every!r:.60} is not a number of rounds, 1 or more (1: search every round), or 'auto'"
        )
    return problem, settings


def _response_time(loop: _Loop) -> float | None:
    """The time the next best response may take (None: no limit)."""
    settings = loop.settings
    time_limit, response_limit = settings.time_limit, settings.response_limit
    left = None if time_limit is None else max(time_limit - (time.perf_counter() - loop.start), 1e-3)
    if response_limit is not None:
        # the first response, to the uniform chooser, usually proves the best lower end: a third of
        # the time, unless the run asked for its time to go to the upper end (search_every K > 1 or
        # "auto", whose rates a third of the time in one search would skew), or goes on from a
        # state, whose first response proves again a lower end the state already claims (a third
        # of a 1,500 s Wordle run went to it, and the fold of the uniform optimum beat it anyway)
        first = not loop.steps and settings.search_every == 1 and loop.resumed is None
        limit = max(response_limit, time_limit / 3) if first and time_limit is not None else response_limit
        left = limit if left is None else min(left, limit)
    return left


def _round(loop: _Loop, first: np.ndarray | None, uniform: np.ndarray) -> bool:
    """One round: the best response to the (smoothed) chooser's mix, its tree added and the LP
    solved again; True when the loop ends (the bounds met, the memory or time ran out)."""
    settings, symmetry, columns, game, paid = (
        loop.settings,
        loop.symmetry,
        loop.columns,
        loop.problem.game,
        loop.problem.cost,
    )
    every = settings.search_every
    loop.kind = SEARCH
    if first is None and (loop.pace.next_quick() if isinstance(every, str) else len(loop.steps) % every):
        quick = _quick_round(loop, uniform)
        if quick is not None:
            loop.kind = QUICK
            return quick
    target = first if first is not None else _smoothed(loop)
    own = first is None and loop.alpha == 0  # a best response to the LP's own mix
    mix = _blended(loop, target)
    # the time limit reaches into the best response: a stopped one still gives a tree (a
    # column, so the upper bound stays valid) and a proven lower bound for this mix
    begun = time.perf_counter()
    left = _response_time(loop)
    # a game too big to search: a quick weighted greedy tree aimed at this mix, as a column of its
    # own and as the search's starting tree (the search stopped after seconds rarely beats it)
    quick = (
        settings.response_limit is not None
        and game.rules.hits
        and paid == Guesses()
        and (loop.solution is None or columns.room_for_another())
        and columns.add(weighted_greedy_tree(game, mix))
    )
    if left is not None:  # the quick tree is part of the response's time (Jotto: 4 s of a round)
        left = max(left - (time.perf_counter() - begun), 1e-3)
    if letters.SUPPORT and (letters.fits(game, paid) or game.rules.hits):
        # searched on the mix's support alone (letters.py; response.on_support): the completion
        # plays the other secrets, and the bound is proven for the mix searched
        mix = letters.support_mix(symmetry.spread(target))
    problem = mix_problem(game, mix, paid)
    start = columns.cheapest(mix) if REUSE else None
    tree, bound = bounded_best_response(problem, left, settings.search_progress, start, settings.split)
    # the response was not proven best: the time limit stopped its search (a finished search
    # is exact, up to the misses cost's tie tolerance, arena/optimal/search/)
    stopped = loop.stopped = tree.stopped
    loop.stops += stopped
    if not stopped and loop.uniform_value is None and np.allclose(symmetry.spread(target), uniform, rtol=0, atol=1e-15):
        loop.uniform_value = bound
    if bound > loop.lower:
        loop.lower, loop.best_q, loop.best_mix = bound, target, mix
    improves = loop.solution is None or _improves(loop, tree)
    full = loop.solution is not None and not columns.room_for_another()
    new = (not full and columns.add(tree)) or bool(quick)
    if new:
        loop.solve_lp()
    new = _extra(loop, uniform) or new
    _record(loop)
    # a best response to the LP's own mix that does not beat U proves U to within the
    # tolerance (up to eps, which the lower bound carries)
    loop.settled = loop.upper - loop.lower <= settings.tolerance or (own and not improves and not stopped)
    if loop.settled:
        return True
    loop.alpha = settings.smoothing if improves else 0.0
    return _stops(loop, full, stopped and (settings.response_limit is None or (own and not new)))


def _quick_round(loop: _Loop, uniform: np.ndarray) -> bool | None:
    """A round that searches nothing (settings.search_every): the weighted greedy tree against
    the mix a search would answer (smoothed as in _round), and the extra greedy tree, added and
    the LP solved again, once for both (on Wordle an LP is 25 s of a 71 s round: the extra tree
    is aimed by the LP before this round); what _round returns, or None where the game has no
    greedy tree or neither tree is new (then the round searches: the search guarantees progress)."""
    settings, columns, game = loop.settings, loop.columns, loop.problem.game
    if not (game.rules.hits and loop.problem.cost == Guesses()) or not columns.room_for_another():
        return None
    # the mix a search would answer (smoothed: a greedy tree against the LP's corner is a poor column)
    tree = weighted_greedy_tree(game, _blended(loop, _smoothed(loop)))
    improves = _improves(loop, tree)
    added = columns.add(tree)
    loop.alpha = settings.smoothing if improves else 0.0
    extra = _extra(loop, uniform, search=False)  # the LP solved with every tree added, if it added one
    if not (extra or added):
        return None
    if not extra:
        loop.solve_lp()
    loop.quick += 1
    _record(loop)
    loop.settled = loop.upper - loop.lower <= settings.tolerance
    return loop.settled or _stops(loop, False, False)


def _smoothed(loop: _Loop) -> np.ndarray:
    """The chooser's mix (over rows) a round answers: the LP's, pulled by `alpha` toward the mix
    of the best lower end (settings.smoothing)."""
    return loop.alpha * loop.best_q + (1 - loop.alpha) * loop.q


def _blended(loop: _Loop, target: np.ndarray) -> np.ndarray:
    """What a round's greedy trees aim at: `target` (over rows) spread, with_uniform (module docstring)."""
    return with_uniform(loop.symmetry.spread(target))


def _improves(loop: _Loop, tree: Tree) -> bool:
    """Does `tree` cost less than the LP's value U against the LP's chooser mix (a new column
    the LP can use)?"""
    paid = loop.symmetry.averages(loop.problem.cost.of(tree))[0]
    return float(loop.q @ paid) < loop.upper - loop.settings.tolerance


def _record(loop: _Loop) -> None:
    """The bounds after a round, kept and told to `progress`."""
    loop.steps.append(Step(loop.lower, loop.upper, time.perf_counter() - loop.start, len(loop.columns.trees)))
    if loop.settings.progress:
        loop.settings.progress(loop.steps[-1])


def _extra(loop: _Loop, uniform: np.ndarray, search: bool = True) -> bool:
    """More columns in a round (settings.extra): "worst", the best response to the secrets the
    guesser's LP mix concedes most on, each equally likely (a tree aimed at every secret tied
    at the top at once); "greedy", the weighted greedy tree against that mix; "flows", now and
    then, trees drawn from the guesser that randomises at every state (flows.py), and a greedy
    one against its duals' mix. "worst"'s best response proves a lower bound too (`search`:
    False leaves it out, in a round that searches nothing). True if a column was added.

    Measured (experiments/game_values.md): "greedy" takes Mastermind 4x5 from 11 rounds to 9
    (10 s to 7.5), 3x6 from 11 to 9; "worst" cuts the rounds further but doubles the searching."""
    settings, symmetry, columns, game = loop.settings, loop.symmetry, loop.columns, loop.problem.game
    if not settings.extra or loop.solution is None:
        return False
    played = loop.solution.column  # the last LP's mix: trees added since it are played by none
    conceded = columns.payoff().A[:, : len(played)] @ played
    worst = (conceded >= conceded.max() - settings.tolerance).astype(np.float64) * symmetry.sizes
    mix = _blended(loop, worst / worst.sum())
    added, room = False, columns.room_for_another
    for kind in settings.extra:
        if not room():
            break
        if kind == "flows":  # flows.py: trees drawn from a guesser that mixes at every state
            elapsed = time.perf_counter() - loop.start
            left = settings.time_limit and settings.time_limit - elapsed
            took = loop.flow_steps.take(game, loop.problem.cost, columns.trees, columns.add, elapsed, left, room)
            aim = loop.flow_steps.aim()
            if aim is not None and game.rules.hits and room():  # new states for the next step
                took = columns.add(weighted_greedy_tree(game, with_uniform(aim))) or took
            added = took or added
            continue
        if kind == "greedy":  # it estimates guesses to go from each hit-ended class (response.py)
            if game.rules.hits and loop.problem.cost == Guesses():
                added = columns.add(weighted_greedy_tree(game, mix)) or added
            continue
        if not search:
            continue
        tree, bound = bounded_best_response(
            mix_problem(game, mix, loop.problem.cost), _response_time(loop), split=settings.split
        )
        loop.worst += 1
        if bound > loop.lower:
            loop.lower, loop.best_q, loop.best_mix = bound, worst / worst.sum(), mix
        added = columns.add(tree) or added
    if added:
        loop.solve_lp()
    return added


def _stops(loop: _Loop, full: bool, stopped: bool) -> bool:
    """Does the loop end before its bounds meet (the LP would outgrow the memory, the time
    limit passed, Ctrl-C, or a stopped best response that gave nothing new)? Then a note says why."""
    time_limit, response_limit = loop.settings.time_limit, loop.settings.response_limit
    if full:
        loop.notes.append(
            f"stopped, not converged: one more tree would take the LP over the memory limit "
            f"({len(loop.columns.trees):,} trees; set ARENA_MEMORY_LIMIT to allow more)"
        )
        return True
    over = time_limit is not None and time.perf_counter() - loop.start > time_limit
    if STOP.asked or over or stopped:
        which = f"{time_limit:g} s" if over or response_limit is None else f"{response_limit:g} s a best response"
        loop.notes.append(
            # no gap here: bounds folded in later narrow it (the report's bounds line says it)
            f"{'stopped by Ctrl-C' if STOP.asked else f'stopped at the time limit ({which})'}, not converged: "
            "the value lies between the bounds"
        )
        return True
    return False


def _responses(loop: _Loop) -> str:
    """How many best responses the loop searched, how many a time limit stopped, and how many
    rounds searched nothing (search_every)."""
    steps, stops = len(loop.steps) - loop.quick, loop.stops
    quick = f", and {loop.quick} rounds of greedy trees only" if loop.quick else ""
    if not stops:
        return f"{steps} exact best responses{quick}"
    if steps == 1:
        return f"1 best response, stopped by the time limit{quick}"
    if stops == steps:
        return f"{steps} best responses, each stopped by the time limit{quick}"
    if stops == 1 and loop.stopped:
        return f"{steps} best responses (the last stopped by the time limit, the others exact){quick}"
    return f"{steps} best responses ({stops} stopped by the time limit, the others exact){quick}"


def _equilibrium(loop: _Loop) -> Equilibrium:
    """The loop's result: certified where asked and settled in time, the guesser's LP mix
    with the chooser's best mix, and the method and notes in words."""
    settings, symmetry, solution, game = loop.settings, loop.symmetry, loop.solution, loop.problem.game
    time_limit, paid, notes = settings.time_limit, loop.problem.cost, loop.notes
    assert solution is not None  # the loop solves the LP at least once
    exact = None
    late = STOP.asked or time_limit is not None and time.perf_counter() - loop.start > time_limit
    if loop.settled and settings.certify and late:
        why = "Ctrl-C stopped the run" if STOP.asked else "the time limit passed"
        notes.append(f"not certified: {why} before the exact check")
    elif loop.settled and settings.certify:
        exact, note = _exact(loop.problem, symmetry, loop.columns.payoff(), loop.best_q, solution.column)
        notes.append(note)
    solver = letters.SOLVER if letters.SUPPORT and letters.fits(game, paid) else SOLVER
    mixes = "HiGHS mixes (the LP warm-started between rounds)" if loop.warm else "linprog (HiGHS) mixes"
    method = f"double oracle: {_responses(loop)} ({solver}) against {mixes}"
    if loop.worst:
        method += f", and {loop.worst} to the secrets the guesser's mix concedes most on"
    if not symmetry.trivial:
        method += f", over {len(symmetry.labels)} code types ({symmetry.group})"
    played = np.flatnonzero(solution.column > 0)
    if exact is not None:
        exact = ExactSolution(exact.value, exact.row, tuple(exact.column[k] for k in played))
    if loop.warm is not None and loop.warm.cancelled:
        notes.append(
            "the last LP was cancelled by the stop (Ctrl-C or the time limit): the mixes are the round "
            "before's, the trees found since played by none (they are in the state for a resumed run)"
        )
    flow_note = loop.flow_steps.note()
    if flow_note:
        notes.append(flow_note)
    if settings.witness:
        notes.append("the chooser's mix is the one the lower bound is proven against (the round's, without its dust)")
    return Equilibrium(
        game,
        method,
        loop.upper if loop.settled else (loop.lower + loop.upper) / 2,
        loop.lower,
        loop.upper,
        loop.best_mix if settings.witness else symmetry.spread(loop.best_q),
        tuple(loop.columns.trees[k] for k in played),
        solution.column[played],
        symmetry,
        time.perf_counter() - loop.start,
        exact,
        loop.uniform_value,
        tuple(loop.steps),
        tuple(notes),
        paid.name,
    )


def _exact(
    problem: Problem, symmetry: Symmetry, payoff: PayoffMatrix, q: np.ndarray, y: np.ndarray
) -> tuple[ExactSolution | None, str]:
    """Rational strategies near the chooser's q and the guesser's y, proven optimal.

    The guesser's y concedes max_O (A y)_O: every strategy of the chooser is a row, so exact
    arithmetic over the rows proves it. The chooser's q is checked against the trees found,
    then against every tree by one more exact best response to q itself."""
    A = as_fractions(payoff.totals, payoff.sizes)
    negated = [[-a for a in col] for col in zip(*A)]  # the chooser's mix is a column strategy of -A^T
    for z in rational_strategies(A, y):
        top = conceded(A, z)
        for x in rational_strategies(negated, q):
            if guaranteed(A, x) != top:
                continue
            game, paid = problem.game, problem.cost
            tree = best_response(mix_problem(game, symmetry.spread(np.array([float(v) for v in x])), paid))
            totals = symmetry.totals(paid.of(tree))[0]
            needed = sum(xi * Fraction(int(t), int(size)) for xi, t, size in zip(x, totals, payoff.sizes))
            if needed == top:
                return ExactSolution(top, tuple(x), tuple(z)), (
                    f"exact: the rational guesser mix concedes {top} against every secret, and the best "
                    f"response to the rational chooser mix needs {needed} {paid.unit} on average"
                )
            return None, (
                f"not exact: the rational chooser mix holds the guesser to {needed} only, "
                f"while the rational guesser mix concedes {top}"
            )
    return None, "not exact: no rational strategies near the LP's check out"
