"""The scoring guessers, one per partition metric (arena.trees.metrics): `minimax`, `expected`,
`entropy`, `most-parts`, `max-frequency`, and the `knuth` alias. Each is the engine's greedy
guesser (arena.trees.greedy) with the agents' spec, openers and label around it."""

from __future__ import annotations

from arena.core.game import Game, Index
from arena.trees.greedy import TIES, Greedy, greedy_params
from arena.trees.metrics import METRICS, Counts, Metric

from .base import Guesser, State
from .registry import Alias

__all__ = ["METRICS", "Metric", "Counts", "Scoring", "TIES", "SCORING", "scoring_class"]


class Scoring(Guesser):
    """Guess the best-scoring guess of the pool by one metric (see arena.trees.greedy.Greedy)."""

    metric: Metric
    params = greedy_params(METRICS["minimax"])

    def __init__(self, **values):
        super().__init__(**values)
        self.rule = Greedy(self.metric, **{k: self.values[k] for k in greedy_params(self.metric)})

    def level_key(self):
        """The metric's key from class sizes run by run, if this guesser can be grown a whole
        level at a time (exact integer keys only: float entropy keeps its per-node rounding)."""
        return self.rule.level_key()

    def greedy_rule(self) -> Greedy:
        """The engine's greedy rule this guesser plays (arena.trees.levels grows its tree compiled)."""
        return self.rule

    def choose(self, game: Game, state: State) -> Index:
        return self.rule.choose(game, state)


def scoring_class(metric: Metric) -> type[Scoring]:
    """The Scoring subclass for one metric, registered under the metric's name."""
    return type(
        metric.name.title().replace("-", "") + "Guesser",
        (Scoring,),
        {
            "name": metric.name,
            "metric": metric,
            "summary": metric.summary,
            "params": greedy_params(metric),
            "__doc__": f"Scoring guesser: {metric.summary}.",
        },
    )


SCORING = [scoring_class(m) for m in METRICS.values()]
AGENTS = SCORING
ALIASES = [
    Alias(
        "knuth",
        "minimax",
        {"pool": "all", "tiebreak": "consistent"},
        "Knuth 1977: minimax over every code, ties to a consistent code then the lowest",
    )
]
