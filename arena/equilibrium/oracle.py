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
grows, and the loop ends after finitely many rounds with U = L = the value.

A mix q often leaves secrets at probability 0, and a best response may then play them
arbitrarily badly, which makes a poor column. The best response is therefore computed against
q' = (1 - eps) q + eps * uniform: a legitimate chooser mix, so q' . cost(t) is still a valid
lower bound, and the tiny eps makes the tree as good as possible on the secrets q ignores.
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

import numpy as np

from ..game import Game
from ..tree import Tree
from .matrix import solve_matrix_game
from .payoff import PayoffMatrix
from .rational import as_fractions
from .response import best_response
from .solution import Equilibrium, Step
from .symmetry import Symmetry, symmetry_of

#: The share of the uniform mix blended into the chooser's mix before a best response.
EPSILON = 1e-9
#: Bounds closer than this count as met (the LP itself works to about 1e-9).
TOLERANCE = 1e-7


def double_oracle(game: Game, symmetry: Symmetry | None = None, tolerance: float = TOLERANCE,
                  time_limit: float | None = None, solver: str = "auto", initial: Sequence[Tree] = (),
                  certify: bool = True, progress: Callable[[Step], None] | None = None) -> Equilibrium:
    """The equilibrium of the whole game (every secret against every guesser tree).

    `symmetry` defaults to the game's own (Mastermind: code types); `initial` trees seed the
    guesser's side; `time_limit` (seconds) stops the loop with the bounds reached so far.
    With `certify`, the rational strategies recovered from the last LP are checked by one more
    exact best response, against the rational chooser mix itself.
    """
    start = time.perf_counter()
    symmetry = symmetry_of(game) if symmetry is None else symmetry
    n = len(game.secrets)
    uniform = np.full(n, 1.0 / n)
    trees: list[Tree] = []
    seen: set[bytes] = set()
    q_secrets = uniform  # the first best response is to the uniform chooser
    lower, upper = -np.inf, np.inf
    uniform_value, solution, exact, names, steps, notes = None, None, None, set(), [], []

    def add(tree: Tree) -> bool:
        key = symmetry.totals(tree.guesses).tobytes()
        if key in seen:
            return False
        seen.add(key)
        trees.append(tree)
        return True

    for tree in initial:
        add(tree)
    if trees:
        solution = solve_matrix_game(PayoffMatrix.of(np.array([t.guesses for t in trees]), symmetry).A)
        q_secrets, upper = symmetry.spread(solution.row), solution.value
    while True:
        mix = (1 - EPSILON) * q_secrets + EPSILON * uniform
        tree, name = best_response(game, mix, solver)
        names.add(name)
        bound = float(mix @ tree.guesses)
        if uniform_value is None and np.array_equal(q_secrets, uniform):
            uniform_value = bound
        lower = max(lower, bound)
        new = add(tree)
        if new:
            solution = solve_matrix_game(PayoffMatrix.of(np.array([t.guesses for t in trees]), symmetry).A)
            q_secrets, upper = symmetry.spread(solution.row), solution.value
        steps.append(Step(lower, upper, time.perf_counter() - start, len(trees)))
        if progress:
            progress(steps[-1])
        if upper - lower <= tolerance or not new:
            break
        if time_limit is not None and time.perf_counter() - start > time_limit:
            notes.append(f"stopped at the time limit ({time_limit:g} s) with the bounds not met")
            break

    payoff = PayoffMatrix.of(np.array([t.guesses for t in trees]), symmetry)
    solution, exact = payoff.solve()
    if exact is not None and certify and upper - lower <= tolerance:
        exact, note = _certify(game, symmetry, payoff, exact, solver)
        notes.append(note)
    method = (f"double oracle: {len(steps)} exact best responses ({', '.join(sorted(names))}) "
              f"against linprog (HiGHS) mixes")
    if not symmetry.trivial:
        method += f", over {len(symmetry.labels)} code types ({symmetry.group})"
    played = np.flatnonzero(solution.column > 0)
    if exact is not None:
        exact = type(exact)(exact.value, exact.row, tuple(exact.column[k] for k in played))
    return Equilibrium(game, method, upper, lower, upper, symmetry.spread(solution.row),
                       tuple(trees[k] for k in played), solution.column[played], symmetry,
                       time.perf_counter() - start, exact, uniform_value, tuple(steps), tuple(notes))


def _certify(game: Game, symmetry: Symmetry, payoff: PayoffMatrix, exact, solver: str):
    """The exact solution if the rational chooser mix holds every tree to the exact value.

    The LP check proved the rational strategies optimal among the trees found; one more exact
    best response to the rational chooser mix extends the chooser's guarantee to all trees."""
    weights = np.array([float(x) for x in exact.row])[symmetry.orbit] / symmetry.sizes[symmetry.orbit]
    tree, _ = best_response(game, weights, solver)
    totals = symmetry.totals(tree.guesses)[0]
    costs = [row[0] for row in as_fractions(totals[:, None], payoff.sizes)]  # per row, exact
    guaranteed = sum(x * c for x, c in zip(exact.row, costs))
    if guaranteed >= exact.value:
        return exact, f"exact: a best response to the rational chooser mix needs {guaranteed} guesses on average"
    return None, (f"not exact: a best response to the rounded chooser mix needs {guaranteed}, "
                  f"below {exact.value}")
