"""A piece's work as a worker does it (arena/optimal/pieces.py), run in this process: the split's
workers are forked or on a Dask cluster, where the tests' line coverage does not reach.

Opening a first guess bounds its classes and solves those the closed forms solve; solving every
class under no budget gives the first guess's exact cost, the one-process search's after that
opener; under a budget below a class's value the piece returns a bound at least the budget. The
Dask worker's task builds its own search from the spec and answers the same."""

from __future__ import annotations

import math

import pytest

from arena import make_game
from arena.optimal import optimal_tree
from arena.optimal.pieces import remote_task, run_task, search_state
from arena.optimal.problem import Problem

SPEC = "mastermind:pegs=3,colors=4"
#: The problem as the parent sends it to a Dask worker, which builds the game from its spec.
SENT = Problem.of(make_game(SPEC)).sent()


@pytest.fixture(scope="module")
def state() -> dict:
    return search_state(Problem.of(make_game(SPEC)), workers=1)


@pytest.mark.parametrize("word", ["112", "123"])
def test_a_first_guess_opened_and_its_pieces_solved_cost_what_one_search_finds(state, word):
    game = state["game"]
    g = game.guess_index(word)
    guess, bound, classes, seconds, nodes = run_task(state, "open", g, -1, math.inf)
    assert guess == g and classes and seconds >= 0 and nodes >= 0
    total = float(len(state["S"]))  # the first guess, once per secret
    for reply, class_bound, exact, tree in classes:
        _, r, value, solved, subtree, _, _ = run_task(state, "piece", g, reply, math.inf)
        assert r == reply and solved and subtree and value >= class_bound
        if exact:  # closed at opening: the same value, with its subtree
            assert value == class_bound and tree
        total += value
    assert bound <= total == optimal_tree(game, openers=(word,)).value


def test_a_piece_under_a_budget_below_its_value_returns_a_bound(state):
    game = state["game"]
    g = game.guess_index("123")
    _, _, classes, _, _ = run_task(state, "open", g, -1, math.inf)
    reply = max(classes, key=lambda c: c[1])[0]
    _, _, value, _, _, _, _ = run_task(state, "piece", g, reply, math.inf)
    _, _, bound, exact, tree, _, _ = run_task(state, "piece", g, reply, value - 1)
    assert not exact and tree is None and value - 1 <= bound <= value
    _, total, none, _, _ = run_task(state, "open", g, -1, 1.0)  # a limit any bound reaches
    assert none == [] and total >= 1.0


def test_the_dask_workers_task_answers_as_the_forked_one(state):
    g = state["game"].guess_index("112")
    _, _, classes, _, _ = run_task(state, "open", g, -1, math.inf)
    for reply, *_ in classes[:3]:
        forked = run_task(state, "piece", g, reply, math.inf)
        remote = remote_task(SENT, 1, None, "piece", g, reply, math.inf)
        assert remote[:5] == forked[:5]
    opened = remote_task(SENT, 1, 30.0, "open", g, -1, math.inf)
    again = run_task(state, "open", g, -1, math.inf)
    # the same classes; the bounds may differ, each search's cache knowing what it solved
    assert [c[0] for c in opened[2]] == [c[0] for c in again[2]]
    assert max(opened[1], again[1]) <= optimal_tree(state["game"], openers=("112",)).value
