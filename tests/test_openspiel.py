"""The games as OpenSpiel games (arena.bridges.openspiel, the optional extra): OpenSpiel's own solvers,
run through the registered game, find the values this project's solvers prove. Skipped where
OpenSpiel is not installed (`pip install 'guessing-arena[openspiel]'`)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from arena import make_game
from arena.core.errors import ArenaError

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra [openspiel]")

from arena.bridges.openspiel import SHORT_NAME, load_game  # noqa: E402

#: (spec, cost, the exact value `arena equilibrium SPEC [--payoff COST]` prints)
SMALL = [
    ("mastermind:pegs=2,colors=3", None, Fraction(29, 12)),
    ("jotto:first=8", None, Fraction(41, 19)),
    ("hangman:words=sgb,length=5,first=5", None, Fraction(1, 2)),
    ("hangman:words=sgb,length=5,first=5,strikes=1", "lost", None),
    ("hangman:first=14", None, Fraction(1, 2)),  # eight word lengths: the guesser is told which
    ("hangman:first=14", "guesses", Fraction(1)),
    ("jotto:first=7,positions=true", None, Fraction(37, 19)),
    ("wordle:first=8,hard=true", None, Fraction(13, 6)),  # hard mode: the allowed guesses depend on the moves
]


@pytest.mark.parametrize(("spec", "cost", "printed"), SMALL)
def test_sequence_form_lp_finds_the_projects_value(spec, cost, printed):
    """OpenSpiel's sequence-form LP (its own LP, solved by cvxpy) on the registered game gives
    the value of the project's double oracle, for both players."""
    pytest.importorskip("cvxpy", reason="OpenSpiel's sequence-form LP solves with cvxpy (the extra)")
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability, sequence_form_lp

    ours = make_game(spec).equilibrium(cost=cost)
    assert ours.settled and ours.exact is not None
    if printed is not None:
        assert ours.exact.value == printed
    game = load_game(spec, cost=cost)
    value0, value1, chooser, guesser = sequence_form_lp.solve_zero_sum_game(game)
    assert value0 == pytest.approx(ours.value, abs=1e-6)
    assert value1 == pytest.approx(-ours.value, abs=1e-6)
    both = policy.merge_tabular_policies([chooser, guesser], game)
    assert exploitability.nash_conv(game, both) == pytest.approx(
        0, abs=1e-6
    )  # an equilibrium, by OpenSpiel's own check


def test_cfr_plus_brackets_the_value_within_its_exploitability():
    """CFR+ (OpenSpiel's C++ solver) for 100 iterations on a 6-word Jotto: the best responses
    to its average strategies bracket this project's exact value 2, and the bracket (NashConv,
    twice the exploitability) is under 0.005 guesses. (It stayed near 0.6 while the chooser's
    first information state and the guesser's were one string, one key of CFR's table.)"""
    spec = "jotto:first=6"
    game = load_game(spec)
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(100):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    # what each player's best response wins against the other's average strategy
    upper = pyspiel.TabularBestResponse(game, 0, average).value_from_state(game.new_initial_state())
    lower = -pyspiel.TabularBestResponse(game, 1, average).value_from_state(game.new_initial_state())
    exact = make_game(spec).equilibrium().value
    assert lower - 1e-9 <= exact <= upper + 1e-9
    assert upper - lower == pytest.approx(2 * pyspiel.exploitability(game, average), abs=1e-9)
    assert upper - lower < 0.005


def test_the_game_type_says_what_the_game_is():
    game = load_game("mastermind:pegs=2,colors=3")
    kind = game.get_type()
    assert kind.short_name == SHORT_NAME
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 2 and game.num_distinct_actions() == 9
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    assert str(game) == f"{SHORT_NAME}(cost=guesses,spec=mastermind:pegs%3D2%2Ccolors%3D3)"
    again = pyspiel.load_game(str(game))  # the game's string loads the same game
    assert str(again) == str(game) and again.num_distinct_actions() == 9


def test_the_guesser_sees_only_the_replies():
    """The chooser's move is private: after it, the guesser's information state is the same
    whatever the secret, until the replies differ."""
    game = load_game("hangman:words=sgb,length=5,first=5")
    states = []
    for secret in range(5):
        state = game.new_initial_state()
        assert state.current_player() == 0 and state.legal_actions() == list(range(5))
        state.apply_action(secret)
        states.append(state)
    assert len({s.information_state_string(1) for s in states}) == 1
    assert len({s.information_state_string(0) for s in states}) == 5
    assert states[0].information_state_string(1) == "guesser: 5 letters"
    letter = states[0].legal_actions()[0]
    for s in states:
        s.apply_action(letter)
    arena = make_game("hangman:words=sgb,length=5,first=5")
    replies = {arena.reply(letter, k) for k in range(5)}
    assert len({s.information_state_string(1) for s in states}) == len(replies)
    assert states[0].observation_tensor(0)[5:] == [1, 0, 0, 0, 0]  # the chooser sees its secret
    assert states[0].observation_tensor(1)[5:] == [0] * 5  # the guesser does not


def test_a_game_too_big_is_refused_in_one_line_before_it_is_built():
    with pytest.raises(ArenaError) as info:
        load_game("mastermind:pegs=3,colors=3")
    message = str(info.value)
    assert "\n" not in message and "more than 200,000 histories" in message
    assert "mastermind:pegs=2,colors=3" in message  # what is small enough
