"""Results as pandas DataFrames (`.to_frame()`): the same figures the commands print.

pandas is in the `test` extra, so these run in CI; they are not skipped when it is missing.
"""

from __future__ import annotations

import builtins
import textwrap
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from arena import ArenaError, make_game
from arena.cli.parser import main
from arena.study.config import load_config
from arena.study.tournament.run import run_config

SMALL = "mastermind:pegs=3,colors=4"  # 64 secrets
COLUMNS = ["game", "guesser", "chooser", "secret", "repetition", "guesses", "misses"]


def test_an_evaluation_is_one_row_per_secret():
    game = make_game(SMALL)
    result = game.evaluate("knuth")
    frame = result.to_frame()
    assert list(frame.columns) == COLUMNS
    assert len(frame) == len(game.secrets) == 64
    assert frame.secret.tolist() == list(game.secrets)
    assert frame.guesses.sum() == result.total and frame.guesses.max() == result.max
    assert frame.guesses.mean() == pytest.approx(result.mean)
    assert set(frame.chooser) == {"uniform"} and set(frame.repetition) == {0}
    assert frame.misses.isna().all()  # misses do not count in Mastermind


def test_repetitions_are_rows_too():
    result = make_game(SMALL).evaluate("random", repeat=3, seed=7)
    frame = result.to_frame()
    assert len(frame) == 3 * 64
    assert frame.groupby("repetition").size().tolist() == [64, 64, 64]
    assert frame.guesses.sum() == result.total
    assert frame.guesses.std(ddof=0) == pytest.approx(result.std)
    by_secret = frame.groupby("secret", sort=False).guesses.max().to_numpy()
    assert (by_secret == result.worst).all()


def test_hangman_counts_misses():
    result = make_game("hangman:length=5,first=200").evaluate("max-frequency")
    frame = result.to_frame()
    assert frame.misses.sum() == result.miss_sums.total
    assert frame.misses.max() == result.misses_max


def test_against_a_chooser_each_game_ends_on_its_secret():
    game = make_game(SMALL)
    result = game.evaluate("knuth", chooser="evil")
    frame = result.to_frame()
    assert list(frame.columns) == COLUMNS
    assert frame.chooser.tolist() == ["evil"] * result.n
    assert frame.guesses.tolist() == result.guesses.ravel().tolist()
    assert frame.secret.tolist() == [g["secret"] for g in result.games()]
    assert set(frame.secret) <= set(game.secrets)


def test_against_the_uniform_chooser_it_is_every_secret():
    frame = make_game(SMALL).evaluate("knuth", chooser="uniform").to_frame()
    assert len(frame) == 64 and set(frame.chooser) == {"uniform"}


def test_the_tree_frame_is_its_strategy_table():
    tree = make_game(SMALL).tree("knuth")
    frame = tree.to_frame(min_count=1)
    assert list(frame.columns) == ["history", "guess", "count", "total", "avg", "max"]
    assert [tuple(r) for r in frame.itertuples(index=False)] == tree.rows(min_count=1)
    assert frame["count"].iloc[0] == 64 and frame.total.iloc[0] == tree.guesses.sum()
    assert len(tree.to_frame()) == len(tree.rows())  # the printed table's default: 3 secrets or more


def test_the_tree_costs_frame_is_per_secret():
    game = make_game(SMALL)
    tree = game.tree("knuth")
    costs = tree.costs_frame()
    assert costs.secret.tolist() == list(game.secrets)
    assert costs.guesses.sum() == game.evaluate("knuth").total


def test_the_equilibrium_frames_are_its_mixes():
    game = make_game("mastermind:pegs=2,colors=3")
    solution = game.equilibrium(guessers=["knuth", "entropy", "lowest"])
    chooser = solution.to_frame()
    assert chooser.equals(solution.chooser_frame())
    assert list(chooser.columns) == ["game", "secret", "row", "probability"]
    assert chooser.secret.tolist() == list(game.secrets)
    assert chooser.probability.sum() == pytest.approx(1)
    assert (chooser.probability.to_numpy() == solution.chooser).all()
    guesser = solution.guesser_frame()
    assert guesser.probability.sum() == pytest.approx(1)
    assert (guesser.probability.diff().dropna() <= 0).all()  # most likely first
    # every tree the guesser plays costs the value against the chooser's mix (an equilibrium)
    assert guesser.against_chooser.to_numpy() == pytest.approx(solution.value, abs=1e-6)
    assert all(x is None or isinstance(x, Fraction) for x in guesser.probability_exact)


def test_the_tournament_frame_agrees_with_results_csv(tmp_path, capsys):
    config = tmp_path / "t.toml"
    config.write_text(
        textwrap.dedent(f"""
        title = "frames"
        seed = 3
        repeat = 2
        games = ["{SMALL}"]
        choosers = ["uniform", "evil"]
        guessers = ["lowest", "random", "entropy"]
    """)
    )
    out = tmp_path / "out"
    assert main(["run", str(config), "--out", str(out), "--no-plots"]) == 0
    capsys.readouterr()
    report = run_config(load_config(str(config)))
    frame = report.to_frame()
    written = pd.read_csv(out / "results.csv")
    assert list(frame.columns) == list(written.columns)
    assert len(frame) == len(written) == 6
    pd.testing.assert_frame_equal(frame.fillna(np.nan).infer_objects(), written, check_dtype=False)


def test_a_reproduction_frame_has_the_published_figures_and_verdicts(tmp_path):
    config = tmp_path / "r.toml"
    config.write_text(
        textwrap.dedent(f"""
        title = "published"
        [[rows]]
        game = "{SMALL}"
        guesser = "knuth"
        published = {{ total = 1, max = 5 }}
        [[rows]]
        game = "{SMALL}"
        guesser = "lowest"
    """)
    )
    report = run_config(load_config(str(config)))
    csv = tmp_path / "r.csv"
    report.write_csv(str(csv))
    frame = report.to_frame()
    assert frame.published_total.tolist()[0] == 1 and frame.agree.tolist() == [False, None]
    pd.testing.assert_frame_equal(frame.fillna(np.nan).infer_objects(), pd.read_csv(csv), check_dtype=False)


def test_without_pandas_a_frame_is_one_line_saying_how_to_install_it(monkeypatch):
    result = make_game(SMALL).evaluate("knuth")
    real = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named 'pandas'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(ArenaError, match=r"pip install -e '\.\[frames\]'") as caught:
        result.to_frame()
    assert "\n" not in str(caught.value)
