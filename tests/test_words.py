"""Word files: UTF-8 (with or without a byte-order mark) and UTF-16 with one are read as
written; anything else is one line naming the problem and the line; the words a game's filters
leave out of a user's file are counted in one line (what and why)."""

from __future__ import annotations

import codecs
import warnings

import pytest
from cli_run import one_line, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena import ArenaError, make_game
from arena.core.words import WordsLeftOut, decode, read_words
from arena.games import _build

ENCODINGS = {
    "utf-8": lambda text: text.encode("utf-8"),
    "utf-8 with BOM": lambda text: codecs.BOM_UTF8 + text.encode("utf-8"),
    "utf-16 LE with BOM": lambda text: codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
    "utf-16 BE with BOM": lambda text: codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
}

#: Words as a user may write them: letters of many scripts, apostrophes, hyphens (no spaces,
#: no line breaks, no NUL: a word is one line).
WORD = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters="\x85"),
    min_size=1,
    max_size=12,
).filter(lambda w: w.strip() == w and w.splitlines() == [w])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(WORD, min_size=1, max_size=20), st.sampled_from(list(ENCODINGS)), st.sampled_from(["\n", "\r\n"]))
def test_every_supported_encoding_reads_the_words_as_written(tmp_path, words, encoding, newline):
    path = tmp_path / "w.txt"
    path.write_bytes(ENCODINGS[encoding](newline.join(words) + newline))
    assert read_words(str(path)) == tuple(words)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_are_words_or_one_line(raw):
    """Whatever the bytes: the text, or an ArenaError naming a line; never another exception."""
    try:
        text = decode(raw, "w.txt")
    except ArenaError as e:
        assert "w.txt" in str(e) and "\n" not in str(e)
        return
    assert "\0" not in text


BAD = {
    "latin-1": ("hello\nw\u00e9rld\n".encode("latin-1"), "line 2: not UTF-8"),
    "utf-16 without BOM": ("hello\nworld\n".encode("utf-16-le"), "line 1: a NUL character"),
    "utf-32": ("hello\n".encode("utf-32"), "UTF-32"),
    "cut utf-16": (codecs.BOM_UTF16_LE + "hello\nworld\n".encode("utf-16-le")[:-1], "not UTF-16"),
    "NUL on line 3": (b"one\ntwo\nth\0ree\n", "line 3: a NUL"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_other_encodings_are_refused_in_one_line(capsys, tmp_path, name):
    raw, needle = BAD[name]
    path = tmp_path / "w.txt"
    path.write_bytes(raw)
    rc, out, err = run(capsys, "evaluate", f"hangman:words={path},other=reveal", "lowest")
    one_line(rc, err, needle)


def test_the_issue_s_utf16_file_plays_its_words(capsys, tmp_path):
    """Was decoded as Latin-1 and played 'ÿþh\\x00e\\x00l...' with mean 0.00."""
    path = tmp_path / "u16.txt"
    path.write_bytes("hello\nworld\nthere\n".encode("utf-16"))
    game = make_game(f"hangman:words={path},other=reveal")
    assert list(game.secrets) == ["hello", "world", "there"]
    rc, out, err = run(capsys, "evaluate", f"hangman:words={path},other=reveal", "lowest")
    assert rc == 0 and "mean = 0.00" not in out


@pytest.mark.parametrize(
    "spec, words, needles",
    [
        (
            "jotto:words={}",
            ["abc", "abcde", "zzzzz", "fghij", "ABCDE", "ca-fe"],
            [
                "4 of the 6 words",
                "1 not of 5 letters (such as 'abc')",
                "1 with a repeated letter (such as 'zzzzz')",
                "1 listed twice (such as 'abcde')",
                "1 with characters outside a-z (such as 'ca-fe')",
            ],
        ),
        (
            "jotto:words={}",
            ["stare", "tears", "fghij"],
            ["1 of the 3 words", "an anagram of a later word (such as 'stare')"],
        ),
        (
            "hangman:words={},length=4",
            ["word", "wordy", "x-ray", "Word"],
            [
                "3 of the 4 words",
                "1 not of 4 letters (such as 'wordy')",
                "1 with characters outside a-z (such as 'x-ray')",
                "1 listed twice",
            ],
        ),
        ("hangman:words={},other=reveal", ["a-b", "--", "abc"], ["1 with no letter a-z (such as '--')"]),
        ("wordle:answers={}", ["crane", "cranes", "CRANE", "slate"], ["2 of the 4 words", "not of 5 letters"]),
    ],
)
def test_words_left_out_are_counted_in_one_line(capsys, tmp_path, spec, words, needles):
    path = tmp_path / "w.txt"
    path.write_text("\n".join(words) + "\n")
    rc, out, err = run(capsys, "evaluate", spec.format(path), "lowest")
    assert rc == 0, err
    notes = [line for line in err.splitlines() if "note:" in line]
    assert len(notes) == 1 and len(err.strip().splitlines()) == 1, err
    for needle in needles:
        assert needle in notes[0], notes[0]
    _build.cache_clear()  # built afresh, as in a new process
    with pytest.warns(WordsLeftOut):  # from Python: a warning of its own class
        make_game(spec.format(path))


def test_a_list_with_no_word_left_says_why_in_its_one_line(capsys, tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("abc\nabcdef\n")
    rc, out, err = run(capsys, "evaluate", f"jotto:words={path}", "lowest")
    one_line(rc, err, "no playable words", "2 not of 5 letters")


def test_shipped_lists_and_clean_files_say_nothing(capsys, tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("crane\nslate\nfight\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", WordsLeftOut)
        make_game("jotto:first=50")
        make_game(f"jotto:words={path}")
    rc, out, err = run(capsys, "evaluate", "jotto:first=30", "lowest")
    assert rc == 0 and err == ""
