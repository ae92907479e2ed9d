"""The one exact search (arena.optimal.search.Search) under its costs, and the game's symmetry.

Oracles: plain recursions over every guess, sharing nothing with the search but the table."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pytest

from arena.core.costs import KINDS, Guesses, Lost, costs_of
from arena.core.errors import ArenaError
from arena.games import make_game
from arena.optimal.search import CostBounds, Search, UntilHit, stabilizer


def brute_worst(game, candidates) -> int:
    """W(C) = min over splitting guesses of max over replies of [cost of the reply + W(class)]."""
    misses = game.rules.cost == "misses"

    @functools.cache
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
                best = min(
                    best,
                    max(
                        (int(game.is_miss(r)) if misses else 1) + (0 if game.finished(r) else w(tuple(p)))
                        for r, p in parts.items()
                    ),
                )
        return best

    return w(tuple(candidates.tolist()))


@pytest.mark.parametrize(
    "spec", ["mastermind:pegs=2,colors=4", "jotto:first=12", "hangman:length=4,first=40", "hangman:length=5,first=60"]
)
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


def brute_misses(game, weights, lost_at=None):
    """M(C) = min over splitting letters of sum over replies of [miss] w(class) + M(class), with
    the first such letter (ties within 1e-9); lost_at=K: the weight of the secrets whose misses
    reach K instead. Returns (value, letter) from (candidates, strikes left)."""

    @functools.cache
    def m(key: tuple, left: int) -> tuple[float, int]:
        c = np.array(key)
        if lost_at is not None and left <= 0:
            return float(weights[c].sum()), -1
        if game.determined(c):
            return 0.0, -1
        best, letter = np.inf, -1
        for g in range(len(game.guesses)):
            parts = game.partition(g, c)
            if len(parts) == 1:
                continue
            total = sum(
                (0.0 if lost_at is not None else float(weights[p].sum()) * game.is_miss(r))
                + m(tuple(p.tolist()), left - int(game.is_miss(r)))[0]
                for r, p in parts.items()
            )
            if total < best - 1e-9:
                best, letter = total, g
        return best, letter

    return m


@pytest.mark.parametrize(
    "spec", ["hangman:length=4,first=40", "hangman:length=5,first=60", "hangman:length=3,first=30"]
)
@pytest.mark.parametrize("weighted", [False, True])
def test_average_misses_and_lost_games_match_the_brute_force(spec, weighted):
    game = make_game(spec)
    rng = np.random.default_rng(5)
    weights = rng.integers(1, 4, len(game.secrets)).astype(float) if weighted else np.ones(len(game.secrets))
    misses = Search(game, weights)
    lost = Search(game, weights, cost="lost")  # within the game's strikes
    brute, brute_lost = brute_misses(game, weights), brute_misses(game, weights, lost_at=game.strikes)
    for n in (2, 4, 7, 10):
        candidates = np.sort(rng.choice(len(game.secrets), min(n, len(game.secrets)), replace=False))
        key = tuple(candidates.tolist())
        value, letter = brute(key, 0)
        assert misses.solve(candidates) == pytest.approx(value)
        assert misses.best_guess(candidates, misses.limit) == letter  # ties to the first letter
        for left in (1, 2):
            value, letter = brute_lost(key, left)
            assert lost.solve(candidates, left=left) == pytest.approx(value)
            assert lost.best_guess(candidates, left) == letter


def test_counting_lost_games_needs_misses_and_strikes():
    with pytest.raises(ArenaError, match="does not fit"):
        Search(make_game("jotto:first=12"), np.ones(12), max_guesses=3, cost="lost")
    game = make_game("hangman:length=4,first=40")
    assert Search(game, np.ones(len(game.secrets)), cost="lost").limit == game.strikes
    assert Search(game, np.ones(len(game.secrets)), max_guesses=2, cost="lost").limit == 2
    with pytest.raises(ArenaError, match="within a limit"):
        Search(game, np.ones(len(game.secrets)), cost=Lost())  # lost games with no strikes


@pytest.mark.parametrize("spec", ["mastermind:pegs=3,colors=5", "mastermind:pegs=3,colors=6,repeats=false"])
def test_the_symmetry_of_a_history_and_its_dead_colours_keeps_every_value(spec):
    """Down a random history: the stabilizer built from its parent's forced elements equals the
    one built from scratch, and the search at the history's candidate set, its pool cut to one
    guess per orbit (of the history's stabilizer and of the permutations of the colours no
    candidate has), finds the value of the search over every guess."""
    from arena.games.mastermind_symmetry import Identity, Stabilizer

    game = make_game(spec)
    rng = np.random.default_rng(7)
    plain = Search(game, np.ones(len(game.secrets)))
    dead_seen = 0
    for _ in range(12):
        sym, S = stabilizer(game), game.all_secrets
        secret = int(rng.integers(len(game.secrets)))
        for _ in range(int(rng.integers(1, 4))):
            guess = int(rng.integers(len(game.guesses)))
            S = game.consistent(S, guess, game.reply(guess, secret))
            history = tuple(sorted(set(sym.history + (guess,)))) if not isinstance(sym, Identity) else None
            sym = sym.after(guess)
            if history is not None:  # the parent's group was not trivial
                scratch = Stabilizer(game, history)
                if isinstance(sym, Identity):
                    assert scratch.trivial()
                else:
                    assert {(t, p) for t, p in sym.forced} == {(t, p) for t, p in scratch.forced}
            if len(S) > 1:
                dead_seen += len(set(range(game.colors)) - set(game.codes_array[S].ravel().tolist())) >= 2
                reduced = Search(game, np.ones(len(game.secrets)), symmetry=sym)
                assert reduced.solve(S, sym=sym) == plain.solve(S), (sym.history, S)
    assert dead_seen  # the dead colours' filter was met


@pytest.mark.parametrize("spec", ["mastermind:pegs=2,colors=4", "jotto:first=12", "hangman:length=4,first=40"])
def test_every_cost_that_fits_a_game_has_its_bounds(spec):
    """The search holds the bounds of its cost and of how the game ends, whatever the cost
    (arena.core.costs.costs_of); no `misses` flag is left to read (the bounds say how the game ends)."""
    game = make_game(spec)
    for name in costs_of(game):
        search = Search(game, np.ones(len(game.secrets)), cost=name)
        assert isinstance(search.bounds, CostBounds) and search.bounds.search is search
        assert search.bounds.cost is KINDS[name] and search.bounds.ends_on_hit == game.rules.hits
        assert not hasattr(search, "misses")
        assert search.hit == (game.hit if game.rules.hits else -1)


def test_a_new_cost_is_one_class_of_bounds():
    """Declaring the cost of a subclass of CostBounds registers it: the search then holds it."""

    @dataclass(frozen=True)
    class Squares(Guesses):  # a cost of arena.core.costs (here: its operations are those of guesses)
        name: ClassVar[str] = "squares"

    game = make_game("jotto:first=12")
    with pytest.raises(ArenaError, match="no bounds for the cost 'squares'"):
        CostBounds.of(Search(game, np.ones(12)), game, Squares())

    class SquaresUntilHit(UntilHit):
        cost = Squares

    try:
        search = Search(game, np.ones(12))
        bounds = CostBounds.of(search, game, Squares())
        assert type(bounds) is SquaresUntilHit and bounds.search is search
    finally:
        del CostBounds.registered[(Squares, True)]
    assert isinstance(Search(game, np.ones(12)).bounds, UntilHit)
