"""The games and the engine refuse what will not fit and never give a wrong reply (issue 10).

Each test reproduces one way an instance or an input used to crash, run away with memory or
answer wrongly: tables checked against the memory budget before they are built, reply codes
wide enough for every code, strict reply parsing, word and tree files that cannot be read,
and evaluations that stream their repetitions (the same figures whatever the block size).
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import numpy as np
import pytest
from cli_run import run

from agents import make_chooser, make_guesser
from arena import make_game
from arena.core.errors import ArenaError
from arena.core.feedback import code_dtype
from arena.core.words import read_words
from arena.games import mastermind
from arena.play import evaluate as evaluate_module
from arena.play.evaluate import Sums, evaluate
from arena.play.match import evaluate_against
from arena.study.tournament.tally import Tally
from arena.trees.grow import MAX_GUESSES


def one_line_error(capsys, *argv: str) -> str:
    """The single stderr line of a refused command (exit 2, no traceback)."""
    rc, _, err = run(capsys, *argv)
    assert rc == 2, err
    assert "Traceback" not in err and "\n" not in err.strip(), err
    return err.strip()


# --- memory before allocation ----------------------------------------------------------------


def test_a_jotto_table_over_the_budget_is_computed_on_the_fly_or_refused(monkeypatch):
    # 32,286 nine-letter words: a 1 GB table (it used to allocate 7.8 GB and die); over a 512 MB
    # budget the replies are computed on the fly, and a budget too small even for that is refused
    monkeypatch.setenv("ARENA_MEMORY_LIMIT", "512M")
    game = make_game("jotto:words=web2,repeats=true,length=9")
    assert game.on_the_fly and len(game.secrets) == 32_286 and game.codes.tolist() == list(range(11))
    assert game.partition_counts(np.array([0]), game.all_secrets).sum() == 32_286
    monkeypatch.setenv("ARENA_MEMORY_LIMIT", "1M")
    with pytest.raises(
        ArenaError, match=r"jotto.*computed on the fly \(32,286 codes.*over the memory limit of 1\.0 MiB"
    ):
        make_game("jotto:words=web2,repeats=true,length=9")


@pytest.mark.parametrize(
    "spec, words",
    [
        ("mastermind:pegs=100000", "at most 14 pegs"),
        ("mastermind:pegs=14,colors=1000000000000", "more than any machine has"),
        ("mastermind:pegs=1,colors=100000", "over the memory limit"),
        ("mastermind:pegs=12,colors=12,repeats=false", "over the memory limit"),
    ],
)
def test_huge_mastermind_instances_are_one_line(capsys, spec, words):
    line = one_line_error(capsys, "evaluate", spec, "random")
    assert words in line and spec in line


def test_the_mastermind_code_cap_is_the_memory_budget(monkeypatch):
    """32,768 codes (pegs=5, colors=8) was refused by a fixed cap of 20,000; it needs about
    2 GiB for both tables, so a 6 GiB budget takes it and a 1 GiB one refuses it."""
    n = mastermind.code_count(5, 8, True)
    assert n == 32_768 and mastermind.code_count(4, 10, False) == 5040
    needed = 2 * n * n + mastermind.build_bytes(n, 5, 8)
    assert 2 * 2**30 < needed < 3 * 2**30
    from arena.core.feedback import check_table_memory

    monkeypatch.setenv("ARENA_MEMORY_LIMIT", "6G")
    check_table_memory("mastermind:pegs=5,colors=8", n, n, 1, mastermind.build_bytes(n, 5, 8))
    monkeypatch.setenv("ARENA_MEMORY_LIMIT", "1G")  # over the budget: computed on the fly
    assert make_game("mastermind:pegs=5,colors=8").on_the_fly


def test_a_huge_hangman_list_is_refused_before_it_is_built(monkeypatch, tmp_path):
    path = tmp_path / "many.txt"
    path.write_text(
        "\n".join(f"w{i:07d}".translate(str.maketrans("0123456789", "abcdefghij")) for i in range(200_000)) + "\n"
    )
    monkeypatch.setenv("ARENA_MEMORY_LIMIT", "64M")
    with pytest.raises(ArenaError, match=r"feedback table of hangman.*26 guesses x 200,000 secrets"):
        make_game(f"hangman:words={path}")


def test_a_word_file_bigger_than_the_budget_is_refused(monkeypatch, tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("abcde\n" * 200_000)
    monkeypatch.setenv("ARENA_MEMORY_LIMIT", "1M")
    with pytest.raises(ArenaError, match="the word list .*big.txt.* over the memory limit"):
        read_words(str(path))
    gz = tmp_path / "big.txt.gz"
    gz.write_bytes(gzip.compress(b"abcde\n" * 200_000))  # 3 KB that expands to 1.2 MB
    with pytest.raises(ArenaError, match=r"big.txt.gz' \(decompressed\).* over the memory limit"):
        read_words(str(gz))


def test_partition_counts_in_column_blocks_count_the_same(monkeypatch, mastermind, jotto):
    """The pool is counted a block of columns at a time (so a big game's keys stay small):
    any block size gives the same counts."""
    import arena.core.feedback as feedback_module

    rng = np.random.default_rng(5)
    cases = [
        (mastermind, None, mastermind.all_secrets),
        (mastermind, np.sort(rng.choice(1296, 300, replace=False)), np.sort(rng.choice(1296, 500, replace=False))),
        (jotto, None, np.sort(rng.choice(len(jotto.secrets), 40, replace=False))),
    ]
    whole = [g.partition_counts(pool, cands) for g, pool, cands in cases]
    monkeypatch.setattr(feedback_module, "CHUNK", 1000)
    for (g, pool, cands), expected in zip(cases, whole):
        assert np.array_equal(g.partition_counts(pool, cands), expected)


# --- reply codes wide enough -------------------------------------------------------------------


def test_code_dtype_holds_every_code():
    assert code_dtype(256) == np.uint8 and code_dtype(257) == np.uint16
    assert code_dtype(65_536) == np.uint16 and code_dtype(65_537) == np.uint32
    assert code_dtype(3, at_least=np.uint16) == np.uint16


def test_hangman_with_more_than_65536_position_masks_replies_right(tmp_path):
    """70,000 distinct 20-letter words over `ab`: 140,001 distinct masks. Stored as uint16 the
    codes wrapped and `b` got another word's reply ("no secret is consistent")."""
    rng = random.Random(1)
    words = [format(c, "020b").translate(str.maketrans("01", "ab")) for c in rng.sample(range(2**20), 70_000)]
    path = tmp_path / "ab.txt"
    path.write_text("\n".join(words) + "\n")
    game = make_game(f"hangman:words={path},length=20")
    assert len(game.masks) > 65_536 and game.table.dtype == np.uint32
    for s in rng.sample(range(len(words)), 200):
        word = game.secrets[s]
        for letter in "ab":
            reply = game.reply(game.guess_index(letter), s)
            assert game.positions(reply) == [i + 1 for i, c in enumerate(word) if c == letter]
            assert game.parse_reply(game.reply_label(reply)) == reply
        # the `b` positions alone name the word
        b = game.guess_index("b")
        assert game.consistent(game.all_secrets, b, game.reply(b, s)).tolist() == [s]


def test_mastermind_with_more_than_256_colours(capsys):
    """Colour indexes were uint8: 300 colours overflowed (`256 out of bounds for uint8`)."""
    alphabet = "".join(chr(0x100 + i) for i in range(300))
    game = make_game(f"mastermind:pegs=1,colors=300,alphabet={alphabet}")
    assert len(game.secrets) == 300 and game.codes_array.dtype == np.uint16
    assert game.secrets[-1] == alphabet[-1]
    assert np.array_equal(np.diag(game.table), np.full(300, game.hit))
    assert (game.table[~np.eye(300, dtype=bool)] == 0).all()
    assert game.reply(game.guess_index(alphabet[299]), 299) == game.hit


@pytest.mark.parametrize(
    "pegs, colors, repeats", [(2, 6, True), (3, 10, False), (2, 9, True), (1, 7, True), (3, 4, True)]
)
def test_common_colours_by_pegs_equals_by_counts(pegs, colors, repeats):
    """Many colours count common colours by comparing pegs (pegs**2 a pair, not colors): the
    same numbers as colour counts."""
    codes = mastermind.all_codes(pegs, colors, repeats)
    onehot = np.eye(colors, dtype=np.uint8)
    counts = onehot[codes].sum(axis=1)
    expected = np.minimum(counts[:, None, :], counts[None, :, :]).sum(axis=2)
    assert np.array_equal(mastermind._common_by_pegs(codes, codes), expected)


# --- other=reveal with any character --------------------------------------------------------


def test_reveal_keeps_words_with_accents(tmp_path):
    path = tmp_path / "cafe.txt"
    path.write_text("café\ncafe\nnaïve\ndog\nit's\n")
    game = make_game(f"hangman:words={path},other=reveal")
    assert set(game.secrets) == {"café", "cafe", "naïve", "dog", "it's"}
    cafe = game.secrets.index("café")
    assert game.positions(game.reply(game.guess_index("e"), cafe)) == []
    assert game.positions(game.reply(game.guess_index("a"), cafe)) == [2]
    assert game.pattern("café", {"c"}) == "c _ _ é"
    assert evaluate(game, make_guesser("max-frequency")).n == 5
    with pytest.raises(ArenaError, match="outside a-z"):
        make_game(f"hangman:words={path},other=refuse")


# --- replies parsed strictly --------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, reply, words",
    [
        ("hangman:length=5", "1.1", "repeated"),
        ("hangman:length=5", "2,2.3", "repeated"),
        ("hangman:length=5", "6", "positions run from 1 to 5"),
        ("hangman:length=5", "0.1", "positions run from 1 to 5"),
        ("hangman:length=5", "99999999999999999999", "positions run from 1 to 5"),
        ("hangman:length=5", "-1", "write - for a miss"),
        ("hangman:length=5", "1.x", "write - for a miss"),
        ("mastermind", "1,1,1,1", "black,white"),
        ("mastermind", "-1,2", "black,white"),
        ("mastermind", "²,1", "black,white"),
        ("mastermind", "RX", "black,white"),
        ("mastermind", "5,0", "never occurs"),
        ("jotto", "+1", "write a number"),
        ("jotto", "1_0", "write a number"),
        ("jotto", "٣", "write a number"),
        ("jotto", "9", "never occurs"),
    ],
)
def test_replies_that_are_not_replies_are_refused(spec, reply, words):
    with pytest.raises(ArenaError, match=words):
        make_game(spec).parse_reply(reply)


@pytest.mark.parametrize("spec", ["hangman:length=5", "mastermind", "jotto"])
def test_an_empty_reply_is_refused(spec):
    with pytest.raises(ArenaError):
        make_game(spec).parse_reply("  ")


def test_replies_people_write_still_parse(mastermind):
    hangman = make_game("hangman:length=5")
    assert hangman.positions(hangman.parse_reply(" 1 . 4 ")) == [1, 4]
    assert hangman.parse_reply("-") == hangman.parse_reply("miss") == 0
    assert mastermind.parse_reply("-") == mastermind.parse_reply("0,0") == 0
    assert mastermind.parse_reply("r w") == mastermind.parse_reply("1 / 1") == mastermind.parse_reply("1,1,2")


def test_solve_refuses_a_repeated_position(capsys):
    line = one_line_error(capsys, "solve", "hangman:length=5", "--history", "e=1.1")
    assert "repeated" in line


# --- word files ---------------------------------------------------------------------------------


def test_unreadable_word_files_are_one_line(capsys, tmp_path, monkeypatch):
    data = gzip.compress(b"cat\ndog\n" * 1000)
    truncated = tmp_path / "truncated.gz"
    truncated.write_bytes(data[: len(data) // 2])
    corrupt = tmp_path / "corrupt.gz"
    corrupt.write_bytes(data[:10] + b"\xff" * 40 + data[50:])
    empty = tmp_path / "empty.txt"
    empty.write_text("\n \n")
    for path, words in [
        (truncated, "not a readable gzip file"),
        (corrupt, "not a readable gzip file"),
        (tmp_path, "is a directory"),
        (empty, "is empty"),
    ]:
        line = one_line_error(capsys, "evaluate", f"jotto:words={path},length=3", "random")
        assert str(path) in line and words in line
    locked = tmp_path / "locked.txt"
    locked.write_text("cat\n")

    def refuse(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)  # as root, chmod 000 would not stop the read
    line = one_line_error(capsys, "evaluate", f"jotto:words={locked},length=3", "random")
    assert "locked.txt' cannot be read: Permission denied" in line


def test_a_gzip_of_several_members_reads_whole(tmp_path):
    path = tmp_path / "two.gz"
    path.write_bytes(gzip.compress(b"cat\n") + gzip.compress(b"dog\n"))
    assert read_words(str(path)) == ("cat", "dog")


# --- tree files ----------------------------------------------------------------------------------


def _tree_text(depth: int) -> str:
    node = '{"guess":"1122","replies":{"0,0":'
    return (
        '{"format":"arena-tree/1","game":"mastermind","root":' + node * depth + '{"guess":"1122"}' + "}}" * depth + "}"
    )


@pytest.mark.parametrize(
    "text, words",
    [
        (_tree_text(3000), "nested too deep"),
        (_tree_text(MAX_GUESSES + 5), f"deeper than {MAX_GUESSES} guesses"),
        ("[1, 2]", "no arena-tree/1 format tag"),
        ("{not json", "not a saved strategy tree"),
        ('{"format":"arena-tree/1","root":{"guess":"1122"}}', "no game spec"),
        ('{"format":"arena-tree/1","game":"mastermind","root":{"guess":5}}', "at the root: no guess"),
        ('{"format":"arena-tree/1","game":"mastermind","root":{"guess":"1122","replies":[1]}}', "replies must map"),
        (
            '{"format":"arena-tree/1","game":"mastermind","root":{"guess":"1122","replies":{"1,0":3}}}',
            "after 1,0: not an object",
        ),
        ('{"format":"arena-tree/1","game":"mastermind","root":{"guess":"9999"}}', "is not a guess of mastermind"),
        (
            '{"format":"arena-tree/1","game":"mastermind","root":{"guess":"1122","replies":{"7,7":{"guess":"1"}}}}',
            "never occurs",
        ),
    ],
)
def test_bad_tree_files_are_one_line(capsys, tmp_path, text, words):
    path = tmp_path / "tree.json"
    path.write_text(text)
    line = one_line_error(capsys, "evaluate", "mastermind", f"tree:file={path}")
    assert str(path) in line and words in line


def test_a_saved_tree_still_replays(capsys, tmp_path):
    path = tmp_path / "knuth.json"
    rc, _, err = run(capsys, "tree", "mastermind", "knuth", "--save", path)
    assert rc == 0, err
    rc, out, err = run(capsys, "evaluate", "mastermind", f"tree:file={path}", "--json")
    assert rc == 0, err
    assert json.loads(out)["total"] == 5801


# --- evaluations stream their repetitions ------------------------------------------------------


def _figures(result) -> dict:
    data = result.to_json()
    data.pop("seconds")
    data.pop("games", None)  # the record of each game: kept with the arrays only
    data["std"] = round(data["std"], 9)
    return data | {
        "worst": result.worst.tolist(),
        "tally": Tally.of(result).to_json(),
        "worst_misses": None if result.worst_misses is None else result.worst_misses.tolist(),
    }


@pytest.mark.parametrize(
    "spec, chooser",
    [
        ("mastermind:pegs=3,colors=4", "uniform"),
        ("hangman:length=3,first=80", "uniform"),
        ("mastermind:pegs=3,colors=4", "weighted"),
        ("hangman:length=4,first=60", "evil"),
    ],
)
def test_streamed_repetitions_give_the_same_figures(monkeypatch, tmp_path, spec, chooser):
    """Any block size and whether or not the per-game arrays are kept: the same figures, and
    the arrays, where kept, the same as in one block."""
    game = make_game(spec)
    if chooser == "weighted":  # a committed chooser that draws: one column of `repeat` games
        weights = tmp_path / "weights.txt"
        weights.write_text("".join(f"{secret} {k + 1}\n" for k, secret in enumerate(game.secrets[:12])))
        chooser = f"weighted:file={weights}"
    whole = evaluate_against(game, make_guesser("random"), make_chooser(chooser), repeat=23, seed=7, strikes=(2, 4))
    assert whole.guesses is not None and whole.guesses.shape[0] == 23
    monkeypatch.setattr(evaluate_module, "CHUNK_GAMES", 50)  # a few repetitions a block
    blocks = evaluate_against(game, make_guesser("random"), make_chooser(chooser), repeat=23, seed=7, strikes=(2, 4))
    assert np.array_equal(blocks.guesses, whole.guesses) and _figures(blocks) == _figures(whole)
    monkeypatch.setattr(evaluate_module, "KEEP_GAMES", 10)  # the arrays dropped: sums only
    streamed = evaluate_against(game, make_guesser("random"), make_chooser(chooser), repeat=23, seed=7, strikes=(2, 4))
    assert streamed.guesses is None and streamed.misses is None
    assert _figures(streamed) == _figures(whole)
    assert streamed.summary() == whole.summary()


def test_streamed_figures_are_the_array_figures():
    rng = np.random.default_rng(3)
    values = rng.integers(1, 9, size=(40, 25))
    sums = Sums()
    for block in np.array_split(values, 7):
        sums.add(block)
    assert (sums.count, sums.total, sums.worst) == (values.size, values.sum(), values.max())
    assert sums.mean == values.mean() and sums.std == pytest.approx(values.std(), rel=1e-12)
    assert sums.histogram == {int(v): int(c) for v, c in zip(*np.unique(values, return_counts=True))}
    assert sums.at_least(5) == (values >= 5).sum()


def test_hardest_reads_the_streamed_worst(monkeypatch, capsys):
    rc, kept, err = run(capsys, "hardest", "mastermind:pegs=2,colors=4", "random", "--repeat", "9", "--top", "4")
    assert rc == 0, err
    monkeypatch.setattr(evaluate_module, "KEEP_GAMES", 10)
    monkeypatch.setattr(evaluate_module, "CHUNK_GAMES", 20)
    rc, streamed, err = run(capsys, "hardest", "mastermind:pegs=2,colors=4", "random", "--repeat", "9", "--top", "4")
    assert rc == 0, err
    assert streamed == kept
    rc, out, err = run(capsys, "compare", "hangman:length=3,first=40", "random", "max-frequency", "--repeat", "5")
    assert rc == 0 and "random" in out, err


@pytest.mark.parametrize("command", ["hardest", "compare"])
def test_zero_repetitions_are_one_line(capsys, command):
    line = one_line_error(capsys, command, "mastermind:pegs=2,colors=3", "random", "--repeat", "0")
    assert "repeat must be at least 1" in line
