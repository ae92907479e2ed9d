"""The pilot method for objective fewest-at-worst (arena/optimal/pilot.py): its counts are those
of the trees it reads back, never below the fewest (the exhaustive search of test_fewest.py) nor
above its rollout's, and its tree never has more secrets at the worst depth than the incumbent."""

from __future__ import annotations

import numpy as np
import pytest

from arena.games import make_game
from arena.optimal.fewest import Fewest, critical_tree, tree_value
from arena.optimal.pilot import Pilot, greedy_order, pilot_tree
from arena.optimal.problem import Problem
from arena.optimal.solved import at_worst
from tests.test_fewest import every_tree_best


def counting_search(game, secrets: np.ndarray, depth: int, symmetric: bool = False) -> Fewest:
    problem = Problem.of(game, secrets, objective="fewest-at-worst")
    search = problem.search(max_guesses=depth, symmetry=problem.symmetry() if symmetric else None)
    return Fewest(search, depth, len(secrets), totals=False)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("exact_below,nested_from", [(1, float("inf")), (4, float("inf")), (1, 6)])
def test_pilot_counts_are_its_trees_and_lie_between_the_fewest_and_the_rollout(seed, exact_below, nested_from):
    rng = np.random.default_rng(300 + seed)
    game = make_game("mastermind:pegs=3,colors=4")
    S = np.sort(rng.choice(len(game.secrets), size=int(rng.integers(8, 20)), replace=False))
    depth, fewest, _ = every_tree_best(game, S.tolist())
    counting = counting_search(game, S, depth)
    for width in (1, 3):
        pilot = Pilot(counting, width, exact_below=exact_below, nested_from=nested_from)
        count = pilot.pilot(S, depth)
        root, costs = critical_tree(counting, S, "", guide=pilot)
        assert at_worst(costs[0], S) == (depth, count) or count == 0
        assert (costs[0][S] >= 1).all() and costs[0][S].max() <= depth
        assert fewest <= count <= pilot.rollout(S, depth)


def test_a_wider_pilot_never_counts_more_than_a_narrower_one_here():
    """Not a theorem (the widths score different guesses below the first), but on Mastermind
    3x5 the first pass's choices are among the second's at every class, and so is its count."""
    game = make_game("mastermind:pegs=3,colors=5")
    S = np.arange(len(game.secrets))
    counting = counting_search(game, S, 5)
    narrow = Pilot(counting, 1, exact_below=1).pilot(S, 5)
    wide = Pilot(counting, 1000, exact_below=1).pilot(S, 5)
    assert 1 <= wide <= narrow


def test_pilot_tree_keeps_an_incumbent_it_does_not_beat_and_beats_greedy_on_4x5():
    from arena.optimal.seeds import greedy_trees
    from arena.optimal.solve import SEED_METRICS

    game = make_game("mastermind:colors=5")
    S = np.arange(len(game.secrets))
    counting = counting_search(game, S, 5, symmetric=True)  # as solve.py's: no width spent on twins
    greedy = min(greedy_trees(game, S, "all", SEED_METRICS), key=lambda t: at_worst(t.guesses, S)[::-1])
    incumbent = (greedy.roots[0], np.array([greedy.guesses, greedy.misses]))
    found = pilot_tree(counting, S, incumbent, "")
    assert found is not None
    assert tree_value(counting, found[1], S) == 68 < tree_value(counting, incumbent[1], S)  # 68: the fewest
    assert pilot_tree(counting, S, found, "")[1] is found[1]  # nothing better: the incumbent itself


def test_greedy_order_leaves_out_guesses_that_learn_nothing_or_leave_too_much():
    counts = np.array([[4, 0, 0], [2, 2, 0], [3, 1, 0], [1, 1, 1]])  # hit-free class sizes, 4 secrets
    pool = np.array([10, 11, 12, 13])
    named = np.array([13, 20, 21, 22])  # guess 13 may be the secret
    assert greedy_order(counts, named, pool, k=3, b=3) == [3, 2, 1]  # 10 learns nothing
    assert greedy_order(counts, named, pool, k=2, b=3) == [3]  # within one guess, one a class


def test_the_experiment_prints_each_pass():
    """experiments/fewest_pilot.py, whose lines are the table of experiments/optimal.md."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parent.parent / "experiments" / "fewest_pilot.py"
    out = subprocess.run(
        [sys.executable, str(script), "mastermind:pegs=3,colors=4", "--widths", "1,4", "--nested"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = out.splitlines()
    assert lines[0].startswith("mastermind:pegs=3,colors=4: every secret within 4 guesses")
    assert lines[1].startswith("width 1: ") and lines[2].startswith("width 4: 21 secrets at guess 4")  # 21: the fewest
