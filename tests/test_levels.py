"""A greedy guesser's tree grown a level at a time by compiled code (arena.trees.levels.grow_compiled,
arena.core.kernels.choose_nodes) is node for node the tree grown by asking the guesser at each node:
the same guess, candidates (in order) and children everywhere, whatever the rule (every metric,
either pool, either tie rule, `small`, openers), the part of the tree the guesser is still asked
about (PYTHON_CELLS) and the size below which nodes are scored a guess at a time (SMALL_NODE)."""

from __future__ import annotations

import numpy as np
import pytest

import arena.core.feedback
import arena.games.jotto
import arena.games.mastermind
from agents import make_guesser
from arena.trees import levels
from arena.trees import saved as tree
from arena.trees.tree import Node

GUESSERS = [
    "knuth",
    "minimax:tiebreak=first",
    "entropy",
    "entropy:ties=exact",
    "expected",
    "most-parts",
    "most-parts:tiebreak=first",
    "max-frequency",
    "max-frequency:tiebreak=first,small=3",
    "minimax:pool=consistent",
    "entropy:pool=consistent,tiebreak=first",
    "expected:small=8",
]


def same_nodes(a: Node, b: Node) -> bool:
    return (
        a.guess == b.guess
        and a.replies == b.replies
        and a.opening == b.opening
        and np.array_equal(a.candidates, b.candidates)
        and list(a.children) == list(b.children)
        and all(same_nodes(a.children[r], b.children[r]) for r in a.children)
    )


def game_of(spec: str, monkeypatch, compiled: bool):
    """A fresh game whose table the compiled loops read (or not)."""
    from arena.games import _build, make_game

    for module in (arena.core.feedback, arena.games.mastermind, arena.games.jotto):
        monkeypatch.setattr(module, "COMPILED_CELLS", 1 if compiled else 2**40)
    _build.cache_clear()
    game = make_game(spec)
    _build.cache_clear()
    return game


@pytest.mark.parametrize(
    "spec", ["mastermind:pegs=3,colors=5", "mastermind:pegs=4,colors=5,repeats=false", "jotto:first=150"]
)
def test_compiled_levels_grow_the_same_tree_node_for_node(spec, monkeypatch):
    plain, compiled = game_of(spec, monkeypatch, False), game_of(spec, monkeypatch, True)
    assert not levels.can_grow_compiled(plain, make_guesser("knuth"))
    assert levels.can_grow_compiled(compiled, make_guesser("knuth"))
    for guesser in GUESSERS:
        want = tree.grow_tree(plain, make_guesser(guesser))
        for cells, small in [(1, 0), (2**40, 10**6)]:  # the guesser asked at no node / every node
            monkeypatch.setattr(levels, "PYTHON_CELLS", cells)
            monkeypatch.setattr(levels, "SMALL_NODE", small)
            got = tree.grow_tree(compiled, make_guesser(guesser))
            assert np.array_equal(got.guesses, want.guesses) and np.array_equal(got.misses, want.misses), guesser
            assert len(got.roots) == len(want.roots) and all(map(same_nodes, got.roots, want.roots)), guesser


def test_openers_and_a_subset_of_the_secrets(monkeypatch):
    plain, compiled = (game_of("mastermind:pegs=3,colors=6", monkeypatch, c) for c in (False, True))
    secrets = np.arange(0, len(plain.secrets), 3)
    for guesser in ["most-parts:openers=112", "knuth:openers=123+456", "entropy"]:
        want = tree.grow_tree(plain, make_guesser(guesser), secrets)
        got = tree.grow_tree(compiled, make_guesser(guesser), secrets)
        assert np.array_equal(got.guesses, want.guesses) and same_nodes(got.root, want.root), guesser
        assert np.array_equal(got.secrets, want.secrets)


def test_games_with_their_own_rules_are_grown_node_by_node(monkeypatch):
    """Wordle (its hard mode narrows the guesses) and Hangman (openings, letters that are no
    secret) keep the guesser's own calls."""
    from arena.games import make_game

    monkeypatch.setattr(arena.core.feedback, "COMPILED_CELLS", 1)
    assert not levels.can_grow_compiled(make_game("wordle:first=50"), make_guesser("entropy"))
    assert not levels.can_grow_compiled(make_game("hangman:length=4,first=20"), make_guesser("entropy"))
    assert not levels.can_grow_compiled(make_game("mastermind:pegs=3,colors=5"), make_guesser("random"))
