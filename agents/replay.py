"""A guesser that replays a saved strategy tree (`arena tree ... --save FILE`)."""

from __future__ import annotations

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
        self.data = read_tree_file(self.values["file"])
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

    def _index(self, game: Game, node: dict, replies: tuple, plan: dict) -> None:
        where = (replies[0] + " " if replies[0] else "") + (game.history_label(replies[1:]) or "the root")
        try:
            plan[replies] = game.guess_index(node["guess"])
            for label, child in node.get("replies", {}).items():
                self._index(game, child, replies + (game.parse_reply(label),), plan)
        except (KeyError, TypeError, AttributeError):
            raise ArenaError(f"{self.values['file']}: malformed tree node at {where}") from None
        except ArenaError as e:
            if str(self.values["file"]) in str(e):
                raise
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
