"""The feedback tables against direct definitions, and the invariants of each game."""

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arena import ArenaError, make_game


def mastermind_reply(guess: str, secret: str) -> tuple[int, int]:
    """Black and white pegs, straight from the rules."""
    black = sum(g == s for g, s in zip(guess, secret))
    common = sum((Counter(guess) & Counter(secret)).values())
    return black, common - black


def jotto_reply(guess: str, secret: str, repeats: bool = False) -> int:
    if repeats:
        return sum((Counter(guess) & Counter(secret)).values())
    return len(set(guess) & set(secret))


@pytest.mark.parametrize(
    "spec",
    [
        "mastermind:pegs=2,colors=3",
        "mastermind:pegs=3,colors=4",
        "mastermind:pegs=3,colors=5,repeats=false",
        "mastermind:pegs=4,colors=3",
    ],
)
def test_mastermind_table_matches_the_rules(spec):
    game = make_game(spec)
    for g, s in itertools.product(range(len(game.guesses)), range(len(game.secrets))):
        assert game.black_white(game.reply(g, s)) == mastermind_reply(game.guesses[g], game.secrets[s])


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 30), st.booleans(), st.integers(0, 2**32 - 1))
def test_mastermind_reply_table_is_the_plain_definition(pegs, colors, repeats, seed):
    """black_white on random guesses and secrets (two different lists, each in its own order;
    few colours counted by colour, many by comparing pegs) against the rules, pair by pair."""
    from arena.games.mastermind import all_codes, black_white, code_count

    assume(code_count(pegs, colors, repeats) <= 50_000 and (repeats or colors >= pegs))
    codes = all_codes(pegs, colors, repeats)
    rng = np.random.default_rng(seed)
    guesses, secrets = codes[rng.integers(0, len(codes), 17)], codes[rng.integers(0, len(codes), 19)]
    table = black_white(guesses, secrets, colors)
    assert table.dtype == np.uint8 and table.shape == (17, 19)
    label = "".join(map(chr, range(65, 65 + colors)))
    for (g, guess), (s, secret) in itertools.product(enumerate(guesses), enumerate(secrets)):
        black, white = mastermind_reply("".join(label[c] for c in guess), "".join(label[c] for c in secret))
        assert table[g, s] == black * (pegs + 1) + white


@pytest.mark.parametrize(
    "spec",
    [
        "mastermind",
        "mastermind:pegs=1,colors=3",
        "mastermind:pegs=3,colors=3,repeats=false",
        "mastermind:pegs=4,colors=7",
        "mastermind:pegs=5,colors=4",
        "mastermind:pegs=3,colors=10,repeats=false",
    ],
)
def test_mastermind_replies_that_occur_are_the_tables(spec):
    """Read off one row per code pattern (aabc, ...), they are every value of the whole table."""
    game = make_game(spec)
    assert game.feedback.codes.tolist() == np.flatnonzero(np.bincount(game.table.ravel())).tolist()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 1295), st.integers(0, 1295))
def test_mastermind_4x6_sampled(g, s):
    game = make_game("mastermind")
    assert game.black_white(game.reply(g, s)) == mastermind_reply(game.guesses[g], game.secrets[s])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2844), st.integers(0, 2844))
def test_jotto_sampled(g, s):
    game = make_game("jotto")
    assert game.reply(g, s) == jotto_reply(game.guesses[g], game.secrets[s])


def test_jotto_with_repeats_counts_multiplicity_and_has_its_own_hit():
    game = make_game("jotto:repeats=true,first=400")
    for g, s in itertools.product(range(0, 400, 7), range(0, 400, 3)):
        expected = game.hit if g == s else jotto_reply(game.guesses[g], game.secrets[s], repeats=True)
        assert game.reply(g, s) == expected


def test_published_jotto_list_and_partitions(jotto):
    assert len(jotto.secrets) == 2845
    assert "raped" in jotto.secrets and "padre" not in jotto.secrets  # our copy of the word file
    counts = jotto.partition_counts(None, jotto.all_secrets)
    assert counts[jotto.guess_index("ouija")].tolist() == [175, 1848, 755, 65, 1, 1]
    assert counts[jotto.guess_index("coder")].tolist() == [433, 1030, 1014, 327, 40, 1]


def test_mastermind_first_guess_worst_classes(mastermind):
    counts = mastermind.partition_counts(None, mastermind.all_secrets)
    worst = {code: counts[mastermind.guess_index(code)].max() for code in ["1111", "1112", "1122", "1123", "1234"]}
    assert worst == {"1111": 625, "1112": 317, "1122": 256, "1123": 276, "1234": 312}


def test_208_codes_after_1122_one_black_one_white(mastermind):
    left = mastermind.consistent(mastermind.all_secrets, mastermind.guess_index("1122"), mastermind.parse_reply("1,1"))
    assert len(left) == 208
    assert mastermind.parse_reply("RW") == mastermind.parse_reply("1,1,2") == mastermind.parse_reply("1,1")


@pytest.mark.parametrize(
    "spec", ["jotto:first=300", "mastermind:pegs=3,colors=5", "mastermind:pegs=4,colors=6,repeats=false"]
)
def test_symmetric_games_have_symmetric_tables(spec):
    game = make_game(spec)
    assert np.array_equal(game.table, game.table.T)
    assert (np.diag(game.table) == game.hit).all()
    off = game.table[~np.eye(len(game.secrets), dtype=bool)]
    assert (off != game.hit).all(), "only the secret itself gets the hit reply"


def test_bulls_and_cows_codes():
    game = make_game("mastermind:pegs=4,colors=10,repeats=false")
    assert len(game.secrets) == 5040
    assert game.secrets[0] == "0123" and all(len(set(c)) == 4 for c in game.secrets[:50])


def test_alphabet_labels():
    game = make_game("mastermind:alphabet=RYGBOP")
    assert game.secrets[0] == "RRRR" and game.guess_index("rygb") == game.guess_index("RYGB")


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 5),
    st.lists(st.sampled_from("RYGBOP0\0éß"), min_size=1, max_size=6, unique=True).map("".join),
    st.randoms(use_true_random=False),
)
def test_code_labels_are_the_symbols_side_by_side(pegs, alphabet, rng):
    """The byte-string labels equal a join per code, on any alphabet (ASCII, NUL, accented)."""
    from arena.games.mastermind import code_labels

    codes = np.array([[rng.randrange(len(alphabet)) for _ in range(pegs)] for _ in range(20)])
    assert code_labels(codes, alphabet) == ["".join(alphabet[c] for c in row) for row in codes]


@pytest.mark.parametrize(
    "spec, words",
    [
        ("mastermind:pegs=0", "positive"),
        ("mastermind:colors=3,pegs=4,repeats=false", "at least pegs"),
        ("mastermind:pegs=9,colors=9", "over the memory limit"),
        ("mastermind:alphabet=AB", "distinct symbols"),
        ("jotto:length=4", "words=web2"),
        ("jotto:words=/no/such/file", "neither a shipped list"),
        ("jotto:first=-1", "first"),
        ("chess", "games: jotto, mastermind, hangman, wordle"),
    ],
)
def test_bad_game_specs_say_what_is_wrong(spec, words):
    with pytest.raises(ArenaError, match=words):
        make_game(spec)


def test_other_word_lengths_from_web2():
    game = make_game("jotto:words=web2,length=4")
    assert all(len(w) == 4 and len(set(w)) == 4 for w in game.secrets[:100])
    assert len(game.secrets) > 1000


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 30),
    st.integers(1, 70),
    st.sampled_from([1, 2, 5, 255, 2**40]),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_unique_rows_is_numpys_unique_of_rows(n, width, top, in_bytes, rng):
    """Rows read as numbers in one base: the same rows, first indexes and inverse as numpy's
    np.unique(axis=0), also where the numbers would not fit in 62 bits (rows of bytes sorted as
    strings then, numpy's own for the rest)."""
    from arena.games.codes import unique_rows

    dtype = np.uint8 if in_bytes and top <= 255 else np.int64
    rows = np.array([[rng.randrange(top + 1) for _ in range(width)] for _ in range(n)], dtype=dtype)
    found, first, inverse = unique_rows(rows)
    want, want_first, want_inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    assert np.array_equal(found, want) and np.array_equal(first, want_first)
    assert np.array_equal(inverse, want_inverse.ravel())
