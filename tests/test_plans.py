"""arena/equilibrium/plans.py: plan_tree, the replay of a saved plan (a double oracle's state
and witness trees), grows the tree the plan's guesser grows by grow_tree, node for node, with
the same refusals: a state without a guess, a guess outside the game, one the rules forbid."""

from __future__ import annotations

import numpy as np
import pytest

from arena import make_game
from arena.core.errors import RuleBreak
from arena.equilibrium.plans import PlanPlayer, plan_tree, tree_plan
from arena.trees.greedy import greedy_tree
from arena.trees.grow import grow_tree


def shape(tree):
    return [(n.guess, n.replies, n.opening, n.candidates.tolist()) for n in tree.nodes()]


@pytest.mark.parametrize(
    "spec", ["wordle:first=80", "mastermind:pegs=3,colors=4", "hangman:length=0,first=60", "jotto:first=50"]
)
def test_a_plan_replays_as_its_guesser_grows(spec):
    game = make_game(spec)
    tree = greedy_tree(game, "entropy")
    plan = tree_plan(tree)
    fast = plan_tree(game, plan, "saved")
    slow = grow_tree(game, PlanPlayer(plan, "saved"))
    assert shape(fast) == shape(slow) == shape(tree)
    assert np.array_equal(fast.guesses, slow.guesses) and np.array_equal(fast.misses, slow.misses)
    assert fast.guesser == slow.guesser == "saved"
    some = np.arange(0, len(game.secrets), 3)
    assert shape(plan_tree(game, plan, "part", some)) == shape(grow_tree(game, PlanPlayer(plan, "part"), some))


def refusals(game, plan):
    """The messages of both replays of a plan that must be refused."""
    messages = []
    for replay in (lambda: plan_tree(game, plan, "saved"), lambda: grow_tree(game, PlanPlayer(plan, "saved"))):
        with pytest.raises(RuleBreak) as caught:
            replay()
        messages.append(str(caught.value))
    return messages


def test_a_plan_is_refused_as_its_guesser_is():
    game = make_game("wordle:first=80")
    plan = tree_plan(greedy_tree(game, "entropy"))
    deep = max(plan, key=len)
    missing = {k: v for k, v in plan.items() if k != deep}
    first, second = refusals(game, missing)
    assert first == second and "saved has no guess after" in first
    outside = dict(plan)
    outside[deep] = len(game.guesses)
    first, second = refusals(game, outside)
    assert first == second and "illegal guess" in first

    hard = make_game("wordle:first=80,hard=true")
    plan = tree_plan(greedy_tree(game, "entropy"))  # a normal-mode tree: some guess drops a green
    first, second = refusals(hard, plan)
    assert first == second and "broke the rules" in first
