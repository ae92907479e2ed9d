"""A guesser that replays a saved strategy tree (`arena tree ... --save FILE`)."""

from __future__ import annotations

import sys

from arena.errors import ArenaError, RuleBreak
from arena.game import Game, Index
from arena.spec import Param
from arena.tree import read_tree_file

from .base import Guesser, State


class Replay(Guesser):
    """Plays the guess a saved tree stores for the replies so far."""

    name = "tree"
    summary = "replay a strategy tree saved as JSON by `arena tree --save`"
    params = {"file": Param("file", str, "", "the saved tree (JSON)")}
    traits = {"deterministic": True, "uses_history": True}

    @classmethod
    def declared_params(cls):
        return dict(cls.params)  # a tree already fixes its first guesses: no openers

    def __init__(self, **values):
        super().__init__(**values)
        if not self.values["file"]:
            raise ArenaError("agent tree: give the saved tree as tree:file=PATH")
        try:
            self.data = read_tree_file(self.values["file"])
        except RecursionError:  # json's parser nests one call per level: no strategy is that deep
            raise ArenaError(f"{self.values['file']}: not a saved strategy tree (nested deeper than the "
                             f"JSON reader's limit of about {sys.getrecursionlimit() // 2} levels)") from None
        self._plans: dict[int, dict[tuple, Index]] = {}

    def plan_for(self, game: Game) -> dict[tuple, Index]:
        if id(game) not in self._plans:
            if game.spec != self.data["game"]:
                raise ArenaError(f"{self.spec} was saved for {self.data['game']}, not {game.spec}")
            plan: dict[tuple, Index] = {}
            for opening, root in self.data["openings"].items():
                self._index(game, root, (opening,), plan)
            self._plans[id(game)] = plan
        return self._plans[id(game)]

    def _index(self, game: Game, root: dict, replies: tuple, plan: dict) -> None:
        """Every node's guess under `root`, by its replies (walked with a stack, not recursion,
        so a deep tree file is read, or refused, without a RecursionError)."""
        stack = [(root, replies)]
        while stack:
            node, replies = stack.pop()
            where = (replies[0] + " " if replies[0] else "") + (game.history_label(replies[1:]) or "the root")
            try:
                plan[replies] = game.guess_index(node["guess"])
                stack.extend((child, replies + (game.parse_reply(label),))
                             for label, child in reversed(list(node.get("replies", {}).items())))
            except (KeyError, TypeError, AttributeError):
                raise ArenaError(f"{self.values['file']}: malformed tree node at {where}") from None
            except ArenaError as e:
                raise ArenaError(f"{self.values['file']}: at {where}: {e}") from None

    def choose(self, game: Game, state: State) -> Index:
        plan = self.plan_for(game)
        opening = game.openings(state.candidates[:1])[0][0]  # the candidates share one opening
        replies = (opening,) + tuple(r for _, r in state.history)
        if replies not in plan:
            raise RuleBreak(f"{self.spec} has no guess after replies "
                            f"{game.history_label(replies[1:]) or '(none)'}")
        return plan[replies]


AGENTS = [Replay]
