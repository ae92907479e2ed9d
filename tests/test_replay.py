"""arena.trees.replay: a pre-order tree replayed in compiled code gives every secret the guesses
that growing its nodes gives (subtrees.grow_subtree), and refuses the same faults in the same
words; the plain-Python walk (the compiled one's source) is run too."""

from __future__ import annotations

import numpy as np
import pytest

from arena import make_game
from arena.optimal.problem import Problem
from arena.optimal.subtrees import grow_subtree, subtree_guesses
from arena.trees import replay
from arena.trees.greedy import greedy_tree
from arena.trees.replay import preorder, preorder_depths, replays

SPECS = ["mastermind:pegs=3,colors=3", "mastermind:colors=5", "wordle:first=150", "jotto:first=80"]


def plain(game, C, guesses) -> np.ndarray:
    depths = np.zeros(len(game.secrets), dtype=np.int64)
    order = np.asarray(guesses, dtype=np.int64)
    status, _ = replay._walk_py(game.table, game.hit, game.n_codes, np.asarray(C, dtype=np.int64), order, depths)
    assert status == replay._DONE
    return depths


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("metric", ["entropy", "most-parts", "minimax"])
def test_the_replay_gives_every_secret_the_guesses_grown_nodes_give(spec, metric):
    game = make_game(spec)
    tree = greedy_tree(game, metric)
    S = np.arange(len(game.secrets))
    guesses = preorder(tree.root)
    grown = grow_subtree(Problem.of(game).search(), S, guesses)[1][0]
    assert replays(game)
    assert np.array_equal(preorder_depths(game, S, guesses), grown)
    assert np.array_equal(plain(game, S, guesses), grown)
    assert np.array_equal(grown, tree.guesses)


@pytest.mark.parametrize("spec", SPECS[:2])
def test_a_class_below_the_root_replays_as_grown(spec):
    game = make_game(spec)
    S = np.arange(len(game.secrets))
    parts = game.partition(0, S)
    reply, C = max(parts.items(), key=lambda kv: len(kv[1]))
    tree = greedy_tree(game, "entropy", secrets=C)
    guesses = preorder(tree.root)
    search = Problem.of(game).search()
    depths = subtree_guesses(search, C, guesses)
    assert np.array_equal(depths, grow_subtree(search, C, guesses)[1][0])
    assert np.all(depths[np.setdiff1d(S, C)] == 0) and np.all(depths[C] >= 1)


def faults(game, C, guesses) -> tuple[str, str]:
    """What preorder_depths and grow_subtree say of a list that is no tree."""
    with pytest.raises(ValueError) as fast:
        preorder_depths(game, C, guesses)
    with pytest.raises(ValueError) as slow:
        grow_subtree(Problem.of(game).search(), C, guesses)
    return str(fast.value), str(slow.value)


def test_lists_that_are_no_tree_are_refused_as_grow_subtree_refuses_them():
    game = make_game("mastermind:pegs=3,colors=3")
    S = np.arange(len(game.secrets))
    guesses = preorder(greedy_tree(game, "entropy").root)
    for broken, says in (
        (guesses[:-1], "stops before every secret is found"),
        (guesses + [guesses[-1]], "left over once every secret is found"),
        ([guesses[0], guesses[0]] + guesses[1:], "splits nothing where it is played"),
        ([len(game.guesses)] + guesses[1:], "is no guess"),
    ):
        fast, slow = faults(game, S, broken)
        assert says in fast and fast == slow


def test_games_without_hits_are_left_to_the_grower():
    hangman = make_game("hangman:length=4,first=20")
    assert not replays(hangman)
    tree = greedy_tree(hangman, "entropy")
    S = np.arange(len(hangman.secrets))
    search = Problem.of(hangman).search()
    guesses = preorder(tree.root)
    assert np.array_equal(subtree_guesses(search, S, guesses), grow_subtree(search, S, guesses)[1][0])
