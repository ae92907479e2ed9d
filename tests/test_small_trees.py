"""The compiled search of small subtrees (arena/optimal/search/small_trees.py, tree_kernels.py)
against the Python search it replaces: the same values, the same trees, the same bounds
returned on a failed search, on small Mastermind and Jotto instances, with the pool of every
guess or of the candidates and under a depth limit.

The loops run here as plain Python (each njit function's `py_func`, which call each other
through the module's names): the same source numba compiles, checked without the half a minute
numba takes to compile it on a fresh clone. The compiled build is what the benchmarks run
(`python benchmarks/bench_optimal.py --scratch`, `benchmarks/bench_peer_optimal.py`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.games import make_game
from arena.optimal import optimal_tree
from arena.optimal.search import Search, branch, stabilizer
from arena.optimal.search import tree_kernels as kernels

LOOPS = ("_capacity", "_hash", "_find", "_remember", "_close_small", "_scores", "_classes", "_known_bounds")
LOOPS += ("solve_set", "open_guess", "solve_classes")


@pytest.fixture
def plain_loops(monkeypatch):
    """The kernels as plain Python functions, and every game's small sets given to them."""
    for name in LOOPS:
        monkeypatch.setattr(kernels, name, getattr(kernels, name).py_func)
    monkeypatch.setattr(branch, "COMPILED_CELLS", 0)


def tree_of(solved) -> tuple:
    return tuple((node.replies, int(node.guess)) for root in solved.roots for node in root.walk())


@pytest.mark.parametrize(
    "spec, options",
    [
        ("mastermind:pegs=2,colors=5", {}),
        ("mastermind:pegs=3,colors=3", {"pool": "consistent"}),
        ("mastermind:pegs=3,colors=3", {"max_guesses": 4}),
        ("jotto:first=24", {}),
    ],
)
def test_small_trees_give_the_python_search_s_value_and_tree(plain_loops, monkeypatch, spec, options):
    game = make_game(spec)
    compiled = optimal_tree(game, **options)
    monkeypatch.setattr(branch, "COMPILED_CELLS", 1 << 62)  # the Python search alone
    python = optimal_tree(game, **options)
    assert compiled.value == python.value == compiled.lower_bound
    assert tree_of(compiled) == tree_of(python)


def test_the_compiled_path_is_taken_and_counts_its_sets(plain_loops):
    game = make_game("mastermind:pegs=2,colors=5")
    search = Search(game, np.ones(len(game.secrets)), symmetry=stabilizer(game))
    value = search.solve(np.arange(len(game.secrets)))
    small = search.small_trees()
    assert small is not None and small.nodes > 0 and search.stats.nodes == small.nodes
    assert value == optimal_tree(game).value


def test_weights_keep_the_python_search():
    game = make_game("mastermind:pegs=2,colors=3")
    weighted = Search(game, np.arange(1.0, len(game.secrets) + 1))
    assert weighted.small_trees() is None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_random_candidate_sets(plain_loops, data):
    """solve(S) on random sets of 3x3 Mastermind, with and without a depth limit: the value and
    best guess the Python search gives, and below the value a failed search's bound."""
    game = _GAME
    chosen = data.draw(st.lists(st.integers(0, len(game.secrets) - 1), min_size=3, max_size=14, unique=True))
    S = np.array(sorted(chosen))
    limit = data.draw(st.sampled_from([None, 3, 4]))
    answers = []
    for below in (64, 0):
        search, failing = (Search(game, np.ones(len(game.secrets)), max_guesses=limit) for _ in range(2))
        search.compiled_below = failing.compiled_below = below
        exact = search.solve(S)
        answers.append((exact, search.best_guess(S) if exact < np.inf else -1))
        if exact < np.inf:
            assert failing.solve(S, exact - 1) >= exact - 1
    assert answers[0] == answers[1]


_GAME = make_game("mastermind:pegs=3,colors=3")
