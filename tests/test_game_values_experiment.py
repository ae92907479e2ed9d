"""experiments/game_values.py: the game values it prints, and the value checked from the
other side (the slow path's best response to the rational chooser mix)."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

from arena import make_game
from arena.equilibrium import double_oracle

SCRIPT = Path(__file__).resolve().parents[1] / "experiments" / "game_values.py"


def game_values():
    """experiments/game_values.py as a module."""
    spec = importlib.util.spec_from_file_location("game_values", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_value_checked_from_the_other_side():
    """experiments/game_values.py --check: the slow path's best response to the rational chooser mix."""
    game = make_game("mastermind:pegs=3,colors=4")
    eq = double_oracle(game)
    assert game_values().other_side(game, eq) == eq.exact.value == Fraction(219, 68)


def test_the_script_prints_its_rows_and_checks(capsys):
    assert game_values().main(["--games", "mastermind:pegs=2,colors=3", "--check"]) == 0
    out = capsys.readouterr().out
    assert "| mastermind:pegs=2,colors=3 | 9 | 29/12 ≈ 2.416667 |" in out
    assert out.count("agrees") == 2 and "DISAGREES" not in out


def test_a_saved_value_checked_by_the_slow_path(tmp_path, capsys):
    """--check-file: the saved rational chooser mix's slow-path best response needs the saved
    value; a file whose value was tampered with is said to disagree."""
    import gzip
    import json

    game = make_game("mastermind:pegs=3,colors=4")
    path = tmp_path / "eq.json.gz"
    double_oracle(game).save(path)
    module = game_values()
    assert module.main(["--games", game.spec, "--check-file", str(path)]) == 0
    out = capsys.readouterr().out
    assert "| 219/68 |" in out and "agrees" in out and "DISAGREES" not in out
    saved = json.loads(gzip.open(path, "rt").read())
    saved["value_exact"] = "220/68"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(saved))
    assert "DISAGREES with the file's 220/68" in module.check_file(game.spec, str(tampered))


def test_a_file_of_another_game_is_refused_in_one_line(tmp_path):
    """--check-file reads the file as `arena evaluate --value-from` does: another game's is refused."""
    import pytest

    path = tmp_path / "eq.json"
    double_oracle(make_game("mastermind:pegs=2,colors=3")).save(path)
    with pytest.raises(SystemExit, match="does not fit mastermind:pegs=3,colors=4"):
        game_values().main(["--games", "mastermind:pegs=3,colors=4", "--check-file", str(path)])
