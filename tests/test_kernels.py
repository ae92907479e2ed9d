"""The compiled engine (arena/core/kernels.py, arena/games/multisets.py) against the numpy one: the same tables, counts, keys and
trees. Feedback computed on the fly (a game over its memory budget) reads as the dense table,
cell for cell, on instances where both fit; compiled counts and fused metric keys equal the
numpy counts and metric keys; the greedy guesser's symmetric pool grows the same trees."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arena.core.feedback
import arena.games.jotto
import arena.games.mastermind
from agents import make_guesser
from arena import make_game
from arena.core.state import State
from arena.trees.greedy import symmetric_pool
from arena.trees.grow import grow_tree
from arena.trees.metrics import METRICS, fused_tables

SPECS = [
    "mastermind:pegs=3,colors=4",
    "mastermind:pegs=4,colors=5,repeats=false",
    "mastermind:pegs=2,colors=9",
    "jotto:first=300",
    "jotto:words=web2,repeats=true,first=400",
    "jotto:positions=true,first=250",
    "jotto:words=web2,repeats=true,positions=true,first=200",
]


def build(spec: str, monkeypatch, how: str):
    """A fresh game: `numpy` (small-game path), `compiled` (numba table and counts) or `fly`."""
    monkeypatch.delenv("ARENA_MEMORY_LIMIT", raising=False)
    cells = 1 if how == "compiled" else 2**23
    for module in (arena.core.feedback, arena.games.mastermind, arena.games.jotto):
        monkeypatch.setattr(module, "COMPILED_CELLS", cells)
    for module in (arena.games.mastermind, arena.games.jotto):  # as if the table were over the budget
        monkeypatch.setattr(module, "fits_in_memory", lambda nbytes: how != "fly")
    from arena.games import _build

    _build.cache_clear()
    game = make_game(spec)
    _build.cache_clear()
    return game


@pytest.fixture(params=SPECS)
def three(request, monkeypatch):
    spec = request.param
    games = {how: build(spec, monkeypatch, how) for how in ("numpy", "compiled", "fly")}
    assert games["fly"].on_the_fly and not games["compiled"].on_the_fly and games["compiled"].compiled
    assert not games["numpy"].compiled
    return games


def test_the_three_engines_give_the_same_table_and_codes(three):
    dense, compiled, fly = three["numpy"], three["compiled"], three["fly"]
    assert np.array_equal(dense.table, compiled.table)
    n = len(dense.secrets)
    assert np.array_equal(fly.table[:, np.arange(n)], dense.table)  # every cell, computed on the fly
    assert np.array_equal(dense.codes, compiled.codes) and np.array_equal(dense.codes, fly.codes)
    assert dense.hit == fly.hit and dense.n_codes == fly.n_codes


def test_on_the_fly_reads_like_numpy_indexing(three):
    dense, fly = three["numpy"], three["fly"]
    S, pool = np.arange(1, len(dense.secrets), 3), np.arange(0, len(dense.guesses), 5)
    for key in [(2, S), (S[:, None], pool), (slice(None), S), (pool,), (slice(3, 9), slice(None, 4)), (4, 7)]:
        assert np.array_equal(fly.table[key], dense.table[key]), key
        assert np.array_equal(fly.by_secret[key], dense.by_secret[key]), key
    assert fly.reply(3, 5) == dense.reply(3, 5)
    assert {r: c.tolist() for r, c in fly.partition(2, S).items()} == {
        r: c.tolist() for r, c in dense.partition(2, S).items()
    }


def test_compiled_counts_and_fused_keys_equal_numpy(three):
    dense = three["numpy"]
    rng = np.random.default_rng(7)
    for size in (2, 9, 60, len(dense.secrets)):
        S = np.sort(rng.choice(len(dense.secrets), size, replace=False))
        for pool in (None, np.sort(rng.choice(len(dense.guesses), 40, replace=False))):
            counts = dense.partition_counts(pool, S)
            for other in (three["compiled"], three["fly"]):
                assert np.array_equal(other.partition_counts(pool, S), counts)
                for metric in METRICS.values():
                    for kind, key in zip(metric.fused, (metric.key, metric.float_key)):
                        if kind is None:
                            continue
                        ikeys, fkeys, largest = other.fused_keys(pool, S, kind, *fused_tables(size))
                        got = ikeys if key is metric.key else fkeys
                        assert np.array_equal(got, key(counts)), (metric.name, kind)  # bit for bit
                        assert np.array_equal(largest, counts.max(axis=1))


@pytest.mark.parametrize(
    "guesser",
    ["knuth", "entropy", "most-parts", "expected", "max-frequency", "entropy:ties=exact", "minimax:pool=consistent"],
)
def test_greedy_trees_are_the_same_on_every_engine(three, guesser):
    trees = [grow_tree(game, make_guesser(guesser)) for game in three.values()]
    first = trees[0]
    for tree in trees[1:]:
        assert np.array_equal(tree.guesses, first.guesses)
        assert [r.guess for r in tree.roots] == [r.guess for r in first.roots]


def test_the_symmetric_pool_keeps_one_guess_per_class():
    game = make_game("mastermind")
    root = symmetric_pool(game, State(game.all_secrets, whole=True))
    assert [game.guesses[g] for g in root] == ["1111", "1112", "1122", "1123", "1234"]  # the five code types
    after = symmetric_pool(game, State(game.all_secrets, ((game.guess_index("1122"), 0),), whole=True))
    assert after is not None and game.guess_index("1122") in after and len(after) < 1296
    assert symmetric_pool(game, State(game.all_secrets[:100])) is None  # not every secret: no symmetry used


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 624), min_size=1, max_size=3), st.integers(0, 624))
def test_the_symmetric_pool_changes_no_greedy_choice(guesses, secret):
    """After any guesses, the pool of representatives picks what the whole pool picks, for
    every metric (including float entropy, whose keys must tie bit for bit)."""
    game = make_game("mastermind:pegs=4,colors=5")
    S, history = game.all_secrets, ()
    for guess in guesses:
        reply = game.reply(guess, secret)
        S = game.consistent(S, guess, reply)
        history += ((guess, reply),)
    state = State(S, history, whole=True)
    reps = symmetric_pool(game, state)
    for name in ("minimax", "entropy", "expected", "most-parts"):
        rule = make_guesser(name).rule
        whole = rule.best(game, state, None, game.partition_counts(None, S))
        if reps is not None:
            assert rule.best(game, state, reps, game.partition_counts(reps, S)) == whole, name


@pytest.mark.parametrize(
    "spec", ["mastermind:pegs=3,colors=4", "jotto:words=web2,repeats=true,first=300", "jotto:positions=true,first=200"]
)
def test_without_the_table_of_kinds_the_loops_count_the_same(spec, monkeypatch):
    """Games with many kinds of tallies (long Jotto lists) sum the symbols in common symbol by
    symbol instead of looking them up: the same replies."""
    from arena.games import multisets

    game = make_game(spec)
    monkeypatch.setattr(multisets, "KINDS", 0)
    codes = build(spec, monkeypatch, "fly").table.source
    assert len(codes.common) == 0
    S = np.arange(0, len(game.secrets), 2)
    assert np.array_equal(codes.counts(game.all_guesses, S, game.n_codes), game.partition_counts(None, S))
    assert np.array_equal(codes.table(), game.table)


def test_threads_split_the_pool_and_change_nothing(monkeypatch):
    """Big calls run on several threads, each writing its own slice of the pool: the same
    tables, counts and keys whatever the number of threads (here three, on every call)."""
    from arena.core import kernels

    spec = "mastermind:pegs=3,colors=5"
    one = {how: build(spec, monkeypatch, how) for how in ("compiled", "fly")}
    monkeypatch.setattr(kernels, "THREAD_CELLS", 1)
    monkeypatch.setenv("ARENA_THREADS", "3")
    assert kernels.threads() == 3  # arena.core.resources.threads, read on every call
    many = {how: build(spec, monkeypatch, how) for how in ("compiled", "fly")}
    assert np.array_equal(one["compiled"].table, many["compiled"].table)
    S = np.arange(1, 125, 2)
    for how in one:
        assert np.array_equal(one[how].partition_counts(None, S), many[how].partition_counts(None, S))
        for kind in ("largest", "float-entropy", "fixed-entropy"):
            got = many[how].fused_keys(None, S, kind, *fused_tables(len(S)))
            want = one[how].fused_keys(None, S, kind, *fused_tables(len(S)))
            assert all(np.array_equal(a, b) for a, b in zip(got, want))


@pytest.mark.parametrize(
    "spec",
    [
        "mastermind",
        "mastermind:pegs=3,colors=5",
        "mastermind:pegs=4,colors=6,repeats=false",
        "mastermind:pegs=2,colors=7",
        "mastermind:pegs=1,colors=1",
    ],
)
def test_the_empty_history_representatives_are_the_type_minima(spec):
    """The empty history's orbits are the code types: its mask, read off the types, is the one
    the group's elements give (min over position permutations of the relabelled codes)."""
    from arena.games.mastermind_symmetry import Stabilizer

    game = make_game(spec)
    root = Stabilizer(game)
    forced, unused = root.forced_elements(), list(range(game.colors))
    images = np.stack([root.index_of(root.relabel(root.apply(f), unused)) for f in forced])
    listed = images.min(axis=0) == np.arange(len(game.secrets))
    fast = root.type_minima()
    if fast is False:
        assert len(game.secrets) == 1
    else:
        assert np.array_equal(fast, listed)


def test_a_pool_in_any_order_is_counted_guess_by_guess(monkeypatch):
    """Only the pool 0, 1, ..., n - 1 takes the loops' no-gather path: a shuffled pool of every
    guess, or one with repeats, is read guess by guess (one thread and several alike)."""
    game = build("mastermind:pegs=3,colors=5", monkeypatch, "compiled")
    rng = np.random.default_rng(3)
    middle = rng.permutation(np.arange(1, 124))
    for pool in (np.concatenate(([0], middle, [124])), np.r_[0, np.full(123, 7), 124]):
        S = np.sort(rng.choice(125, 40, replace=False))
        want = game.feedback.counts_in_chunks(pool, S)
        assert np.array_equal(game.partition_counts(pool, S), want)
        ikeys, _, largest = game.fused_keys(pool, S, "largest", *fused_tables(len(S)))
        assert np.array_equal(ikeys, want.max(axis=1)) and np.array_equal(largest, want.max(axis=1))


def test_more_than_256_colours_on_the_fly(monkeypatch):
    """Colours beyond a byte keep their identity in the compiled loops (symbols as uint16)."""
    from arena.games.mastermind import black_white

    monkeypatch.setattr(arena.games.mastermind, "fits_in_memory", lambda nbytes: False)
    alphabet = "".join(chr(0x4E00 + i) for i in range(300))
    game = arena.games.mastermind.Mastermind("mastermind:pegs=2,colors=300", 2, 300, alphabet=alphabet)
    assert game.on_the_fly and len(game.secrets) == 90_000
    rng = np.random.default_rng(5)
    guesses, secrets = rng.choice(90_000, 50), np.sort(rng.choice(90_000, 400, replace=False))
    secrets = np.r_[secrets, 256, 300 * 256 + 0]  # colour 256 against colour 0
    want = black_white(game.codes_array[guesses], game.codes_array[secrets], 300)
    assert np.array_equal(game.table[guesses[:, None], secrets], want)
    counts = game.partition_counts(guesses, secrets)
    assert np.array_equal(counts, np.stack([np.bincount(row, minlength=game.n_codes) for row in want]))


def test_a_bad_thread_count_is_one_line(monkeypatch):
    from arena.core.errors import ArenaError
    from arena.core.resources import threads

    for bad in ("0", "four", "-2"):
        monkeypatch.setenv("ARENA_THREADS", bad)
        with pytest.raises(ArenaError, match="ARENA_THREADS"):
            threads()


def test_the_exact_search_finds_the_same_optimum_on_every_engine(three):
    """The exact search counts big games' nodes with the compiled loop (Game.reply_major_counts):
    the same optimum, the same sets searched, on the table, compiled and on the fly."""
    from arena.optimal import optimal_tree

    if len(next(iter(three.values())).secrets) > 130:
        pytest.skip("a small instance is enough")
    solved = {how: optimal_tree(game) for how, game in three.items()}
    values = {(tree.value, tree.lower_bound, tree.searched, tree.guesses.sum()) for tree in solved.values()}
    assert len(values) == 1, values


def test_numba_is_imported_without_the_modules_it_only_probes(tmp_path):
    """arena.core.compiled imports numba with coverage and yaml hidden where nothing had loaded them
    (numba only probes for them: 0.05-0.1 s of its start-up), and leaves no trace: both import
    as usual afterwards; a .numba_config.yaml in the working directory keeps yaml."""
    import os
    import subprocess
    import sys

    probe = (
        "import sys; before = {m: m in sys.modules for m in ('coverage', 'yaml')}\n"
        "import arena.core.kernels\n"
        "assert all((m in sys.modules) == b for m, b in before.items()), before\n"
        "assert all(sys.modules.get(m, 1) is not None for m in before)\n"
        "import yaml; print('yaml' if before['yaml'] else 'ok')\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("COV_CORE")}
    ran = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert ran.returncode == 0 and ran.stdout.strip() in ("ok", "yaml"), ran.stderr
    (tmp_path / ".numba_config.yaml").write_text("")
    kept = "import arena.core.kernels, sys; print('yaml' in sys.modules)"
    ran = subprocess.run([sys.executable, "-c", kept], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert ran.returncode == 0 and ran.stdout.strip() == "True", ran.stderr
