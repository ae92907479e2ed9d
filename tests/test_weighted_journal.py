"""A split's journal of a weighted search bounds the game's value: the chooser may play the mix
its weights make, w / sum(w), so the optimum against it (or a bound a `--target` run proved) is
a lower end, folded in by `--bounds-from` and read again by `--value-from`. The journal's first
line carries the weights (journal.journal_weights), checked against their digest.

Jotto's first 16 words: the equilibrium's chooser mix, in integers (sum 150), makes a journal
whose optimum, 395, proves the value 79/30 (the uniform chooser proves 41/16 only)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from arena import make_game
from tests.cli_run import one_line, run

SPEC = "jotto:first=16"
VALUE = Fraction(79, 30)


@pytest.fixture(scope="module")
def weights_file(tmp_path_factory):
    """The equilibrium's chooser mix as integer weights, written as a weights file."""
    row = make_game(SPEC).equilibrium().exact.row
    scale = math.lcm(*(p.denominator for p in row))
    path = tmp_path_factory.mktemp("weights") / "w.json"
    path.write_text(json.dumps([int(p * scale) for p in row]))
    return path, scale


def journal_of(capsys, weights, path, *more):
    rc, out, err = run(
        capsys, "optimal", SPEC, "--weights", weights, "--workers", "1", "--journal", path, *more, "--json"
    )
    assert rc == 0, err
    return json.loads(out)


def test_the_optimum_against_a_weighted_mix_is_a_lower_end(capsys, tmp_path, weights_file):
    weights, total = weights_file
    journal, saved = tmp_path / "j.jsonl", tmp_path / "a.json"
    found = journal_of(capsys, weights, journal)
    assert found["exact"] and Fraction(found["value"], total) == VALUE
    assert json.loads(journal.read_text().splitlines()[0])["weighed"] == json.loads(weights.read_text())
    rc, out, err = run(
        capsys, "equilibrium", SPEC, "--time-limit", "0.001", "--bounds-from", journal, "--save", saved, "--json"
    )
    data = json.loads(out)
    assert rc == 0 and data["lower"] == float(VALUE) and data["uniform_value"] == 41 / 16, err
    lower = data["bounds"][0]
    assert lower["rests_on"] == {"journal": str(journal), "weighted": True} and lower["exact"] == "79/30"
    assert "the exact optimum against the chooser mix its weights make" in lower["how"]
    rc, out, err = run(capsys, "evaluate", SPEC, "knuth", "--exploitability", "--value-from", saved)
    assert rc == 0 and "game value: in [2.633333," in out and "its weights make" in out, err


def test_a_target_run_proves_its_target_as_a_bound(capsys, tmp_path, weights_file):
    weights, total = weights_file
    journal = tmp_path / "t.jsonl"
    found = journal_of(capsys, weights, journal, "--target", "390")
    assert found["lower_bound"] == 390 and not found["exact"] and found["value"] >= 395
    eq = make_game(SPEC).equilibrium(time_limit=1e-3, bounds_from=str(journal))
    assert eq.lower == 390 / total and "bound records" in eq.bounds[0].how and eq.bounds[0].exact is None


def test_a_weighted_journal_that_cannot_be_right_is_refused(capsys, tmp_path, weights_file):
    weights, _ = weights_file
    journal = tmp_path / "j.jsonl"
    journal_of(capsys, weights, journal)
    first, *rest = journal.read_text().splitlines()
    key = json.loads(first)
    for name, change, why in (
        ("forged", lambda k: k["weighed"].__setitem__(0, k["weighed"][0] + 1), "not those its digest names"),
        ("bare", lambda k: k.pop("weighed"), "does not carry its weights"),
    ):
        changed = json.loads(first)
        change(changed)
        path = tmp_path / f"{name}.jsonl"
        path.write_text("\n".join([json.dumps(changed), *rest]) + "\n")
        rc, _, err = run(capsys, "equilibrium", SPEC, "--time-limit", "0.001", "--bounds-from", path)
        one_line(rc, err, why)
    assert key["weights"] != "equal"
    rc, _, err = run(capsys, "equilibrium", "jotto:first=20", "--time-limit", "0.001", "--bounds-from", journal)
    one_line(rc, err, "weights are for 16 secrets")


def test_a_game_the_split_cannot_search_is_not_told_to_use_its_journal():
    """The fold's note where the uniform chooser's optimum is not proven: the split's journal
    where the split searches the game, the search's seconds elsewhere (Hangman's misses)."""
    game = make_game("hangman:words=wordle-answers,length=5,first=300")  # the rows grow: no uniform search
    eq = game.equilibrium(time_limit=1e-3, cost="misses", uniform_limit=1e-3)
    note = next(n for n in eq.notes if n.startswith("the optimum against the uniform chooser is not proven"))
    assert "--journal" not in note and "--uniform-limit" in note
