"""The front door: each method of the game users hold gives what the free function it wraps gives (arena/api/frontdoor.py)."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make_chooser, make_guesser
from arena import make_game, open_game
from arena.core.errors import ArenaError
from arena.equilibrium import solve_restricted
from arena.optimal import optimal_tree
from arena.play.evaluate import evaluate
from arena.play.match import evaluate_against
from arena.trees.grow import grow_tree

SMALL = "mastermind:pegs=2,colors=3"


def test_evaluate_is_the_published_figure(mastermind):
    assert mastermind.evaluate("knuth").total == 5801


def test_evaluate_takes_a_spec_or_an_agent():
    game = make_game(SMALL)
    by_spec = game.evaluate("entropy")
    free = evaluate(game, make_guesser("entropy"), seed=0)
    assert np.array_equal(by_spec.guesses, free.guesses)
    assert np.array_equal(game.evaluate(make_guesser("entropy")).guesses, free.guesses)


def test_evaluate_a_random_guesser_repeated():
    game = make_game(SMALL)
    ours = game.evaluate("random", repeat=5, seed=3)
    free = evaluate(game, make_guesser("random"), repeat=5, seed=3)
    assert np.array_equal(ours.guesses, free.guesses)


def test_evaluate_against_a_chooser():
    game = make_game(SMALL)
    ours = game.evaluate("knuth", chooser="evil")
    free = evaluate_against(game, make_guesser("knuth"), make_chooser("evil"))
    assert ours.games() == free.games() and ours.total == free.total


def test_tree():
    game = make_game(SMALL)
    ours, free = game.tree("knuth"), grow_tree(game, make_guesser("knuth"))
    assert np.array_equal(ours.guesses, free.guesses) and ours.rows() == free.rows()


def test_optimal():
    game = make_game(SMALL)
    assert game.optimal().value == optimal_tree(game).value
    assert game.optimal(objective="worst").guesses.max() == optimal_tree(game, objective="worst").guesses.max()


def test_equilibrium_against_named_guessers():
    game = make_game(SMALL)
    ours = game.equilibrium(guessers=["knuth", "entropy"])
    free = solve_restricted(game, [make_guesser("knuth"), make_guesser("entropy")])
    assert (ours.lower, ours.upper) == (free.lower, free.upper)
    with pytest.raises(ArenaError, match="no other options"):
        game.equilibrium(guessers=["knuth"], trees=True)


def test_rank_is_the_order_arena_rank_prints(capsys):
    from arena.cli.parser import main

    game = make_game(SMALL)
    ranked = game.rank("entropy", top=3)
    main(["rank", SMALL, "entropy", "--top", "3"])
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [r.split()[1] for r in rows] == [g for g, _ in ranked]
    with pytest.raises(ArenaError, match="unknown metric"):
        game.rank("nonsense")


def test_the_door_opens_the_engine_game_itself():
    """arena.make_game is the registry's game (the same object, cached) with the door open:
    still its own kind of game, and the engine's Game has no front-door method."""
    import pickle

    from arena.core.game import Game
    from arena.games import make_game as build_game
    from arena.games.mastermind import Mastermind

    engine = build_game("mastermind:pegs=2,colors=4")
    game = make_game("mastermind:pegs=2,colors=4")
    assert game is engine and isinstance(game, Mastermind) and type(game).__name__ == "Mastermind"
    assert open_game(game) is game and not hasattr(Game, "evaluate")
    again = pickle.loads(pickle.dumps(game))
    assert again.evaluate("knuth").total == game.evaluate("knuth").total
    with pytest.raises(ArenaError, match="must be a game"):
        open_game("mastermind")


@pytest.mark.parametrize(
    "spec", ["mastermind:pegs=2,colors=3", "hangman:first=40", "jotto:first=20", "wordle:first=30"]
)
def test_reply_takes_indexes_or_labels_and_refuses_the_rest(spec):
    game = make_game(spec)
    for g, s in [(0, 0), (len(game.guesses) - 1, len(game.secrets) - 1), (1, 2)]:
        want = int(game.table[g, s])
        assert game.reply(g, s) == game.reply(game.guesses[g], game.secrets[s]) == want
        assert game.reply(np.int64(g), game.secrets[s]) == want
    for guess, secret, needle in [
        ("123", 0, "is not a guess of"),
        (0, "zzzzzzz", "is not a secret of"),
        (len(game.guesses), 0, "reply: guess must be an integer from 0"),
        (0, -1, "reply: secret must be an integer from 0"),
        (1.5, 0, "must be an integer"),
        (True, 0, "must be an integer"),
        (0, None, "must be an integer"),
    ]:
        with pytest.raises(ArenaError, match=needle):
            game.reply(guess, secret)


def test_a_person_is_refused_an_evaluation_at_the_door():
    """The human guesser would be asked to play every secret by itself: refused in one line,
    through the front door as through the engine (arena evaluate said so; the API read stdin)."""
    game = make_game("mastermind:pegs=2,colors=3")
    for call in (lambda: game.evaluate("human"), lambda: evaluate(game, make_guesser("human"))):
        with pytest.raises(ArenaError, match="^human plays interactively: use `arena play`, not an evaluation$"):
            call()
