"""The guesser's exact best response to a chooser's mix: the tree of least expected guesses.

Against a chooser who draws secret s with probability w_s, a guesser tree costs
sum_s w_s * guesses(s). The least cost over trees satisfies, for the set S of secrets still
possible (W(S) = sum of their weights, every one of which pays for the next guess),

    cost(S) = W(S) + min over guesses g of  sum over the classes C of S under g, except the hit,  cost(C),

with cost({s}) = w_s. `best_response` uses the project's exact solver, `arena.optimal.optimal_tree`
(weighted), when it is installed, and otherwise `search_best_response`: this recursion by
depth-first branch and bound over candidate sets, memoised, which is exact but meant for small
games (up to a few hundred secrets).
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Callable

import numpy as np

from ..errors import ArenaError
from ..game import Game, Index, Indexes
from ..greedy import greedy_tree
from ..tree import Tree
from .enumeration import useful_guesses
from .plans import plan_tree

#: Above this many (guesses x candidates^2) cells, equivalent guesses are found by their raw
#: reply rows only (the relabelling that also merges permuted replies costs that much memory).
_CANONICAL_CELLS = 20_000_000


def external_solver() -> Callable[..., Tree] | None:
    """`arena.optimal.optimal_tree` if that module exists (it is another issue's work)."""
    if importlib.util.find_spec("arena.optimal") is None:
        return None
    return getattr(importlib.import_module("arena.optimal"), "optimal_tree", None)


def best_response(game: Game, weights: np.ndarray, solver: str = "auto") -> tuple[Tree, str]:
    """An exact best response to the chooser's mix `weights` (one per secret, summing to 1),
    and the name of the solver that found it. `solver`: auto (the optimal solver if present),
    optimal, or search (this module's own)."""
    tree, name, _ = bounded_best_response(game, weights, solver)
    return tree, name


def bounded_best_response(game: Game, weights: np.ndarray, solver: str = "auto",
                          time_limit: float | None = None, progress=None) -> tuple[Tree, str, float]:
    """A best response found within `time_limit` seconds (None: no limit), the solver's name,
    and a proven lower bound on the least expected cost of any tree against `weights`.

    Without a limit, or when the search finishes in time, the tree is exact and the bound is
    its own cost. When the limit stops the search, the tree is the best found (at worst a
    greedy tree) and the bound is what the search proved: still a valid lower bound on the
    game's value, since `weights` is a mix the chooser may play. `progress` (a ProgressLine)
    follows the optimal solver's search."""
    weights = np.asarray(weights, dtype=np.float64)
    external = external_solver() if solver in ("auto", "optimal") else None
    if solver == "optimal" and external is None:
        raise ArenaError("solver 'optimal' needs arena.optimal.optimal_tree, which is not installed")
    if external is not None:
        extra = {} if progress is None else {"progress": progress}
        tree = external(game, weights=weights, time_limit=time_limit, **extra)
        cost = float(weights @ tree.guesses)
        bound = getattr(tree, "lower_bound", cost) if not getattr(tree, "exact", True) else cost
        return tree, "arena.optimal.optimal_tree", min(float(bound), cost)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    try:
        tree = search_best_response(game, weights, deadline)
        return tree, "branch and bound over candidate sets", float(weights @ tree.guesses)
    except _Timeout as stopped:
        return _greedy_tree(game, weights), "branch and bound over candidate sets (stopped)", stopped.bound


def _greedy_tree(game: Game, weights: np.ndarray) -> Tree:
    """The cheaper against `weights` of two greedy guessers' trees: a column to return when
    the search is stopped before it found a tree."""
    trees = [greedy_tree(game, metric) for metric in ("entropy", "expected")]
    return min(trees, key=lambda t: float(weights @ t.guesses))


class _Timeout(Exception):
    """The search's deadline passed; `bound` is the lower bound it had proven on the root."""

    def __init__(self, bound: float):
        super().__init__(bound)
        self.bound = bound


def equivalent_guesses_removed(game: Game, guesses: np.ndarray, candidates: Indexes) -> np.ndarray:
    """One guess (the first) of each group of guesses that split the candidates identically:
    the same classes, with the same class (if any) being the hit. Such guesses lead to the
    same subproblems, so only one needs searching."""
    block = game.table[np.ix_(guesses, candidates)].astype(np.int16)
    if len(guesses) * len(candidates) ** 2 <= _CANONICAL_CELLS:
        # relabel each row's replies by the position of their first occurrence: permuted replies merge
        block = np.where(block == game.hit, -1, (block[:, :, None] == block[:, None, :]).argmax(axis=2))
    _, first = np.unique(block, axis=0, return_index=True)
    return guesses[np.sort(first)]


class _Search:
    """Branch and bound for cost(S), with a memo of exact costs and of proven lower bounds."""

    def __init__(self, game: Game, weights: np.ndarray, deadline: float | None = None):
        self.game, self.w, self.deadline = game, weights, deadline
        self.exact: dict[bytes, tuple[float, Index]] = {}
        self.floor: dict[bytes, float] = {}  # proven: cost(S) >= floor
        # the k-th secret (heaviest first) cannot be found before guess depth[k]: 1 secret can be
        # hit by the first guess, at most b by the second (one per class), b^2 by the third, ...
        b = max(1, len(game.codes) - (game.hit in set(game.codes.tolist())))
        depth, reach, d, n = [], 0, 1, len(game.secrets)
        while reach < n:
            width = b ** (d - 1)
            depth += [d] * min(width, n - reach)
            reach += width
            d += 1
        self.depth = np.array(depth, dtype=np.float64)

    def lower(self, S: Indexes) -> float:
        """The depth bound: the heaviest secrets on the shallowest possible leaves."""
        return float(np.sort(self.w[S])[::-1] @ self.depth[:len(S)])

    def solve(self, S: Indexes, budget: float) -> float:
        """cost(S) if it is below `budget`; otherwise some value >= budget (and S's floor rises)."""
        key = S.tobytes()
        if key in self.exact:
            return self.exact[key][0]
        floor = max(self.floor.get(key, 0.0), self.lower(S))
        if floor >= budget:
            return floor
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Timeout(0.0)
        if len(S) <= 2:  # guess the heavier first; a guess outside S would cost both an extra guess
            first = S[np.argmax(self.w[S])]
            cost = float(self.w[S].sum() + (self.w[S].sum() - self.w[first]))
            self.exact[key] = (cost, int(self.game.secret_guess[first]))
            return cost
        total = float(self.w[S].sum())
        options = []
        for g in equivalent_guesses_removed(self.game, useful_guesses(self.game, S), S).tolist():
            classes = [C for r, C in self.game.partition(g, S).items() if not self.game.finished(r)]
            bounds = [self.exact[C.tobytes()][0] if C.tobytes() in self.exact else
                      max(self.floor.get(C.tobytes(), 0.0), self.lower(C)) for C in classes]
            hits = self.game.same_secret[g] in S
            options.append((total + sum(bounds), not hits, g, classes, bounds))
        options.sort(key=lambda o: o[:3])  # the most promising first, a possible secret on ties
        best, best_guess = budget, None
        for bound, _, g, classes, bounds in options:
            if bound >= best:
                break  # sorted: every later guess is bounded at least as high
            spent, left = total, sum(bounds)
            order = np.argsort([-len(C) for C in classes], kind="stable")  # big classes fail soonest
            for i in order:
                left -= bounds[i]
                spent += self.solve(classes[i], best - spent - left)
                if classes[i].tobytes() not in self.exact or spent + left >= best:
                    break  # this class alone proves g no better than the best so far
            else:
                best, best_guess = spent, g
        if best_guess is None:
            self.floor[key] = max(floor, budget)
            return max(floor, budget)
        self.exact[key] = (best, best_guess)
        return best

    def plan(self, S: Indexes) -> dict[tuple, Index]:
        """The optimal plan from the memo (every node of it was solved exactly)."""
        plan: dict[tuple, Index] = {}

        def walk(S: Indexes, replies: tuple) -> None:
            # a last secret is guessed outright (the pairs' rule stores no entry for it)
            g = int(self.game.secret_guess[S[0]]) if len(S) == 1 else self.exact[S.tobytes()][1]
            plan[replies] = g
            for r, C in self.game.partition(g, S).items():
                if not self.game.finished(r):
                    walk(C, replies + (r,))

        walk(S, ())
        return plan


def search_best_response(game: Game, weights: np.ndarray, deadline: float | None = None) -> Tree:
    """The tree minimising sum_s weights[s] * guesses(s), found by `_Search` (exact). Past the
    `deadline` (a time.perf_counter() value) raises _Timeout with the root's proven bound."""
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (len(game.secrets),) or (weights < 0).any():
        raise ValueError("weights must be one non-negative number per secret")
    search = _Search(game, weights, deadline)
    root = game.all_secrets
    try:
        search.solve(root, np.inf)
    except _Timeout:
        # the depth bound, or a better floor the search proved for the whole set
        raise _Timeout(max(search.floor.get(root.tobytes(), 0.0), search.lower(root))) from None
    return plan_tree(game, search.plan(game.all_secrets), "best response")
