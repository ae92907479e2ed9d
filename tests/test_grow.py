"""The one tree grower (arena.trees.grow): a scripted choose on games small enough to grow by hand,
checked node for node with each secret's (guesses, misses), and its hooks."""

from __future__ import annotations

import numpy as np
import pytest

from arena import make_game
from arena.trees.grow import Hooks, Spot, grow, splits_nothing
from arena.trees.tree import Node


def shape(game, root: Node) -> list[tuple]:
    """Every node as (opening, reply labels, guess, candidates, {reply label: child's guess})."""
    return [
        (
            n.opening,
            [game.reply_label(r) for r in n.replies],
            game.guesses[n.guess],
            [game.secrets[c] for c in n.candidates],
            {game.reply_label(r): game.guesses[c.guess] for r, c in n.children.items()},
        )
        for n in root.walk()
    ]


def test_mastermind_by_hand():
    """2 pegs, 2 colours, always the first candidate: 11 splits 12 and 21 (one black) from 22
    (no peg, a miss: 22 is the one class of one secret that still needs its guess), and 12
    then tells 21 apart (two whites). A branch ends only with a hit."""
    game = make_game("mastermind:pegs=2,colors=2")
    root, costs = grow(game, Spot(game.all_secrets), lambda spot: int(spot.candidates[0]))
    assert root is not None
    assert shape(game, root) == [
        ("", [], "11", ["11", "12", "21", "22"], {"0,0": "22", "1,0": "12"}),
        ("", ["0,0"], "22", ["22"], {}),
        ("", ["1,0"], "12", ["12", "21"], {"0,2": "21"}),
        ("", ["1,0", "0,2"], "21", ["21"], {}),
    ]
    # guesses: 11 once, 12 twice, 21 three times, 22 twice; misses: only 22's no-peg reply
    assert costs.tolist() == [[1, 2, 3, 2], [0, 0, 0, 1]]


def test_hangman_by_hand_with_a_limit_and_what_each_node_knows():
    """Hangman ends once one word is left (game.determined), with no node for it. A scripted
    plan by hits (b) and misses; `step` counts the misses against a limit of 2, `allow` keeps
    the letters played, and each spot says what its node knows."""
    game = make_game("hangman:length=3,first=6,strikes=2")  # aal aam aba abb abe abo
    plan = {(): "b", ("-",): "l", ("2",): "e", ("2", "-"): "o"}
    seen = []

    def choose(spot: Spot) -> int:
        seen.append(
            (
                [game.secrets[c] for c in spot.candidates],
                [game.guesses[g] for g, _ in spot.moves],
                spot.turn,
                spot.left,
                spot.missed,
                spot.allowed,
            )
        )
        return game.guess_index(plan[tuple(game.reply_label(r) for r in spot.replies)])

    root, costs = grow(
        game,
        Spot(game.all_secrets, left=2),
        choose,
        "3 letters",
        hooks=Hooks(
            step=lambda reply: int(game.is_miss(reply)),
            allow=lambda allowed, guess, reply, cls: (allowed or ()) + (game.guesses[guess],),
        ),
    )
    assert root is not None
    assert shape(game, root) == [
        ("3 letters", [], "b", ["aal", "aam", "aba", "abb", "abe", "abo"], {"-": "l", "2": "e"}),
        ("3 letters", ["-"], "l", ["aal", "aam"], {}),  # both determined after l: no node
        ("3 letters", ["2"], "e", ["aba", "abe", "abo"], {"-": "o"}),
        ("3 letters", ["2", "-"], "o", ["aba", "abo"], {}),
    ]
    assert seen == [
        (["aal", "aam", "aba", "abb", "abe", "abo"], [], 0, 2, 0, None),
        (["aal", "aam"], ["b"], 1, 1, 1, ("b",)),
        (["aba", "abe", "abo"], ["b"], 1, 2, 0, ("b",)),
        (["aba", "abo"], ["b", "e"], 2, 1, 1, ("b", "e")),
    ]
    # aal: b- l; aam: b- l-; aba: b e- o-; abb: b (determined); abe: b e; abo: b e- o
    assert costs.tolist() == [[2, 2, 3, 1, 2, 3], [1, 2, 2, 0, 0, 1]]


def test_nothing_to_guess_where_the_game_is_over():
    game = make_game("hangman:length=3,first=6,strikes=2")
    root, costs = grow(game, Spot(game.all_secrets[3:4], ("2",), (1,), missed=1), lambda spot: 0)
    assert root is None and costs[:, 3].tolist() == [1, 1] and costs.sum() == 2


def test_a_node_handed_over_keeps_the_solver_subtree_and_costs():
    """`hand_over` takes the class 12, 21 (its subtree and cost rows are used as given); the
    rest is grown; `check` sees each split, and the rows given are filled in place."""
    game = make_game("mastermind:pegs=2,colors=2")
    given = Node(2, np.array([1, 2]), (3,))
    solver_rows = np.full((2, 4), 7)
    splits = []

    def hand_over(spot: Spot):
        return (given, solver_rows) if spot.turn == 1 and len(spot.candidates) == 2 else None

    rows = np.zeros((2, 4), dtype=np.int64)
    root, costs = grow(
        game,
        Spot(game.all_secrets),
        lambda spot: int(spot.candidates[0]),
        hooks=Hooks(
            hand_over=hand_over, check=lambda spot, guess, parts: splits.append((spot.turn, guess, sorted(parts)))
        ),
        costs=rows,
    )
    assert costs is rows and root is not None and root.children[3] is given
    assert rows.tolist() == [[1, 7, 7, 2], [0, 7, 7, 1]]
    assert splits == [(0, 0, [0, 3, 6]), (1, 3, [6])]


def test_a_check_stops_the_growth_and_stalls_are_counted():
    """A guess that splits nothing (11 on {12, 21}: one black for both) adds one to the stall
    count of the spot below it, a split sets it back to 0; a check may refuse any split."""
    game = make_game("mastermind:pegs=2,colors=2")
    assert splits_nothing(game, game.partition(0, np.array([1, 2])))  # 11: one black for both
    assert not splits_nothing(game, game.partition(1, np.array([1])))  # the hit ends the game
    stalls = []

    def choose(spot: Spot) -> int:
        stalls.append(spot.stalled)
        if spot.turn >= 3:
            return int(spot.candidates[0])
        return 0 if 0 not in spot.candidates else int(spot.candidates[0])

    grow(game, Spot(np.array([1, 2])), choose)
    assert stalls == [0, 1, 2, 3, 0]

    def refuse(spot: Spot, guess: int, parts: dict) -> None:
        if splits_nothing(game, parts):
            raise ValueError(f"{game.guesses[guess]} splits nothing")

    with pytest.raises(ValueError, match="11 splits nothing"):
        grow(game, Spot(np.array([1, 2])), choose, hooks=Hooks(check=refuse))
