"""`arena play`, `arena solve` and `arena evaluate --chooser` through the real command line:
arena.cli.parser.main with a scripted stdin, and the screen it prints (one real subprocess too)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from cli_run import run


def arena(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `arena argv...` with `stdin` typed in."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return run(capsys, *argv)


def one_line_error(rc: int, err: str, command: str, *needles: str) -> None:
    assert rc == 2 and "Traceback" not in err
    line = err.strip()
    assert "\n" not in line and line.startswith(f"arena {command}: error: "), err
    for needle in needles:
        assert needle in line, f"{needle!r} not in {line!r}"


# --- agents on both sides ------------------------------------------------------------------


def test_play_prints_one_line_a_guess(capsys, monkeypatch):
    rc, out, err = arena(capsys, monkeypatch, "play", "mastermind", "--guesser", "knuth", "--secret", "3632")
    assert rc == 0, err
    assert out.splitlines()[1:] == [
        "Guess 1: 1122, Reply: 1,0, Consistent targets: 256",
        "Guess 2: 1344, Reply: 0,1, Consistent targets: 44",
        "Guess 3: 3526, Reply: 1,2, Consistent targets: 7",
        "Guess 4: 1462, Reply: 1,1, Consistent targets: 1",
        "Guess 5: 3632, Reply: 4,0, Consistent targets: 1",
        "Solved in 5 guesses.",
    ]


def test_play_against_an_adversary_names_the_secret_it_was_left_with(capsys, monkeypatch):
    rc, out, err = arena(capsys, monkeypatch, "play", "mastermind", "--guesser", "knuth", "--chooser", "evil")
    assert rc == 0, err
    assert "Guess 5: 5455, Reply: 4,0, Consistent targets: 1" in out
    assert out.strip().endswith("(evil held no secret: 5455 was the one left.)")


def test_play_hangman_shows_the_pattern_and_the_strikes(capsys, monkeypatch):
    rc, out, err = arena(
        capsys,
        monkeypatch,
        "play",
        "hangman:length=5",
        "--guesser",
        "max-frequency:tiebreak=first",
        "--chooser",
        "evil",
    )
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[1] == "The word has 5 letters: _ _ _ _ _ (9,972 possible)"
    assert lines[2] == "Guess 1: a, Reply: _ _ _ _ _ (miss), Strikes: 1/6, Consistent targets: 5179"
    assert lines[6] == "Guess 5: u, Reply: _ u _ _ _, Strikes: 4/6, Consistent targets: 213"
    assert "Lost: 6 strikes after 8 guesses." in out and "91 secrets were still possible" in out


# --- a person guessing ---------------------------------------------------------------------


def test_human_guesser_with_hint_and_mistakes(capsys, monkeypatch):
    typed = "1122\n?\n12\n1344\n3526\n1462\n3632\n"
    rc, out, err = arena(capsys, monkeypatch, "play", "mastermind", "--secret", "3632", "--hint", "knuth", stdin=typed)
    assert rc == 0, err
    screen = out.splitlines()
    assert "Guess 1 (1,296 secrets possible; ? for a hint): 1122" in screen
    assert "Guess 1: 1122, Reply: 1,0, Consistent targets: 256" in screen
    hint = screen.index("Guess 2 (256 secrets possible; ? for a hint): ?")
    assert screen[hint + 1] == "  Hint (knuth): 1344, largest class 44"
    assert screen[hint + 3].startswith("  '12' is not a guess of mastermind: codes of 4 symbols from 123456")
    assert screen[-1] == "Solved in 5 guesses."


def test_human_guesser_hint_gives_entropy_in_bits(capsys, monkeypatch):
    rc, out, err = arena(capsys, monkeypatch, "play", "mastermind", "--secret", "1111", stdin="?\n1111\n")
    assert rc == 0, err
    assert "  Hint (entropy): 1234, entropy 3.0567 bits" in out and out.strip().endswith("Solved in 1 guess.")


def test_human_plays_hangman(capsys, monkeypatch, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("cat\ncot\ndog\ncut\nfig\n")
    typed = "t\nt\n7\no\nc\n?\nu\n"
    rc, out, err = arena(capsys, monkeypatch, "play", f"hangman:words={words}", "--secret", "cut", stdin=typed)
    assert rc == 0, err
    screen = out.splitlines()
    assert "The word has 3 letters: _ _ _ (5 possible)" in screen
    assert "Guess 1: t, Reply: _ _ t, Strikes: 0/6, Consistent targets: 3" in screen
    assert "  you have tried t already (reply 3)" in screen
    assert any(line.startswith("  '7' is not a guess of hangman") for line in screen)
    assert "Guess 2: o, Reply: _ _ t (miss), Strikes: 1/6, Consistent targets: 2" in screen
    assert "  Hint (entropy): a, entropy 1.0000 bits" in screen
    assert "Guess 4: u, Reply: c u t, Strikes: 1/6, Consistent targets: 1" in screen
    assert screen[-1] == "Solved: cut, in 4 guesses with 1 misses."
    rc, out, err = arena(capsys, monkeypatch, "play", f"hangman:words={words}", "--secret", "cut", stdin="u\n?\nc\nt\n")
    screen = out.splitlines()
    assert rc == 0 and "  Hint: the word is cut; try c" in screen
    assert screen[-1] == "Solved: cut, in 3 guesses with 0 misses; one word was left after 1."


def test_quitting_and_running_out_of_input(capsys, monkeypatch):
    rc, out, _ = arena(capsys, monkeypatch, "play", "mastermind", stdin="1122\nquit\n")
    assert rc == 0 and "Stopped: game abandoned. 256 secrets were still possible: 3333, 3334" in out
    rc, _, err = arena(capsys, monkeypatch, "play", "mastermind", stdin="1122\n")
    one_line_error(rc, err, "play", "the input ended before the game did")


# --- a person choosing ---------------------------------------------------------------------


def test_human_chooser_is_told_at_once_when_a_reply_contradicts_an_earlier_one(capsys, monkeypatch):
    typed = "0,0\n1,1\n0,0\n1,1\n0,4\n0,2\n4,0\n"
    rc, out, err = arena(
        capsys, monkeypatch, "play", "mastermind", "--chooser", "human", "--guesser", "knuth", stdin=typed
    )
    assert rc == 0, err
    screen = out.splitlines()
    asked = [i for i, line in enumerate(screen) if line.startswith("Your reply to 4544")]
    assert len(asked) == 3  # asked again after each bad reply
    assert screen[asked[0] + 1] == (
        "  That contradicts your reply to guess 3 (0,0 to 3636) and those before it: "
        "no secret gives 1,1 to 4544. Try again."
    )
    assert screen[asked[1] + 1] == "  No secret gives 0,4 to 4544: try again."
    assert "Guess 4: 4544, Reply: 0,2, Consistent targets: 1" in screen
    assert screen[-1] == "Solved in 5 guesses."


def test_human_chooser_hangman_says_the_length_first(capsys, monkeypatch, tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("cat\ncot\ndog\ncute\n")
    typed = "9\n3\n-\n"  # no 9-letter words; then a miss for c leaves only dog
    rc, out, err = arena(
        capsys,
        monkeypatch,
        "play",
        f"hangman:words={words}",
        "--chooser",
        "human",
        "--guesser",
        "max-frequency",
        stdin=typed,
    )
    assert rc == 0, err
    screen = out.splitlines()
    assert "  '9' is not one of: 3 letters, 4 letters" in screen
    assert "The word has 3 letters: _ _ _ (3 possible)" in screen
    assert "Guess 1: c, Reply: _ _ _ (miss), Strikes: 1/6, Consistent targets: 1" in screen
    assert screen[-2:] == [
        "Guess 4: o, Reply: d o g, Strikes: 1/6, Consistent targets: 1",
        "Solved: dog, in 4 guesses with 1 misses; one word was left after 1.",
    ]


# --- solve -----------------------------------------------------------------------------------


def test_solve_counts_and_suggests(capsys, monkeypatch):
    rc, out, err = arena(capsys, monkeypatch, "solve", "mastermind", "--history", "1122=1,1")
    assert rc == 0, err
    assert out.splitlines()[0] == "mastermind: 1 reply; 208 secrets possible"
    rc, out, err = arena(capsys, monkeypatch, "solve", "mastermind", "--history", "1122=1,1", "--history", "1134=0,1,3")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("mastermind: 2 replies; ") and "secrets possible" in lines[0]
    assert lines[-2].startswith("best next guess by entropy: ") and lines[-2].endswith(" bits")
    assert lines[-1] in ("it may itself be the secret", "it cannot be the secret: it is played to learn")
    same = arena(capsys, monkeypatch, "solve", "mastermind", "--history", "1122=1,1", "--history", "1134=0,1")[1]
    assert same == out  # (black, white, grey) is the same reply as (black, white)


def test_solve_lists_few_secrets_and_uses_any_guesser(capsys, monkeypatch):
    rc, out, err = arena(
        capsys,
        monkeypatch,
        "solve",
        "mastermind",
        "--guesser",
        "knuth",
        "--history",
        "1122=1,0",
        "--history",
        "1344=0,1",
        "--history",
        "3526=1,2",
    )
    assert rc == 0, err
    assert out.splitlines()[1].startswith("possible: ") and len(out.splitlines()[1].split(", ")) == 7
    assert "best next guess by knuth: 1462, largest class 1" in out


def test_solve_refuses_a_contradictory_history(capsys, monkeypatch):
    rc, _, err = arena(
        capsys,
        monkeypatch,
        "solve",
        "mastermind",
        "--history",
        "1122=1,1",
        "--history",
        "1122=0,0",
        "--history",
        "3456=0,0",
    )
    one_line_error(rc, err, "solve", "no secret is consistent with these replies", "guess 2, 1122=0,0")
    rc, _, err = arena(capsys, monkeypatch, "solve", "mastermind", "--history", "1122")
    one_line_error(rc, err, "solve", "write GUESS=REPLY")


# --- evaluate --chooser and mistakes ---------------------------------------------------------


def test_evaluate_against_a_chooser(capsys, monkeypatch):
    rc, out, err = arena(capsys, monkeypatch, "evaluate", "mastermind", "lowest", "--chooser", "spoiler:against=lowest")
    assert rc == 0, err
    assert out.splitlines()[0] == "lowest against spoiler:against=lowest on mastermind: 1 game"
    assert "worst = 9" in out and "  mastermind: 9 guesses, ended on 6665" in out
    rc, out, err = arena(capsys, monkeypatch, "evaluate", "mastermind", "knuth", "--chooser", "evil", "--json")
    data = json.loads(out)
    assert rc == 0 and data["chooser"] == "evil" and data["max"] == 5 and data["games"][0]["secret"] == "5455"


@pytest.mark.parametrize(
    "argv, needles",
    [
        (
            ("play", "mastermind", "--chooser", "evill"),
            ["unknown chooser 'evill'", "evil", "minimax", "spoiler", "uniform"],
        ),
        (("play", "mastermind", "--chooser", "evil", "--secret", "1234"), ["--secret", "uniform or fixed"]),
        (("play", "mastermind", "--guesser", "knuth", "--hint", "entropy"), ["--hint is for --guesser human"]),
        (("play", "mastermind", "--secret", "9999"), ["'9999' is not a secret of mastermind"]),
        (("play", "mastermind", "--chooser", "human"), ["human on both sides"]),
        (("evaluate", "mastermind", "knuth", "--chooser", "human"), ["plays interactively"]),
        (("solve", "hangman:first=3000", "--history", "e=-"), ["hangman:length=5"]),
    ],
)
def test_mistakes_are_one_line(capsys, monkeypatch, argv, needles):
    rc, _, err = arena(capsys, monkeypatch, *argv)
    one_line_error(rc, err, argv[0], *needles)


def test_a_real_terminal_session():
    typed = "0,0\n1,1\n0,0\n1,1\n0,2\n4,0\n"
    done = subprocess.run(
        [sys.executable, "-m", "arena", "play", "mastermind", "--chooser", "human", "--guesser", "knuth"],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "That contradicts your reply to guess 3" in done.stdout
    assert done.stdout.strip().endswith("Solved in 5 guesses.")


def test_solve_lists_up_to_200_secrets_or_the_first_few(capsys, monkeypatch):
    from arena import make_game

    game = make_game("mastermind")
    two = ["--history", "1122=1,0", "--history", "1344=1,1"]
    want = [game.secrets[s] for s in range(len(game.secrets)) if game.reply("1122", s) == game.reply("1122", "1455")]
    want = [s for s in want if game.reply("1344", s) == game.reply("1344", "1455")]
    rc, out, err = arena(capsys, monkeypatch, "solve", "mastermind", *two)
    assert rc == 0, err
    listed = " ".join(out.splitlines()[1:-2]).removeprefix("possible: ").replace(",", " ").split()
    assert out.splitlines()[0] == f"mastermind: 2 replies; {len(want)} secrets possible" and listed == want
    rc, out, _ = arena(capsys, monkeypatch, "solve", "mastermind", *two, "--list", "5")
    assert out.splitlines()[1:3] == [
        f"possible: {', '.join(want[:5])}, ...",
        "  (the first 5 of 42; --list 42 lists them all)",
    ]
    rc, out, _ = arena(capsys, monkeypatch, "solve", "mastermind", "--history", "1122=1,0")
    assert out.splitlines()[-3] == "  (the first 12 of 256; --list 256 lists them all)"
    rc, out, err = arena(capsys, monkeypatch, "solve", "mastermind", *two, "--list", "-1")
    assert rc == 2 and "--list must be 0 or more" in err


@pytest.mark.parametrize("pattern", ["_ u _ _ _", "_u___", "b u n n y", "_ U _ _ Y"])
def test_solve_reads_the_hangman_pattern_that_play_prints(capsys, monkeypatch, pattern):
    by_positions = arena(capsys, monkeypatch, "solve", "hangman:length=5", "--history", "u=2")[1]
    rc, out, err = arena(capsys, monkeypatch, "solve", "hangman:length=5", "--history", f"u={pattern}")
    assert rc == 0, err
    assert out == by_positions
    missed = arena(capsys, monkeypatch, "solve", "hangman:length=5", "--history", "z=_ _ _ _ _")[1]
    assert missed == arena(capsys, monkeypatch, "solve", "hangman:length=5", "--history", "z=-")[1]


@pytest.mark.parametrize("pattern, needle", [("_ u _", "3 positions"), ("_ uu _ _ _", "one symbol a position")])
def test_solve_refuses_a_pattern_of_the_wrong_shape(capsys, monkeypatch, pattern, needle):
    rc, out, err = arena(capsys, monkeypatch, "solve", "hangman:length=5", "--history", f"u={pattern}")
    assert rc == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_human_guesser_gets_a_suggestion_and_never_repeats_a_guess(capsys, monkeypatch):
    typed = "1122\n1123x\n1122\n1344\n3526\n1462\n3632\n"
    rc, out, err = arena(capsys, monkeypatch, "play", "mastermind", "--secret", "3632", stdin=typed)
    assert rc == 0, err
    screen = out.splitlines()
    assert "  '1123x' is not a guess of mastermind: codes of 4 symbols from 123456; did you mean '1123'?" in screen
    assert "  you have tried 1122 already (reply 1,0)" in screen  # Mastermind too: its reply is known
    assert screen.count("Guess 1: 1122, Reply: 1,0, Consistent targets: 256") == 1
    assert screen[-1] == "Solved in 5 guesses."


def test_ctrl_c_in_play_shows_the_secrets_still_possible(capsys, monkeypatch):
    import agents.human

    typed = iter(["1122", "1344"])

    def ask(prompt: str) -> str:
        line = next(typed, None)
        if line is None:
            raise KeyboardInterrupt
        return line

    monkeypatch.setattr(agents.human, "ask", ask)
    rc, out, err = arena(capsys, monkeypatch, "play", "mastermind", "--secret", "3632")
    assert rc == 130 and "arena play: interrupted" in err
    assert out.splitlines()[-1] == (
        "Stopped. 44 secrets were still possible: 3523, 3525, 3526, 3532, 3552, 3562, 3623, 3625, 3626, 3632, "
        "3652, 3662, ... (44 in all)."
    )
    monkeypatch.undo()
    typed_in = "1122\n1344\n3526\nquit\n"
    rc, out, err = arena(capsys, monkeypatch, "play", "mastermind", "--secret", "3632", stdin=typed_in)
    assert rc == 0 and out.splitlines()[-1].startswith("Stopped: ") and "7 secrets were still possible: " in out
