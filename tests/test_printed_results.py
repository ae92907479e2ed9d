"""Results that print themselves: an Evaluation, an Equilibrium and a tournament's Report give
the very text the command prints, so that a notebook gets the same table; the command line
only prints what they return (issue 32). And the one check of a time limit and of a worker
count that both front ends make (arena.core.checks)."""

from __future__ import annotations

import copy
import re

import pytest
from cli_run import run

from arena import make_game
from arena.core import checks
from arena.core.errors import ArenaError, ArenaTypeError
from arena.study.config import load_config
from arena.study.results.metagame import Grid, MetaGame
from arena.study.tournament.run import run_config

SMALL = "mastermind:pegs=2,colors=3"
#: The one figure that differs between two runs of the same command: the seconds it took.
SECONDS = re.compile(r"\d+(?:\.\d+)? s\b")  # "0.07 s", and the flows line's "0 s" (under load "1 s")


def same_but_seconds(a: str, b: str) -> bool:
    return SECONDS.sub("T s", a) == SECONDS.sub("T s", b)


@pytest.mark.parametrize(
    "argv, kwargs",
    [
        ((SMALL, "knuth"), {}),
        ((SMALL, "random", "--repeat", "3"), {"repeat": 3}),
        ((SMALL, "knuth", "--chooser", "evil"), {"chooser": "evil"}),
        (("hangman:length=4,first=20", "most-parts", "--strikes", "6"), {"strikes": (6,)}),
    ],
)
def test_an_evaluation_prints_what_arena_evaluate_prints(capsys, argv, kwargs):
    rc, out, err = run(capsys, "evaluate", *argv)
    assert rc == 0, err
    evaluation = make_game(argv[0]).evaluate(argv[1], **kwargs)
    assert same_but_seconds(evaluation.report(), out.rstrip("\n"))
    assert str(evaluation) == evaluation.report()


@pytest.mark.parametrize(
    "argv, kwargs",
    [
        (("mastermind:pegs=2,colors=2",), {}),
        ((SMALL, "--guessers", "knuth,entropy"), {"guessers": ["knuth", "entropy"]}),
        (("jotto:first=6", "--method", "enumerate"), {"trees": True}),
    ],
)
def test_an_equilibrium_prints_what_arena_equilibrium_prints(capsys, argv, kwargs):
    rc, out, err = run(capsys, "equilibrium", *argv)
    assert rc == 0, err
    eq = make_game(argv[0]).equilibrium(**kwargs)
    assert same_but_seconds(eq.report(), out.rstrip("\n"))
    assert str(eq) == eq.report()


def test_an_equilibrium_with_its_check_prints_the_check_line(capsys):
    rc, out, err = run(capsys, "equilibrium", SMALL, "--check")
    assert rc == 0, err
    eq = make_game(SMALL).equilibrium()
    assert same_but_seconds(eq.report(eq.cross_check()), out.rstrip("\n")) and "nashpy check: value" in out


def test_the_rank_table_is_what_arena_rank_prints(capsys):
    from arena.api.catalogue import rank_table

    rc, out, err = run(capsys, "rank", SMALL, "entropy", "--top", "4")
    assert rc == 0, err
    assert rank_table(make_game(SMALL), "entropy", 4) == out.rstrip("\n")


@pytest.fixture(scope="module")
def tournament():
    tables = {"games": [SMALL], "choosers": ["uniform", "evil"], "guessers": ["knuth", "lowest"]}
    return run_config(load_config(tables))


def test_grids_are_named(tournament):
    (grid,) = tournament.grids().values()
    assert isinstance(grid, Grid) and grid.choosers == ["uniform", "evil"] and grid.guessers == ["knuth", "lowest"]
    assert grid.cells["evil", "knuth"].cell.chooser == "evil"


def test_the_meta_game_prints_its_summary_line_and_asks_nothing_first(tournament):
    """Before: Report.meta_game formatted the line, solved the LP and kept a 5-tuple that
    write_outputs found only because it had called summary() first."""
    fresh = copy.deepcopy(tournament)
    fresh._meta.clear()
    meta = fresh.meta_game(SMALL)  # no summary() before it
    assert isinstance(meta, MetaGame) and meta.solved and set(meta.choosers) == {"uniform", "evil"}
    assert str(meta) in fresh.summary().splitlines()
    assert fresh.meta_games() == {SMALL: meta}
    assert fresh.meta_game_solution(SMALL) == meta.solution() and meta.solution()["unit"] == "guesses"
    assert abs(sum(meta.row) - 1) < 1e-9 and abs(sum(meta.column) - 1) < 1e-9


def test_a_meta_game_with_a_missing_cell_says_why(tournament):
    broken = copy.deepcopy(tournament)
    broken._meta.clear()
    broken.results = [r for r in broken.results if (r.cell.chooser, r.cell.label) != ("evil", "lowest")]
    meta = broken.meta_game(SMALL)
    assert not meta.solved and meta.solution() is None
    assert str(meta) == "  meta-game on mean guesses per game: not solved (a cell failed or is missing)"


@pytest.mark.parametrize("bad", [0, -1.5, float("nan"), float("inf")])
def test_one_check_of_a_time_limit_for_both_front_ends(capsys, bad):
    with pytest.raises(ArenaError, match="time_limit must be a positive number of seconds or None"):
        checks.seconds(bad)
    with pytest.raises(ArenaError, match=r"^--time-limit must be a positive number of seconds, got"):
        checks.seconds(bad, "--time-limit")
    for argv in (
        ("equilibrium", SMALL, "--time-limit", str(bad)),
        ("equilibrium", SMALL, "--time-limit", "5", "--response-limit", str(bad)),
        ("evaluate", SMALL, "knuth", "--exploitability", "--time-limit", str(bad)),
    ):
        rc, out, err = run(capsys, *argv)
        assert rc == 2 and "must be a positive number of seconds, got" in err and len(err.splitlines()) == 1, err
    with pytest.raises(ArenaError, match="time_limit must be a positive"):
        make_game(SMALL).equilibrium(time_limit=bad)
    with pytest.raises(ArenaTypeError):
        checks.seconds("5")


def test_one_check_of_a_worker_count(capsys):
    assert checks.workers(3) == 3
    for bad in (0, -2):
        with pytest.raises(ArenaError, match=f"--workers must be at least 1, got {bad}"):
            checks.workers(bad, "--workers")
    with pytest.raises(ArenaTypeError):
        checks.workers(True)
    with pytest.raises(ArenaTypeError):
        checks.workers(2.0)


def test_the_front_door_takes_initial_guessers_and_certified_bounds():
    game = make_game(SMALL)
    seeded = game.equilibrium(initial=["knuth"])
    assert seeded.settled
    certified = game.equilibrium(certified=True, time_limit=30, response_limit=10, initial=["knuth"])
    assert certified.lower <= seeded.value + 1e-9 <= certified.upper + 2e-9
    with pytest.raises(ArenaError, match="certified=True takes time_limit and response_limit"):
        game.equilibrium(certified=True, time_limit=30)
    with pytest.raises(ArenaError, match="trees=True lists every tree"):
        game.equilibrium(trees=True, certified=True)
    with pytest.raises(ArenaTypeError, match="certified must be True or False"):
        game.equilibrium(certified="yes")
    # against one tree the chooser picks its worst secret
    assert game.equilibrium(guessers=["knuth"], cost="guesses").value == pytest.approx(game.evaluate("knuth").max)


def test_the_old_mixes_are_the_meta_games_as_tuples(tournament):
    meta = tournament.meta_game(SMALL)
    assert tournament.mixes == {SMALL: (list(meta.choosers), meta.row, list(meta.guessers), meta.column, meta.value)}


def test_initial_trees_as_the_command_line_names_them():
    from arena.cli.equilibrium import initial_trees

    game = make_game(SMALL)
    trees = initial_trees(game, "knuth,entropy:pool=all")
    assert [t.guesser for t in trees][1:] == ["entropy"] and len(trees) == 2
    assert initial_trees(game, None) == ()
    with pytest.raises(ArenaError, match="--initial needs at least one guesser spec"):
        initial_trees(game, ",")


@pytest.mark.parametrize("cells", [False, True])
def test_a_tournament_prints_what_arena_run_prints(capsys, tmp_path, cells):
    config = tmp_path / "t.toml"
    config.write_text(f'games = ["{SMALL}"]\nchoosers = ["uniform", "evil"]\nguessers = ["knuth", "lowest"]\n')
    rc, out, err = run(capsys, "run", config, *(["--cells"] if cells else []))
    assert rc == 0, err
    tournament = run_config(load_config(str(config)))
    assert same_but_seconds(tournament.report(cells=cells), out.rstrip("\n"))
    assert "meta-game on mean guesses per game" in out and str(tournament) == tournament.report()
