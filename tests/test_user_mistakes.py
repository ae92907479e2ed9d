"""User mistakes in the agents and the small commands: each is exit status 2 and one line on
stderr naming what is wrong (and what is valid), never a traceback, and comes before the work
it would spoil (nothing is printed on stdout first). Also: a person's replies in `arena play` are
read as the prompt describes them."""

from __future__ import annotations

import io
import json
import sys

import pytest
from cli_run import one_line, run

SMALL = "mastermind:pegs=2,colors=3"  # 9 secrets: any work done by mistake is instant


@pytest.fixture
def files(tmp_path, monkeypatch):
    """A directory of broken input files, made the working directory (specs name them relatively)."""
    from arena.equilibrium.witness import witness_key
    from arena.games import make_game

    KEY = witness_key(make_game(SMALL), "guesses")  # noqa: N806 (a saved equilibrium's key, as --save writes it)
    deep = '{"guess":"11"}'
    for _ in range(3000):  # a 3,000-level tree: json's parser would recurse past Python's limit
        deep = '{"guess":"11","replies":{"0,0":' + deep + "}}"
    contents = {
        "notjson.json": "not json at all\n",
        "binary.txt": b"\xff\xfe\x00junk",
        "deep.json": f'{{"format":"arena-tree/1","game":"{SMALL}","root":{deep}}}',
        "badnode.json": json.dumps({"format": "arena-tree/1", "game": SMALL, "root": {"guess": "11", "replies": "x"}}),
        "badreply.json": json.dumps(
            {"format": "arena-tree/1", "game": SMALL, "root": {"guess": "11", "replies": {"zz": {"guess": "12"}}}}
        ),
        "list.json": "[1, 2, 3]\n",
        "truth.json": '{"11": true}\n',
        "word.json": '{"11": "heavy"}\n',
        "negative.json": '{"11": -1}\n',
        "other.txt": "99 1\n",
        "eq-untagged.json": json.dumps({"chooser": {"11": 1}}),
        "eq-other.json": json.dumps({"format": "arena-equilibrium/1", "game": "mastermind", "chooser": {"1111": 1}}),
        "eq-word.json": json.dumps(
            {"format": "arena-equilibrium/2", "key": KEY, "game": SMALL, "chooser": {"11": "x"}}
        ),
        "eq-list.json": json.dumps({"format": "arena-equilibrium/2", "key": KEY, "game": SMALL, "chooser": [1]}),
    }
    for name, text in contents.items():
        path = tmp_path / name
        path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text)
    (tmp_path / "adir").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- output files: checked before the work -------------------------------------------------


@pytest.mark.parametrize(
    "argv, needles",
    [
        (["evaluate", SMALL, "knuth", "--plot", "out.xyz"], ["--plot out.xyz", "cannot write .xyz", "png", "svg"]),
        (["evaluate", SMALL, "knuth", "--plot", "out"], ["--plot out", "extension", "pdf"]),
        (["evaluate", SMALL, "knuth", "--plot", "no/such/dir/out.png"], ["no/such/dir", "does not exist"]),
        (["evaluate", SMALL, "knuth", "--plot", "adir"], ["--plot adir", "extension"]),
        (["evaluate", SMALL, "knuth", "--plot", "adir.png/"], ["--plot adir.png/ is a directory"]),
        (["compare", SMALL, "knuth", "lowest", "--plot", "out.xyz"], ["--plot out.xyz", "png"]),
        (["compare", SMALL, "knuth", "--plot", "/proc/out.png"], ["/proc", "not writable"]),
        (["tree", SMALL, "knuth", "--save", "no/such/dir/t.json"], ["--save", "does not exist"]),
        (["tree", SMALL, "knuth", "--save", "adir"], ["--save adir is a directory"]),
    ],
)
def test_output_file_mistakes(capsys, files, argv, needles):
    rc, out, err = run(capsys, *argv)
    one_line(rc, err, *needles)
    assert out == ""  # refused before the evaluation, not after it


# --- integer options -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, needles",
    [
        (["hardest", SMALL, "knuth", "--repeat", "0"], ["--repeat must be at least 1, got 0"]),
        (["hardest", SMALL, "random", "--repeat", "-2"], ["--repeat must be at least 1, got -2"]),
        (["compare", SMALL, "knuth", "--repeat", "0"], ["--repeat must be at least 1"]),
        (["compare", SMALL, "random", "--repeat", "-1"], ["--repeat must be at least 1"]),
        (["evaluate", SMALL, "knuth", "--repeat", "0"], ["--repeat must be at least 1"]),
        (["hardest", SMALL, "knuth", "--top", "0"], ["--top must be at least 1"]),
        (["rank", SMALL, "entropy", "--top", "-1"], ["--top must be at least 1"]),
        (["tree", SMALL, "knuth", "--depth", "-1"], ["--depth must be 0 or more, got -1"]),
        (["tree", SMALL, "knuth", "--min-count", "-5"], ["--min-count must be 0 or more, got -5"]),
        (["evaluate", SMALL, "knuth", "--strikes", "0"], ["every limit must be at least 1"]),
    ],
)
def test_integer_option_mistakes(capsys, argv, needles):
    rc, out, err = run(capsys, *argv)
    one_line(rc, err, *needles)
    assert out == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", SMALL, "random", "--seed", "-3"],
        ["tree", SMALL, "random", "--seed", "-3"],
        ["hardest", SMALL, "random", "--seed", "-1", "--repeat", "2"],
        ["solve", SMALL, "--guesser", "random", "--seed", "-5"],
        ["play", SMALL, "--guesser", "random", "--seed", "-5"],
        ["tree", SMALL, "knuth", "--depth", "0", "--min-count", "0"],
    ],
)
def test_negative_seeds_and_zero_depth_are_fine(capsys, argv):
    rc, out, err = run(capsys, *argv)
    assert rc == 0 and err == "" and out


# --- agent parameters and the files agents read ----------------------------------------------


@pytest.mark.parametrize(
    "argv, needles",
    [
        (["evaluate", SMALL, "entropy:small=-3"], ["small must be 0 or more, got -3"]),
        (["evaluate", SMALL, "knuth:openers=12+12"], ["opener 12 is given twice"]),
        (["evaluate", "hangman:words=words.txt", "entropy:openers=e+E"], ["opener e is given twice"]),
        (["evaluate", SMALL, "knuth:openers=99"], ["opener '99' is not a guess"]),
        (["evaluate", SMALL, "optimal:time=nan"], ["time='nan' must be a number"]),
        (["evaluate", SMALL, "tree:file=missing.json"], ["missing.json", "No such file"]),
        (["evaluate", SMALL, "tree:file=adir"], ["adir", "directory"]),
        (["evaluate", SMALL, "tree:file=notjson.json"], ["notjson.json: not a saved strategy tree"]),
        (["evaluate", SMALL, "tree:file=binary.txt"], ["binary.txt: not a saved strategy tree"]),
        (["evaluate", SMALL, "tree:file=deep.json"], ["deep.json: not a saved strategy tree", "nested"]),
        (["evaluate", SMALL, "tree:file=badnode.json"], ["badnode.json: malformed tree node at the root"]),
        (["evaluate", SMALL, "tree:file=badreply.json"], ["badreply.json: at the root: reply 'zz'"]),
        (["evaluate", SMALL, "knuth", "--chooser", "weighted:file=missing.txt"], ["weights file missing.txt"]),
        (["evaluate", SMALL, "knuth", "--chooser", "weighted:file=adir"], ["weights file adir"]),
        (["evaluate", SMALL, "knuth", "--chooser", "weighted:file=binary.txt"], ["weights file binary.txt: not UTF-8"]),
        (["evaluate", SMALL, "knuth", "--chooser", "weighted:file=notjson.json"], ["weights file notjson.json"]),
        (
            ["evaluate", SMALL, "knuth", "--chooser", "weighted:file=list.json"],
            ["weights file list.json: 3 weights for 9 secrets"],
        ),
        (["evaluate", SMALL, "knuth", "--chooser", "weighted:file=truth.json"], ["weight of 11 is not a number"]),
        (["evaluate", SMALL, "knuth", "--chooser", "weighted:file=word.json"], ["weight of 11 is not a number"]),
        (["evaluate", SMALL, "knuth", "--chooser", "weighted:file=negative.json"], ["must be a non-negative number"]),
        (
            ["evaluate", SMALL, "knuth", "--chooser", "weighted:file=other.txt"],
            ["weights file other.txt", "'99' is not a secret"],
        ),
        (["evaluate", SMALL, "optimal:weights=word.json"], ["weights file word.json", "not a number"]),
        (["evaluate", SMALL, "optimal:weights=negative.json"], ["weights file negative.json", "non-negative"]),
        (["evaluate", SMALL, "optimal:weights=truth.json"], ["weights file truth.json", "not a number"]),
        (["evaluate", SMALL, "optimal:weights=list.json"], ["weights file list.json: 3 weights for 9 secrets"]),
        (["evaluate", SMALL, "optimal:weights=binary.txt"], ["weights file binary.txt"]),
        (
            ["evaluate", SMALL, "knuth", "--chooser", "equilibrium:file=eq-untagged.json"],
            ["eq-untagged.json", "format tag"],
        ),
        (
            ["evaluate", SMALL, "knuth", "--chooser", "equilibrium:file=eq-other.json"],
            ["is an equilibrium of mastermind"],
        ),
        (["evaluate", SMALL, "knuth", "--chooser", "equilibrium:file=eq-word.json"], ["eq-word.json", "not a number"]),
        (
            ["evaluate", SMALL, "knuth", "--chooser", "equilibrium:file=eq-list.json"],
            ["eq-list.json", "{secret: probability}"],
        ),
        (["evaluate", SMALL, "knuth", "--chooser", "equilibrium:file=adir"], ["adir: not an equilibrium"]),
    ],
)
def test_agent_parameter_mistakes(capsys, files, argv, needles):
    (files / "words.txt").write_text("cat\ncot\ndog\ncute\n")
    rc, _, err = run(capsys, *argv)
    one_line(rc, err, *needles)


@pytest.mark.parametrize(
    "command",
    [
        ["tree", SMALL, "human"],
        ["hardest", SMALL, "human"],
        ["compare", SMALL, "knuth", "human"],
        ["solve", SMALL, "--guesser", "human"],
    ],
)
def test_a_person_is_not_a_guesser_for_batch_commands(capsys, monkeypatch, command):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    rc, out, err = run(capsys, *command)
    one_line(rc, err, "human plays interactively: use `arena play`")
    assert out == ""


def test_play_refuses_a_secret_of_another_game_before_starting(capsys):
    rc, out, err = run(capsys, "play", SMALL, "--guesser", "knuth", "--secret", "99")
    one_line(rc, err, "'99' is not a secret")
    assert out == ""


# --- a person's replies: read as the prompt says -----------------------------------------------


def play(capsys, monkeypatch, *argv: str, stdin: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return run(capsys, "play", *argv)


def test_human_chooser_dash_is_no_pegs_and_an_empty_line_asks_again(capsys, monkeypatch):
    """The Mastermind prompt offers `-` for none: it is the reply 0,0. An empty line was read as
    0,0 (and `-` refused); now it is no reply, and the question is asked again with a hint."""
    rc, out, err = play(capsys, monkeypatch, "mastermind", "--chooser", "human", "--guesser", "knuth", stdin="\n-\n")
    screen = out.splitlines()
    first = screen.index("Your reply to 1122 (black,white (like 1,2; or pegs like RWW; - for none)): ")
    assert screen[first + 1] == "  type a reply: black,white (like 1,2; or pegs like RWW; - for none)"
    assert screen[first + 2].startswith("Your reply to 1122") and screen[first + 2].endswith(": -")
    assert "Guess 1: 1122, Reply: 0,0, Consistent targets: 256" in screen
    one_line(rc, err, "input ended")  # the script stops there


def test_human_chooser_empty_line_is_not_a_hangman_miss(capsys, monkeypatch, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("cat\ncot\ndog\ncute\n")
    rc, out, err = play(
        capsys,
        monkeypatch,
        f"hangman:words={words}",
        "--chooser",
        "human",
        "--guesser",
        "max-frequency",
        stdin="\n3\n\n-\n",
    )
    assert rc == 0, err
    screen = out.splitlines()
    assert "  type one of: 3 letters, 4 letters" in screen
    assert (
        "  type a reply: the positions of the letter (like 2.4) or the word as it shows (like _ u _ _ y), or - for a miss"
        in screen
    )
    assert "Guess 1: c, Reply: _ _ _ (miss), Strikes: 1/6, Consistent targets: 1" in screen


def test_human_chooser_jotto_refuses_dash_and_empty(capsys, monkeypatch):
    rc, out, err = play(capsys, monkeypatch, "jotto", "--chooser", "human", "--guesser", "entropy", stdin="\n-\n")
    assert "  type a reply: the number of letters in common" in out
    assert "  reply '-' is not a reply of jotto" in out
    one_line(rc, err, "input ended")


def test_human_guesser_empty_line_junk_and_end_of_input(capsys, monkeypatch):
    rc, out, err = play(capsys, monkeypatch, SMALL, "--secret", "12", stdin="\nzz\n")
    assert "  type a guess (codes of 2 symbols from 123), ? for a hint, or quit to give up" in out
    assert "  'zz' is not a guess of" in out
    one_line(rc, err, "arena play: error: the input ended before the game did")
    rc, out, err = play(capsys, monkeypatch, SMALL, "--secret", "12", stdin="\n11\n12\n")
    assert rc == 0 and out.splitlines()[-1] == "Solved in 2 guesses.", out + err


@pytest.mark.parametrize(
    "argv, suggestion",
    [
        (["evaluate", SMALL, "entrophy"], "did you mean 'entropy'?"),
        (["evaluate", SMALL, "knuth", "--chooser", "evill"], "did you mean 'evil'?"),
        (["evaluate", "mastermnd", "knuth"], "did you mean 'mastermind'?"),
        (["rank", SMALL, "entropi"], "did you mean 'entropy'?"),
        (["equilibrium", "hangman:first=5", "--payoff", "mises"], "did you mean 'misses'?"),
    ],
)
def test_a_typo_of_a_name_gets_a_suggestion(capsys, argv, suggestion):
    rc, out, err = run(capsys, *argv)
    one_line(rc, err, suggestion)
    assert out == ""


def test_a_name_far_from_every_other_gets_no_suggestion(capsys):
    rc, _, err = run(capsys, "evaluate", SMALL, "zzzzzz")
    one_line(rc, err, "unknown guesser 'zzzzzz'; guessers:")
