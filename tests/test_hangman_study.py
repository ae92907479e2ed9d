"""experiments/hangman_equilibria.py on tiny lists: its rows are consistent with one another and
with the figures of experiments/hangman_equilibria.md."""

from __future__ import annotations

import importlib.util
import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "experiments" / "hangman_equilibria.py"
TOL = 1e-9


@pytest.fixture(scope="module")
def study():
    spec = importlib.util.spec_from_file_location("hangman_equilibria", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)


def rows(study, capsys, *argv: str) -> list[dict]:
    assert study.main(["--quick", "--json", *argv]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]


def test_quick_rows_are_consistent(study, capsys):
    got = rows(study, capsys, "--instances", "ill", "web2:5:10", "--strikes", "2,3")
    misses = {r["spec"]: r for r in got if r["table"] == "misses"}
    lost = {(r["list"], r["strikes"]): r for r in got if r["table"] == "lost"}
    assert len(misses) == 2 and len(lost) == 4

    for r in misses.values():
        assert r["upper"] - r["lower"] <= 1e-6  # settled
        assert r["lower"] - TOL <= r["value"] <= r["upper"] + TOL
        assert float(Fraction(r["value_exact"])) == pytest.approx(r["value"], abs=1e-7)
        # the uniform chooser is one chooser mix: it cannot hold the guesser to more than the value
        assert r["uniform"] <= r["value"] + TOL
        assert r["uniform_in_oracle"] == pytest.approx(r["uniform"], abs=1e-9)
        # the best guesser's worst case bounds what any chooser mix gets; the worst-case tree
        # cannot beat the fewest-expected-misses tree on the mean
        assert r["worst"] >= r["value"] - TOL
        assert r["worst_mean"] >= r["uniform"] - TOL
        # greedy evil is one adaptive chooser (at most the best one's value), and the best
        # guesser against it needs no more than this tree concedes to it
        assert r["fewest_against_greedy_evil"] <= r["greedy_evil_forces"] <= r["worst"]
        assert sum(r["support"].values()) == pytest.approx(1.0)
        assert sum(Fraction(x) for x in r["support_exact"].values()) == 1

    for r in lost.values():
        assert 0 <= r["uniform"] <= r["value"] + TOL <= 1 + 2 * TOL
        assert r["lower"] - TOL <= r["value"] <= r["upper"] + TOL
    for spec in {s for s, _ in lost}:  # one more strike never loses more
        assert lost[spec, 3]["value"] <= lost[spec, 2]["value"] + TOL
        assert lost[spec, 3]["uniform"] <= lost[spec, 2]["uniform"] + TOL

    # the figures of experiments/hangman_equilibria.md
    ill = next(r for s, r in misses.items() if "ill.txt" in s)
    assert (ill["uniform"], ill["value_exact"], ill["worst"]) == (2.4, "3", 6)
    assert sorted(ill["support"]) == ["fill", "hill", "kill", "mill", "pill", "till", "will"]
    first10 = misses["hangman:length=5,first=10"]
    assert (first10["uniform"], first10["value_exact"]) == (0.9, "16/13")
    assert first10["support_exact"] == {
        "abaff": "4/13",
        "aback": "3/13",
        "abase": "2/13",
        "abash": "2/13",
        "abask": "2/13",
    }


def test_quick_table_prints_each_row_with_its_commands(study, capsys):
    assert study.main(["--quick", "--instances", "web2:5:10", "--strikes", "2"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("| hangman:length=5,first=10 |"))
    assert "1.2308 = 16/13" in row and "5 of 10: abaff 4/13" in row
    for command in (
        "`arena optimal hangman:length=5,first=10`",
        "`arena equilibrium hangman:length=5,first=10`",
        "`arena optimal hangman:length=5,first=10 --objective worst`",
    ):
        assert command in row
    assert "`arena equilibrium hangman:length=5,strikes=2,first=10 --payoff lost`" in out
