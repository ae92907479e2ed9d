"""The one exact search (arena.optimal.search.Search) under its costs, and the game's symmetry.

Oracles: plain recursions over every guess, sharing nothing with the search but the table."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from arena.games import make_game
from arena.optimal.search import Search, stabilizer


def brute_worst(game, candidates) -> int:
    """W(C) = min over splitting guesses of max over replies of [cost of the reply + W(class)]."""
    misses = game.rules.cost == "misses"

    @functools.lru_cache(maxsize=None)
    def w(key: tuple) -> int:
        c = np.array(key)
        if misses and game.determined(c):
            return 0
        if not misses and len(c) <= 1:
            return len(c)
        best = 10**9
        for g in range(len(game.guesses)):
            parts = game.partition(g, c)
            if max(len(p) for p in parts.values()) < len(c):
                best = min(best, max((int(game.is_miss(r)) if misses else 1) + (0 if game.finished(r) else w(tuple(p)))
                                     for r, p in parts.items()))
        return best
    return w(tuple(candidates.tolist()))


@pytest.mark.parametrize("spec", ["mastermind:pegs=2,colors=4", "jotto:first=12", "hangman:length=4,first=40",
                                  "hangman:length=5,first=60"])
def test_worst_case_under_either_cost_matches_the_brute_force(spec):
    game = make_game(spec)
    search = Search(game, np.ones(len(game.secrets)))
    rng = np.random.default_rng(3)
    for n in (2, 5, 9, 12):
        candidates = np.sort(rng.choice(len(game.secrets), min(n, len(game.secrets)), replace=False))
        if game.rules.cost == "misses":  # a Hangman class: words of one length
            candidates = candidates[game.lengths[candidates] == game.lengths[candidates[0]]]
        assert search.worst_case(candidates) == brute_worst(game, candidates)


def test_only_mastermind_has_a_symmetry():
    assert make_game("jotto:first=12").symmetry() is None
    assert make_game("hangman:length=4,first=40").symmetry() is None
    game = make_game("mastermind:pegs=3,colors=3")
    orbit, labels, _, order, act = game.symmetry().code_types()
    assert labels == ("aaa", "aab", "abc") and order == 6 * 6
    p = act(7)
    assert np.array_equal(game.table[np.ix_(p, p)], game.table) and np.array_equal(orbit[p], orbit)
    assert stabilizer(game) is not None and stabilizer(make_game("jotto:first=12")) is None
