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
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce

import numpy as np

from ..game import Game, Index, Indexes, Reply
from .dominance import undominated_columns
from .plans import plan_tree

#: Refuse to list more trees than this (their costs are an int8 matrix of this many rows).
MAX_TREES = 5_000_000


def useful_guesses(game: Game, candidates: Indexes) -> np.ndarray:
    """The guesses that may be the secret or split the candidates, in index order."""
    block = game.table[:, candidates]
    splits = (block != block[:, :1]).any(axis=1)
    return np.flatnonzero(splits | game.is_candidate(candidates))


def _classes(game: Game, guess: Index, candidates: Indexes) -> list[tuple[Reply, Indexes]]:
    """The classes of the candidates under a guess, in reply order, without the hit."""
    return [(r, part) for r, part in game.partition(guess, candidates).items() if not game.finished(r)]


def count_trees(game: Game, secrets: Indexes | None = None) -> int:
    """T(S) of the module docstring, exactly (a Python int: it overflows any machine word
    beyond the tiniest games; 3x3 Mastermind has about 2.5e23 trees)."""
    memo: dict[bytes, int] = {}

    def count(S: Indexes) -> int:
        key = S.tobytes()
        if key not in memo:
            memo[key] = 1 if len(S) == 1 else sum(
                reduce(lambda a, b: a * b, (count(C) for _, C in _classes(game, g, S)), 1)
                for g in useful_guesses(game, S))
        return memo[key]

    return count(game.all_secrets if secrets is None else np.asarray(secrets))


@dataclass
class _Options:
    """The trees kept at one node: costs[k, i] = guesses (from this node on) for S[i], and how
    to rebuild tree k: its guess, and `combo` = which option of each class, in mixed radix."""

    costs: np.ndarray
    guess: np.ndarray
    combo: np.ndarray
    classes: dict[int, list[tuple[Reply, bytes]]] = field(default_factory=dict)  # guess -> (reply, child key)


@dataclass(frozen=True)
class TreeEnumeration:
    """Guesser trees of a game as payoff columns: costs[k, s] = guesses tree k needs for
    secret s. `frontier` says whether only undominated trees were kept."""

    game: Game
    costs: np.ndarray
    frontier: bool
    _nodes: dict = field(repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.costs)

    def plan(self, k: int) -> dict[tuple[Reply, ...], Index]:
        """Tree k as a plan (replies so far -> guess)."""
        plan: dict[tuple[Reply, ...], Index] = {}

        def walk(key: bytes, option: int, replies: tuple[Reply, ...]) -> None:
            node = self._nodes[key]
            g = int(node.guess[option])
            plan[replies] = g
            combo = int(node.combo[option])
            children = node.classes[g]
            for position, (reply, child) in enumerate(children):
                stride = 1
                for _, later in children[position + 1:]:
                    stride *= len(self._nodes[later].costs)
                walk(child, (combo // stride) % len(self._nodes[child].costs), replies + (reply,))

        walk(self.game.all_secrets.tobytes(), k, ())
        return plan

    def tree(self, k: int):
        """Tree k as an arena.tree.Tree."""
        return plan_tree(self.game, self.plan(k), f"tree #{k}")


def enumerate_trees(game: Game, frontier: bool = False, max_trees: int = MAX_TREES) -> TreeEnumeration:
    """Every tree of the game (or its undominated ones) with its cost on every secret.

    Each node's options are the concatenation, over its useful guesses, of the Cartesian
    product of its classes' options (hit: 1 guess; class C: 1 + the guesses of C's option).
    """
    if not frontier:
        total = count_trees(game)
        if total > max_trees:
            raise ValueError(f"{game.spec} has {total:,} guesser trees, more than {max_trees:,} to list; "
                             "enumerate the frontier instead")
    nodes: dict[bytes, _Options] = {}

    def options(S: Indexes) -> bytes:
        key = S.tobytes()
        if key in nodes:
            return key
        if len(S) == 1:
            g = int(game.secret_guess[S[0]])
            nodes[key] = _Options(np.ones((1, 1), np.int8), np.array([g]), np.zeros(1, np.int64), {g: []})
            return key
        blocks, guesses, combos, classes = [], [], [], {}
        for g in useful_guesses(game, S).tolist():
            parts = _classes(game, g, S)
            children = [(r, options(C)) for r, C in parts]
            classes[g] = children
            sizes = [len(nodes[c].costs) for _, c in children]
            n = int(np.prod(sizes, dtype=np.int64))
            block = np.ones((n, len(S)), np.int8)  # the hit (if any) costs this one guess
            combo = np.arange(n, dtype=np.int64)
            stride = n
            for (r, C), (_, child), size in zip(parts, children, sizes):
                stride //= size
                which = (combo // stride) % size
                block[:, np.searchsorted(S, C)] = 1 + nodes[child].costs[which]
            keep = undominated_columns(block.T) if frontier else combo
            blocks.append(block[keep])
            guesses.append(np.full(len(keep), g))
            combos.append(combo[keep])
        costs, guess, combo = np.vstack(blocks), np.concatenate(guesses), np.concatenate(combos)
        if frontier:
            keep = undominated_columns(costs.T)
            costs, guess, combo = costs[keep], guess[keep], combo[keep]
        nodes[key] = _Options(costs, guess, combo, classes)
        return key

    root = nodes[options(game.all_secrets)]
    return TreeEnumeration(game, root.costs, frontier, nodes)
