"""A game says what it is and owns its rules: the registry finds the games in their own
modules, `reply_counts` says which reply each column counts (however many codes a game has),
and the pieces that used to test which game they had now ask the game."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from cli_run import run

from arena import make_game
from arena.core.errors import ArenaError
from arena.core.game import Game, GameType
from arena.games import GAMES, builtin, game_type

ROOT = Path(__file__).resolve().parents[1]


class ManyCodes(Game):
    """Secrets and guesses 0..n-1; the reply is (g * s) mod 97, or 97 for the secret itself:
    up to 98 reply codes, so partition counts compact their columns per block."""

    name = "many"

    def __init__(self, spec: str = "many", n: int = 150):
        numbers = np.arange(n)
        table = (numbers[:, None] * numbers[None, :]) % 97
        np.fill_diagonal(table, 97)
        labels = [str(i) for i in range(n)]
        super().__init__(spec, labels, labels, table.astype(np.uint8), 97, numbers)


@pytest.fixture(scope="module")
def many():
    return ManyCodes()


def test_every_builtin_game_registers_itself_in_its_module():
    assert list(builtin()) == ["jotto", "mastermind", "hangman", "wordle"]
    for name, kind in builtin().items():
        assert isinstance(kind, GameType) and kind.name == name and GAMES[name] is kind
    with pytest.raises(ArenaError, match="unknown game 'nope'; games: jotto, mastermind, hangman, wordle"):
        game_type("nope")


@pytest.mark.parametrize("pool", [None, "some"])
def test_reply_counts_name_each_column_with_many_codes(many, pool):
    assert many.n_codes > 64
    rng = np.random.default_rng(1)
    candidates = np.sort(rng.choice(many.all_secrets, 60, replace=False))
    guesses = many.all_guesses if pool is None else np.sort(rng.choice(many.all_guesses, 20, replace=False))
    counts = many.reply_counts(None if pool is None else guesses, candidates)
    assert counts.codes[0] == 0 and (np.diff(counts.codes) > 0).all()
    for i, g in enumerate(guesses.tolist()):
        classes = many.partition(g, candidates)
        assert {int(c): int(n) for c, n in zip(counts.codes, counts.counts[i]) if n} == {
            r: len(part) for r, part in classes.items()
        }
        for r, part in classes.items():
            assert counts.counts[i, counts.column(r)] == len(part)
    # the columns of a reply looked up by code: 0 where no candidate gives it
    wanted = np.arange(many.n_codes)
    table = counts.of(wanted)
    for i, g in enumerate(guesses.tolist()):
        assert table[i].tolist() == np.bincount(many.table[g, candidates], minlength=many.n_codes).tolist()
    assert np.array_equal(many.partition_counts(None if pool is None else guesses, candidates), counts.counts)


def test_dense_games_count_every_code_in_its_own_column(small_mastermind):
    counts = small_mastermind.reply_counts(None, small_mastermind.all_secrets)
    assert np.array_equal(counts.codes, np.arange(small_mastermind.n_codes))
    assert counts.column(small_mastermind.hit) == small_mastermind.hit


def test_rank_prints_the_columns_of_a_game_with_many_codes(many, capsys, monkeypatch):
    monkeypatch.setitem(builtin(), "many", GameType("many", lambda spec: many, {}, "many codes"))
    rc, out, err = run(capsys, "rank", "many", "minimax", "--top", "3")
    assert rc == 0, err
    lines = out.splitlines()
    header = lines[1].split("replies ", 1)[1].split()
    assert header == [str(c) for c in many.codes]
    full = np.stack([np.bincount(many.table[g], minlength=many.n_codes) for g in many.all_guesses])
    for line in lines[2:]:
        fields = line.split()
        g = many.guess_index(fields[1])
        assert [int(v) for v in fields[-len(header) :]] == full[g, many.codes].tolist()


def test_what_a_reply_tells_is_the_games():
    mastermind = make_game("mastermind:pegs=3,colors=4")
    codes = np.arange(mastermind.n_codes)
    pegs = codes // 4 + codes % 4
    pegs[mastermind.hit] = pegs.max() + 1
    assert mastermind.reveals().tolist() == pegs.tolist()
    jotto = make_game("jotto:first=50")
    assert jotto.reveals().tolist() == list(range(jotto.n_codes - 1)) + [jotto.n_codes]
    hangman = make_game("hangman:length=5,first=100")
    assert hangman.reveals().tolist() == [int(m).bit_count() for m in hangman.masks[: hangman.n_codes]]


def test_hangman_finishes_and_writes_its_own_lines():
    game = make_game("hangman:length=5,first=100")
    word = game.secrets.index("aback") if "aback" in game.secrets else 0
    one = np.array([word])
    a = game.guess_index("a")
    assert game.determined(one) and not game.over(one, set())
    letters = game.finishing_guesses(one, {a})
    assert [game.guesses[g] for g in letters] == sorted(set(game.secrets[word]) - {"a"})
    assert game.over(one, set(letters) | {a})
    history = [(a, game.reply(a, word))]
    line = game.turn_line(1, history, 1, 5)
    assert line.startswith("Guess 1: a, Reply: ") and "Strikes: 0/6" in line
    assert game.opening_line("5 letters", game.all_secrets, 5).startswith("The word has 5 letters: _ _ _ _ _")
    jotto = make_game("jotto:first=50")
    assert not jotto.determined(jotto.all_secrets[:1]) and jotto.finishing_guesses(jotto.all_secrets[:1], set()) == []
    assert jotto.opening_line("", jotto.all_secrets, 5) is None
    assert jotto.turn_line(1, [(0, jotto.hit)], 1, 5) == f"Guess 1: {jotto.guesses[0]}, Reply: 5, Consistent targets: 1"


#: Testing the kind of game (its hit, its class): the game says what it needs through its rules
#: (`game.rules`), so nothing outside arena/core/game.py and arena/games/ does.
KIND_TEST = re.compile(r"\.hit is (not )?None|isinstance\((self\.)?game, |hasattr\((self\.)?game, ")


def test_no_module_outside_the_games_tests_which_game_it_has():
    found = []
    for path in sorted([*ROOT.glob("arena/**/*.py"), *ROOT.glob("agents/**/*.py")]):
        name = path.relative_to(ROOT).as_posix()
        if name.startswith("arena/games/") or name == "arena/core/game.py":
            continue
        found += [f"{name}:{i}" for i, line in enumerate(path.read_text().splitlines(), 1) if KIND_TEST.search(line)]
    assert not found, found


def test_strikes_are_declared_by_the_rules():
    """Whether a miss is a strike is the rules' to say; the limit is only a number."""
    hangman, mastermind = make_game("hangman:length=5,first=50,strikes=3"), make_game("mastermind:pegs=2,colors=3")
    assert hangman.rules.strikes and hangman.default_strikes() == (3,)
    assert hangman.loses(3) and not hangman.loses(2)
    assert not mastermind.rules.strikes and mastermind.default_strikes() == () and not mastermind.loses(99)
