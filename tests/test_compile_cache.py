"""numba's cache of the compiled kernels (issue 33: no cold start a user waits for): every
kernel is cached, the cache is read from NUMBA_CACHE_DIR where that is set and found again by
the next process, the split compiles once before it forks its workers, and the warm step
(`python -m arena.optimal.search.warm`) fills the cache a first search reads. What a first run
costs is measured by benchmarks/bench_coldstart.py, not here: these tests check behaviour.

The searches here run the kernels as plain Python (each njit function's `py_func`, as
tests/test_small_trees.py does), so that no test waits for numba to compile them."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import numpy as np

from arena.core.errors import Compiling
from arena.games import make_game
from arena.optimal import optimal_tree
from arena.optimal import split as split_module
from arena.optimal.search import Search, small_trees, tree_cache, warm, weighted_kernels
from arena.optimal.search import tree_kernels as kernels
from arena.optimal.solve import SEED_METRICS
from arena.trees import levels


def test_every_compiled_function_is_cached():
    from arena.core import kernels as engine_kernels
    from arena.games import multisets

    dispatchers = [
        value
        for module in (kernels, tree_cache, weighted_kernels, engine_kernels, multisets)
        for value in vars(module).values()
        if hasattr(value, "py_func") and hasattr(value, "_cache")
    ]
    assert len(dispatchers) >= 20
    uncached = [d.py_func.__name__ for d in dispatchers if type(d._cache).__name__ == "NullCache"]
    assert uncached == []


def test_the_cache_dir_is_honoured_and_read_by_the_next_process(tmp_path):
    """A kernel compiled in one process lands in NUMBA_CACHE_DIR; the next process loads it
    from there instead of compiling it (a small kernel: a second or two in all)."""
    code = (
        "from arena.optimal.search import tree_cache as k; k.capacity(3, 4); "
        "print(sum(k.capacity.stats.cache_hits.values()), sum(k.capacity.stats.cache_misses.values()))"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True) for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0], runs[0].stderr
    assert [run.stdout.split() for run in runs] == [["0", "1"], ["1", "0"]]
    assert any(name.startswith("tree_cache.capacity") for _, _, files in os.walk(tmp_path) for name in files)


def test_the_compiled_search_reads_a_read_only_view_of_any_table():
    """One argument type whatever the game's table: a writable one would compile again."""
    game = make_game("mastermind:pegs=2,colors=3")
    table = np.array(game.table)  # a writable copy
    view = small_trees._read_only(table)
    assert not view.flags.writeable and view.flags.c_contiguous and table.flags.writeable
    assert np.array_equal(view, game.table)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Compiling)  # said or not, as numba's cache stands
        small = Search(game, np.ones(len(game.secrets))).small_trees()
    assert small is not None and not small.table.flags.writeable and not small.by_secret.flags.writeable


def test_compile_ahead_leaves_the_search_as_if_nothing_was_searched(plain_loops):
    game = make_game("mastermind:pegs=3,colors=3")
    search = Search(game, np.ones(len(game.secrets)))
    small = search.small_trees()
    assert small is not None
    small_trees.compile_ahead(small)
    assert (small.slots == -1).all() and not small.counters.any() and small.chunk == small_trees.FIRST_CHUNK
    small_trees.compile_ahead(None)  # no compiled search: nothing to do


def test_the_kernels_sort_as_numpy_s_stable_sort(plain_loops):
    rng = np.random.default_rng(33)
    for n in [0, 1, 2, 3, 7, 8, 9, 100, 257]:
        keys = rng.integers(0, 5, n).astype(np.float64)  # ties: the order kept
        assert np.array_equal(kernels._order(keys), np.argsort(keys, kind="mergesort"))


def test_the_split_compiles_once_before_it_forks(plain_loops, monkeypatch):
    calls = []
    monkeypatch.setattr(split_module, "compile_ahead", lambda small: calls.append(small))
    game = make_game("mastermind:pegs=3,colors=3")
    result = split_module.split_root(game, workers=2)
    assert result.exact and result.value == optimal_tree(game).value
    if sys.platform.startswith("linux"):  # forked workers
        assert len(calls) == 1 and isinstance(calls[0], small_trees.SmallTrees)


def test_the_warm_step_compiles_and_says_so(plain_loops, capsys, monkeypatch):
    from arena.core import kernels as engine_kernels

    monkeypatch.setattr(engine_kernels, "_table_counts", engine_kernels._table_counts.py_func)
    seeds: list[str] = []  # the split's seed trees, grown as a big game grows them (compiled levels)
    monkeypatch.setattr(levels, "grow_compiled", lambda game, guesser, secrets: seeds.append(guesser.metric.name))
    with warnings.catch_warnings():
        warnings.simplefilter("error", Compiling)  # said in the warm step's own words instead
        assert warm.main([]) == 0
    assert seeds == list(SEED_METRICS)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("arena: compiling the exact search's kernels")
    assert err[1].startswith("arena: the exact search's kernels are ready (")


def test_arena_warm_builds_both_parts_and_says_so(capsys, monkeypatch):
    """`arena warm` (README's set-up step): the exact search's kernels and Hangman's support
    search, each said with its seconds on stderr (the parts faked here: each is tested below
    and above)."""
    from arena.cli.parser import main
    from arena.equilibrium import warm as letters_warm

    done = []
    monkeypatch.setattr(warm, "warm", lambda: done.append("search") or 1.25)
    monkeypatch.setattr(letters_warm, "warm_letters", lambda: done.append("letters") or 0.5)
    assert main(["warm"]) == 0
    assert done == ["search", "letters"]
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("arena: compiling the exact search's kernels and Hangman's support search")
    assert err[1:] == [
        "arena: the exact search's kernels ready (1.2 s)",
        "arena: Hangman's support search ready (0.5 s)",
    ]


def test_warm_letters_runs_the_compiled_search_under_both_payoffs(monkeypatch):
    """arena.equilibrium.warm: a mix big enough for the compiled support search, searched under
    misses and lost games (its loops as plain Python here: the calls, not numba, are checked)."""
    from arena.equilibrium import compiled_letters, letter_loops
    from arena.equilibrium.warm import warm_letters

    for name, value in list(vars(letter_loops).items()):
        if hasattr(value, "py_func"):
            monkeypatch.setattr(letter_loops, name, value.py_func)
    searched = []
    solve = compiled_letters.CompiledSearch.solve

    def spy(self, C, k, limit):
        searched.append(self.strikes)
        return solve(self, C, k, limit)

    monkeypatch.setattr(compiled_letters.CompiledSearch, "solve", spy)
    assert warm_letters() > 0
    assert searched[0] is None and set(searched) == {None, 6}  # misses, then lost within 6 strikes
