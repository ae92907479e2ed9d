"""Hunting for tracebacks: generated specs, configs, histories and replies fed to the command line.

Every input either works (exit 0, or 1 for `--check`) or is one line on stderr and exit 2;
nothing may escape as a Python exception. The memory budget is set small so that a generated
instance that would be big is refused at once instead of built: the refusal is the behaviour
under test. Each test counts its inputs by outcome in FUZZ_COUNTS (printed with `-s`).
"""

from __future__ import annotations

import contextlib
import io
import os
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.cli.parser import main

FUZZ_COUNTS: Counter = Counter()
EXAMPLES = int(os.environ.get("ARENA_FUZZ_EXAMPLES", "1"))  # a multiplier for longer hunts
FUZZ = settings(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))

#: Instances small enough that any guesser finishes at once.
SMALL_GAMES = [
    "mastermind:pegs=2,colors=3",
    "mastermind:pegs=3,colors=3",
    "jotto:first=25",
    "hangman:length=4,first=30",
    "mastermind:pegs=3,colors=5,repeats=false",
]
GAME_NAMES = ["mastermind", "jotto", "hangman", "chess", "Mastermind", "", " ", "jotto:", "mastermind::"]
GAME_KEYS = [
    "pegs",
    "colors",
    "repeats",
    "alphabet",
    "words",
    "length",
    "first",
    "strikes",
    "other",
    "seed",
    "",
    "pegs ",
    "Pegs",
]
GUESSERS = [
    "knuth",
    "lowest",
    "random",
    "entropy",
    "minimax:pool=all",
    "most-parts",
    "expected",
    "random:seed=3",
    "entropy:small=-1",
    "minimax:pool=xyz",
    "fewest-misses",
    "tree:file=/nonexistent.json",
    "nosuch",
    "",
    "knuth:",
    "knuth:foo=1",
    "lowest:openers=zzzz",
    "os.path:join",
    ".rel:Thing",
    "evil",
]
CHOOSERS = ["uniform", "evil", "minimax", "spoiler", "fixed:secret=123", "weighted", "nosuch", "knuth", ""]
VALUES = st.one_of(
    st.integers(-3, 40).map(str),
    st.sampled_from(
        [
            "10000000",
            "-99999999999",
            "1e3",
            "0x10",
            "true",
            "false",
            "",
            "abc",
            "sgb",
            "web2",
            "skip",
            "reveal",
            "refuse",
            "RYGBOP",
            "é",
            "/",
            "/dev/null",
            "a,b",
            "=",
            "%",
        ]
    ),
)


@contextlib.contextmanager
def small_budget(limit: str = "96M"):
    """A small memory budget for the duration of one input."""
    old = os.environ.get("ARENA_MEMORY_LIMIT")
    os.environ["ARENA_MEMORY_LIMIT"] = limit
    try:
        yield
    finally:
        if old is None:
            del os.environ["ARENA_MEMORY_LIMIT"]
        else:
            os.environ["ARENA_MEMORY_LIMIT"] = old


def run_cli(argv: list[str], stdin: str = "", kind: str = "cli") -> int:
    """Run `arena ARGV` in-process; return its status; fail on any escaping exception."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = os.sys.stdin
    os.sys.stdin = io.StringIO(stdin)
    try:
        with small_budget(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as e:  # argparse's own usage errors, and --check's exit 1
                status = e.code if isinstance(e.code, int) else 2
    finally:
        os.sys.stdin = old_stdin
    message = err.getvalue()
    assert "Traceback" not in message, f"arena {argv}: traceback on stderr:\n{message}"
    assert status in (0, 1, 2), f"arena {argv}: exit status {status}\n{message}"
    if status == 2:
        assert message.strip(), f"arena {argv}: exit 2 without a message"
    FUZZ_COUNTS[kind, status] += 1
    return status


GAME_PARAMS = {
    "mastermind": ["pegs", "colors", "repeats", "alphabet"],
    "jotto": ["words", "length", "repeats", "first"],
    "hangman": ["words", "length", "strikes", "other", "first"],
}
GOOD_VALUES = {
    "pegs": st.integers(1, 6).map(str),
    "colors": st.integers(1, 9).map(str),
    "repeats": st.sampled_from(["true", "false"]),
    "alphabet": st.sampled_from(["RYGBOP", "ab", "xyzxyz"]),
    "words": st.sampled_from(["sgb", "web2"]),
    "length": st.integers(1, 9).map(str),
    "first": st.integers(0, 60).map(str),
    "strikes": st.integers(1, 9).map(str),
    "other": st.sampled_from(["skip", "reveal", "refuse"]),
}


@st.composite
def game_specs(draw) -> str:
    """Game specs: mostly a real game with some of its own parameters, good or odd values;
    sometimes unknown names and keys; now and then raw junk."""
    name = draw(st.sampled_from(GAME_NAMES[:3] * 4 + GAME_NAMES[3:]))
    own = GAME_PARAMS.get(name, GAME_KEYS)
    keys = draw(
        st.lists(
            st.one_of(st.sampled_from(own), st.sampled_from(own), st.sampled_from(GAME_KEYS)), max_size=3, unique=True
        )
    )
    pairs = [(k, draw(GOOD_VALUES[k] if k in GOOD_VALUES and draw(st.integers(0, 3)) else VALUES)) for k in keys]
    spec = name + (":" + ",".join(f"{k}={v}" for k, v in pairs) if pairs else "")
    if draw(st.integers(0, 9)) == 0:  # raw junk now and then
        spec = draw(st.text(alphabet="mastermindjoth:=,0123456789 é-", max_size=30))
    return spec


@settings(FUZZ, max_examples=300 * EXAMPLES)
@given(spec=game_specs(), command=st.sampled_from(["solve", "rank", "evaluate"]), small=st.booleans())
def test_game_specs(spec, command, small):
    """Generated game specs: built (or refused) by commands that do little else. `first=` is
    added where a game takes it so that a valid spec stays a quick instance."""
    if small and spec.startswith(("jotto", "hangman")) and "first=" not in spec:
        spec += (":" if ":" not in spec else ",") + "first=40"
    if command == "solve":
        argv = ["solve", spec, "--guesser", "lowest"]
    elif command == "rank":
        argv = ["rank", spec, "entropy", "--top", "2"]
    else:
        argv = ["evaluate", spec, "lowest"]
    run_cli(argv, kind="game spec")


@settings(FUZZ, max_examples=250 * EXAMPLES)
@given(
    game=st.sampled_from(SMALL_GAMES),
    guesser=st.sampled_from(GUESSERS),
    chooser=st.sampled_from(CHOOSERS),
    extra=st.lists(st.sampled_from(["--repeat", "--seed", "--strikes", "--json"]), max_size=2, unique=True),
    number=st.sampled_from(["0", "-1", "2", "x", "3,0", "1,2"]),
)
def test_agent_specs(game, guesser, chooser, extra, number):
    """Generated agent specs against small games, with odd option values."""
    argv = ["evaluate", game, guesser, "--chooser", chooser]
    for option in extra:
        argv += [option] if option == "--json" else [option, number]
    run_cli(argv, kind="agent spec")


REPLY_TEXT = st.text(alphabet="0123456789,.-/ RWBGYhitmsé\t", max_size=9)


@settings(FUZZ, max_examples=200 * EXAMPLES)
@given(game=st.sampled_from(SMALL_GAMES), data=st.data())
def test_histories(game, data):
    """`arena solve` with generated histories: real guesses with odd replies, and junk guesses."""
    from arena import make_game

    g = make_game(game)
    labels = st.sampled_from([g.reply_label(c) for c in g.codes.tolist()])
    steps = data.draw(
        st.lists(
            st.tuples(
                st.one_of(st.sampled_from(g.guesses[:20]), st.text(max_size=6)), st.one_of(labels, labels, REPLY_TEXT)
            ),
            min_size=1,
            max_size=3,
        )
    )
    argv = ["solve", game, "--guesser", "lowest"]
    for guess, reply in steps:
        sep = data.draw(st.sampled_from(["=", "=", "=", "=", ":", ""]))
        argv += ["--history", f"{guess}{sep}{reply}"]
    run_cli(argv, kind="history")


@settings(FUZZ, max_examples=300 * EXAMPLES)
@given(game=st.sampled_from(SMALL_GAMES), data=st.data())
def test_reply_parsing(game, data):
    """A reply string is read as a code that occurs in the game, or refused with an ArenaError."""
    from arena import make_game
    from arena.core.errors import ArenaError

    g = make_game(game)
    label = st.sampled_from([g.reply_label(c) for c in g.codes.tolist()])
    text = data.draw(
        st.one_of(
            REPLY_TEXT, st.text(max_size=12), label.map(lambda t: f" {t} "), st.tuples(label, REPLY_TEXT).map("".join)
        )
    )
    try:
        code = g.parse_reply(text)
    except ArenaError:
        FUZZ_COUNTS["reply", "refused"] += 1
        return
    assert code in set(g.codes.tolist()), f"{game}: {text!r} read as {code}, which never occurs"
    FUZZ_COUNTS["reply", "read"] += 1


@pytest.mark.parametrize("game", SMALL_GAMES)
def test_reply_labels_read_back(game):
    """Every reply, written as people write it, reads back as itself."""
    from arena import make_game

    g = make_game(game)
    for code in g.codes.tolist():
        assert g.parse_reply(g.reply_label(code)) == code


@settings(FUZZ, max_examples=100 * EXAMPLES)
@given(game=st.sampled_from(SMALL_GAMES), data=st.data())
def test_human_chooser_replies(game, data):
    """`arena play --chooser human` fed generated reply lines (and then end of input): real
    replies for a secret the person thinks of, mixed with odd lines."""
    from arena import make_game

    g = make_game(game)
    secret = data.draw(st.integers(0, len(g.secrets) - 1))
    answers = [data.draw(st.one_of(st.just(truth), st.just(truth), REPLY_TEXT)) for truth in truthful(g, secret)]
    if g.hit is None:  # Hangman asks for the length first
        answers.insert(0, data.draw(st.sampled_from([str(len(g.secrets[secret])), "", "x", "99"])))
    answers += data.draw(st.lists(REPLY_TEXT, max_size=2))
    run_cli(
        ["play", game, "--guesser", "lowest", "--chooser", "human"],
        stdin="\n".join(answers) + "\n",
        kind="human replies",
    )


def truthful(g, secret: int) -> list[str]:
    """The replies a truthful person gives to the `lowest` guesser when `secret` is the secret."""
    from agents import make_guesser
    from agents.base import State

    guesser, labels = make_guesser("lowest"), []
    candidates = np.array([s for s in range(len(g.secrets)) if len(g.secrets[s]) == len(g.secrets[secret])])
    state = State(candidates)
    while not g.determined(state.candidates) and len(labels) < 20:
        guess = guesser.guess(g, state)
        reply = g.reply(guess, secret)
        labels.append(g.reply_label(reply))
        if g.finished(reply):
            break
        state = state.after(guess, reply, g.consistent(state.candidates, guess, reply))
    return labels


def toml_value(value) -> str:
    """A Python value as TOML (enough for generated configs)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


SCALARS = st.one_of(
    st.integers(-2, 12),
    st.sampled_from(["", "x", "7.32-7.38", "5%", "9-1"]),
    st.booleans(),
    st.floats(-1, 10, allow_nan=False),
)
GOOD_GUESSERS = st.sampled_from(GUESSERS[:8])
GOOD_CHOOSERS = st.sampled_from(CHOOSERS[:4])


def mostly(good, odd=SCALARS):
    """Valid values seven times in eight."""
    return st.integers(0, 7).flatmap(lambda k: odd if k == 0 else good)


TOP = {
    "title": mostly(st.text(alphabet="abc xyz-é", max_size=8), st.text(max_size=8)),
    "seed": mostly(st.integers(0, 99)),
    "repeat": mostly(st.integers(1, 3)),
    "block": mostly(st.integers(1, 3)),
    "strikes": mostly(st.integers(1, 9)),
    "task_timeout": mostly(st.integers(1, 30)),
    "unknown": SCALARS,
}
GRID = {
    "games": mostly(st.lists(st.sampled_from(SMALL_GAMES[:3]), min_size=1, max_size=2)),
    "guessers": mostly(st.lists(GOOD_GUESSERS, min_size=1, max_size=3)),
    "choosers": mostly(st.lists(GOOD_CHOOSERS, min_size=1, max_size=2)),
}
ROW = {
    "label": st.text(max_size=6),
    "game": mostly(st.sampled_from(SMALL_GAMES)),
    "guesser": mostly(GOOD_GUESSERS, st.sampled_from(GUESSERS)),
    "chooser": mostly(GOOD_CHOOSERS, st.sampled_from(CHOOSERS)),
    "repeat": mostly(st.integers(1, 3)),
    "seed": mostly(st.integers(0, 9)),
    "strikes": mostly(st.one_of(st.integers(1, 9), st.lists(st.integers(1, 9), min_size=1, max_size=2))),
    "published": mostly(
        st.dictionaries(
            st.sampled_from(["total", "mean", "max", "lost6", "misses", "bogus"]),
            st.one_of(st.integers(0, 50), st.sampled_from(["2.5-3.5"])),
            max_size=2,
        )
    ),
    "tolerance": mostly(st.dictionaries(st.sampled_from(["mean", "total"]), st.sampled_from([0.1, "5%"]), max_size=1)),
    "note": mostly(st.text(max_size=5)),
}


@st.composite
def configs(draw) -> str:
    """TOML text: a grid or [[rows]] (mostly well-formed, with odd values now and then), some
    top-level keys, and now and then a damaged file."""
    top = draw(st.lists(st.sampled_from(sorted(set(TOP) - {"unknown"})), max_size=3, unique=True))
    top += ["unknown"] if draw(st.integers(0, 15)) == 0 else []
    lines = [f"{k} = {toml_value(draw(TOP[k]))}" for k in top]
    if draw(st.booleans()):
        grid = draw(st.lists(st.sampled_from(sorted(GRID)), min_size=1, max_size=3, unique=True))
        grid = list(dict.fromkeys(["games", "guessers", *grid])) if draw(st.integers(0, 5)) else grid
        lines += [f"{k} = {toml_value(draw(GRID[k]))}" for k in grid]
    else:
        for _ in range(draw(st.integers(0, 3))):
            keys = draw(st.lists(st.sampled_from(sorted(ROW)), max_size=5, unique=True))
            keys = list(dict.fromkeys(["game", "guesser", *keys])) if draw(st.integers(0, 3)) else keys
            lines += ["[[rows]]"] + [f"{k} = {toml_value(draw(ROW[k]))}" for k in keys]
    text = "\n".join(lines) + "\n"
    damage = draw(st.integers(0, 11))
    if damage == 0:
        text = text[: draw(st.integers(0, len(text)))]
    elif damage == 1:
        text = "\ufeff" + text
    elif damage == 2:
        text += draw(st.text(max_size=10))
    return text


@settings(FUZZ, max_examples=200 * EXAMPLES)
@given(text=configs(), latin=st.integers(0, 5).map(lambda k: k == 0), out=st.booleans())
def test_configs(tmp_path_factory, text, latin, out):
    """Generated configs through `arena run` (and `arena report` of the store it leaves)."""
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "config.toml"
    path.write_bytes(text.encode("latin-1", "replace") if latin else text.encode())
    argv = ["run", str(path), "--no-plots"] + (["--out", str(folder / "out")] if out else [])
    run_cli(argv, kind="config")
    if out and (folder / "out").exists():
        run_cli(["report", str(folder / "out")], kind="report")


@settings(FUZZ, max_examples=100 * EXAMPLES)
@given(
    data=st.binary(max_size=200),
    name=st.sampled_from(["results.sqlite", "words.txt", "words.txt.gz", "tree.json", "weights.json"]),
)
def test_damaged_files(tmp_path_factory, data, name):
    """Garbage where a store, a word list, a tree or a weights file should be."""
    folder = tmp_path_factory.mktemp("damaged")
    path = folder / name
    path.write_bytes(data)
    if name == "results.sqlite":
        run_cli(["report", str(folder)], kind="damaged file")
    elif name.startswith("words"):
        run_cli(["evaluate", f"jotto:words={path}", "lowest"], kind="damaged file")
        run_cli(["evaluate", f"hangman:words={path},first=20", "lowest"], kind="damaged file")
    elif name == "tree.json":
        run_cli(["evaluate", "mastermind:pegs=2,colors=3", f"tree:file={path}"], kind="damaged file")
    else:
        run_cli(["optimal", "mastermind:pegs=2,colors=3", "--weights", str(path)], kind="damaged file")


def test_zz_report_counts(capsys):
    """Print how many generated inputs of each kind ran, and how they ended (see with -s)."""
    with capsys.disabled():
        if FUZZ_COUNTS:
            print("\nfuzz inputs:", ", ".join(f"{k[0]} -> {k[1]}: {v}" for k, v in sorted(FUZZ_COUNTS.items())))
    assert Path(__file__).exists()
