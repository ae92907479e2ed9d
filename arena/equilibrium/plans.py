"""Plans: a deterministic guesser written out as a table from the replies so far to a guess.

Tree enumeration and the exact best response both find a strategy as such a table; following
it with `grow_tree` turns it into an `arena.trees.tree.Tree` like any other guesser's, so everything
that reads trees (costs per secret, strategy tables, JSON) works on equilibrium strategies too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from ..core.errors import RuleBreak
from ..core.game import Game, Index, Indexes
from ..core.players import GuesserProtocol
from ..trees.grow import Spot, can_replay_by_levels, grow_roots, replay_by_levels
from ..trees.saved import Labels, check_tree, read_plan
from ..trees.tree import Node, Tree

#: A plan: the guess at each decision point, by (opening, replies so far...); the opening is
#: what the game told the guesser first (Hangman: the word's length), "" where it tells nothing.
Plan = Mapping[tuple, Index]


def plan_key(game: Game, state) -> tuple:
    """The plan's key for a state: its opening (its candidates share one) and its replies."""
    opening = game.openings(state.candidates[:1])[0][0]
    return (opening,) + tuple(r for _, r in state.history)


class PlanPlayer(GuesserProtocol):
    """A guesser (arena.core.players.GuesserProtocol) that follows a plan."""

    deterministic = True

    def __init__(self, plan: Plan, spec: str):
        self.plan = plan
        self.spec = self.label = spec

    def guess(self, game: Game, state) -> Index:
        key = plan_key(game, state)
        if key not in self.plan:
            raise RuleBreak(f"{self.spec} has no guess after {game.history_label(key[1:]) or 'no replies'}")
        return int(self.plan[key])


def plan_tree(game: Game, plan: Plan, spec: str, secrets: Indexes | None = None) -> Tree:
    """The strategy tree of a plan against every secret (of `secrets`): the tree grow_tree grows
    for PlanPlayer(plan, spec), checked alike, each node's guess looked up by its root's opening
    and its replies (a guesser's State and the opening of its candidates asked at every node
    were most of a saved Wordle tree's replay), a level at a time where the game allows
    (arena.trees.grow.replay_by_levels: a saved state's thousands of trees)."""

    def choose_at(opening: str, whole: bool) -> Callable[[Spot], Index]:
        def choose(spot: Spot) -> Index:
            guess = plan.get((opening,) + spot.replies)
            if guess is None:
                raise RuleBreak(f"{spec} has no guess after {game.history_label(spot.replies) or 'no replies'}")
            return guess

        return choose

    secrets = game.all_secrets if secrets is None else np.asarray(secrets)
    if can_replay_by_levels(game):
        return replay_by_levels(game, plan.get, spec, secrets)
    return grow_roots(game, choose_at, lambda: spec, spec, secrets)


def tree_plan(tree: Tree) -> dict[tuple, Index]:
    """The plan a tree follows (the inverse of `plan_tree`)."""
    return {(node.opening,) + node.replies: node.guess for node in tree.nodes()}


def plan_from_json(game: Game, data, where: str, read: Labels | None = None) -> dict[tuple, Index]:
    """The plan of a tree saved by `Tree.to_json` (the whole tree, format tag and game included),
    read back against the game by the one saved-tree reader (arena.trees.saved: no recursion, a depth
    limit, one-line errors naming `where` and the node); `read`: read_plan's names read before."""
    return read_plan(where, game, check_tree(where, data), read=read)


def first_guesses(tree: Tree, limit: int = 4) -> str:
    """A tree in one line: its first guess, then the second guess after each reply (the
    largest classes first, at most `limit` of them), e.g. `1122; |:3345 |W:2344 ... (+10)`;
    with openings (Hangman's lengths), each opening's so, the largest first, joined by ` / `."""
    game = tree.game

    def line(root: Node) -> str:
        children: list[Node] = sorted(root.children.values(), key=lambda c: -len(c.candidates))
        shown = " ".join(f"{game.history_label(c.replies)}:{game.guesses[c.guess]}" for c in children[:limit])
        more = f" ... (+{len(children) - limit})" if len(children) > limit else ""
        head = f"{root.opening}: " if root.opening else ""
        return head + game.guesses[root.guess] + (f"; {shown}{more}" if children else "")

    roots = sorted(tree.roots, key=lambda r: -len(r.candidates))
    return " / ".join(line(r) for r in roots[:limit]) + (
        f" / ... (+{len(roots) - limit})" if len(roots) > limit else ""
    )
