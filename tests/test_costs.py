"""arena/core/costs.py: one vocabulary for what a game costs the guesser. Each cost builds its
payoff (what a tournament measures of it, with its figures, title and unit), and a config's
payoff name is read back to the same object; the old module arena.core.payoff is the same module."""

from __future__ import annotations

import importlib

import pytest

from arena.core import costs
from arena.core.costs import GUESSES, KINDS, MISSES, Guesses, Lost, Misses, payoff, strikes_in
from arena.core.errors import ArenaError
from arena.games import make_game


def test_each_cost_builds_its_payoff_with_the_costs_name_and_unit():
    assert Guesses().payoff() == GUESSES and Misses().payoff() == MISSES
    for pay in (GUESSES, MISSES):
        assert pay.key == pay.cost.name and pay.unit == pay.cost.unit and pay.title == f"mean {pay.unit} per game"
    six = Lost(6).payoff()
    assert six.cost == Lost(6) and six.key == "lost6" and six.figure == "lost6_rate"
    assert six.unit == "of games lost within 6 strikes" and six.worst is six.error is six.against_worst is None


@pytest.mark.parametrize("key", ["guesses", "misses", "lost1", "lost6", "lost12"])
def test_a_payoff_is_read_back_from_its_key(key):
    pay = payoff(key)
    assert pay.key == key and payoff(pay.key) == pay
    assert strikes_in(key) == pay.cost.strikes  # lost games only: None for guesses and misses


@pytest.mark.parametrize("key", ["lost", "lost0", "lost06", "Lost6", "wins", "", 6, None, ["misses"]])
def test_an_unknown_payoff_is_one_line_naming_the_valid_ones(key):
    with pytest.raises(ArenaError, match=r"unknown payoff .*; payoffs: guesses, misses, or lostK"):
        payoff(key)


def test_lost_games_need_a_strike_limit():
    with pytest.raises(ArenaError, match="strike limit of 1 or more"):
        Lost().payoff()


def test_a_value_is_shown_as_its_payoff_counts_it():
    assert GUESSES.describe(4.47612) == "4.4761 guesses" and MISSES.show(1.23456, 2) == "1.23"
    assert payoff("lost6").describe(0.125) == "12.50% of games lost within 6 strikes"
    assert payoff("lost6").show(0.125, 3, 1) == "12.5%"


def test_the_plots_show_the_distribution_of_what_is_counted():
    assert GUESSES.plotted is GUESSES and MISSES.plotted is MISSES and payoff("lost3").plotted is GUESSES


def test_a_tally_measures_misses_only_where_they_are_strikes():
    hangman, mastermind = make_game("hangman:first=5"), make_game("mastermind:pegs=2,colors=2")
    assert all(pay.measured_on(hangman) for pay in (GUESSES, MISSES, payoff("lost6")))
    assert GUESSES.measured_on(mastermind)
    assert not MISSES.measured_on(mastermind) and not payoff("lost6").measured_on(mastermind)


def test_figure_names_are_read_by_the_costs_module():
    assert [strikes_in(k) for k in ("lost6", "lost6_rate", "misses", "lost", 6)] == [6, None, None, None, None]
    assert costs.loss_limits(["mean", "lost6_rate", "lost2_rate", "lost6"]) == [2, 6]
    assert costs.measures({"misses": 1.0}, MISSES) and not costs.measures({"mean": 1.0}, MISSES)
    assert costs.default(True) is MISSES and costs.default(False) is GUESSES


@pytest.mark.parametrize("old", ["arena.core.payoff", "arena.payoff"])
def test_the_payoff_modules_old_names_are_the_costs_module(old):
    module = importlib.import_module(old)
    assert module is costs
    for name in ("Payoff", "GUESSES", "MISSES", "NAMES", "lost", "loss_limits", "payoff", "default", "measures"):
        assert hasattr(module, name)


def test_every_cost_but_lost_games_is_a_payoff_by_its_name():
    assert sorted(KINDS) == ["guesses", "lost", "misses"]
    assert [payoff(name).cost for name in KINDS if not KINDS[name].limits_itself] == [Guesses(), Misses()]
