"""What there is, for `arena games`, `arena agents` and `arena rank`: the games and their
parameters, the agents and theirs, and the partition metrics. Loading it loads no agent
(`arena games` starts without the agents package): describe_agents imports them when asked.
The best first guesses by a metric, as (arena.api.frontdoor.rank) values and as `arena rank`'s table."""

from __future__ import annotations

import numpy as np

from ..core import checks as door
from ..core.errors import ArenaError, ArenaTypeError, choices, did_you_mean
from ..core.game import Game
from ..games import GAMES
from ..trees.metrics import METRICS

__all__ = ["GAMES", "METRICS", "best_first", "describe_agents", "rank_table"]


def describe_agents() -> list[tuple[str, str, str, list[str]]]:
    """Every agent as (name, role, summary, its parameters' lines) (agents.describe_agents)."""
    from agents import describe_agents as described

    return described()


def best_first(game: Game, metric: str, top: int = 10):
    """The indexes of the `top` best first guesses by `metric` (stable order), every guess's
    metric value, and the whole pool's ReplyCounts against every secret."""
    if not isinstance(metric, str):
        raise ArenaTypeError(f"metric must be a metric's name such as 'entropy', got {metric!r}")
    if metric not in METRICS:
        raise ArenaError(f"unknown metric {metric!r}{did_you_mean(metric, METRICS)}; metrics: {choices(METRICS)}")
    top = door.integer(top, "top", low=1)
    scorer = METRICS[metric]
    replies = game.reply_counts(None, game.all_secrets)
    order = np.argsort(scorer.key(replies.counts), kind="stable")[:top]
    return order, scorer.value(replies.counts), replies


def rank_table(game: Game, metric: str, top: int = 10) -> str:
    """`arena rank`'s table: the `top` best first guesses by `metric`, each with its value, its
    largest class, its number of classes and the size of each reply's class."""
    order, values, replies = best_first(game, metric, top)
    scorer = METRICS[metric]
    counts = replies.counts
    used = game.codes
    by_reply = replies.of(used)  # column k: reply used[k] (counts' own columns may be fewer)
    lines = [f"best first guesses of {game.spec} by {scorer.name} ({scorer.summary}), {len(game.secrets):,} secrets"]
    header = "replies " + " ".join(game.reply_label(int(c)) for c in used)
    lines.append(f"{'rank':>4} {'guess':<8} {scorer.name:>13} {'largest':>7} {'parts':>5}  {header}")
    for rank, g in enumerate(order, 1):
        value = values[g]
        shown = f"{value:.4f}" if isinstance(value, (float, np.floating)) else f"{value}"
        row = " ".join(str(int(n)) for n in by_reply[g])
        lines.append(
            f"{rank:>4} {game.guesses[g]:<8} {shown:>13} {counts[g].max():>7} {np.count_nonzero(counts[g]):>5}  {row}"
        )
    return "\n".join(lines)
