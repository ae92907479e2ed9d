"""The two-number Jotto (`jotto:positions=true`): the reply (letters in place, letters in common)
against a direct definition, with and without repeated letters; how replies are written and
read; the evil chooser's tie rule; the classic game unchanged. (The commands on small instances
are in tests/test_wordle.py, beside Wordle's.)"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from cli_run import one_line, run
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import make_guesser
from arena import make_game
from arena.core.errors import ArenaError
from arena.trees.grow import grow_tree


def direct(guess: str, secret: str) -> tuple[int, int]:
    """(letters in the right position, letters in common counted with multiplicity)."""
    place = sum(g == s for g, s in zip(guess, secret))
    common = sum((Counter(guess) & Counter(secret)).values())
    return place, common


@pytest.fixture(scope="module")
def two():
    return make_game("jotto:positions=true")


@pytest.mark.parametrize("spec", ["jotto:positions=true", "jotto:positions=true,repeats=true,words=wordle-answers"])
def test_every_pair_of_a_seeded_sample_matches_the_direct_definition(spec):
    game = make_game(spec)
    rng = np.random.default_rng(7)
    n = len(game.secrets)
    for g, s in zip(rng.integers(0, n, 5000).tolist(), rng.integers(0, n, 5000).tolist()):
        assert game.place_common(game.reply(g, s)) == direct(game.guesses[g], game.secrets[s])
    assert game.hit == 35 and game.reply_label(game.hit) == "5,5"
    assert (np.diagonal(game.table) == game.hit).all()
    off = game.table.copy()
    np.fill_diagonal(off, 0)
    assert (off != game.hit).all()  # only the secret has every letter in place, anagrams included


def test_repeated_letters_and_anagrams():
    game = make_game("jotto:positions=true,repeats=true,words=wordle-answers")
    for guess, secret in [
        ("speed", "abide"),
        ("llama", "hello"),
        ("eerie", "there"),
        ("least", "slate"),
        ("steal", "stale"),
    ]:
        assert game.place_common(game.reply(game.guess_index(guess), game.secrets.index(secret))) == direct(
            guess, secret
        )
    assert game.reply_label(game.reply(game.guess_index("least"), game.secrets.index("slate"))) == "1,5"


def test_the_classic_game_is_unchanged():
    classic, two = make_game("jotto"), make_game("jotto:positions=true")
    assert classic.spec == "jotto" and classic.hit == 5 and classic.reply_label(3) == "3"
    assert np.array_equal(two.table % 6, classic.table)  # letters in common, as before
    assert two.spec == "jotto:positions=true"


def test_labels_round_trip_and_mistakes(two, capsys):
    for code in two.codes.tolist():
        assert two.parse_reply(two.reply_label(code)) == code
    assert two.parse_reply(" 1 , 3 ") == two.parse_reply("1 3") == 1 * 6 + 3
    for text, needle in [
        ("3", "write letters in place,letters in common"),
        ("3,2", "more letters in place (3)"),
        ("1,6", "at most 5 letters in common"),
        ("a,b", "write letters in place"),
    ]:
        with pytest.raises(ArenaError, match=needle.replace("(", r"\(").replace(")", r"\)")):
            two.parse_reply(text)
    one_line(*run(capsys, "solve", "jotto:positions=true", "--history", "stoma=2,1")[::2], "more letters in place")


def test_evil_reveals_fewest_letters_in_common_then_in_place(two):
    place_common = [(0, 0), (1, 1), (0, 2), (2, 2), (0, 3)]
    told = two.told(np.array([p * 6 + c for p, c in place_common]))
    assert told.tolist() == sorted(told.tolist())  # in that order: common first, then place
    small = make_game("jotto:positions=true,first=200")
    tree = grow_tree(small, make_guesser("entropy"))
    assert (tree.guesses[small.all_secrets] > 0).all()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2844), st.integers(0, 2844))
def test_reply_is_the_direct_definition_on_any_pair(g, s):
    two = make_game("jotto:positions=true")
    assert two.place_common(two.reply(g, s)) == direct(two.guesses[g], two.secrets[s])
