"""The README's examples run, and print what the README says they print."""

import re
import shlex
from pathlib import Path

import pytest

from agents import make_guesser
from arena import make_game
from arena.cli.parser import main
from arena.play.evaluate import evaluate

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_the_guesser_example_plays(tmp_path, monkeypatch):
    source = next(b for b in python_blocks() if "class FirstTen" in b)
    (tmp_path / "first_ten.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = evaluate(make_game("mastermind"), make_guesser("first_ten:FirstTen", allow_import=True))
    assert f"total = {result.total:,}" in README and f"worst = {result.max}" in README


def test_the_python_example_runs(capsys):
    source = next(b for b in python_blocks() if "evaluate(make_game" in b)
    exec(source, {})
    assert capsys.readouterr().out.split() == ["5801", "5"]


def test_the_front_door_example_prints_what_it_says(capsys):
    source = next(b for b in python_blocks() if "game.evaluate(" in b)
    exec(source, {})
    printed = capsys.readouterr().out.splitlines()
    said = [line.split("# ", 1)[1].strip() for line in source.splitlines() if "print(" in line]
    assert printed == said


def test_the_test_command_is_what_ci_runs():
    command = "python -m pip install -e '.[test]' && python -m slipcover -m pytest && python tests/coverage_floor.py"
    assert command in README
    assert command in (Path(__file__).parents[1] / ".ci" / "run").read_text()


# --- the console blocks: every `$ arena ...` of the README run, and its output compared ----------

CONSOLE = re.compile(r"^(    \$ .*\n(?:    .*\n|\n(?=    ))*)", re.M)


def console_blocks() -> list[str]:
    """The README's indented console blocks (a `$ ` line first), unindented."""
    return ["\n".join(line[4:] for line in block.rstrip("\n").splitlines()) for block in CONSOLE.findall(README)]


def readme_commands() -> list[tuple[str, str]]:
    from test_docs import commands

    return [pair for block in console_blocks() for pair in commands(block)]


def test_the_console_blocks_are_found():
    found = [command for command, _ in readme_commands()]
    assert len(found) == README.count("\n    $ ") and "arena evaluate mastermind knuth" in found


@pytest.mark.parametrize(
    "command, want", readme_commands(), ids=lambda x: x if x.startswith(("arena", "PYTHON")) else ""
)
def test_every_console_block_prints_what_the_readme_says(command, want, tmp_path, monkeypatch, capsys):
    """Run as tests/test_docs.py runs the docs' blocks (in this process, `...` for any text,
    timings masked); a command shown failing prints its one line on stderr, exit status 2."""
    from test_docs import same as same_text

    same = lambda want, got: same_text(want, "\n".join(line.rstrip() for line in got.split("\n")))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "experiments").symlink_to(ROOT / "experiments")
    source = next(b for b in python_blocks() if "class FirstTen" in b)
    (tmp_path / "first_ten.py").write_text(source)  # the README's own guesser, for its example
    argv = shlex.split(command)
    if argv[0] == "PYTHONPATH=.":
        argv.pop(0)
        monkeypatch.syspath_prepend(str(tmp_path))
    assert argv[0] == "arena"
    try:
        rc = main(argv[1:])
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    if " error: " in want.splitlines()[0]:
        assert rc == 2 and same(want, err), f"`{command}` exited {rc} and printed\n{err}\nnot\n{want}"
    else:
        assert rc in (0, None), f"`{command}` exited {rc}:\n{err}"
        assert same(want, out), f"`{command}` printed\n{out}\nnot\n{want}"
