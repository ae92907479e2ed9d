"""A guesser that replays a saved strategy tree (`arena tree ... --save FILE`)."""

from __future__ import annotations

from arena.core.errors import ArenaError
from arena.core.game import Game, Index
from arena.core.spec import Param
from arena.core.traits import Traits
from arena.trees.saved import SavedTree

from .base import Guesser, State


class Replay(Guesser):
    """Plays the guess a saved tree stores for the replies so far (arena.trees.saved.SavedTree)."""

    name = "tree"
    summary = "replay a strategy tree saved as JSON by `arena tree --save`"
    params = {"file": Param("file", str, "", "the saved tree (JSON)")}
    traits = Traits(uses_history=True)

    @classmethod
    def declared_params(cls):
        return dict(cls.params)  # a tree already fixes its first guesses: no openers

    def __init__(self, **values):
        super().__init__(**values)
        if not self.values["file"]:
            raise ArenaError("agent tree: give the saved tree as tree:file=PATH")
        self.saved = SavedTree(self.values["file"], self.spec)

    def choose(self, game: Game, state: State) -> Index:
        return self.saved.guess(game, state)


AGENTS = [Replay]
