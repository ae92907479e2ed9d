"""The published figures of REFERENCES.md, recomputed on the full instances (seconds each)."""

import pytest

from agents import make_guesser
from arena.play.evaluate import evaluate

NORVIG = [  # (guesser, mean to two decimals, worst)
    ("minimax:pool=consistent,tiebreak=first", 7.15, 18),
    ("expected:pool=consistent,tiebreak=first", 7.14, 17),
    ("entropy:pool=consistent,tiebreak=first", 7.09, 19),
    ("minimax:pool=all,small=3,tiebreak=first", 7.05, 10),
    ("expected:pool=all,small=3,tiebreak=first", 6.84, 10),
    ("entropy:pool=all,small=3,tiebreak=first", 6.81, 10),
]


@pytest.mark.parametrize("spec, mean, worst", NORVIG)
def test_norvig_jotto_trees(jotto, spec, mean, worst):
    result = evaluate(jotto, make_guesser(spec))
    assert (round(result.mean, 2), result.max) == (mean, worst)


def test_norvig_random_consistent_guesser(jotto):
    result = evaluate(jotto, make_guesser("random"), repeat=5, seed=2020)
    assert 7.25 <= result.mean <= 7.45


MASTERMIND = [  # (guesser, total, worst or None)
    ("lowest", 7471, 9),
    ("lowest:openers=5463", 6021, None),
    ("lowest:openers=5466", 6021, None),
    ("lowest:openers=5463+4322", 5917, None),
    ("lowest:openers=5466+3324", 5885, None),  # published as "5466, 4322": see experiments/README.md
    ("lowest:openers=6564+4233", 5869, None),
    ("lowest:openers=6564+4332", 5869, None),
    ("knuth", 5801, 5),
    ("minimax:pool=consistent", 5828, 6),
    ("most-parts:openers=1123", 5668, 6),
    ("expected:openers=1123", 5696, 6),
]


@pytest.mark.parametrize("spec, total, worst", MASTERMIND)
def test_mastermind_strategies(mastermind, spec, total, worst):
    result = evaluate(mastermind, make_guesser(spec))
    assert result.total == total
    if worst is not None:
        assert result.max == worst


@pytest.mark.parametrize(
    "spec, mean", [("random", 4.64), ("random:openers=1123", 4.61), ("random:openers=1123+2245", 4.59)]
)
def test_mastermind_random_consistent(mastermind, spec, mean):
    result = evaluate(mastermind, make_guesser(spec), repeat=20, seed=1977)
    assert abs(result.mean - mean) <= 0.02


def test_same_seed_same_figures(mastermind):
    a = evaluate(mastermind, make_guesser("random"), repeat=3, seed=9)
    b = evaluate(mastermind, make_guesser("random"), repeat=3, seed=9)
    assert (a.guesses == b.guesses).all()


def test_hangman_losses_on_web2_within_five_percent_and_in_order():
    """'Playing Hangman': losses at 6 and 9 strikes over every word (ours on web2, theirs on the
    Mac's list of 233,615 words)."""
    from arena import make_game

    game = make_game("hangman")
    risk = evaluate(game, make_guesser("max-frequency:tiebreak=first"), strikes=(6, 9))
    uncertainty = evaluate(game, make_guesser("expected:tiebreak=first"), strikes=(6, 9))
    for result, published in [(risk, {6: 11398, 9: 2661}), (uncertainty, {6: 12528, 9: 2817})]:
        for k, lost in published.items():
            assert abs(result.lost(k) - lost) <= 0.05 * lost
    assert uncertainty.lost(6) > risk.lost(6) and uncertainty.lost(9) > risk.lost(9)
