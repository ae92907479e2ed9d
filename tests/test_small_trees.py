"""The compiled search of small subtrees (arena/optimal/search/small_trees.py, tree_kernels.py)
against the Python search it replaces: the same values, the same trees, the same bounds
returned on a failed search, on small Mastermind and Jotto instances, with the pool of every
guess or of the candidates and under a depth limit.

The loops run here as plain Python (each njit function's `py_func`, which call each other
through the module's names): the same source numba compiles, checked without the half a minute
numba takes to compile it on a fresh clone. The compiled build is what the benchmarks run
(`python benchmarks/bench_optimal.py --scratch`, `benchmarks/bench_peer_optimal.py`)."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.errors import Compiling
from arena.games import make_game
from arena.optimal import optimal_tree
from arena.optimal.search import Search, Timeout, branch, ordering, small_trees, stabilizer
from arena.optimal.search import tree_kernels as kernels


def compiled_calls(monkeypatch) -> list[int]:
    """The sizes of the sets SmallTrees.solve_set is called on from now on, in order."""
    calls: list[int] = []
    searched = small_trees.SmallTrees.solve_set

    def counted(self, S, *args):
        calls.append(len(S))
        return searched(self, S, *args)

    monkeypatch.setattr(small_trees.SmallTrees, "solve_set", counted)
    return calls


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


@pytest.mark.parametrize(
    "spec", ["mastermind:pegs=2,colors=5", "mastermind:pegs=3,colors=4", "mastermind:pegs=3,colors=5,repeats=false"]
)
def test_a_compiled_subtree_tries_one_guess_per_orbit_of_its_history(plain_loops, monkeypatch, spec):
    """A compiled call's first set tries the history's orbit representatives, as the Python
    search's node does (issue 33: every guess before, 119 sets searched on 3x4 against 10, and
    6,817 against 3,692 on 4x8 without repeats): the same value, tree and sets searched."""
    game = make_game(spec)
    compiled = optimal_tree(game)
    monkeypatch.setattr(branch, "COMPILED_CELLS", 1 << 62)  # the Python search alone
    python = optimal_tree(game)
    assert compiled.value == python.value
    assert tree_of(compiled) == tree_of(python)
    assert compiled.searched == python.searched


def test_the_tree_is_read_back_from_the_compiled_cache_without_a_search(plain_loops, monkeypatch):
    """After the search, the tree's small sets take their guesses from the compiled cache, read
    in Python (SmallTrees.exact_guess), not from solve_set, which a run then need not load (issue
    33); the tree is the Python search's."""
    game = make_game("mastermind:pegs=3,colors=4")
    calls = compiled_calls(monkeypatch)
    compiled = optimal_tree(game)
    assert calls == [len(game.secrets)]  # the search's own call, at the root
    monkeypatch.setattr(branch, "COMPILED_CELLS", 1 << 62)
    assert tree_of(compiled) == tree_of(optimal_tree(game))


def test_an_exact_guess_is_what_solve_set_answers(plain_loops):
    game = _GAME
    search = Search(game, np.ones(len(game.secrets)), max_guesses=4)
    search.compiled_below = 64
    rng = np.random.default_rng(5)
    tried = 0
    for _ in range(40):
        S = np.sort(rng.choice(len(game.secrets), int(rng.integers(3, 15)), replace=False))
        search.solve(S)
        small = search.small_trees()
        assert small is not None
        for left in (3, 4):
            guess = small.exact_guess(S, left)
            if guess is not None:
                tried += 1
                assert small.solve_set(S, np.inf, left, search.b_max, 0.0, False)[1] == guess
    assert tried > 10


def test_a_compiled_set_s_counts_fit_a_byte():
    """tree_kernels._scores counts a guess's classes in bytes: the compiled search's sets (at
    most SMALL_TREE secrets, the Python search's compiled_below) must stay under 256."""
    assert small_trees.SMALL_TREE < 256
    game = make_game("mastermind:pegs=4,colors=6")
    assert Search(game, np.ones(len(game.secrets))).compiled_below in (0, small_trees.SMALL_TREE)


def test_weights_take_the_compiled_search_where_their_nodes_are_scored_compiled(plain_loops):
    """A weighted search searches small sets in compiled code where its nodes are scored in
    compiled code (weighted_kernels.py: big games, or `compile_weighted`), else in Python."""
    game = make_game("mastermind:pegs=2,colors=3")
    weighted = Search(game, np.arange(1.0, len(game.secrets) + 1))
    assert weighted.small_trees() is None
    weighted = Search(game, np.arange(1.0, len(game.secrets) + 1))
    weighted.compile_weighted = True
    small = weighted.small_trees()
    assert small is not None and small.params[5] == 1  # tree_kernels._WEIGHTED
    assert Search(game, np.ones(len(game.secrets))).small_trees().params[5] == 0


def chooser_weights(kind: str, n: int, seed: int) -> np.ndarray:
    """Weights as a double oracle's chooser mixes have them: a few values (ties, exact sums),
    real numbers, or a few heavy secrets."""
    rng = np.random.default_rng(seed)
    if kind == "few":
        return rng.choice([0.5, 1.0, 3.0], n)
    if kind == "real":
        return rng.uniform(0.1, 2.0, n)
    if kind == "mix":  # a mix's probabilities: bounds far closer together than 1
        w = rng.choice([0.0, 1.0, 2.0, 2.5], n)
        return w / w.sum()
    return rng.uniform(0.0, 1.0, n) ** 4 + 1e-3


@pytest.mark.parametrize("kind", ["few", "real", "heavy", "mix"])
@pytest.mark.parametrize(
    "spec, options",
    [
        ("mastermind:pegs=3,colors=4", {}),
        ("mastermind:pegs=3,colors=3", {"pool": "consistent"}),
        ("mastermind:pegs=3,colors=4", {"max_guesses": 4}),
        ("jotto:first=30", {}),
    ],
)
def test_weighted_small_trees_give_the_python_search_s_value_and_tree(plain_loops, monkeypatch, spec, options, kind):
    """Issue 34 (weighted searches as fast per set as equal-weight ones): the compiled search of
    small sets with a chooser's weights gives the Python search's value and tree, its closures
    (close_by_weighted_candidates), scores, classes and their bounds the same numbers."""
    monkeypatch.setattr(ordering, "WEIGHTED_CELLS", 0)  # weighted nodes scored compiled on any game
    game = make_game(spec)
    w = chooser_weights(kind, len(game.secrets), seed=len(spec) + len(options))
    calls = compiled_calls(monkeypatch)
    compiled = optimal_tree(game, weights=w, **options)
    assert calls  # the compiled path was taken
    monkeypatch.setattr(branch, "COMPILED_CELLS", 1 << 62)  # the Python search alone
    python = optimal_tree(game, weights=w, **options)
    assert compiled.value == pytest.approx(python.value, rel=1e-12)
    assert compiled.exact and python.exact  # a class that failed high is never read as its value (class_searched)
    assert tree_of(compiled) == tree_of(python)


def test_a_class_that_failed_high_fails_its_guess_whatever_the_rounding():
    """shared.class_searched: a class searched with budget limit - (total - lb) that returns a
    bound >= that budget leaves the guess at the limit at least, where total - lb + value
    rounds below it (the numbers of jotto:first=30 under a mix, before: a tree 0.011 worse than
    the optimum, taken for it)."""
    from arena.optimal.search import class_searched

    total, lb, limit = 2.8666666666666663, 0.8555555555555554, 2.8777777777777778
    budget = limit - (total - lb)
    assert total + (budget - lb) < limit  # the rounding the helper guards against
    assert class_searched(total, lb, budget, budget, limit) >= limit
    assert class_searched(total, lb, budget - 0.01, budget, limit) == pytest.approx(limit - 0.01)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_random_weighted_candidate_sets(plain_loops, data):
    """solve(S) with weights on random sets of 3x3 Mastermind, with and without a depth limit:
    the value and best guess the Python search gives (weights of a few values: sums exact in any
    order), and below the value a failed search's bound."""
    game = _GAME
    chosen = data.draw(st.lists(st.integers(0, len(game.secrets) - 1), min_size=2, max_size=14, unique=True))
    S = np.array(sorted(chosen))
    limit = data.draw(st.sampled_from([None, 3, 4]))
    w = chooser_weights("few", len(game.secrets), data.draw(st.integers(0, 99)))
    answers = []
    for below in (64, 0):
        search, failing = (Search(game, w, max_guesses=limit) for _ in range(2))
        search.compile_weighted = failing.compile_weighted = True
        search.compiled_below = failing.compiled_below = below
        exact = search.solve(S)
        answers.append((exact, search.best_guess(S) if exact < np.inf else -1))
        if exact < np.inf:
            assert failing.solve(S, exact - 0.25) >= exact - 0.25
    assert answers[0] == answers[1]


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


# --- a long compiled search returns to Python between chunks (issue 31) ----------------------------
@pytest.fixture
def short_chunks(monkeypatch):
    """Chunks of the fewest sets that still get further (a few sets more than a path holds)."""
    monkeypatch.setattr(small_trees, "MIN_CHUNK", 8)
    monkeypatch.setattr(small_trees, "FIRST_CHUNK", 8)
    monkeypatch.setattr(small_trees, "CHUNK_SECONDS", 0.0)
    stops: list[int] = []
    stopped = small_trees.SmallTrees._stopped

    def counted(self, started, cleared):
        stops.append(int(self.counters[5]))  # tree_kernels._STOPPED, before `between` may raise
        return stopped(self, started, cleared)

    monkeypatch.setattr(small_trees.SmallTrees, "_stopped", counted)
    return stops


@pytest.mark.parametrize("spec", ["jotto:first=60", "mastermind:pegs=4,colors=4"])
def test_a_search_in_chunks_gives_the_same_value_and_tree(plain_loops, short_chunks, monkeypatch, spec):
    game = make_game(spec)
    chunked = optimal_tree(game)
    assert sum(short_chunks) > 0  # the compiled calls stopped and were taken up again
    monkeypatch.setattr(small_trees, "FIRST_CHUNK", 1 << 40)
    short_chunks.clear()
    whole = optimal_tree(game)
    assert not any(short_chunks)
    assert chunked.value == whole.value == chunked.lower_bound
    assert tree_of(chunked) == tree_of(whole)


def test_the_deadline_stops_a_long_compiled_call(plain_loops, short_chunks):
    """jotto:first=60 is one compiled call at the root (60 secrets <= SMALL_TREE): the deadline,
    checked between its chunks, stops it (before, it was checked only before the call)."""
    game = make_game("jotto:first=60")
    search = Search(game, np.ones(len(game.secrets)))
    search.deadline = time.perf_counter() + 0.02
    with pytest.raises(Timeout):
        search.solve(np.arange(len(game.secrets)))
    assert sum(short_chunks) > 0
    small = search.small_trees()
    assert small is not None and search.stats.nodes == small.nodes > 0  # the stopped call's sets counted
    search.deadline = None  # the compiled cache holds nothing half-searched: the search goes on
    assert search.solve(np.arange(len(game.secrets))) == optimal_tree(game).value


def test_the_chunk_follows_the_speed_and_grows_after_a_cleared_cache():
    game = make_game("mastermind:pegs=2,colors=3")
    small = small_trees.SmallTrees(game, False, False, 0, 2)
    calls: list[int] = []
    small.between = lambda: calls.append(1)
    assert not small._stopped(time.perf_counter(), 0)  # the call finished: nothing to do
    small.counters[5] = 1  # tree_kernels._STOPPED
    small.chunk = 1000
    assert small._stopped(time.perf_counter() - 10 * small_trees.CHUNK_SECONDS, 0)
    assert small.chunk == small_trees.MIN_CHUNK and calls == [1]  # slow: the least chunk
    small.counters[3] = 1  # tree_kernels._CLEARED: the cache was cleared in the chunk
    assert small._stopped(time.perf_counter() - 10 * small_trees.CHUNK_SECONDS, 0)
    assert small.chunk == 2 * small_trees.MIN_CHUNK and calls == [1, 1]


def test_a_cold_cache_is_announced_once(monkeypatch):
    class Cold:  # a numba function with nothing compiled, in this process or in its cache
        signatures: list = []

        class _cache:
            class _cache_file:
                @staticmethod
                def _load_index():
                    return {}

    entries = ("solve_set", "open_guess", "solve_classes", "open_first")
    plain = {name: getattr(kernels, name).py_func for name in entries}
    monkeypatch.setattr(small_trees, "_announced", False)
    monkeypatch.setattr(kernels, "solve_set", Cold())
    with pytest.warns(Compiling, match="first run only"):
        small_trees.announce_compiling()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        small_trees.announce_compiling()  # once a process
        monkeypatch.setattr(small_trees, "_announced", False)
        for name in entries:  # plain Python functions: nothing said
            monkeypatch.setattr(kernels, name, plain[name])
        small_trees.announce_compiling()


@pytest.mark.parametrize("left", [3, 4, 1 << 20])
def test_a_small_set_s_weighted_scores_are_the_same_in_either_layout(plain_loops, monkeypatch, left):
    """weighted_kernels.small_weighted_scores: the reply-major grids (Mastermind, Jotto) and
    weighted_scores (Wordle's 243 replies, past GRID_CELLS) give the same bounds, spreads and b,
    the depth limit applied alike."""
    from arena.optimal.search import weighted_kernels

    game = make_game("mastermind:pegs=3,colors=4")
    rng = np.random.default_rng(left)
    pool = np.arange(len(game.guesses), dtype=np.int64)
    cells = weighted_kernels.GRID_CELLS
    assert len(pool) * game.n_codes <= cells  # the grids, unless patched
    for _ in range(10):
        S = np.sort(rng.choice(len(game.secrets), int(rng.integers(3, 30)), replace=False)).astype(np.int64)
        w = chooser_weights(
            ["few", "real", "heavy", "mix"][int(rng.integers(4))], len(game.secrets), int(rng.integers(99))
        )
        args = (game.by_secret, game.table, S, pool, len(pool), w, game.hit, game.n_codes, left)
        grid = weighted_kernels.small_weighted_scores(*args)
        monkeypatch.setattr(weighted_kernels, "GRID_CELLS", 0)
        compact = weighted_kernels.small_weighted_scores(*args)
        monkeypatch.setattr(weighted_kernels, "GRID_CELLS", cells)
        assert grid[2] == compact[2]
        assert np.array_equal(grid[1], compact[1])
        assert np.array_equal(np.isinf(grid[0]), np.isinf(compact[0]))
        assert np.allclose(grid[0][np.isfinite(grid[0])], compact[0][np.isfinite(compact[0])], rtol=1e-12)


@pytest.mark.parametrize("kind", ["equal", "few", "mix"])
@pytest.mark.parametrize(
    "spec, options",
    [("mastermind:pegs=3,colors=5", {}), ("jotto:first=90", {}), ("mastermind:pegs=3,colors=5", {"max_guesses": 5})],
)
def test_a_node_s_guesses_opened_in_one_call_give_the_same_search(plain_loops, monkeypatch, spec, options, kind):
    """hits.search_guesses_compiled (the guesses of a node of more than SMALL_TREE secrets that
    their opened bounds cut, gone through in one compiled call, tree_kernels.open_first) against
    one call a guess: the same value, tree and sets searched. Sets of more than 16 secrets are
    searched in Python here, so that these games have such nodes below their root."""
    monkeypatch.setattr(ordering, "WEIGHTED_CELLS", 0)
    monkeypatch.setattr(branch, "SMALL_TREE", 16)
    game = make_game(spec)
    w = None if kind == "equal" else chooser_weights(kind, len(game.secrets), seed=len(spec))
    opened = []
    for batched in (True, False):
        monkeypatch.setattr(Search, "opens_in_batches", batched)
        calls = kernel_calls(monkeypatch, "open_first")
        solved = optimal_tree(game, weights=w, **options)
        opened.append((solved.value, tree_of(solved), solved.searched, solved.exact))
        assert bool(calls) == batched
    assert opened[0] == opened[1]


def kernel_calls(monkeypatch, name: str) -> list[int]:
    """How many guesses each call of tree_kernels' `name` was given, from now on."""
    calls: list[int] = []
    kernel = getattr(kernels, name)

    def counted(guesses, *args):
        calls.append(len(guesses))
        return kernel(guesses, *args)

    monkeypatch.setattr(kernels, name, counted)
    return calls


def test_guesses_whose_replies_hash_alike_are_told_apart(plain_loops, monkeypatch):
    """open_first skips a guess whose replies are a guess's met before at the node, by a hash
    checked against the replies themselves: with every hash equal, the same search."""
    game = make_game("jotto:first=90")
    w = chooser_weights("real", len(game.secrets), seed=3)
    monkeypatch.setattr(ordering, "WEIGHTED_CELLS", 0)
    monkeypatch.setattr(branch, "SMALL_TREE", 16)
    calls = kernel_calls(monkeypatch, "open_first")
    honest = optimal_tree(game, weights=w)
    monkeypatch.setattr(kernels, "reply_hash", lambda replies: 7)
    colliding = optimal_tree(game, weights=w)
    assert calls
    assert (colliding.value, tree_of(colliding), colliding.searched) == (honest.value, tree_of(honest), honest.searched)
