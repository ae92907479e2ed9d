"""The README's examples run, and print what the README says they print."""

import re
from pathlib import Path

from agents import make_guesser
from arena import make_game
from arena.evaluate import evaluate

README = (Path(__file__).parents[1] / "README.md").read_text()


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
    command = "python -m pip install -e '.[test]' && python -m pytest"
    assert command in README
    assert command in (Path(__file__).parents[1] / ".ci" / "run").read_text()
