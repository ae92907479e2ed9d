"""Exact arithmetic where "exact" is printed (arena/core/weights.py check_weights).

Integer weights whose weighted costs stay below 2^53 give the exact integer total (checked
against a sum of Python ints); a weight past 2^53, weights whose costs overflow, no positive
weight and a secret named twice are refused in one line, from a file and from Python.
"""

from __future__ import annotations

import json

import pytest
from cli_run import one_line, run
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import ArenaError, make_game
from arena.optimal import optimal_tree

SPEC = "mastermind:pegs=2,colors=3"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**44), min_size=9, max_size=9).filter(any))
def test_integer_weights_give_the_exact_integer_total(weights):
    """Below the 2^53 guard the float total is the Python-int total of the tree's costs."""
    game = make_game(SPEC)
    tree = optimal_tree(game, weights=weights)
    exact = sum(w * int(tree.guesses[s]) for w, s in zip(weights, game.all_secrets))
    assert tree.value == exact and int(tree.value) == exact and tree.exact


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2**60), min_size=9, max_size=9))
def test_integer_weights_past_the_guard_are_refused_never_rounded(weights):
    game = make_game(SPEC)
    if not any(weights) or sum(weights) * (len(game.secrets) + 1) > 2**53:
        with pytest.raises(ArenaError, match="2\\^53|positive weight"):
            optimal_tree(game, weights=weights)
    else:
        tree = optimal_tree(game, weights=weights)
        assert tree.value == sum(w * int(tree.guesses[s]) for w, s in zip(weights, game.all_secrets))


FILES = {
    "big.json": ('{"11": 12345678901234567890123}', "an integer above 2^53"),
    "big.txt": ("11 12345678901234567890123\n", "an integer above 2^53"),
    "sum.json": (json.dumps({"11": 2**52, "12": 2**52}), "would pass 2^53"),
    "overflow.json": ('{"11": 1e308, "12": 1e308}', "too big"),
    "zero.json": ('{"11": 0, "12": 0}', "every weight is 0"),
    "empty.json": ("{}", "every weight is 0"),
    "zeros.json": (json.dumps([0] * 9), "every weight is 0"),
    "twice.json": ('{"11": 1, "11": 2}', "named twice"),
    "twice.txt": ("11 1\n12 1\n11 2\n", "named twice"),
}


@pytest.mark.parametrize("name", list(FILES))
@pytest.mark.parametrize("how", ["optimal", "workers", "chooser", "agent"])
def test_bad_weights_are_refused_everywhere(capsys, tmp_path, monkeypatch, name, how):
    monkeypatch.chdir(tmp_path)
    text, needle = FILES[name]
    (tmp_path / name).write_text(text)
    argv = {
        "optimal": ["optimal", SPEC, "--weights", name],
        "workers": ["optimal", SPEC, "--weights", name, "--workers", "1"],
        "chooser": ["evaluate", SPEC, "knuth", "--chooser", f"weighted:file={name}"],
        "agent": ["evaluate", SPEC, f"optimal:weights={name}"],
    }[how]
    rc, out, err = run(capsys, *argv)
    one_line(rc, err, name, needle)


def test_a_secret_named_as_written_and_as_normalised_is_named_twice(capsys, tmp_path):
    game = make_game("jotto:first=5")
    path = tmp_path / "w.txt"
    path.write_text(f"{game.secrets[0]} 1\n{game.secrets[0].upper()} 2\n")
    rc, out, err = run(capsys, "optimal", "jotto:first=5", "--weights", path)
    one_line(rc, err, "named twice")


@pytest.mark.parametrize("weights", [[0] * 9, [float("inf")] + [1] * 8, [1e308] * 9, [2**60] + [0] * 8])
def test_the_python_api_refuses_them_too(weights):
    with pytest.raises(ArenaError):
        optimal_tree(make_game(SPEC), weights=weights)
