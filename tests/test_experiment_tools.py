"""The experiments' tools on small instances: experiments/mixed_chooser.py (integer weights for
a chooser mix between the uniform one and a state's LP mix) and experiments/hangman_degeneracy.py
(the LP over a Hangman state's rows, and the best responses to its own chooser mix)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from arena import make_game
from arena.equilibrium import double_oracle, growing, letters
from arena.optimal import optimal_tree


def experiment(name: str):
    """The experiments/ script `name` as a module."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).parents[1] / "experiments" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_mixed_chooser_proves_at_least_the_uniform_optimum(tmp_path, capsys):
    """On a converged state the LP's mix is the chooser's equilibrium mix q, worth the value;
    the optimum is concave in the chooser's mix, so against (1 - lam) uniform + lam q it is at
    least the uniform optimum (and at most the value)."""
    spec = "jotto:first=40"
    game = make_game(spec)
    state, out = tmp_path / "state.json.gz", tmp_path / "w.json"
    eq = double_oracle(game, state=state)
    experiment("mixed_chooser").main([spec, str(state), "--lam", "0.3", "--scan", "0.3", "--out", str(out)])
    printed = capsys.readouterr().out
    assert f"value {eq.value:.6f}" in printed and "lam 0.3: the trees' least cost" in printed
    w = json.loads(out.read_text())
    assert len(w) == len(game.secrets) and all(isinstance(x, int) and x >= 100 for x in w)
    uniform = optimal_tree(game).value / len(game.secrets)
    mixed = optimal_tree(game, weights=np.array(w, dtype=float)).value / sum(w)
    assert uniform < mixed <= eq.value + 1e-9
    with pytest.raises(SystemExit):
        experiment("mixed_chooser").main([spec, str(state), "--lam", "1"])


def test_the_degeneracy_experiment_on_a_hangman_state(tmp_path, monkeypatch, capsys):
    """The best response to the LP's own chooser mix concedes no more than the LP's value on it,
    and with it the LP is worth no more than before."""
    monkeypatch.setattr(letters, "UNIFORM_WORDS", 5)  # the growing rows, forced on 20 words
    monkeypatch.setattr(growing, "FIRST_ROWS", 6)
    spec = "hangman:length=4,first=20"
    state = tmp_path / "state.json.gz"
    double_oracle(make_game(spec), time_limit=0.5, state=state)
    experiment("hangman_degeneracy").main([spec, "misses", str(state), "--rounds", "1", "--seconds", "10"])
    lines = capsys.readouterr().out.splitlines()
    value = float(lines[1].split("the LP over the rows: ")[1].split(";")[0])
    rounds = [line for line in lines if line.startswith("round ")]
    assert len(rounds) == 2 and "rows lie off the LP's support" in lines[3]
    conceded = float(rounds[0].split("concedes ")[1].split()[0])
    after = float(rounds[0].split("with it the LP is ")[1].split()[0])
    assert conceded <= value + 1e-9 and after <= value + 1e-9
