"""Guessers played against scripted opponents, with their exact moves asserted (Axelrod style)."""

import numpy as np
import pytest

from agents import METRICS, State, make_guesser
from arena import ArenaError, make_game
from arena.play.match import play, play_script


def test_knuth_against_3632_plays_the_textbook_line(mastermind):
    # The worked example of Knuth's algorithm: 1122, 1344, 3526, 1462, 3632.
    game = mastermind
    assert play(game, make_guesser("knuth"), game.guess_index("3632")).guesses == [
        "1122",
        "1344",
        "3526",
        "1462",
        "3632",
    ]


def test_knuth_against_a_scripted_opponent(mastermind):
    transcript = play_script(mastermind, make_guesser("knuth"), ["0,0", "1,1", "2,0", "4,0"])
    assert transcript.guesses == ["1122", "3345", "3636", "3556"]
    assert [t.left for t in transcript.turns] == [256, 46, 3, 1]
    assert transcript.solved


def test_lowest_consistent_walks_up_in_numerical_order(mastermind):
    assert play(mastermind, make_guesser("lowest"), mastermind.guess_index("1112")).guesses == ["1111", "1112"]
    moves = play(mastermind, make_guesser("lowest"), mastermind.guess_index("6666")).guesses
    assert moves[0] == "1111" and moves[-1] == "6666" and moves == sorted(moves)


def test_openers_come_first_then_the_rule(mastermind):
    moves = play(mastermind, make_guesser("lowest:openers=6564+4233"), mastermind.guess_index("1234")).guesses
    assert moves[:2] == ["6564", "4233"] and moves[-1] == "1234"


def test_jotto_transcript_lines(jotto):
    t = play(jotto, make_guesser("entropy:pool=all,small=3,tiebreak=first"), jotto.guess_index("wrung"))
    assert t.lines()[0].startswith("Guess 1: ")
    assert t.guesses[-1] == "wrung" and t.solved


def test_random_guesser_is_a_fixed_function_of_its_seed(mastermind):
    secret = mastermind.guess_index("4531")
    a = play(mastermind, make_guesser("random:seed=3"), secret).guesses
    assert a == play(mastermind, make_guesser("random:seed=3"), secret).guesses
    others = {tuple(play(mastermind, make_guesser(f"random:seed={s}"), secret).guesses) for s in range(8)}
    assert len(others) > 1, "different seeds should give different games"
    assert a[-1] == "4531"  # the game ends when the secret is guessed


def test_random_guesser_only_guesses_consistent_codes(mastermind):
    guesser = make_guesser("random:seed=11")
    state = State(mastermind.all_secrets)
    guess = guesser.guess(mastermind, state)
    reply = mastermind.reply(guess, mastermind.guess_index("2345"))
    state = state.after(guess, reply, mastermind.consistent(state.candidates, guess, reply))
    assert mastermind.secret_guess[state.candidates].tolist().count(guesser.guess(mastermind, state)) == 1


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_every_scoring_guesser_finishes_every_small_game(metric, small_mastermind):
    from arena.trees.grow import grow_tree

    for pool in ("all", "consistent"):
        for tiebreak in ("consistent", "first"):
            tree = grow_tree(small_mastermind, make_guesser(f"{metric}:pool={pool},tiebreak={tiebreak}"))
            assert (tree.guesses >= 1).all()


def test_scoring_picks_by_metric_then_tiebreak(mastermind):
    state = State(mastermind.all_secrets)
    assert mastermind.guesses[make_guesser("minimax").guess(mastermind, state)] == "1122"
    assert mastermind.guesses[make_guesser("most-parts").guess(mastermind, state)] == "1123"
    assert mastermind.guesses[make_guesser("entropy").guess(mastermind, state)] == "1234"
    assert mastermind.guesses[make_guesser("expected").guess(mastermind, state)] == "1123"


def test_tiebreak_prefers_a_possible_secret():
    game = make_game("mastermind")
    after = game.consistent(game.all_secrets, game.guess_index("1122"), game.parse_reply("0,0"))
    state = State(after, ((game.guess_index("1122"), 0),))
    consistent_first = make_guesser("minimax:tiebreak=consistent").guess(game, state)
    lowest = make_guesser("minimax:tiebreak=first").guess(game, state)
    counts = game.partition_counts(None, after)
    assert counts[consistent_first].max() == counts[lowest].max() == counts.max(axis=1).min()
    assert lowest <= consistent_first


def test_small_switches_to_consistent_guesses(jotto):
    guesser = make_guesser("minimax:pool=all,small=3,tiebreak=first")
    few = np.array([10, 20, 30])
    assert guesser.guess(jotto, State(few)) in few


def test_one_candidate_left_is_guessed(mastermind):
    for spec in ["minimax:tiebreak=first", "max-frequency", "most-parts:pool=all"]:
        assert make_guesser(spec).guess(mastermind, State(np.array([777]))) == 777


def test_max_frequency_never_plays_a_useless_guess(jotto):
    """A guess that splits nothing (all candidates share its reply) is never chosen, so trees end."""
    from arena.trees.grow import grow_tree

    tree = grow_tree(jotto, make_guesser("max-frequency"), jotto.all_secrets[:200])
    assert (tree.guesses[:200] >= 1).all()


def test_entropy_ties_float_and_exact(jotto):
    from arena.trees.grow import grow_tree

    published = grow_tree(jotto, make_guesser("entropy:pool=all,small=3,tiebreak=first"))
    exact = grow_tree(jotto, make_guesser("entropy:pool=all,small=3,tiebreak=first,ties=exact"))
    assert round(published.guesses.mean(), 2) == 6.81 and round(exact.guesses.mean(), 2) == 6.82


@pytest.mark.parametrize(
    "spec, words",
    [
        ("knut", "knuth"),
        ("minimax:poool=all", "pool"),
        ("minimax:pool=some", "all, consistent"),
        ("minimax:pool", "key=value"),
        ("random:seed=x", "integer"),
        ("lowest:openers=1+", "joined by"),
        ("", "empty spec"),
        ("no.such.module:Thing", "allow-import"),
    ],
)
def test_bad_agent_specs(spec, words):
    with pytest.raises(ArenaError, match=words):
        make_guesser(spec)


def test_bad_opener_is_named(mastermind):
    with pytest.raises(ArenaError, match="7777"):
        make_guesser("lowest:openers=7777").guess(mastermind, State(mastermind.all_secrets))


def test_knuth_alias_keeps_its_name_and_accepts_overrides():
    g = make_guesser("knuth:pool=consistent")
    assert g.label == "knuth:pool=consistent" and g.values["pool"] == "consistent"
    assert make_guesser("knuth").spec == "minimax"


def test_module_path_agents():
    g = make_guesser("agents.simple:Lowest:openers=1122", allow_import=True)
    assert g.values["openers"] == ("1122",)
