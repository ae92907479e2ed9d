"""depth.root_bound taking the guesses by their scores and leaving those scored above the best
(`scores_below_known`) proves what bounding every guess's classes proves, equal weights and
weighted, with a cache the search has filled and without one; and the greedy seed trees over
every secret are grown once a game (seeds.greedy_trees), whatever the weights."""

from __future__ import annotations

import numpy as np
import pytest

from arena import make_game
from arena.optimal.problem import Problem
from arena.optimal.search import Timeout
from arena.optimal.seeds import greedy_trees

SPECS = ["mastermind:pegs=3,colors=4", "mastermind:colors=4", "wordle:first=100", "jotto:first=60"]


def both_bounds(search, S) -> tuple[float, float]:
    """root_bound with the early stop and without it, on the same search state."""
    fast = search.root_bound(S)
    search.bounds.scores_below_known = False  # every guess bounded, as before
    try:
        slow = search.root_bound(S)
    finally:
        del search.bounds.scores_below_known
    return fast, slow


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("weighted", [False, True])
def test_the_root_bound_by_scores_is_the_bound_over_every_guess(spec, weighted):
    game = make_game(spec)
    rng = np.random.default_rng(len(spec) + weighted)
    n = len(game.secrets)
    for trial in range(6):
        w = rng.choice([0.5, 1.0, 2.0], n) if weighted else None
        limit = None if trial < 4 else 3 + trial % 2  # a guess limit: guesses whose classes cannot fit
        search = Problem.of(game, weights=w, max_guesses=limit).search()
        S = np.sort(rng.choice(n, size=int(rng.integers(n // 2, n + 1)), replace=False))
        if trial % 2:  # some classes cached by a search stopped part way
            search.node_limit = 200
            try:
                search.solve(S)
            except Timeout:
                pass
            search.node_limit = None
        fast, slow = both_bounds(search, S)
        assert fast == pytest.approx(slow, rel=1e-12)


def test_the_seed_trees_over_every_secret_are_grown_once_a_game(monkeypatch):
    from arena.optimal import seeds

    game = make_game("mastermind:pegs=3,colors=4")
    game.__dict__.pop("_seed_trees", None)  # make_game's games are shared: an earlier test may have grown them
    S = np.arange(len(game.secrets))
    grown: list[str] = []
    plain = seeds.greedy_tree
    monkeypatch.setattr(
        seeds, "greedy_tree", lambda g, metric, pool, S: grown.append(metric) or plain(g, metric, pool, S)
    )
    first = greedy_trees(game, S, "all", ["entropy", "most-parts"])
    again = greedy_trees(game, S, "all", ["most-parts", "entropy"])
    assert grown == ["entropy", "most-parts"] and again == first[::-1]
    part = greedy_trees(game, S[:30], "all", ["entropy"])  # a part of the secrets: grown, not kept
    assert grown[-1] == "entropy" and len(grown) == 3 and part[0] is not first[0]
    greedy_trees(game, S, "consistent", ["entropy"])  # another pool: its own trees
    assert len(grown) == 4
