"""The Problem (arena/optimal/problem.py) and the request that builds it from user input
(arena/api/exact.py): checked once, keyed as journals and witness files always were, and the
same solver chosen for `arena optimal` and `game.optimal()`."""

from __future__ import annotations

import re

import numpy as np
import pytest

from arena import make_game
from arena.api.exact import OptimalRequest, optimal_text, plan_optimal, request_of
from arena.core.digests import project_code, proof_code
from arena.core.errors import ArenaError, ArenaTypeError
from arena.equilibrium import double_oracle
from arena.equilibrium.witness import witness_key
from arena.optimal import optimal_tree
from arena.optimal.journal import FORMAT, journal_key
from arena.optimal.problem import Objective, Pool, Problem, canonical_spec, game_files, proof_modules, weights_digest
from arena.optimal.split import split_root
from tests.cli_run import run

SPEC = "mastermind:pegs=3,colors=3"
HANGMAN = "hangman:length=4,first=24,strikes=3"


def old_journal_key(game, pool, weights=None, max_guesses=None) -> dict:
    """The journal's key as split.py built it by hand before the Problem (its order too)."""
    return {
        "journal": FORMAT,
        "game": canonical_spec(game.spec),
        "files": game_files(game.spec),
        "pool": pool,
        "objective": "average",
        "cost": "guesses",
        "max_guesses": max_guesses,
        "weights": weights_digest(weights),
        "version": proof_code(proof_modules(game)),  # the whole project's digest (project_code) before issue 33
    }


@pytest.mark.parametrize("pool", ["all", "consistent"])
@pytest.mark.parametrize("weights", ["none", "equal", "mixed"])
@pytest.mark.parametrize("max_guesses", [None, 5])
def test_the_journal_key_is_the_one_written_before(pool, weights, max_guesses):
    """12 problems: the key a journal records is the one it always recorded, in the same order
    (so a journal written before the Problem is read, and one of other inputs refused, as now),
    and, where weights were given, the weights themselves after it (`weighed`, not compared:
    what a weighted journal proves a bound against)."""
    game = make_game(SPEC)
    n = len(game.secrets)
    given = {"none": None, "equal": np.full(n, 2.0), "mixed": np.arange(1.0, n + 1)}[weights]
    key = journal_key(Problem.of(game, weights=given, pool=pool, max_guesses=max_guesses))
    old = old_journal_key(game, pool, given, max_guesses)
    weighed = {} if given is None else {"weighed": [int(x) for x in given]}
    assert key == old | weighed and list(key) == [*old, *weighed]


def test_the_witness_key_is_the_one_written_before():
    game = make_game(SPEC)
    old = {"game": canonical_spec(game.spec), "files": game_files(game.spec), "payoff": "guesses"}
    key = witness_key(game, "guesses")
    assert key == old | {"version": project_code()} and list(key) == [*old, "version"]


def test_a_problem_is_checked_once_when_built():
    game = make_game(SPEC)
    problem = Problem.of(game, pool="consistent", objective="worst", max_guesses=4, openers=())
    assert problem.pool == "consistent" and problem.pool is Pool.CONSISTENT and problem.objective is Objective.WORST
    assert problem.key()["pool"] == "consistent" and not problem.hard and problem.everything
    for bad, words in (
        (dict(pool="some"), "pool must be one of"),
        (dict(objective="best"), "objective must be one of"),
        (dict(max_guesses=0), "max_guesses"),
        (dict(cost="misses"), "does not fit"),
        (dict(openers=("111", "111")), "given twice"),
        (dict(openers=("111",), objective="worst"), "objective worst searches its own first guess"),
        (dict(weights=[1.0, 2.0]), "weights: expected"),
        (dict(secrets=[0, 0]), "distinct"),
    ):
        with pytest.raises(ArenaError, match=words):
            Problem.of(game, **bad)
    hangman = make_game(HANGMAN)
    with pytest.raises(ArenaError, match="no worst-case objective"):
        Problem.of(hangman, cost="lost", objective="worst")


def test_the_solvers_take_a_problem_and_a_game_with_its_settings_alike():
    game = make_game(SPEC)
    problem = Problem.of(game, pool="consistent", max_guesses=4)
    by_problem, by_keywords = optimal_tree(problem), optimal_tree(game, pool="consistent", max_guesses=4)
    assert by_problem.value == by_keywords.value and by_problem.guesser == by_keywords.guesser
    split = split_root(problem, workers=1)
    assert split.value == by_problem.value and split.exact
    with pytest.raises(ArenaError, match="a Problem carries its own settings"):
        optimal_tree(problem, pool="all")
    with pytest.raises(ArenaError, match="a Problem carries its own settings"):
        split_root(problem, pool="all")
    with pytest.raises(ArenaError, match="the split searches every first guess"):
        split_root(Problem.of(game, objective="worst"), workers=1)
    with pytest.raises(ArenaError, match="the double oracle solves the whole game"):
        double_oracle(problem)
    with pytest.raises(ArenaTypeError, match="give a symmetry as symmetry="):
        double_oracle(game, "no symmetry")  # the symmetry was double_oracle's second argument
    with pytest.raises(ArenaTypeError, match="give the pool as pool="):
        split_root(game, "consistent")  # the pool was split_root's second argument
    assert double_oracle(Problem.of(game), certify=False).value == pytest.approx(
        double_oracle(game, certify=False).value
    )


def test_the_request_chooses_the_solver_and_names_the_settings_as_the_user_wrote_them():
    game = make_game(SPEC)
    assert plan_optimal(game, OptimalRequest()).solver == "search"
    assert plan_optimal(game, OptimalRequest(workers=1)).solver == "split"
    assert plan_optimal(game, OptimalRequest(start="knuth")).solver == "start"
    with pytest.raises(ArenaError, match="^start improves a guesser's whole tree: it cannot be combined with openers"):
        plan_optimal(game, OptimalRequest(start="knuth", openers=("111",)))
    with pytest.raises(ArenaError, match="^--start improves .* with --openers"):
        plan_optimal(game, OptimalRequest(start="knuth", openers=("111",), flags=True))
    with pytest.raises(ArenaError, match="journal records the pieces the split closes: give workers=N"):
        plan_optimal(game, OptimalRequest(journal="j.jsonl"))
    with pytest.raises(ArenaError, match="depth is not a setting"):
        request_of({"depth": 2})


def test_the_front_door_runs_what_the_command_line_runs(capsys):
    """game.optimal(workers=1) is the split, as `--workers 1` (the front door only ever called
    optimal_tree); objective "lost" is the lost games' average, as its docstring says (it was
    refused: "objective must be one of average, worst")."""
    game = make_game(SPEC)
    split = game.optimal(workers=1)
    assert split.split is not None and split.value == optimal_tree(game).value
    hangman = make_game(HANGMAN)
    lost = hangman.optimal(objective="lost")
    assert lost.cost == "lost" and lost.value == optimal_tree(hangman, cost="lost").value


@pytest.mark.parametrize(
    "argv, keywords",
    [
        ([SPEC], {}),
        ([SPEC, "--objective", "worst"], {"objective": "worst"}),
        ([SPEC, "--workers", "1"], {"workers": 1}),
        ([SPEC, "--openers", "112"], {"openers": ("112",)}),
        ([HANGMAN, "--objective", "worst"], {"objective": "worst"}),
    ],
)
def test_the_command_prints_the_text_the_result_gives(capsys, argv, keywords):
    """str(solved) is the report `arena optimal` prints above its table (5 commands; the
    Hangman one with the adversaries' lines the API adds)."""
    rc, out, _ = run(capsys, "optimal", *argv)
    assert rc == 0
    solved = make_game(argv[0]).optimal(**keywords)
    expected = optimal_text(solved).split("\n")
    printed = out.split("\n")[: len(expected)]

    def strip(line: str) -> str:  # the time and the sets searched may differ
        return re.sub(r"\d+\.\d+ s\b", "T s", line.rsplit(";", 1)[0])  # a split's task times too

    assert [strip(x) for x in printed] == [strip(x) for x in expected]
    assert str(solved) == solved.report() and str(solved).split("\n")[0] == expected[0]
    if "worst" in argv:
        assert "in the worst case" in str(solved)


def test_a_weighted_result_says_so_in_a_notebook_too():
    game = make_game(SPEC)
    w = np.arange(1.0, len(game.secrets) + 1)
    assert "weighted cost" in str(optimal_tree(game, weights=w))
    assert "weighted cost" not in str(optimal_tree(game))
