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

A mix q often leaves secrets at probability 0, and a best response may then play them
arbitrarily badly, which makes a poor column. The best response is therefore computed against
q' = (1 - eps) q + eps * uniform: a legitimate chooser mix, so q' . cost(t) is still a valid
lower bound, and the tiny eps makes the tree as good as possible on the secrets q ignores.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from ..core.costs import Cost, Guesses, cost_for
from ..core.game import Game
from ..core.resources import memory_limit
from ..optimal.search import STOP
from ..trees.tree import Tree
from .matrix import lp_bytes, solve_matrix_game
from .payoff import PayoffMatrix
from .rational import ExactSolution, as_fractions, conceded, guaranteed, rational_strategies
from .response import SOLVER, best_response, bounded_best_response, weighted_greedy_tree
from .solution import Equilibrium, Step
from .symmetry import Symmetry, symmetry_of

#: The share of the uniform mix blended into the chooser's mix before a best response.
EPSILON = 1e-9
#: Bounds closer than this count as met (the LP itself works to about 1e-9).
TOLERANCE = 1e-7
#: How far the chooser's mix is pulled toward the best one so far before a best response.
SMOOTHING = 0.5
#: Start each best response from the cheapest tree found so far against its mix (its cost is
#: the search's first budget); False starts from nothing (the tests compare both).
REUSE = True


class _Columns:
    """The guesser's trees found so far (one per distinct payoff column) and their LP."""

    def __init__(self, symmetry: Symmetry, paid: Cost):
        self.symmetry, self.paid = symmetry, paid
        self.trees: list[Tree] = []
        self.costs: list[np.ndarray] = []  # each tree's cost on every secret
        self.seen: set[bytes] = set()  # the trees' payoff columns, as bytes

    def add(self, tree: Tree) -> bool:
        costs = self.paid.of(tree)
        key = self.symmetry.totals(costs).tobytes()
        if key in self.seen:
            return False
        self.seen.add(key)
        self.trees.append(tree)
        self.costs.append(np.asarray(costs, dtype=np.float64))
        return True

    def cheapest(self, mix: np.ndarray) -> Tree | None:
        """The tree found so far that costs least against the chooser's `mix` (over secrets):
        the next best response's starting budget (REUSE)."""
        if not REUSE or not self.trees:
            return None
        return self.trees[int(np.argmin(np.array(self.costs) @ mix))]

    def payoff(self) -> PayoffMatrix:
        return PayoffMatrix.of(np.array([self.paid.of(t) for t in self.trees]), self.symmetry)

    def room_for_another(self) -> bool:
        """Would the LP with one more tree fit the memory limit? (The costs as int64, the
        payoffs as float64, and the LP itself; arena.core.resources.)"""
        rows, columns = len(self.symmetry.labels), len(self.trees) + 1
        secrets = len(self.symmetry.orbit)
        return columns * (secrets + rows) * 8 + lp_bytes(rows, columns) <= memory_limit()


def double_oracle(
    game: Game,
    symmetry: Symmetry | None = None,
    tolerance: float = TOLERANCE,
    time_limit: float | None = None,
    initial: Sequence[Tree] = (),
    certify: bool = True,
    smoothing: float = SMOOTHING,
    progress: Callable[[Step], None] | None = None,
    search_progress=None,
    cost: str | None = None,
    response_limit: float | None = None,
    witness: bool = False,
) -> Equilibrium:
    """The equilibrium of the whole game (every secret against every guesser tree).

    `symmetry` defaults to the game's own (Mastermind: code types); `initial` trees seed the
    guesser's side; `time_limit` (seconds) stops the loop with the bounds reached so far.
    With `certify`, exact rational strategies are recovered and proven (one more exact best
    response, against the rational chooser mix itself). `progress` is told each round's bounds;
    `search_progress` (an arena.parallel.progress.ProgressLine) follows each best response's search.
    `cost` is the payoff (arena.core.costs: default the game's own; Hangman also guesses or lost).

    For games too big to solve (certify.py): `response_limit` (seconds) stops each best response
    there (the first, to the uniform chooser, gets a third of `time_limit` if that is more) and
    goes on to the next round, each round also adding a quick weighted greedy tree aimed at its
    mix (response.weighted_greedy_tree) (a stopped search still gives a column and a proven lower
    bound), until `time_limit`; `witness` returns as the chooser's mix the very mix the lower bound
    was proven against (the LP's, blended with EPSILON of the uniform mix) instead of the LP's.
    """
    paid = cost_for(game, cost)
    start = time.perf_counter()
    symmetry = symmetry_of(game) if symmetry is None else symmetry
    n = len(game.secrets)
    uniform = np.full(n, 1.0 / n)
    columns = _Columns(symmetry, paid)
    q = symmetry.gather(uniform)  # the chooser's mix over rows: the first best response is to the uniform chooser
    lower, upper, best_q, uniform_value = -np.inf, np.inf, q, None
    best_mix = symmetry.spread(q)
    stops = 0  # best responses stopped by a time limit
    solution = None
    steps: list[Step] = []
    notes: list[str] = []
    for tree in initial:
        columns.add(tree)
    if columns.trees:
        solution = solve_matrix_game(columns.payoff().A)
        q, upper = solution.row, solution.value
    alpha = 0.0  # no smoothing until there is a best mix to pull toward
    # the first best response is to the uniform chooser (its value is reported beside the game's),
    # also when initial trees give the LP a mix of its own
    first: np.ndarray | None = symmetry.gather(uniform)
    while True:
        target = first if first is not None else alpha * best_q + (1 - alpha) * q
        own = first is None and alpha == 0  # a best response to the LP's own mix
        first = None
        mix = (1 - EPSILON) * symmetry.spread(target) + EPSILON * uniform
        # the time limit reaches into the best response: a stopped one still gives a tree (a
        # column, so the upper bound stays valid) and a proven lower bound for this mix
        begun = time.perf_counter()
        left = None if time_limit is None else max(time_limit - (begun - start), 1e-3)
        if response_limit is not None:
            # the first response, to the uniform chooser, usually proves the best lower end: a third of the time
            limit = response_limit if steps or time_limit is None else max(response_limit, time_limit / 3)
            left = limit if left is None else min(left, limit)
        # a game too big to search: a quick weighted greedy tree aimed at this mix, as a column of its
        # own and as the search's starting tree (the search stopped after seconds rarely beats it)
        quick = (
            response_limit is not None
            and game.rules.hits
            and paid == Guesses()
            and (solution is None or columns.room_for_another())
            and columns.add(weighted_greedy_tree(game, mix))
        )
        if left is not None:  # the quick tree is part of the response's time (Jotto: 4 s of a round)
            left = max(left - (time.perf_counter() - begun), 1e-3)
        tree, bound = bounded_best_response(game, mix, left, search_progress, paid.name, columns.cheapest(mix))
        # the response was not proven best: the time limit stopped its search (a finished search
        # is exact, up to the misses cost's tie tolerance, arena/optimal/search/)
        stopped = tree.stopped
        stops += stopped
        if not stopped and uniform_value is None and np.allclose(symmetry.spread(target), uniform, rtol=0, atol=1e-15):
            uniform_value = bound
        if bound > lower:
            lower, best_q, best_mix = bound, target, mix
        improves = solution is None or float(q @ symmetry.averages(paid.of(tree))[0]) < upper - tolerance
        full = solution is not None and not columns.room_for_another()
        new = (not full and columns.add(tree)) or bool(quick)
        if new:
            solution = solve_matrix_game(columns.payoff().A)
            q, upper = solution.row, solution.value
        steps.append(Step(lower, upper, time.perf_counter() - start, len(columns.trees)))
        if progress:
            progress(steps[-1])
        # a best response to the LP's own mix that does not beat U proves U to within the
        # tolerance (up to eps, which the lower bound carries)
        settled = upper - lower <= tolerance or (own and not improves and not stopped)
        if settled:
            break
        alpha = smoothing if improves else 0.0
        if full:
            notes.append(
                f"stopped, not converged: one more tree would take the LP over the memory limit "
                f"({len(columns.trees):,} trees; set ARENA_MEMORY_LIMIT to allow more)"
            )
            break
        over = time_limit is not None and time.perf_counter() - start > time_limit
        if STOP.asked or over or (stopped and (response_limit is None or (own and not new))):
            which = f"{time_limit:g} s" if over or response_limit is None else f"{response_limit:g} s a best response"
            notes.append(
                f"{'stopped by Ctrl-C' if STOP.asked else f'stopped at the time limit ({which})'}, not converged: "
                f"the value lies between the bounds (gap {max(0.0, upper - lower):.2g})"
            )
            break

    assert solution is not None  # the loop above solves the LP at least once
    exact = None
    if settled and certify and (STOP.asked or time_limit is not None and time.perf_counter() - start > time_limit):
        why = "Ctrl-C stopped the run" if STOP.asked else "the time limit passed"
        notes.append(f"not certified: {why} before the exact check")
    elif settled and certify:
        exact, note = _exact(game, symmetry, columns.payoff(), best_q, solution.column, paid)
        notes.append(note)
    if not stops:
        responses = f"{len(steps)} exact best responses"
    elif len(steps) == 1:
        responses = "1 best response, stopped by the time limit"
    elif stops == 1 and stopped:
        responses = f"{len(steps)} best responses (the last stopped by the time limit, the others exact)"
    else:
        responses = f"{len(steps)} best responses ({stops} stopped by the time limit, the others exact)"
    method = f"double oracle: {responses} ({SOLVER}) against linprog (HiGHS) mixes"
    if not symmetry.trivial:
        method += f", over {len(symmetry.labels)} code types ({symmetry.group})"
    played = np.flatnonzero(solution.column > 0)
    if exact is not None:
        exact = ExactSolution(exact.value, exact.row, tuple(exact.column[k] for k in played))
    value = upper if settled else (lower + upper) / 2
    if witness:
        notes.append(
            f"the chooser's mix is the one the lower bound is proven against (the LP's with "
            f"{EPSILON:g} of the uniform mix)"
        )
    chooser = best_mix if witness else symmetry.spread(best_q)
    return Equilibrium(
        game,
        method,
        value,
        lower,
        upper,
        chooser,
        tuple(columns.trees[k] for k in played),
        solution.column[played],
        symmetry,
        time.perf_counter() - start,
        exact,
        uniform_value,
        tuple(steps),
        tuple(notes),
        paid.name,
    )


def _exact(
    game: Game, symmetry: Symmetry, payoff: PayoffMatrix, q: np.ndarray, y: np.ndarray, paid: Cost
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
            tree = best_response(game, symmetry.spread(np.array([float(v) for v in x])), paid.name)
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
