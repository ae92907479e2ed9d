"""The `lookahead` guesser: rollout look-ahead over a greedy metric, for instances too big to
solve exactly (Jotto's 2,845 words), with small sets solved exactly and optional exact repair.

At each node the `width` best guesses by the metric are each scored by the cost of the greedy
tree that would follow them, and the cheapest is played (with several metrics, `metric=a+b`, the
top guesses of each, scored by the cheaper of the greedy trees); candidate sets of at most `exact`
secrets are solved exactly. The greedy guesser's own choice is always among those scored, so
the tree never costs more than the greedy one (arena/optimal/lookahead.py has the argument).
`repair=N` then re-solves every subtree of at most N secrets exactly and keeps what is cheaper.
The tree is built once per game (shipped under arena/data/trees/ for known settings).
"""

from __future__ import annotations

from arena.core.errors import ArenaError
from arena.core.game import Game, Indexes
from arena.core.spec import Param
from arena.trees.tree import Tree

from .optimal import TreePlayer
from .scoring import METRICS


def metric_list(text: str, where: str) -> tuple[str, ...]:
    """`entropy+expected` as ("entropy", "expected"), each a known metric."""
    names = tuple(t.strip() for t in text.split("+"))
    for name in names:
        if name not in METRICS:
            raise ArenaError(f"{where}: {name!r} is not a metric; metrics: {', '.join(METRICS)} (join several with +)")
    return names


metric_list.__name__ = "metric+metric"


class Lookahead(TreePlayer):
    """Rollout look-ahead over a greedy metric (see the module docstring)."""

    name = "lookahead"
    summary = "rollout look-ahead: the top guesses by a metric, each scored by the greedy tree after it"
    params = {
        "metric": Param(
            "metric",
            metric_list,
            ("entropy", "expected"),
            "greedy metrics that shortlist and roll out, joined by + (e.g. entropy+expected)",
        ),
        "width": Param("width", int, 8, "guesses rolled out at each node"),
        "exact": Param("exact", int, 20, "solve candidate sets of at most this many secrets exactly"),
        "pool": Param("pool", ("all", "consistent"), "all", "the guesses allowed"),
        "repair": Param("repair", int, 0, "then re-solve subtrees of at most this many secrets exactly (0: no)"),
    }

    def __init__(self, **values):
        super().__init__(**values)
        for name in ("width", "exact", "repair"):
            low = 1 if name == "width" else 0
            if self.values[name] < low:
                raise ArenaError(f"lookahead: {name} must be at least {low}, got {self.values[name]}")

    def check(self, game: Game) -> None:
        """A game the rollouts can play (guesses that hit; Wordle's hard mode with pool=consistent)."""
        self.rollout_for(game)

    def rollout_for(self, game: Game):
        from arena.optimal.lookahead import Rollout

        v = self.values
        return self.per_game(game, "rollout", lambda: Rollout(game, v["metric"], v["width"], v["exact"], v["pool"]))

    def build(self, game: Game, secrets: Indexes | None, turn: int) -> Tree:
        from arena.optimal.lookahead import improve_tree

        rollout = self.rollout_for(game)
        tree = rollout.tree(secrets, self.tree_spec())
        if self.values["repair"]:
            tree, _ = improve_tree(tree, self.values["repair"], search=rollout.search)
        return tree


AGENTS = [Lookahead]
