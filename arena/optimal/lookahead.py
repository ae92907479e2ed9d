"""Trees for instances too big to solve exactly: rollout look-ahead, exact repair, proven bounds.

Rollout look-ahead. At a node S, take the `width` best guesses by a greedy metric and score each
by what it would cost if the greedy guesser played on afterwards:

    estimate(g) = |S| + sum over non-hit classes S_r of greedy_cost(S_r)

then play the guess of least estimate; sets of at most `exact` secrets are solved exactly instead.
The greedy guesser's own choice is among the ones scored, so by induction over the tree (each
class costs at most its greedy cost, and the estimate of the choice is at most the greedy cost
of S) the rollout tree never costs more than the greedy tree it rolls out: it can only improve.

Exact repair. Any subtree whose candidate set is small enough is re-solved by the exact search,
with its current cost as the budget (so the search only looks for something strictly better),
and replaced when it finds it. Repair works bottom up, so a replaced subtree's cost is known
when its ancestors are tried.

Proven lower bound. LB_0(S) is the slot bound; LB_k(S) = min over guesses g of
|S| + sum_r LB_{k-1}(S_r(g)), a valid bound because the first guess of any tree is some g and its
classes need at least LB_{k-1} each. It is computed best first: guesses are kept in a heap by
their current bound, and only the guess on top is refined to the next level, until the top guess
is refined to level k; its bound is then LB_k(S) (every other guess's bound is already larger,
and refining only raises a bound). Refining deepens one level at a time (a guess at level d
gets its classes' LB_d), so a guess reaches the costly level k only where its LB_{k-1} is still
the least: stopped early, LB_3 is never below the LB_2 it completed first (Jotto: LB_2 17,038
after 235 s on a shared core, then about 80 s a guess taken to LB_3).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence

import numpy as np

from ..core.errors import ArenaError
from ..core.game import Game, Index, Indexes
from ..core.state import State
from ..trees.greedy import Greedy
from ..trees.grow import Spot, grow, grow_tree
from ..trees.metrics import METRICS
from ..trees.tree import Node, Tree
from .bounds import INF
from .problem import Pool, Problem, enum_choice
from .search import STOP, Search, Timeout

#: Candidate sets one exact repair may search before it gives up (the subtree is then kept).
REPAIR_EFFORT = 3000


def check_unrestricted(game: Game, pool: Pool, what: str) -> None:
    """Refuse every guess (pool all) where the rules narrow the guesses by the path (Wordle's
    hard mode): the rollouts and repairs here see a node's candidates, not its history. The
    consistent pool is always legal."""
    if game.rules.restricted and pool == Pool.ALL:
        raise ArenaError(
            f"{game.spec}: {what} see candidates, not the moves that restrict the guesses "
            f"(hard mode): use pool=consistent (always legal)"
        )


class Rollout:
    """The rollout look-ahead over one game: a guess for any candidate set, with the greedy
    costs and exact solutions it computes cached (shared by all the nodes of a tree).

    With several metrics the base policy at each set is the cheapest of their greedy trees, and
    the shortlist holds the top guesses of each metric and each greedy guesser's own choice, so
    the improvement argument above still holds."""

    def __init__(
        self,
        game: Game,
        metrics: Sequence[str] = ("entropy",),
        width: int = 8,
        exact: int = 20,
        pool: Pool | str = Pool.ALL,
    ):
        if not game.rules.hits:  # its costs are guesses until the hit: issue 11 brings misses
            raise ArenaError(f"{game.spec}: the lookahead guesser needs guesses that can hit the secret")
        pool = enum_choice(Pool, "pool", pool)
        check_unrestricted(game, pool, "the lookahead's rollouts")
        self.game, self.width, self.exact, self.pool = game, width, exact, pool
        metrics = (metrics,) if isinstance(metrics, str) else tuple(metrics)
        self.metrics = [METRICS[m] for m in metrics]
        self.bases = [Greedy(m, pool=pool) for m in metrics]
        self.search = Search(game, np.ones(len(game.secrets)), pool)
        self.greedy_costs: dict[bytes, int] = {}
        self.choices: dict[bytes, Index] = {}

    def greedy_cost(self, S: Indexes) -> int:
        """Total guesses of the cheapest greedy tree on S (the base policy)."""
        if len(S) == 1:
            return 1
        key = S.tobytes()
        if key not in self.greedy_costs:
            self.greedy_costs[key] = min(int(grow_tree(self.game, base, S).guesses[S].sum()) for base in self.bases)
        return self.greedy_costs[key]

    def choose(self, S: Indexes) -> Index:
        """The guess at S: exact for small sets, else the rolled-out best of the shortlist."""
        key = S.tobytes()
        if key in self.choices:
            return self.choices[key]
        if len(S) <= self.exact:
            self.search.solve(S)
            guess = self.search.best_guess(S, self.search.limit)
        else:
            guess = self.best_rollout(S)
        self.choices[key] = guess
        return guess

    def shortlist(self, S: Indexes) -> list[Index]:
        """The `width` best guesses by each metric (ties to a possible secret, then the lowest;
        guesses that cannot split S left out), and each greedy guesser's own choice."""
        game = self.game
        pool = game.all_guesses if self.pool == Pool.ALL else game.guesses_naming(S)
        counts = game.partition_counts(pool, S)
        possible = game.is_candidate(S)[pool]
        useless = (counts.max(axis=1) == len(S)) & ~possible
        chosen = [int(base.guess(game, State(S))) for base in self.bases]
        for metric in self.metrics:
            key = metric.key(counts).astype(np.float64)
            key[useless] = INF
            chosen += [int(g) for g in pool[np.lexsort((~possible, key))[: self.width]]]
        return list(dict.fromkeys(chosen))

    def best_rollout(self, S: Indexes) -> Index:
        """The shortlisted guess of least estimate |S| + sum of the classes' greedy costs."""
        best, best_guess = INF, -1
        for guess in self.shortlist(S):
            total = len(S)
            for reply, part in self.game.partition(guess, S).items():
                if not self.game.finished(reply):
                    total += self.greedy_cost(part)
                if total >= best:
                    break
            if total < best:
                best, best_guess = total, guess
        return best_guess

    def tree(self, secrets: Indexes | None = None, label: str = "lookahead") -> Tree:
        """The rollout tree over `secrets` (default all)."""
        S = self.game.all_secrets if secrets is None else np.asarray(secrets)
        return build_tree(self.game, S, self.choose, label)


def build_tree(game: Game, S: Indexes, choose: Callable[[Indexes], Index], label: str) -> Tree:
    """The tree that plays choose(candidates) at every node, as an arena Tree (its misses not
    counted: the rollout plays for guesses)."""
    root, costs = grow(game, Spot(S), lambda spot: choose(spot.candidates))
    assert root is not None  # the rollout's games end with a hit, never before a guess
    return Tree(game, label, [root], costs[0], np.zeros_like(costs[0]))


def improve_tree(
    tree: Tree,
    largest: int = 60,
    effort: int | None = REPAIR_EFFORT,
    budget_seconds: float | None = None,
    search: Search | None = None,
) -> tuple[Tree, int]:
    """The tree with every subtree of at most `largest` secrets re-solved exactly where that finds
    a cheaper one (bottom up). Returns the new tree and the number of subtrees replaced.
    Each search gives up after `effort` candidate sets (None: never), which keeps the result
    the same on every machine; `budget_seconds` stops the whole repair (then it depends on the
    machine). Equal weights only: the cost of a subtree is the sum of its secrets' guesses."""
    game = tree.game
    search = search or Search(game, np.ones(len(game.secrets)))
    check_unrestricted(game, Pool.CONSISTENT if search.consistent_pool else Pool.ALL, "the exact repair")
    cost = tree.guesses.copy()
    stop = None if budget_seconds is None else time.perf_counter() + budget_seconds
    replaced = 0

    def repair(node: Node) -> Node:
        nonlocal replaced
        for reply in list(node.children):
            node.children[reply] = repair(node.children[reply])
        S, depth = node.candidates, node.depth
        if len(S) < 3 or len(S) > largest or (stop is not None and time.perf_counter() > stop):
            return node
        current = float(cost[S].sum() - depth * len(S))  # guesses made inside this subtree
        search.node_limit = None if effort is None else search.stats.nodes + effort
        search.deadline = stop
        try:
            value = search.solve(S, current)
        except Timeout:
            return node
        finally:
            search.node_limit = search.deadline = None
        if value >= current:
            return node
        replaced += 1
        return regrow(search, S, node.replies, cost)

    root = repair(tree.root)
    return Tree(game, tree.guesser, [root], cost, np.zeros_like(cost)), replaced


def regrow(search: Search, S: Indexes, replies: tuple, cost: np.ndarray) -> Node:
    """The exact subtree the search found for S, below the history `replies` (costs updated)."""
    root, costs = grow(search.game, Spot(S, replies), lambda spot: search.best_guess(spot.candidates, search.limit))
    assert root is not None  # the repaired games end with a hit, never before a guess
    cost[S] = costs[0][S]
    return root


def proven_bound(search: Search, S: Indexes, levels: int = 2, deadline: float | None = None) -> float:
    """LB_levels(S) (module docstring), computed best first; with a deadline, the least bound
    on the heap when it passes (still a valid bound)."""
    memo: dict[tuple[bytes, int], float] = {}
    return _bound(search, S, levels, memo, deadline)


def uniform_level_bound(game: Game, levels: int = 2, deadline: float | None = None) -> float:
    """LB_levels over every secret of `game` with equal weights and every guess allowed (the
    uniform chooser's optimum is at least this), best first (`proven_bound`) until `deadline`."""
    problem = Problem.of(game)
    return proven_bound(Search.of(problem, max_guesses=None), problem.secrets, levels, deadline)


def _bound(search: Search, S: Indexes, level: int, memo: dict, deadline: float | None) -> float:
    n = len(S)
    if n <= 2:
        return float(2 * n - 1) if n else 0.0
    key = (S.tobytes(), level)
    if key in memo:
        return memo[key]
    game = search.game
    pool = game.all_guesses if not search.consistent_pool else game.guesses_naming(S)
    bound, _, _ = search.score_guesses(S, pool, search.limit)
    if level <= 1:
        memo[key] = float(bound.min())
        return memo[key]
    heap = [(float(bound[i]), 1, int(i)) for i in np.flatnonzero(np.isfinite(bound))]
    heapq.heapify(heap)
    while heap:
        value, depth, i = heap[0]
        if depth >= level or (deadline is not None and (STOP.asked or time.perf_counter() > deadline)):
            break
        refined = float(n)  # its classes bounded a level deeper than the guess's bound so far
        for reply, part in game.partition(int(pool[i]), S).items():
            if not game.finished(reply):
                refined += _bound(search, part, depth, memo, deadline) if len(part) > 2 else 2 * len(part) - 1
        heapq.heapreplace(heap, (max(value, refined), depth + 1, i))
    memo[key] = heap[0][0] if heap else INF
    return memo[key]
