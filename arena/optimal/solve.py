"""`optimal_tree`: the strategy tree of least expected guesses, as a SolvedTree (solved.py).

The search itself is the package search/ (branch and bound), its bounds in bounds.py; the
symmetries are the game's (`game.symmetry()`). This module takes a Problem (problem.py: the
arguments checked once), chooses the depth for `objective="worst"`, seeds a time-limited
search with the best greedy tree, and turns the search's cache into a tree (growing.py; with
the value and the proven lower bound beside it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ..core import checks as door
from ..core.costs import Cost, Guesses
from ..core.errors import ArenaError
from ..core.game import Game, Index, Indexes
from ..core.resources import check_memory
from ..parallel.progress import ProgressLine
from ..trees.grow import Hooks, Spot, grow
from ..trees.tree import Node, Tree
from .bounds import INF, min_depth
from .fewest import Fewest, fewest_tree
from .growing import Path, fitting_tree, tree_from_search
from .params import agent_spec
from .pilot import pilot_tree
from .problem import Objective, Pool, Problem
from .search import NO_LIMIT, STOP, Search, Timeout
from .search.small_trees import SMALL_TREE
from .seeds import best_seed, greedy_trees, incumbent_value
from .solved import SolvedTree, at_worst

POOLS = tuple(p.value for p in Pool)
OBJECTIVES = tuple(o.value for o in Objective)
#: Greedy guessers whose trees seed a time-limited search (the best one is the first incumbent).
SEED_METRICS = ("entropy", "expected", "most-parts", "minimax")


def optimal_tree(
    problem: Problem | Game,
    time_limit: float | None = None,
    progress: ProgressLine | None = None,
    incumbent: Tree | None = None,
    **given: Any,
) -> SolvedTree:
    """The decision tree minimising sum_s w_s x cost(s) over the problem's secrets: `problem` is
    a Problem (problem.py: the game, secrets, weights, pool, objective, cost, guess limit and
    openers, checked when built), or a game with those given as keywords (`Problem.of`'s:
    `optimal_tree(game, pool="consistent")` is `optimal_tree(Problem.of(game, pool="consistent"))`).

    cost: what a secret costs (arena.core.costs): the guesses to find it (Jotto, Mastermind), or on
    a game that ends when the secret is determined (Hangman) its own cost, the misses, or
    "guesses" (letters until determined) or "lost" (1 if the misses reach the strikes).
    weights: one per secret covered (or of the whole game), >= 0; default all equal, when
    the value is the total cost. pool: "all" guesses or only "consistent" ones (that may still
    be the secret; Hangman: letters that may be in the word). objective: "average" (the
    weighted total) or "worst" (the least cost in the worst case, then the least total among
    such trees). max_guesses=K: the best total among trees that never cost more than K (Hangman:
    K misses). openers: fixed first guesses (indexes or words), played whatever the replies, as
    the guessers' `openers=` are: the tree is the best one that opens with them, each class they
    leave solved exactly by one search (one cache), and `lower_bound` bounds the trees that
    open so (with the time limit, classes not finished keep their best greedy subtree).

    time_limit (seconds): stop the search and return the best tree found (at worst the best
    greedy tree) with `lower_bound` < `value` unless it was proven optimal. The tree's guesser
    is named as the `optimal` agent's spec. A game that tells the guesser something first
    (Hangman: the word's length) is solved opening by opening, one root each. progress: a
    ProgressLine to keep up to date (sets explored, best so far, proven bound). incumbent: a
    tree known before the search (the double oracle's best column so far): each root it covers
    is searched with its cost as the budget, and it is kept where nothing cheaper exists; the
    value is the same, found sooner.
    """
    start = time.perf_counter()
    problem = as_problem(problem, given)
    time_limit = door.seconds(time_limit)
    run = Run(None if time_limit is None else start + time_limit, time_limit is not None, progress, incumbent)
    run.sym, run.label = problem.symmetry(), problem.label()
    game, paid, w, S = problem.game, problem.cost, problem.weights, problem.secrets
    found = [solve_opening(problem, run, opening, part) for opening, part in game.openings(S)]
    costs = np.zeros((2, len(game.secrets)), dtype=np.int64)
    for (_, part), one in zip(game.openings(S), found):
        costs[:, part] = one.costs[:, part]
    values = [float(paid_cost(paid, costs[:, part]) @ w[part]) for _, part in game.openings(S)]
    value = sum(values) * problem.unit
    return SolvedTree(
        game,
        run.label,
        [one.root for one in found if one.root is not None],  # an opening of one word needs no guess
        costs[0],
        costs[1],
        covered=np.sort(S),
        value=value,
        lower_bound=min(sum(min(one.lower, v) for one, v in zip(found, values)) * problem.unit, value),
        seconds=time.perf_counter() - start,
        searched=sum(one.nodes for one in found),
        depth_bound=max([one.depth_bound for one in found], default=0),
        time_limit=time_limit,
        stopped=any(one.stopped for one in found),
        cost=paid.name,
        openers=problem.opener_words,
        weighted=problem.weighted,
        objective=problem.objective,
        at_worst_bound=sum(one.at_worst_bound for one in found),
    )


def as_problem(problem: Problem | Game, given: dict) -> Problem:
    """`problem` itself, or the Problem of a game and the keywords `given` (Problem.of's)."""
    if isinstance(problem, Problem):
        if given:
            raise ArenaError(f"{', '.join(given)}: a Problem carries its own settings (Problem.of takes them)")
        return problem
    return Problem.of(problem, **given)


@dataclass
class Run:
    """How one `optimal_tree` call searches (not what: that is its Problem): the deadline,
    whether a time limit was given, the progress line, an incumbent tree, and the symmetry and
    guesser label worked out once for all openings."""

    deadline: float | None
    timed: bool
    progress: ProgressLine | None
    incumbent: Tree | None
    sym: Any = None
    label: str = ""


@dataclass
class Found:
    """One opening's result: its root, each secret's (guesses, misses), the proven lower bound,
    the proven worst case and the search's effort."""

    root: Node | None
    costs: np.ndarray
    lower: float
    depth_bound: int
    nodes: int
    stopped: bool
    at_worst_bound: int = 0  # objective fewest-at-worst: the secrets at the worst case, a proven lower bound


def solve_opening(problem: Problem, run: Run, opening: str, part: Indexes) -> Found:
    """The best tree for the secrets `part` of one opening (objective worst: the least worst
    case first, then the least total among such trees)."""
    if problem.objective == Objective.FEWEST_AT_WORST:
        return solve_fewest(problem, run, opening, part)
    game, w, pool, paid = problem.game, problem.weights, problem.pool, problem.cost
    limit, bound, prover = problem.max_guesses, 0, None
    if problem.objective == Objective.WORST:
        try:
            limit, prover = least_depth(problem, part, run.sym, run.deadline)
            bound = limit
        except Timeout:  # the search below times out at once and returns the best greedy tree
            pass
    elif limit is not None and not problem.openers:
        prover = within_limit(problem, part, run.sym, run.deadline)
    check_search_memory(game, part, pool)
    search = problem.search(max_guesses=limit, symmetry=run.sym, deadline=run.deadline)
    watch(search, run.progress, problem.unit)
    if problem.openers:
        root, tree_costs, lower = search_opened(search, part, problem.openers, opening, paid, run.timed)
    else:
        seed = seed_tree(game, part, w, pool, limit, paid) if run.timed else None
        if seed is None and prover is not None and run.timed:
            seed = fitting_tree(
                prover, part, cast(int, limit), opening, run.label
            )  # no greedy tree is within the limit
        seed = cheaper_tree(seed, known_tree(run.incumbent, part, limit, paid), w, paid, part)
        root, tree_costs, lower = search_below(search, part, seed, opening, paid)
    depth_bound = bound or search.bounds.least_depth(len(part))
    return Found(root, tree_costs, lower, depth_bound, search.stats.nodes, search.timed_out)


def solve_fewest(problem: Problem, run: Run, opening: str, part: Indexes) -> Found:
    """Objective fewest-at-worst (fewest.py): the least worst case D (least_depth), then the
    fewest secrets at D and the least total among such trees, by one search under the limit D
    that starts from the best greedy tree within D (else, under a time limit, the tree the
    depth proof holds: reading it back costs more than the search on Mastermind 4x5), or the
    pilot's tree where it has fewer secrets at D (pilot.py: Bulls and Cows 59 against 87).
    Stopped before D is proven, the best greedy tree by the same keys, proving nothing more
    than the slot bound of the worst case."""
    game, pool = problem.game, problem.pool
    greedy = min(  # by the objective's keys: the worst case, the secrets needing it, the total
        greedy_trees(game, part, pool, SEED_METRICS),
        key=lambda t: (*at_worst(t.guesses, part), int(t.guesses[part].sum())),
    )
    try:
        depth, prover = least_depth(problem, part, run.sym, run.deadline)
    except Timeout:
        least = problem.search(max_guesses=None, symmetry=run.sym).bounds.least_depth(len(part))
        return Found(*incumbent_part(greedy, part), 0.0, least, 0, True, 1)
    check_search_memory(game, part, pool)
    search = problem.search(max_guesses=depth, symmetry=run.sym, deadline=run.deadline)
    search.compiled_below = SMALL_TREE  # small classes' depth checks by the compiled search (4x6: 2x faster)
    search.fit_cache = prover.fit_cache  # what proved D (fits does not depend on the search's limit)
    watch(search, run.progress, problem.unit)
    seed = None
    if greedy.guesses[part].max() <= depth:  # then no greedy tree is better by the three keys
        seed = incumbent_part(greedy, part)
    elif run.timed:
        seed = incumbent_part(fitting_tree(prover, part, depth, opening, run.label), part)
    counting = Fewest(search, depth, len(part), totals=False)
    seed = pilot_tree(counting, part, seed, opening)  # a far better incumbent than greedy's on Bulls and Cows
    found = fewest_tree(Fewest(search, depth, len(part)), part, seed, opening, counting)
    nodes = search.stats.nodes + found.nodes
    return Found(found.root, found.costs, found.total_bound, depth, nodes, search.timed_out, found.count_bound)


def paid_cost(paid: Cost, costs: np.ndarray) -> np.ndarray:
    """The cost `paid` of each secret, from its (guesses, misses) rows."""
    return paid.of_rows(costs[0], costs[1])


def check_search_memory(game: Game, S: Indexes, pool: Pool) -> None:
    """Refuse, before searching, a root whose guesses cannot even be scored within the memory
    limit: the partition counts gather a (secrets x guesses) block of replies as intp, then
    offset and count it (about three such arrays at once)."""
    guesses = len(game.guesses_naming(S)) if pool == Pool.CONSISTENT else len(game.all_guesses)
    check_memory(
        3 * len(S) * guesses * np.dtype(np.intp).itemsize,
        f"scoring {guesses:,} guesses on the {len(S):,} secrets of {game.spec}",
    )


def watch(search: Search, progress: ProgressLine | None, unit: float = 1.0) -> None:
    """Keep `progress` up to date from the search: sets explored, the best cost found so far
    (the incumbent's until the search beats it), the proven lower bound, the time."""
    if progress is None or not progress.enabled:
        return

    def report(s: Search) -> None:
        if not progress.due():
            return
        best = min(s.progress[0], s.incumbent)
        found = f"best {best * unit:,.6g}" if best < INF else "no tree yet"
        progress.show(
            f"{s.stats.nodes:,} sets explored, {found}, proven >= {s.root_lower * unit:,.6g}, {progress.elapsed:,.0f} s"
        )

    search.report = report


@dataclass
class Incumbent:
    """A tree known before the search, for one set S: its node for S (None: S needs no
    guess), each secret's (guesses, misses) counted from the root, and what S's own subtree
    costs (the search's units: what is paid from S on)."""

    root: Node | None
    costs: np.ndarray
    value: float


def incumbent_part(tree: Tree, S: Indexes) -> tuple[Node | None, np.ndarray]:
    """The incumbent's root for the secrets S (one opening; None if it needs no guess), and
    its (guesses, misses) rows."""
    root = next((r for r in tree.roots if np.array_equal(np.sort(r.candidates), S)), None)
    return root, np.array([tree.guesses, tree.misses], dtype=np.int64)


def whole_incumbent(tree: Tree | None, w: np.ndarray, paid: Cost, S: Indexes) -> Incumbent | None:
    """A tree whose roots cover S, as the incumbent of a search from the root."""
    if tree is None:
        return None
    return Incumbent(*incumbent_part(tree, S), incumbent_value(tree, w, paid, S))


def search_below(
    search: Search,
    S: Indexes,
    incumbent: Tree | Incumbent | None,
    opening: str = "",
    paid: Cost | None = None,
    path: Path | None = None,
) -> tuple[Node | None, np.ndarray, float]:
    """The root of the best tree the search finds for S, cheaper than the incumbent (if any),
    each secret's (guesses, misses) under it, and a proven lower bound on the optimum: the
    optimum itself unless the time limit stopped the search. `paid` is the cost the search
    counts (default: guesses); `path` where S is met (default: the root, nothing seen yet),
    and then the value and the bound are what S's subtree costs."""
    game = search.game
    paid = paid or Guesses()
    if isinstance(incumbent, Tree):
        incumbent = whole_incumbent(incumbent, search.w, paid, S)
    path = path or Path(sym=search.symmetry)
    sym, left, allowed = path.sym, search.limit if path.left is None else path.left, path.allowed
    budget = INF if incumbent is None else incumbent.value
    search.root_key = search.key(S, left, allowed)
    search.incumbent = budget
    search.progress = (INF, -1)
    try:
        value = search.solve(S, budget, left, sym, allowed)
        if value == INF:
            raise ArenaError(f"{game.spec}: no tree finds every secret within {search.limit} guesses")
        if value < budget:
            return (*tree_from_search(search, S, opening, path=path), value)
        assert incumbent is not None  # the budget is finite only with one
        return incumbent.root, incumbent.costs, budget  # nothing beats the incumbent
    except Timeout:
        search.timed_out = True
        best, guess = search.progress
        if guess >= 0 and best < budget:
            return (
                *tree_from_search(search, S, opening, guess, path),
                min(search.root_bound(S, sym, left, allowed), best),
            )
        if incumbent is None:
            raise ArenaError(
                f"{game.spec}: no tree within {search.limit} guesses found before the time limit"
            ) from None
        return incumbent.root, incumbent.costs, min(search.root_bound(S, sym, left, allowed), budget)


def search_opened(
    search: Search, S: Indexes, openers: Sequence[Index], opening: str, paid: Cost, time_limited: bool
) -> tuple[Node | None, np.ndarray, float]:
    """The best tree for S whose first guesses are `openers` (each played at every node of its
    turn, as a guesser's fixed openers are): the opener nodes, then each class they leave
    solved by the one search (its cache shared by all). What the openers' own guesses cost is
    the same in every such tree, so

        proven lower bound = the tree's cost - sum over classes of (subtree cost - its bound)

    and it equals the cost when every class was solved exactly. Time-limited, each class
    starts from its best greedy subtree (solve_class); a class the limit stops keeps the
    better of its greedy subtree and the best found, with the bound proven so far
    (root_bound)."""
    game, w = search.game, search.w
    gap = 0.0

    def opener(spot: Spot) -> Index:
        guess = int(openers[spot.turn])
        reason = game.refusal(guess, list(spot.moves))
        if reason:  # hard mode: a fixed guess the earlier openers' replies rule out
            raise ArenaError(
                f"openers: {game.guesses[guess]} breaks the rules after {game.history_label(spot.replies)}: {reason}"
            )
        return guess

    def within_limit(spot: Spot, guess: Index, parts: dict) -> None:
        for reply in parts:
            if not game.finished(reply) and spot.left - search.step(reply) < search.bounds.least_depth(1):
                raise ArenaError(
                    f"{game.spec}: the openers use up the limit of {search.limit} "
                    f"{search.cost.unit} before every secret is found"
                )

    def solved_class(spot: Spot) -> tuple[Node | None, np.ndarray] | None:
        """Past the openers: the class goes to the search, met with the symmetry they leave."""
        nonlocal gap
        if spot.turn < len(openers):
            return None
        sym = search.symmetry
        for guess, _ in spot.moves:
            sym = None if sym is None else sym.after(guess)
        path = Path(spot.replies, spot.left, spot.missed, sym, spot.allowed)
        root, part_costs, class_gap = solve_class(search, spot.candidates, path, opening, paid, time_limited)
        gap += class_gap
        return root, part_costs

    root, costs = grow(
        game,
        Spot(S, left=search.limit),
        opener,
        opening,
        hooks=Hooks(
            check=within_limit,
            hand_over=solved_class,
            step=search.step,
            allow=lambda allowed, guess, reply, cls: search.after(allowed, guess, reply),
        ),
    )
    value = float(paid_cost(paid, costs)[S] @ w[S])
    return root, costs, value - gap


def subtree_cost(paid: Cost, costs: np.ndarray, w: np.ndarray, S: Indexes, path: Path) -> float:
    """What S's subtree costs, from each secret's (guesses, misses) counted from the root: the
    cost less what the path to S paid (guesses: its length; misses: its misses; lost games
    are counted where they happen, below S)."""
    before = paid.paid(len(path.replies), path.missed)
    return float(paid_cost(paid, costs)[S] @ w[S]) - before * float(w[S].sum())


def class_seed(
    search: Search, S: Indexes, path: Path, opening: str, paid: Cost, metrics: Sequence[str] = SEED_METRICS
) -> Incumbent | None:
    """The best greedy subtree for a class the openers leave (seed_tree, within the guesses or
    misses left), moved below the path: its nodes' replies and each secret's costs start where
    the class is met. In hard mode over every guess the greedy guessers play the consistent
    pool, which the rules always allow whatever the history (the class alone does not say
    which other guesses are)."""
    left = None if search.limit == NO_LIMIT else (search.limit if path.left is None else path.left)
    pool = Pool.CONSISTENT if search.consistent_pool or search.restricted else Pool.ALL
    tree = seed_tree(search.game, S, search.w, pool, left, paid, metrics)
    if tree is None:
        return None
    value = incumbent_value(tree, search.w, paid, S)
    root, costs = incumbent_part(tree, S)
    for node in [] if root is None else root.walk():
        node.replies, node.opening = path.replies + node.replies, opening
    costs[0, S] += len(path.replies)
    costs[1, S] += path.missed
    return Incumbent(root, costs, value)


def solve_class(
    search: Search, S: Indexes, path: Path, opening: str, paid: Cost, time_limited: bool
) -> tuple[Node | None, np.ndarray, float]:
    """One class left by the openers: its best subtree, each secret's (guesses, misses) under
    it (counted from the root), and the gap between what the subtree costs and the bound
    proven on the class (0 once the class is solved exactly). Time-limited, the class starts
    from its best greedy subtree; once the limit has passed, the class keeps the greedy subtree
    of one metric (most-parts, the best greedy tree on Jotto, Mastermind and Wordle) and its
    bound one level deep (min over guesses of the slot bounds of their classes)."""
    w = search.w
    left = search.limit if path.left is None else path.left
    incumbent = None
    if time_limited:
        late = search.deadline is not None and (STOP.asked or time.perf_counter() > search.deadline)
        incumbent = class_seed(search, S, path, opening, paid, ("most-parts",) if late else SEED_METRICS)
        if late and incumbent is not None:
            search.timed_out = True
            bound = search.known_bound(S, search.b_max, left, cached=not search.restricted)
            if search.bounds.ends_on_hit and len(S) > 1:
                scored, _, _ = search.score_guesses(S, search.pool(S, path.sym, path.allowed), left)
                bound = max(bound, float(scored.min(initial=INF)))
            return incumbent.root, incumbent.costs, incumbent.value - min(bound, incumbent.value)
    root, costs, bound = search_below(search, S, incumbent, opening, paid, path)
    value = subtree_cost(paid, costs, w, S, path)
    return root, costs, value - min(bound, value)


def refine(
    game: Game,
    tree: Tree,
    pool: Pool | str = Pool.ALL,
    time_limit: float | None = None,
    bound_levels: int = 1,
    progress: ProgressLine | None = None,
) -> SolvedTree:
    """A tree at least as good as `tree` (equal weights), and a proven lower bound on the optimum.

    With bound_levels L > 1 the best-first bound LB_L (lookahead.proven_bound) is computed first,
    in at most half the time limit; then the exact search, with the tree's total as its budget,
    runs for the rest. The lower bound reported is the larger of LB_L and what the search proved."""
    from .lookahead import proven_bound

    start = time.perf_counter()
    problem = Problem.of(game, tree.secrets, pool=pool)
    S, w, pool = tree.secrets, problem.weights, problem.pool  # S in the tree's order, as searched before
    check_search_memory(game, S, pool)
    search = Search.of(problem, max_guesses=None)
    watch(search, progress)
    level_bound = 0.0
    if bound_levels > 1:
        halfway = None if time_limit is None else start + time_limit / 2
        level_bound = proven_bound(search, S, bound_levels, halfway)
    search.deadline = None if time_limit is None else start + time_limit
    root, costs, lower = search_below(search, S, tree, tree.roots[0].opening)
    value = float(costs[0][S] @ w[S])
    guesser = tree.guesser if root is tree.roots[0] else agent_spec(pool, Objective.AVERAGE, None)
    return SolvedTree(
        game,
        guesser,
        [root] if root is not None else [],
        costs[0],
        costs[1],
        value=value,
        lower_bound=min(max(lower, level_bound), value),
        seconds=time.perf_counter() - start,
        searched=search.stats.nodes,
        depth_bound=min_depth(len(S), search.b_max),
        time_limit=time_limit,
        stopped=search.timed_out,
    )


# --- the pieces of the solve ------------------------------------------------------------------
def least_depth(problem: Problem, S: Indexes, sym: Any, deadline: float | None) -> tuple[int, Search]:
    """The fewest guesses (Hangman: misses, or the problem's cost) that find every secret of S
    in the worst case (at most the problem's guess limit), counted up from the proven bound
    (bounds.py), and the search that proved it (its `fits` cache holds a tree within that depth:
    `fitting_tree`)."""
    game, cap = problem.game, problem.max_guesses
    search = Search.of(problem, max_guesses=None, symmetry=sym, deadline=deadline)
    depth = search.bounds.least_depth(len(S))
    while not search.fits(S, depth, sym):
        depth += 1
        if cap is not None and depth > cap:
            raise ArenaError(f"{game.spec}: no tree finds every secret within {cap} {search.cost.unit}")
        if depth > len(S) + 1:  # every useful guess shrinks the classes: no guess splits S
            raise ArenaError(f"{game.spec}: no guess tells apart {', '.join(game.secrets[s] for s in S[:3])}")
    return depth, search


#: The check that some tree keeps within a guess limit (`within_limit`) runs at most this many
#: seconds, and at most this share of a time limit: past them the search goes on without it.
LIMIT_CHECK_SECONDS = 60.0
LIMIT_CHECK_SHARE = 0.1


def within_limit(problem: Problem, S: Indexes, sym: Any, deadline: float | None) -> Search | None:
    """A guess limit that no tree keeps, refused before the search: an ArenaError when `fits`
    (depth-first, by the slot bound) proves that no tree finds every secret of S within
    `problem.max_guesses`, which it proves in seconds where the branch and bound over costs
    proves it by exhausting every guess (MM(5,6) within 5 guesses: 2.6 s against 8.5 minutes).
    Else the search that found a tree within the limit (its `fits` cache holds one:
    `fitting_tree`), or None where the check ran out of its time (LIMIT_CHECK_SECONDS, a
    share of the time left): the search goes on as it would have."""
    cap = problem.max_guesses
    assert cap is not None
    now = time.perf_counter()
    spare = LIMIT_CHECK_SECONDS if deadline is None else min(LIMIT_CHECK_SECONDS, LIMIT_CHECK_SHARE * (deadline - now))
    search = Search.of(problem, max_guesses=None, symmetry=sym, deadline=now + max(spare, 0.0))
    try:
        if search.fits(S, cap, sym):
            return search
    except Timeout:
        return None
    raise ArenaError(f"{problem.game.spec}: no tree finds every secret within {cap} {search.cost.unit}")


def seed_tree(
    game: Game,
    S: Indexes,
    w: np.ndarray,
    pool: Pool,
    max_guesses: int | None,
    paid: Cost | None = None,
    metrics: Sequence[str] = SEED_METRICS,
) -> Tree | None:
    """The best greedy tree (by weighted cost) of `metrics` that respects the limit: the
    incumbent that a time-limited search has to beat, so that it always has a tree to return."""
    return best_seed(greedy_trees(game, S, pool, metrics), S, w, max_guesses, paid)


def known_tree(tree: Tree | None, S: Indexes, limit: int | None, paid: Cost) -> Tree | None:
    """`tree` if one of its roots covers exactly S and it keeps within `limit`, else None."""
    if tree is None or not any(np.array_equal(np.sort(r.candidates), S) for r in tree.roots):
        return None
    return tree if limit is None or paid.of(tree)[S].max() <= limit else None


def cheaper_tree(a: Tree | None, b: Tree | None, w: np.ndarray, paid: Cost, S: Indexes) -> Tree | None:
    """The cheaper of two trees over S (either may be None)."""
    if a is None or b is None:
        return a if b is None else b
    return b if incumbent_value(b, w, paid, S) < incumbent_value(a, w, paid, S) else a
