"""Every deterministic guesser strategy of a tiny game, as payoff columns.

A guesser strategy is a tree: at each decision point (the set S of secrets still possible)
it names one guess. The counting convention: the guesses allowed at S are the *useful* ones,
those that may be the secret (g names a secret of S) or that split S into at least two
classes; a guess that does neither learns nothing and would only lengthen the game. Two
guesses count as two trees even when they split S the same way. So the number of trees is

    T(S) = sum over useful g of  prod over the classes C of S under g, except the hit,  T(C),

with T({s}) = 1 (only the secret itself is useful). This gives 8, 1,776 and 26,760 trees for
Mastermind 2x2, 3x2 and 2x3 (the figures of the equilibrium issue); allowing only guesses that
may be the secret gives 8, 120 and 168 instead.

`enumerate_trees` lists the trees' costs (guesses per secret), every one of them or only the
Pareto frontier: a tree whose cost vector another tree matches or beats on every secret is a
weakly dominated column of the game, so the frontier has the same value and equilibria
(see dominance.py). The frontier is built bottom-up: a tree is on it only if every subtree is
on its own node's frontier, so each node keeps only its undominated options.

Size checks, before anything is listed (`check_enumeration_size`). Listing every tree needs
T(root) rows; listing the frontier needs at least

    L(S) = sum over guesses g that may be the secret of  prod over the classes C of L(C),

with L({s}) = 1: a tree whose first guess is the secret s costs 1 on s, and every tree starting
with another guess costs at least 2 there, so no tree with another first guess dominates it;
among the trees starting with g, every combination of the classes' undominated trees is
undominated (two combinations differ on some class, where neither option beats the other). So
the frontier has at least L(root) trees (for Mastermind 3x2 and 2x3 exactly: 120 and 168). Both
counts run on candidate sets, memoised, saturating at the limit (a sum stops once it passes
it), and within a budget of candidate sets: the enumeration visits every set the count does,
so a count that runs out of sets proves the enumeration too big as well.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import reduce
from typing import cast

import numpy as np

from ..core.costs import cost_for
from ..core.errors import ArenaError
from ..core.game import Game, Index, Indexes, Reply
from ..core.resources import check_memory
from .dominance import undominated_columns
from .plans import plan_tree

#: Refuse to list more trees than this (their costs are an int8 matrix of this many rows).
MAX_TREES = 5_000_000
#: The size checks give up (and refuse) after this many candidate sets: the enumeration would
#: visit at least as many, each with its own products of options.
COUNT_BUDGET = 20_000
#: Refuse to go on once the listing has built and compared this many cells of options (a
#: frontier's true size is known only as it is listed: L(root) is a floor, T(root) a ceiling).
#: Mastermind 2x4 (39,168 undominated trees, 10 s) stays under it; 4x2 (134,880 trees, a
#: minute of listing and then a long LP: 882 s and 876 MB in all) passes it within seconds.
MAX_CELLS = 100_000_000_000
#: What the refusals suggest instead.
USE_ORACLE = "use the double oracle instead (the default method: drop --method enumerate)"


class CountBudgetExceeded(Exception):
    """A bounded count visited more candidate sets than its budget."""


def useful_guesses(game: Game, candidates: Indexes) -> np.ndarray:
    """The guesses that may be the secret or split the candidates, in index order."""
    block = game.table[:, candidates]
    splits = (block != block[:, :1]).any(axis=1)
    return np.flatnonzero(splits | game.is_candidate(candidates))


def _classes(game: Game, guess: Index, candidates: Indexes) -> list[tuple[Reply, Indexes]]:
    """The classes of the candidates under a guess, in reply order, without the hit."""
    return [(r, part) for r, part in game.partition(guess, candidates).items() if not game.finished(r)]


def is_leaf(game: Game, S: Indexes) -> bool:
    """Is S decided with no choice left: one secret to name (it is guessed), or, where the game
    ends once the secret is determined (Hangman), a determined set (nothing is guessed)?"""
    return len(S) == 1 if game.rules.hits else game.determined(S)


def product(numbers) -> int:
    return reduce(lambda a, b: a * b, numbers, 1)


def count_trees(game: Game, secrets: Indexes | None = None) -> int:
    """T(S) of the module docstring, exactly (a Python int: it overflows any machine word
    beyond the tiniest games; 3x3 Mastermind has about 2.5e23 trees). A game that tells the
    guesser something first (Hangman: the length) has the product of its openings' counts."""
    memo: dict[bytes, int] = {}

    def count(S: Indexes) -> int:
        key = S.tobytes()
        if key not in memo:
            memo[key] = (
                1
                if is_leaf(game, S)
                else sum(product(count(C) for _, C in _classes(game, g, S)) for g in useful_guesses(game, S))
            )
        return memo[key]

    S = game.all_secrets if secrets is None else np.asarray(secrets)
    return product(count(part) for _, part in game.openings(S))


def bounded_count(game: Game, limit: int, candidates_only: bool, budget: int = COUNT_BUDGET) -> int:
    """min(count, limit + 1) for T(root) (every useful guess) or L(root) (`candidates_only`:
    the guesses that may be the secret; see the module docstring), without listing a tree.

    Saturating arithmetic keeps every number at most limit + 1, and a node's sum stops as soon
    as it passes the limit. Raises CountBudgetExceeded after `budget` candidate sets."""
    cap = limit + 1
    memo: dict[bytes, int] = {}

    def count(S: Indexes) -> int:
        if is_leaf(game, S):
            return 1
        key = S.tobytes()
        if key in memo:
            return memo[key]
        if len(memo) >= budget:
            raise CountBudgetExceeded
        guesses = game.guesses_naming(S) if candidates_only else useful_guesses(game, S)
        total = 0
        for g in guesses.tolist():
            product = 1
            for _, C in _classes(game, g, S):
                product = min(cap, product * count(C))
            total = min(cap, total + product)
            if total >= cap:
                break
        # every non-empty set has at least one undominated tree: keeping L >= 1 keeps it a lower bound
        memo[key] = max(total, 1) if candidates_only else total
        return memo[key]

    total = 1
    for _, part in game.openings(game.all_secrets):
        total = min(cap, total * count(part))
    return total


def check_enumeration_size(game: Game, frontier: bool, max_trees: int = MAX_TREES, budget: int = COUNT_BUDGET) -> None:
    """Refuse, in one line and before listing anything, a game with more than `max_trees`
    trees to list (every tree, or a frontier at least that big), or whose count alone needs
    more than `budget` candidate sets."""
    what = "undominated guesser trees" if frontier else "guesser trees"
    try:
        # L first: it is cheaper (the candidates' guesses only) and T >= L, so L refuses both
        if bounded_count(game, max_trees, candidates_only=True, budget=budget) <= max_trees:
            if frontier or bounded_count(game, max_trees, candidates_only=False, budget=budget) <= max_trees:
                return
    except CountBudgetExceeded:
        raise ArenaError(
            f"{game.spec}: counting its {what} visits more than {budget:,} candidate sets, "
            f"too many to list them all (--method enumerate is for tiny games); {USE_ORACLE}"
        ) from None
    raise ArenaError(f"{game.spec} has more than {max_trees:,} {what}, the most --method enumerate lists; {USE_ORACLE}")


@dataclass
class _Options:
    """The trees kept at one node: costs[k, i] = guesses (from this node on) for S[i], and how
    to rebuild tree k: its guess, and `combo` = which option of each class, in mixed radix."""

    costs: np.ndarray
    guess: np.ndarray
    combo: np.ndarray
    classes: dict[int, list[tuple[Reply, bytes]]] = field(default_factory=dict)  # guess -> (reply, child key)


#: The guess of a game's virtual root whose classes are its openings (Hangman: the lengths).
OPENINGS = -2


@dataclass(frozen=True)
class TreeEnumeration:
    """Guesser trees of a game as payoff columns: costs[k, s] = what tree k costs on secret s
    (its guesses, or the cost `cost` of arena.core.costs). `frontier` says whether only
    undominated trees were kept."""

    game: Game
    costs: np.ndarray
    frontier: bool
    _nodes: dict = field(repr=False, compare=False)
    root: bytes = b""
    cost: str = "guesses"

    def __len__(self) -> int:
        return len(self.costs)

    def plan(self, k: int) -> dict[tuple, Index]:
        """Tree k as a plan ((opening, replies so far...) -> guess)."""
        plan: dict[tuple, Index] = {}

        def walk(key: bytes, option: int, replies: tuple) -> None:
            node = self._nodes[key]
            g = int(node.guess[option])
            if g >= 0:
                plan[replies] = g
            combo = int(node.combo[option])
            children = node.classes[g]
            for position, (reply, child) in enumerate(children):
                stride = 1
                for _, later in children[position + 1 :]:
                    stride *= len(self._nodes[later].costs)
                below = (reply,) if g == OPENINGS else replies + (reply,)
                walk(child, (combo // stride) % len(self._nodes[child].costs), below)

        virtual = self.root == b"openings"
        walk(self.root, k, () if virtual else (self.game.openings(self.game.all_secrets)[0][0],))
        return plan

    def tree(self, k: int):
        """Tree k as an arena.trees.tree.Tree."""
        return plan_tree(self.game, self.plan(k), f"tree #{k}")


def product_size(sizes: list[int], max_trees: int, spec: str) -> int:
    """The number of combinations of the classes' options, refused beyond `max_trees` (the
    frontier check bounds the root; a node's raw product, before dominated options go, may
    still be bigger)."""
    n = 1
    for size in sizes:
        n *= size  # a Python int: cannot overflow
    if n > max_trees:
        raise ArenaError(
            f"listing the trees of {spec} meets {n:,} combinations at one decision point, "
            f"more than {max_trees:,}; {USE_ORACLE}"
        )
    return n


def enumerate_trees(
    game: Game,
    frontier: bool = False,
    max_trees: int = MAX_TREES,
    cost: str | None = None,
    time_limit: float | None = None,
    max_cells: int = MAX_CELLS,
) -> TreeEnumeration:
    """Every tree of the game (or its undominated ones) with its cost on every secret.

    Each node's options are the concatenation, over its useful guesses, of the Cartesian
    product of its classes' options (class C reached by reply r: step(r) + the cost of C's
    option; the hit costs its one guess). A determined set (Hangman) is a leaf with no guess.
    A game that tells the guesser something first has a root whose options are the products
    of its openings' options. Lost games are listed as misses (a tree with fewer misses on
    every word loses no more often: its frontier serves), then counted at the end.

    The listing's real size shows only as it goes: past `max_cells` cells of options built, or
    past `time_limit` seconds, it stops with an ArenaError (a listing has no partial answer).
    """
    paid = cost_for(game, cost)
    listed = paid.counted
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    check_enumeration_size(game, frontier, max_trees)
    nodes: dict[bytes, _Options] = {}
    built = [0]  # cells of options built and compared so far

    def account(cells: int) -> None:
        built[0] += cells
        if built[0] > max_cells:
            raise ArenaError(
                f"listing the {'undominated ' if frontier else ''}trees of {game.spec} has built and "
                f"compared more than {max_cells:,} cells of options, too many to finish soon; {USE_ORACLE}"
            )
        if deadline is not None and time.perf_counter() > deadline:
            raise ArenaError(
                f"listing the trees of {game.spec} passed the time limit of {time_limit:g} s "
                f"(a listing has no partial answer); {USE_ORACLE}, which stops with bounds"
            )

    def combine(S: Indexes, parts: Sequence[tuple[Reply | str, Indexes]], guess: Index, base: np.ndarray) -> tuple:
        """The options of one guess (or of the openings): every combination of its classes'."""
        children = [(r, options(C)) for r, C in parts]
        sizes = [len(nodes[c].costs) for _, c in children]
        n = product_size(sizes, max_trees, game.spec)
        account(n * len(S))
        check_memory(n * (4 * len(S) + 32), f"listing the trees of {game.spec} ({n:,} options at one decision point)")
        block = np.broadcast_to(base, (n, len(S))).copy()
        combo = np.arange(n, dtype=np.int64)
        stride = n
        for (r, C), (_, child), size in zip(parts, children, sizes):
            stride //= size
            which = (combo // stride) % size
            step = 0 if guess == OPENINGS else listed.step(game, cast(Reply, r))
            block[:, np.searchsorted(S, C)] = step + nodes[child].costs[which]
        keep = undominated_columns(block.T, tick=account) if frontier else combo
        return block[keep], np.full(len(keep), guess), combo[keep], children

    def options(S: Indexes) -> bytes:
        key = S.tobytes()
        if key in nodes:
            return key
        if is_leaf(game, S):
            g = int(game.secret_guess[S[0]]) if game.rules.hits else -1  # name the secret, or nothing left
            nodes[key] = _Options(
                np.full((1, len(S)), int(game.rules.hits), np.int8), np.array([g]), np.zeros(1, np.int64), {g: []}
            )
            return key
        blocks, guesses, combos, classes = [], [], [], {}
        for g in useful_guesses(game, S).tolist():
            account(0)
            parts = game.partition(g, S)
            hit = np.zeros(len(S), np.int8)
            for r, C in parts.items():
                if game.finished(r):
                    hit[np.searchsorted(S, C)] = 1  # the hit: this guess, and done
            block, guess, combo, classes[g] = combine(S, _classes(game, g, S), g, hit)
            blocks.append(block)
            guesses.append(guess)
            combos.append(combo)
        costs, guess, combo = np.vstack(blocks), np.concatenate(guesses), np.concatenate(combos)
        if frontier:
            keep = undominated_columns(costs.T, tick=account)
            costs, guess, combo = costs[keep], guess[keep], combo[keep]
        nodes[key] = _Options(costs, guess, combo, classes)
        return key

    S = game.all_secrets
    openings = game.openings(S)
    if len(openings) == 1:
        root = options(S)
    else:  # the openings are classes of a root that guesses nothing
        root = b"openings"
        block, guess, combo, children = combine(S, openings, OPENINGS, np.zeros(len(S), np.int8))
        nodes[root] = _Options(block, guess, combo, {OPENINGS: children})
    costs = nodes[root].costs
    if listed is not paid:  # lost games: the misses listed, compared with the strikes
        costs = paid.of_rows(costs, costs).astype(np.int8)
    return TreeEnumeration(game, costs, frontier, nodes, root, paid.name)
