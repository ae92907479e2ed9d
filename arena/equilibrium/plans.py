"""Plans: a deterministic guesser written out as a table from the replies so far to a guess.

Tree enumeration and the exact best response both find a strategy as such a table; following
it with `grow_tree` turns it into an `arena.tree.Tree` like any other guesser's, so everything
that reads trees (costs per secret, strategy tables, JSON) works on equilibrium strategies too.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..errors import ArenaError, RuleBreak
from ..game import Game, Index, Indexes, Reply
from ..tree import Node, Tree, check_tree, grow_tree, read_plan

Plan = Mapping[tuple[Reply, ...], Index]


class PlanPlayer:
    """A guesser (in the duck-typed sense `grow_tree` needs) that follows a plan."""

    deterministic = True

    def __init__(self, plan: Plan, spec: str):
        self.plan = plan
        self.spec = self.label = spec

    def guess(self, game: Game, state) -> Index:
        replies = tuple(r for _, r in state.history)
        if replies not in self.plan:
            raise RuleBreak(f"{self.spec} has no guess after {game.history_label(replies) or 'no replies'}")
        return int(self.plan[replies])


def plan_tree(game: Game, plan: Plan, spec: str, secrets: Indexes | None = None) -> Tree:
    """The strategy tree of a plan against every secret (of `secrets`)."""
    return grow_tree(game, PlanPlayer(plan, spec), secrets)


def tree_plan(tree: Tree) -> dict[tuple[Reply, ...], Index]:
    """The plan a tree follows (the inverse of `plan_tree`)."""
    return {node.replies: node.guess for node in tree.nodes()}


def plan_from_json(game: Game, data, where: str) -> dict[tuple[Reply, ...], Index]:
    """The plan of a tree saved by `Tree.to_json` (the whole tree, format tag and game included),
    read back against the game by the one saved-tree reader (arena.tree: no recursion, a depth
    limit, one-line errors naming `where` and the node). An equilibrium's trees have one root."""
    plan = read_plan(where, game, check_tree(where, data))
    if any(key[0] for key in plan):
        raise ArenaError(f"{where}: a tree with openings ({', '.join(sorted({k[0] for k in plan}))}) cannot be "
                         f"part of an equilibrium")
    return {key[1:]: guess for key, guess in plan.items()}


def first_guesses(tree: Tree, limit: int = 4) -> str:
    """A tree in one line: its first guess, then the second guess after each reply (the
    largest classes first, at most `limit` of them), e.g. `1122; |:3345 |W:2344 ... (+10)`."""
    game = tree.game
    children: list[Node] = sorted(tree.root.children.values(), key=lambda c: -len(c.candidates))
    shown = " ".join(f"{game.history_label(c.replies)}:{game.guesses[c.guess]}" for c in children[:limit])
    more = f" ... (+{len(children) - limit})" if len(children) > limit else ""
    return game.guesses[tree.root.guess] + (f"; {shown}{more}" if children else "")


def tree_costs(trees: list[Tree], secrets: Indexes) -> np.ndarray:
    """costs[k, i] = guesses tree k needs for secrets[i]."""
    return np.array([t.guesses[secrets] for t in trees], dtype=np.int64).reshape(len(trees), len(secrets))
