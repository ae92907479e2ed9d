"""Hangman's support search in compiled code (arena/equilibrium/compiled_letters.py and
letter_loops.py): the same optimum as support_search.LetterSearch, a table that grows, and a search
that stops at its deadline, at the searches' stop flag and at Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from arena import make_game
from arena.core.costs import cost_for
from arena.equilibrium import compiled_letters, letters, support_search
from arena.equilibrium.compiled_letters import CompiledSearch, held_letters

DATA = Path(__file__).resolve().parent.parent / "experiments" / "data"
FAMILIES = """bain cain dain fain gain hain lain main pain rain tain vain wain zain bell cell dell fell
hell jell kell nell sell tell well yell bill dill fill gill hill kill mill pill rill sill till will
bass lass mass pass tass""".split()


def _both(game, words, w, strikes, rank=None):
    """The two searches' optimum of the whole support, and the searches."""
    ones = (1 << len(words)) - 1
    k = strikes or 0
    plain = support_search.LetterSearch(support_search.Opening.of(game, words, w), strikes, None, rank)
    compiled = CompiledSearch(support_search.Opening.of(game, words, w), strikes, None, rank)
    return plain.solve(ones, k, np.inf), compiled.solve(ones, k, np.inf), plain, compiled


@pytest.mark.parametrize(
    ("spec", "cost", "n"),
    [
        ("hangman:length=4", "misses", 40),
        ("hangman:length=4,strikes=2", "lost", 40),
        ("hangman:length=5", "misses", 50),
    ],
)
def test_the_compiled_search_finds_the_same_optimum(spec, cost, n):
    """Random supports (skewed and equal weights, with and without a rank): the same value, and
    where the plain search chose a letter at the top, the compiled one chose a letter as good."""
    game = make_game(spec)
    paid = cost_for(game, cost)
    strikes = paid.strikes if cost == "lost" else None
    rng = np.random.default_rng(3401)
    for trial in range(4):
        words = np.sort(rng.choice(len(game.secrets), n, replace=False))
        w = np.ones(n) if trial % 2 else rng.random(n) ** 3
        w /= w.sum()
        rank = letters.ranks(3)[trial % 3] if trial > 1 else None
        plain, fast, _, compiled = _both(game, words, w, strikes, rank)
        assert fast == pytest.approx(plain, abs=1e-12)
        assert compiled.nodes > 0


@pytest.mark.parametrize("strikes", [None, 3, 2])
def test_families_closed_forms_and_free_letters(tmp_path, strikes):
    """On overlapping pure families (the closed form, the family floor and the free letters at
    work), with a rank (the closed form's first letter): the same value both ways."""
    path = tmp_path / "families.txt"
    path.write_text("\n".join(FAMILIES) + "\n")
    game = make_game(f"hangman:words={path},length=4")
    rng = np.random.default_rng(77)
    for trial in range(6):
        w = rng.random(len(game.secrets)) ** 2 if trial else np.ones(len(game.secrets))
        w /= w.sum()
        words = np.arange(len(game.secrets))
        plain, fast, _, _ = _both(game, words, w, strikes, letters.ranks(4)[trial % 4])
        assert fast == pytest.approx(plain, abs=1e-12)


def test_the_completed_tree_costs_what_the_search_proves(monkeypatch):
    """support_response on the compiled path (forced from one word): an exact bound that the
    tree completed on the whole list pays against the mix, as the plain path's does."""
    game = make_game("hangman:length=4,first=300")
    paid = cost_for(game, "misses")
    rng = np.random.default_rng(5)
    w = rng.random(len(game.secrets)) ** 4
    w[rng.random(len(w)) < 0.7] = 0.0
    w /= w.sum()
    plain = letters.support_response(game, w, paid)
    monkeypatch.setattr(letters, "COMPILED_WORDS", 1)
    fast = letters.support_response(game, w, paid)
    assert plain.exact and fast.exact
    assert fast.bound == pytest.approx(plain.bound, abs=1e-12)
    assert float(fast.mix @ paid.of(fast.tree)) == pytest.approx(fast.bound, abs=1e-12)


def test_the_table_grows_and_keeps_its_entries(monkeypatch):
    """A table of 16 slots fills and grows many times over: the same optimum, and every set
    solved before a growth is read back after it."""
    monkeypatch.setattr(compiled_letters, "FIRST_SLOTS", 16)
    game = make_game("hangman:length=4")
    rng = np.random.default_rng(9)
    words = np.sort(rng.choice(len(game.secrets), 40, replace=False))
    w = rng.random(40)
    w /= w.sum()
    plain, fast, _, compiled = _both(game, words, w, None)
    assert fast == pytest.approx(plain, abs=1e-12)
    assert len(compiled.ks) > 16
    ones = (1 << 40) - 1
    assert compiled.entry(ones, 0) == (pytest.approx(fast, abs=0), compiled.choice(ones, 0))
    assert compiled.known_lower(ones, 0) == 0.0  # exact, not a lower bound


def _compiled_ahead() -> None:
    """The compiled search's code loaded (or compiled, 10-20 s on a fresh cache) before a test
    times a halt."""
    game = make_game("hangman:length=4,first=30")
    _both(game, np.arange(30), np.full(30, 1 / 30), None)


def _hard():
    """A support the compiled search takes 20 s over: a chooser's mix of a Hangman run on the
    Wordle answers (133 words; the plain search took about 700 s)."""
    saved = json.loads((DATA / "hangman-wordle-mix-133.json").read_text())
    game = make_game(saved["game"])
    mix = letters.support_mix(np.array([saved["chooser"].get(s, 0.0) for s in game.secrets]))
    words = np.flatnonzero(mix > 0)
    return game, words, mix[words]


def test_the_deadline_and_the_stop_flag_halt_the_search():
    """A deadline 0.3 s away stops a long search within a poll (support_search.Stopped), and so does
    the searches' stop flag (a first Ctrl-C under a time limit), the search's thread ended."""
    from arena.optimal.search import STOP

    _compiled_ahead()
    game, words, w = _hard()
    ones = (1 << len(words)) - 1
    search = CompiledSearch(support_search.Opening.of(game, words, w), None, time.perf_counter() + 0.3)
    begun = time.perf_counter()
    with pytest.raises(support_search.Stopped):
        search.solve(ones, 0, np.inf)
    assert time.perf_counter() - begun < 3
    assert search.nodes > 0
    search = CompiledSearch(support_search.Opening.of(game, words, w), None, None)
    threading.Timer(0.3, setattr, (STOP, "asked", True)).start()
    begun = time.perf_counter()
    try:
        with pytest.raises(support_search.Stopped):
            search.solve(ones, 0, np.inf)
    finally:
        STOP.asked = False
    assert time.perf_counter() - begun < 3
    assert not [t for t in threading.enumerate() if t.name == "letter-search" and t.is_alive()]


def test_ctrl_c_halts_the_search():
    """Ctrl-C during a long compiled search is KeyboardInterrupt within a poll, and the
    search's thread has ended (it saw its HALT flag)."""
    _compiled_ahead()
    game, words, w = _hard()
    search = CompiledSearch(support_search.Opening.of(game, words, w), None, None)
    kept = signal.signal(signal.SIGINT, signal.default_int_handler)  # pytest-xdist's workers ignore SIGINT
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    begun = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            search.solve((1 << len(words)) - 1, 0, np.inf)
    finally:
        signal.signal(signal.SIGINT, kept)
    assert time.perf_counter() - begun < 3
    assert not [t for t in threading.enumerate() if t.name == "letter-search" and t.is_alive()]


def test_letter_search_chooses_by_support_size(monkeypatch):
    """Supports of COMPILED_WORDS words or more are searched compiled, smaller ones plainly."""
    game = make_game("hangman:length=4,first=60")
    words = np.arange(50)
    w = np.full(50, 0.02)
    monkeypatch.setattr(letters, "COMPILED_WORDS", 50)
    assert type(letters.letter_search(support_search.Opening.of(game, words, w), None, None)) is CompiledSearch
    small = support_search.Opening.of(game, words[:49], w[:49])
    assert type(letters.letter_search(small, None, None)) is support_search.LetterSearch


def test_held_letters():
    """Each word's letters, alphabetical, then -1."""
    presence = np.zeros((26, 2), dtype=bool)
    presence[[0, 4], 0] = True
    presence[2, 1] = True
    assert held_letters(presence).tolist() == [[0, 4], [2, -1]]


def test_the_benchmark_runs_and_agrees(capsys):
    """benchmarks/bench_support_search.py on the mix's 20 and 30 heaviest words: both searches
    end, with the same value (the script asserts it), and print their row."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_support_search.py"
    spec = importlib.util.spec_from_file_location("bench_support_search", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(["--words", "20", "30"])
    out = capsys.readouterr().out
    assert out.count("words: compiled ") == 2 and "stopped" not in out
