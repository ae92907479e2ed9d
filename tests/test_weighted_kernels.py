"""arena/optimal/search/weighted_kernels.py: a weighted node's scores in compiled code are the
numpy path's (the slot bound, the tie-break, b), on random sets, pools and weights (with ties
and heavy secrets), and a weighted search takes the same tree either way."""

from __future__ import annotations

import numpy as np
import pytest

from arena import make_game
from arena.optimal import optimal_tree
from arena.optimal.problem import Problem
from arena.optimal.search import NO_LIMIT
from arena.optimal.search.weighted_kernels import weighted_scores

SPECS = ["mastermind:pegs=3,colors=4", "mastermind:colors=4", "wordle:first=120", "jotto:first=60"]


def searches(spec: str, weights: np.ndarray):
    """The numpy path's search and the compiled one's, on the same problem."""
    game = make_game(spec)
    plain = Problem.of(game, weights=weights).search()
    compiled = Problem.of(game, weights=weights).search()
    plain._weighted = None  # the numpy path, whatever the game's size
    compiled.compile_weighted = True
    return game, plain, compiled


def random_weights(rng, n: int) -> np.ndarray:
    kind = rng.integers(3)
    if kind == 0:
        return rng.uniform(0.1, 2.0, n)
    if kind == 1:  # a few values: ties, as a mix by code type has
        return rng.choice([0.5, 1.0, 3.0], n)
    w = rng.uniform(0.0, 1.0, n) ** 4  # a few heavy secrets
    return w + 1e-3


@pytest.mark.parametrize("spec", SPECS)
def test_compiled_scores_are_the_numpy_paths(spec):
    rng = np.random.default_rng(len(spec))
    n = len(make_game(spec).secrets)
    for _ in range(12):
        game, plain, compiled = searches(spec, random_weights(rng, n))
        S = np.sort(rng.choice(n, size=int(rng.integers(2, n + 1)), replace=False))
        pool = np.sort(rng.choice(len(game.guesses), size=int(rng.integers(1, len(game.guesses) + 1)), replace=False))
        left = NO_LIMIT if rng.random() < 0.5 else int(rng.integers(2, 6))
        bound, spread_of, b = plain.slot_scores(S, pool, left)
        bound_c, spread_c, b_c = compiled.slot_scores(S, pool, left)
        assert b == b_c
        assert np.array_equal(np.isinf(bound), np.isinf(bound_c))
        finite = np.isfinite(bound)
        np.testing.assert_allclose(bound_c[finite], bound[finite], rtol=1e-12)
        every = np.arange(len(pool))
        assert np.array_equal(spread_of(every), spread_c(every))


def test_the_kernel_run_plain_agrees():
    game = make_game("mastermind:pegs=3,colors=3")
    rng = np.random.default_rng(5)
    w = rng.uniform(0.5, 1.5, len(game.secrets))
    S, pool = np.arange(0, 27, 2), np.arange(27)
    args = (game.table, S, pool, w, game.hit, game.n_codes)
    fast = weighted_scores(*args)
    slow = weighted_scores.py_func(*args)
    for x, y in zip(fast[:3], slow[:3]):
        np.testing.assert_allclose(x, y, rtol=1e-15)
    assert fast[3] == slow[3]


@pytest.mark.parametrize("spec", ["mastermind:pegs=3,colors=4", "wordle:first=60"])
def test_a_weighted_search_takes_the_same_tree_either_way(spec, monkeypatch):
    game = make_game(spec)
    w = np.random.default_rng(2).choice([1.0, 2.0, 5.0], len(game.secrets))
    from arena.optimal.search import ordering

    monkeypatch.setattr(ordering, "WEIGHTED_CELLS", 0)
    compiled = optimal_tree(game, weights=w)
    monkeypatch.setattr(ordering, "WEIGHTED_CELLS", 1 << 60)
    plain = optimal_tree(game, weights=w)
    assert compiled.exact and plain.exact
    assert compiled.searched == plain.searched
    assert np.array_equal(compiled.guesses, plain.guesses)


@pytest.mark.parametrize("spec", SPECS)
def test_compiled_classes_and_bounds_are_the_numpy_paths(spec):
    rng = np.random.default_rng(len(spec) + 1)
    n = len(make_game(spec).secrets)
    for _ in range(12):
        game, plain, compiled = searches(spec, random_weights(rng, n))
        S = np.sort(rng.choice(n, size=int(rng.integers(2, n + 1)), replace=False))
        guess = int(rng.integers(len(game.guesses)))
        b, left = int(rng.integers(1, 8)), int(rng.integers(1, 6)) if rng.random() < 0.5 else NO_LIMIT
        classes, bounds = compiled.weighted_classes(guess, S, b, left)
        assert plain.weighted_classes(guess, S, b, left) is None
        expected = plain.classes_of(guess, S)
        assert [r for r, _ in classes] == [r for r, _ in expected]
        for (_, c), (_, e) in zip(classes, expected):
            assert np.array_equal(c, e)
        np.testing.assert_allclose(bounds, [plain.class_bound(c, b, left) for _, c in expected], rtol=1e-12)


def test_the_classes_kernel_run_plain_agrees():
    from arena.optimal.bounds import slot_depths
    from arena.optimal.search.weighted_kernels import weighted_classes

    game = make_game("mastermind:pegs=3,colors=4")
    w = np.random.default_rng(6).uniform(0.5, 1.5, len(game.secrets))
    S = np.arange(0, 64, 3)
    args = (game.table, 5, S, w, game.hit, game.n_codes, slot_depths(64, 3), 3, 6)
    for x, y in zip(weighted_classes(*args), weighted_classes.py_func(*args)):
        np.testing.assert_allclose(x, y, rtol=1e-15)


@pytest.mark.parametrize("spec", SPECS)
def test_compiled_candidates_bound_is_the_plain_pythons(spec):
    from arena.optimal.search.closures import MID_SET

    rng = np.random.default_rng(len(spec) + 2)
    n = len(make_game(spec).secrets)
    for _ in range(20):
        game, plain, compiled = searches(spec, random_weights(rng, n))
        S = np.sort(rng.choice(n, size=int(rng.integers(3, min(n, MID_SET) + 1)), replace=False))
        parts, left = int(rng.integers(2, 10)), int(rng.integers(2, 6))
        value, guess = compiled.close_by_weighted_candidates(S, left, parts)
        expected_value, expected_guess = plain.close_by_weighted_candidates(S, left, parts)
        assert value == pytest.approx(expected_value, rel=1e-12)
        assert guess == expected_guess  # the same closure (or none: -1 both)


def test_the_candidates_kernel_run_plain_agrees():
    from arena.optimal.bounds import slot_depths
    from arena.optimal.search.weighted_kernels import weighted_candidates

    game = make_game("mastermind:pegs=3,colors=4")
    w = np.sort(np.random.default_rng(7).uniform(0.5, 1.5, 20))[::-1].copy()
    S = np.arange(0, 60, 3)
    named = game.secret_guess[S]
    args = (game.table, named, S, w, slot_depths(64, 4), game.hit, game.n_codes)
    assert weighted_candidates(*args) == weighted_candidates.py_func(*args)


@pytest.mark.parametrize("spec", ["wordle:first=120", "jotto:first=60", "mastermind:pegs=3,colors=4"])
def test_compiled_greedy_scores_are_the_numpy_paths(spec):
    """The weighted greedy tree's scores (equilibrium/response.py) compiled, and run plain,
    are the numpy paths' (dense and sorted), inf where they are; and the trees agree."""
    from arena.equilibrium import response
    from arena.optimal.search.weighted_kernels import greedy_scores

    game = make_game(spec)
    rng = np.random.default_rng(len(spec) + 1)
    n = len(game.secrets)
    for _ in range(10):
        w = random_weights(rng, n)
        S = np.sort(rng.choice(n, size=int(rng.integers(2, n + 1)), replace=False))
        pool = np.arange(len(game.guesses))
        args = (game.table, S, pool, w, game.hit, game.n_codes)
        fast, slow = greedy_scores(*args), greedy_scores.py_func(*args)
        for numpy_path in (response._dense_scores, response._sorted_scores):
            want = numpy_path(game, pool, S, w[S])
            for got in (fast, slow):
                assert np.array_equal(np.isinf(got), np.isinf(want))
                np.testing.assert_allclose(got[np.isfinite(want)], want[np.isfinite(want)], rtol=1e-12)


def test_the_weighted_greedy_tree_is_the_same_compiled_or_not(monkeypatch):
    from arena.equilibrium import response
    from arena.optimal.search import weighted_kernels

    game = make_game("wordle:first=200")
    w = np.random.default_rng(3).uniform(0.1, 1.0, len(game.secrets))
    monkeypatch.setattr(response, "_compiled", lambda g: weighted_kernels)
    compiled = response.weighted_greedy_tree(game, w)
    monkeypatch.setattr(response, "_compiled", lambda g: None)
    plain = response.weighted_greedy_tree(game, w)
    assert np.array_equal(compiled.guesses, plain.guesses)
