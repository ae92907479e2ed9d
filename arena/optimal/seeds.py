"""The seed of a search: the greedy trees whose best is the first incumbent, grown side by side
in forked processes where they are slow (the split's parent grows them before any piece can
start), and a tree's weighted cost, the incumbent's measure."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.costs import Cost, Guesses
from ..core.game import Game, Indexes
from ..trees.greedy import greedy_tree
from ..trees.tree import Tree
from .problem import Pool


def best_seed(
    trees: Sequence[Tree], S: Indexes, w: np.ndarray, max_guesses: int | None, paid: Cost | None = None
) -> Tree | None:
    """The cheapest of `trees` over S (by weighted cost, the first of equals) among those that
    find every secret within `max_guesses`; None if none does."""
    paid = paid or Guesses()
    best = None
    for tree in trees:
        if max_guesses is not None and paid.of(tree)[S].max() > max_guesses:
            continue
        if best is None or incumbent_value(tree, w, paid, S) < incumbent_value(best, w, paid, S):
            best = tree
    return best


#: What the processes that grow the seed trees read (set before they are forked: the game's
#: tables are shared copy-on-write, never sent down a pipe).
_SEEDING: dict[str, Any] = {}


#: The split's seed trees after the first grow in forked processes only where the first took
#: at least this long: 5x5's four (0.11 s the first, warming the kernels, then 0.04 s each) took
#: 8% longer forked, by 9 pairs of farm-bench; 4x7's (0.2-0.25 s each) gain.
FORK_AFTER = 0.15


def greedy_trees(
    game: Game,
    S: Indexes,
    pool: Pool,
    metrics: Sequence[str],
    workers: int = 0,
    meanwhile: Callable[[], None] | None = None,
) -> list[Tree]:
    """The greedy tree of each metric over S, in the order of `metrics`: one after the other
    here, `meanwhile()` (if given) after them; or with `workers` >= 1 (Linux's fork), where the
    first took FORK_AFTER or longer, each of the others in a forked process of its own, all at
    once, while this one runs `meanwhile()`. The first warms what every tree uses (the
    compiled kernels of a big table: 5x5's first tree 0.11 s, the next 0.04 s), which the
    forked processes then inherit; one process a tree, because a Pool hands a queued task out
    only when its caller waits (a second tree would wait for `meanwhile` to end). The split's
    parent grows them before any piece can start: on 4x7 the four trees (about 0.8 s) were its
    workers' longest wait. Over every secret they are grown once a game and pool (`_seeds_of`)."""
    known = _seeds_of(game, S, pool)
    if known is not None and all(metric in known for metric in metrics):  # the weights change, not the trees
        if meanwhile is not None:
            meanwhile()
        return [known[metric] for metric in metrics]
    trees = _grow_seeds(game, S, pool, metrics, workers, meanwhile)
    if known is not None:
        known.update(zip(metrics, trees))
    return trees


def _seeds_of(game: Game, S: Indexes, pool: Pool) -> dict[str, Tree] | None:
    """The greedy trees over every secret already grown on this game with this pool, by metric
    (kept on the game: a double oracle's rounds search the same game under new weights, and
    each round's seed is the best of the same four trees, 13 s of Wordle's 18 s round); None
    where S is not every secret (the classes of a search with openers: each met once)."""
    if len(S) != len(game.secrets):
        return None
    grown: dict = game.__dict__.setdefault("_seed_trees", {})
    return grown.setdefault(str(pool), {})


def _grow_seeds(
    game: Game,
    S: Indexes,
    pool: Pool,
    metrics: Sequence[str],
    workers: int,
    meanwhile: Callable[[], None] | None,
) -> list[Tree]:
    """greedy_trees' trees, grown (as its docstring says)."""
    from ..parallel.outcome import returning
    from ..parallel.pool import Pool as Workers
    from ..parallel.pool import context

    started, rest = time.perf_counter(), metrics[1:]
    trees = [greedy_tree(game, metric, pool, S) for metric in metrics[:1]]
    quick = time.perf_counter() - started < FORK_AFTER  # forked, they would cost more than they take
    if workers < 1 or not rest or quick or context().get_start_method() != "fork":
        trees += [greedy_tree(game, metric, pool, S) for metric in rest]
        if meanwhile is not None:
            meanwhile()
        return trees
    _SEEDING.update(game=game, S=S, pool=pool)
    try:
        with Workers(len(rest), functools.partial(returning, _greedy_in_worker)) as on:
            for metric in rest:
                on.submit((metric,))
            on.start()
            if meanwhile is not None:
                meanwhile()
            grown = {metric: result.value_or_raise() for (metric,), result in on.run([])}
    finally:
        _SEEDING.clear()
    for tree in grown.values():
        tree.game = game  # sent back without it (`_greedy_in_worker`)
    return trees + [grown[metric] for metric in rest]


def _greedy_in_worker(metric: str) -> Tree:
    """A forked process's greedy tree of `metric` (`greedy_trees`), sent back without its game:
    the game's tables (6.7 MB pickled on 4x7, 60 MB on MM(5,6)) are the parent's already."""
    tree = greedy_tree(_SEEDING["game"], metric, _SEEDING["pool"], _SEEDING["S"])
    tree.game = None  # type: ignore[assignment]
    return tree


def incumbent_value(tree: Tree, w: np.ndarray, paid: Cost | None = None, S: Indexes | None = None) -> float:
    """The tree's weighted cost over S (default: the secrets it covers)."""
    S = tree.secrets if S is None else S
    return float((paid or Guesses()).of(tree)[S] @ w[S])
