"""Hunting for tracebacks in the Python API, as tests/test_fuzz_cli.py does for the command line.

Each public entry (make_game, evaluate, tree, optimal, equilibrium, rank, guess_index,
partition) is called with one argument replaced by a generated bad value. Every call either
works or raises, at the door, an ArenaError, TypeError or ValueError whose message is one line
and, for a value of the wrong type, names the argument; never an AttributeError, IndexError,
KeyError or OverflowError from inside. Inputs are counted by entry and outcome in API_COUNTS
(printed with `-s`).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena import ArenaError, make_game
from arena.core.errors import ArenaTypeError
from arena.play.evaluate import evaluate

API_COUNTS: Counter = Counter()
FUZZ = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
SPEC = "mastermind:pegs=2,colors=3"

#: Values of every kind a caller may pass by mistake.
JUNK = st.one_of(
    st.sampled_from(
        [
            None,
            True,
            False,
            -1,
            0,
            1,
            10**30,
            -(10**30),
            2.5,
            math.nan,
            math.inf,
            -math.inf,
            "",
            " ",
            "x",
            "3",
            "knuth",
            "１",
            [],
            [0],
            [-1],
            [99],
            [0.5],
            [[0]],
            {},
            {"a": 1},
            (0,),
            (0, -1),
            b"x",
            object(),
            np.int64(-1),
            np.int64(3),
            np.array([[0]]),
            np.array([0.5]),
            np.array([], dtype=int),
        ]
    ),
    st.integers(),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.integers(-5, 20), max_size=4),
)

#: entry -> (argument name, call with that argument set to the value)
ENTRIES = {
    "make_game": ("spec", lambda g, v: make_game(v)),
    "evaluate.guesser": ("guesser", lambda g, v: g.evaluate(v)),
    "evaluate.chooser": ("chooser", lambda g, v: g.evaluate("lowest", chooser=v)),
    "evaluate.repeat": ("repeat", lambda g, v: g.evaluate("random", repeat=v)),
    "evaluate.seed": ("seed", lambda g, v: g.evaluate("random", seed=v)),
    "evaluate.strikes": ("strikes", lambda g, v: g.evaluate("lowest", strikes=v)),
    "arena.play.evaluate.game": ("game", lambda g, v: evaluate(v, _lowest())),
    "arena.play.evaluate.guesser": ("guesser", lambda g, v: evaluate(g, v)),
    "tree.guesser": ("guesser", lambda g, v: g.tree(v)),
    "tree.seed": ("seed", lambda g, v: g.tree("random", seed=v)),
    "optimal.pool": ("pool", lambda g, v: g.optimal(pool=v)),
    "optimal.objective": ("objective", lambda g, v: g.optimal(objective=v)),
    "optimal.max_guesses": ("max_guesses", lambda g, v: g.optimal(max_guesses=v)),
    "optimal.time_limit": ("time_limit", lambda g, v: g.optimal(time_limit=v)),
    "optimal.weights": ("weights", lambda g, v: g.optimal(weights=v)),
    "optimal.secrets": ("secrets", lambda g, v: g.optimal(secrets=v)),
    "equilibrium.guessers": ("guessers", lambda g, v: g.equilibrium(guessers=v)),
    "equilibrium.time_limit": ("time_limit", lambda g, v: g.equilibrium(time_limit=v)),
    "equilibrium.trees": ("trees", lambda g, v: g.equilibrium(trees=v)),
    "rank.metric": ("metric", lambda g, v: g.rank(v)),
    "rank.top": ("top", lambda g, v: g.rank("entropy", top=v)),
    "guess_index": ("guess", lambda g, v: g.guess_index(v)),
    "partition.guess": ("guess", lambda g, v: g.partition(v, g.all_secrets)),
    "partition.candidates": ("candidates", lambda g, v: g.partition(0, v)),
}


def _lowest():
    from agents import make_guesser

    return make_guesser("lowest")


@pytest.fixture(scope="module")
def game():
    return make_game(SPEC)


@pytest.mark.parametrize("entry", list(ENTRIES))
@FUZZ
@given(value=JUNK)
def test_bad_arguments_are_refused_at_the_door(game, entry, value):
    name, call = ENTRIES[entry]
    if (
        entry == "evaluate.repeat"
        and isinstance(value, (int, np.integer))
        and not isinstance(value, bool)
        and value > 50
    ):
        API_COUNTS[entry, "valid, too long to run"] += 1  # a million repetitions are asked for, and played
        return
    try:
        call(game, value)
    except (ArenaError, TypeError, ValueError) as e:
        message = str(e)
        assert message and "\n" not in message, (entry, value, message)
        if isinstance(e, ArenaTypeError):
            assert name.split(".")[-1] in message or "spec" in message, (entry, value, message)
        elif not isinstance(e, ArenaError):  # Python's own: only for a keyword or call it cannot take
            assert isinstance(e, TypeError) and "argument" in message, (entry, value, type(e), message)
        API_COUNTS[entry, "refused"] += 1
    else:
        API_COUNTS[entry, "ran"] += 1


def test_the_issue_s_reproductions(game):
    """Each raised from inside before: AttributeError 'deterministic', a string read as letters,
    the last guess used for -1, strikes=(0,) accepted."""
    for call, words in [
        (lambda: game.evaluate(None), "guesser"),
        (lambda: evaluate(game, "knuth"), "guesser"),
        (lambda: game.evaluate("random", repeat="3"), "repeat"),
        (lambda: game.evaluate("random", seed="x"), "seed"),
        (lambda: game.guess_index(12), "guess_index"),
        (lambda: game.equilibrium(guessers="knuth"), "guessers"),
        (lambda: game.partition(-1, game.all_secrets), "guess"),
        (lambda: make_game("hangman:length=3,first=10").evaluate("lowest", strikes=(0,)), "strikes"),
    ]:
        with pytest.raises(ArenaError, match=words):
            call()


def test_print_the_counts():
    """Last in the file: the inputs tried, by entry and outcome (shown with -s)."""
    if API_COUNTS:
        print("\napi fuzz inputs:", ", ".join(f"{k[0]} -> {k[1]}: {v}" for k, v in sorted(API_COUNTS.items())))


def test_a_two_dimensional_index_array_is_refused_at_the_door():
    """Found by the fuzzing above: an int array of the wrong shape passed the inner loop's O(1) check."""
    from arena import make_game

    with pytest.raises(ArenaTypeError, match="one-dimensional"):
        make_game("mastermind:pegs=2,colors=3").partition(0, np.array([[0]]))
