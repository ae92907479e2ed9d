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
from arena.optimal.pieces import node_guesses, remote_task, run_task, run_tasks, search_state, walk
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
    path, bound, classes, seconds, nodes = run_task(state, "open", (g,), math.inf)
    assert path == (g,) and classes and seconds >= 0 and nodes >= 0
    total = float(len(state["S"]))  # the first guess, once per secret
    for reply, class_bound, exact, tree in classes:
        path, value, solved, subtree, *_ = run_task(state, "piece", (g, reply), math.inf)
        assert path == (g, reply) and solved and subtree and value >= class_bound
        if exact:  # closed at opening: the same value, with its subtree
            assert value == class_bound and tree
        total += value
    assert bound <= total == optimal_tree(game, openers=(word,)).value


def test_a_piece_under_a_budget_below_its_value_returns_a_bound(state):
    game = state["game"]
    g = game.guess_index("123")
    _, _, classes, _, _ = run_task(state, "open", (g,), math.inf)
    reply = max(classes, key=lambda c: c[1])[0]
    _, value, *_ = run_task(state, "piece", (g, reply), math.inf)
    _, bound, exact, tree, split, *_ = run_task(state, "piece", (g, reply), value - 1)
    assert not exact and not split and tree is None and value - 1 <= bound <= value
    _, total, none, _, _ = run_task(state, "open", (g,), 1.0)  # a limit any bound reaches
    assert none == [] and total >= 1.0


def test_the_dask_workers_task_answers_as_the_forked_one(state):
    g = state["game"].guess_index("112")
    _, _, classes, _, _ = run_task(state, "open", (g,), math.inf)
    for reply, *_ in classes[:3]:
        forked = run_task(state, "piece", (g, reply), math.inf)
        (remote,) = remote_task(SENT, 1, None, [("piece", (g, reply), math.inf)])
        assert remote[:5] == forked[:5]
    (opened,) = remote_task(SENT, 1, 30.0, [("open", (g,), math.inf)])
    again = run_task(state, "open", (g,), math.inf)
    # the same classes; the bounds may differ, each search's cache knowing what it solved
    assert [c[0] for c in opened[2]] == [c[0] for c in again[2]]
    assert max(opened[1], again[1]) <= optimal_tree(state["game"], openers=("112",)).value


def test_a_piece_below_the_root_costs_what_one_search_finds_there(state):
    """A path two guesses deep (ledger.py: a piece that split itself): its guess opened and its
    classes solved add up to the one-process search's cost of that guess at that class."""
    game, search = state["game"], state["search"]
    g, h = game.guess_index("112"), game.guess_index("134")
    C = game.consistent(state["S"], g, int(game.table[g, game.secret_index("123")]))
    r = int(game.table[g, C[0]])
    _, bound, classes, _, _ = run_task(state, "open", (g, r, h), math.inf)
    total = float(len(C))
    for reply, *_ in classes:
        path, value, exact, tree, split, *_ = run_task(state, "piece", (g, r, h, reply), math.inf)
        assert path == (g, r, h, reply) and exact and not split and tree
        total += value
    assert bound <= total
    assert total == search.guess_value(h, C, math.inf, search.limit - 1, state["b"], None, None)


def test_a_piece_past_its_sets_hands_itself_back():
    """A piece given `split_after` stops once it has searched that many sets, proving
    nothing (nan) and saying so: the parent splits it (ledger.Split.expand)."""
    state = search_state(Problem.of(make_game("mastermind:colors=5")), workers=1)
    game = state["game"]
    g = game.guess_index("1123")
    _, _, classes, _, _ = run_task(state, "open", (g,), math.inf)
    reply = max(classes, key=lambda c: c[1])[0]
    state["search"].cache.clear()
    whole = run_task(state, "piece", (g, reply), math.inf)
    assert whole.nodes >= 2
    state["search"].cache.clear()
    path, value, exact, tree, split, _, nodes, guesses = run_task(state, "piece", (g, reply), math.inf, whole.nodes - 1)
    assert split and math.isnan(value) and not exact and tree is None and nodes == whole.nodes
    place = walk(state["search"], state["S"], state["sym"], (g, reply))
    assert guesses == node_guesses(state["search"], place) and len(guesses) > 1  # the node, scored by the worker
    assert state["search"].node_limit is None  # the limit is the piece's alone
    again = run_task(state, "piece", (g, reply), math.inf)
    assert again.exact and not again.split


def test_a_path_that_leaves_no_class_is_refused(state):
    game = state["game"]
    g = game.guess_index("123")
    hit = int(game.table[g, game.secret_index("123")])
    with pytest.raises(ValueError, match="leaves no class"):
        walk(state["search"], state["S"], state["sym"], (g, hit))


def test_a_batch_stops_at_the_first_task_that_leaves_work_behind(state):
    """Openings closed by their bounds go on to the next task of the batch; the first that
    opens (or a piece) ends it, and the tasks after it are not searched (the parent hands
    them out again): a batch does what the tasks one at a time would."""
    game = state["game"]
    g = game.guess_index("123")
    _, _, classes, _, _ = run_task(state, "open", (g,), math.inf)
    shut = [("open", (game.guess_index(x),), 1.0) for x in ("111", "112", "122")]  # a limit any bound reaches
    opens, piece = ("open", (g,), math.inf), ("piece", (g, classes[0][0]), math.inf)
    out = run_tasks(state, [*shut, opens, piece, *shut])
    assert [o.path for o in out] == [t[1] for t in shut] + [(g,)]
    assert all(not o.classes for o in out[:3]) and out[3].classes
    assert [o.path for o in run_tasks(state, [piece, *shut])] == [piece[1]]


def test_an_opened_guess_bound_is_what_its_classes_bounds_add_up_to(monkeypatch):
    """The journal refuses an opening whose bound is not w(S) plus its classes' (split after 50
    on 4x7 wrote one: a class solved in the worker's cache after it was bounded, a symmetric
    image of a class of an earlier search, was reported at its value while the total kept its
    bound). Here the cache holds a class solved that the bounding did not read."""
    game = make_game(SPEC)
    state = search_state(Problem.of(game), workers=1)
    search, g = state["search"], game.guess_index("123")
    place = walk(search, state["S"], state["sym"], ())
    (r, C), *_ = sorted(search.classes_of(g, place.secrets), key=lambda rc: -len(rc[1]))
    search.solve(C, math.inf, place.left - 1, state["sym"].after(g), None, state["b"])  # C now exact in the cache
    monkeypatch.setattr(type(search), "known_class_bounds", lambda self, classes, bounds, keys, total, *a: total)
    _, bound, classes, _, _ = run_task(state, "open", (g,), math.inf, 1000)
    assert classes and bound == search.weight(place.secrets) + sum(b for _, b, _, _ in classes)
    assert any(reply == r and exact for reply, _, exact, _ in classes)


@pytest.mark.parametrize("below", [0.0, 0.5, 1.5])
def test_a_piece_whose_budget_the_parent_lowers_searches_under_the_lower_one(below, monkeypatch):
    """The parent pushes a class's falling budget into the running piece (split.push_rooms):
    the piece searches again under it (pieces.pushed, read every 64 sets: here every set) and
    is measured against it. Pushed below its value it proves a bound at least the pushed
    budget, not the value; pushed to its value or above, it is solved exactly as without it."""
    from arena.optimal.search import branch
    from arena.parallel.pool import shared_numbers

    monkeypatch.setattr(branch, "REPORT_MASK", 0)
    state = search_state(Problem.of(make_game("mastermind:colors=5")), workers=1)
    g = state["game"].guess_index("1123")
    _, _, classes, _, _ = run_task(state, "open", (g,), math.inf)
    reply = max(classes, key=lambda c: c[1])[0]
    state["search"].cache.clear()
    whole = run_task(state, "piece", (g, reply), math.inf)
    assert whole.exact and whole.nodes > 2  # long enough to hear the push
    pushed = whole.value - 1.0 + below  # 1 under the value, half under, half over
    state["rooms"] = rooms = shared_numbers(2)
    rooms[1] = pushed
    state["search"].cache.clear()
    got = run_task(state, "piece", (g, reply), math.inf, slot=1)
    if pushed <= whole.value:
        assert not got.exact and got.tree is None and pushed <= got.value <= whole.value
    else:
        assert got.exact and got.value == whole.value and got.tree
    rooms[0] = -1.0  # another message's slot: this piece does not read it
    state["search"].cache.clear()
    assert run_task(state, "piece", (g, reply), math.inf, slot=1).value == got.value
    state["search"].cache.clear()
    assert run_task(state, "piece", (g, reply), math.inf).value == whole.value  # no slot, no push
