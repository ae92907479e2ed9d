"""arena/equilibrium/plans.py: plan_tree, the replay of a saved plan (a double oracle's state
and witness trees), grows the tree the plan's guesser grows by grow_tree, node for node, with
the same refusals: a state without a guess, a guess outside the game, one the rules forbid."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from arena import make_game
from arena.core.errors import RuleBreak
from arena.core.players import GuesserProtocol
from arena.equilibrium.plans import PlanPlayer, plan_tree, tree_plan
from arena.trees.greedy import greedy_tree
from arena.trees.grow import can_replay_by_levels, grow_tree


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


class Scrambled(GuesserProtocol):
    """A deterministic guesser that plays odd guesses: any guess of the game at even depths
    (one may split nothing, or be no candidate), a candidate at odd ones (so it finishes; on
    Hangman, a letter that splits the words)."""

    deterministic = True

    def __init__(self, seed: int):
        self.seed, self.spec = seed, f"scrambled {seed}"

    def guess(self, game, state) -> int:
        pick = zlib.crc32(repr((self.seed, [r for _, r in state.history])).encode())
        if len(state.history) % 2 == 0:
            return pick % len(game.guesses)
        if game.rules.hits:
            return int(game.secret_guess[state.candidates[pick % len(state.candidates)]])
        n = len(game.guesses)  # Hangman: the next letter from `pick` on that splits the words
        return next(g % n for g in range(pick, pick + n) if len(set(game.table[g % n, state.candidates])) > 1)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    "spec", ["mastermind:pegs=3,colors=4", "jotto:first=50", "wordle:first=60", "hangman:length=0,first=80"]
)
def test_the_level_replay_grows_an_odd_plan_as_the_grower_does(spec, seed):
    """plan_tree replays a plan a level at a time (replay_by_levels): node for node, cost for
    cost, the grower's tree, for plans whose guesses split nothing, miss and are no candidate,
    and on Hangman, whose nodes end with one word left and whose roots are the lengths."""
    game = make_game(spec)
    assert can_replay_by_levels(game)
    plan = tree_plan(grow_tree(game, Scrambled(seed)))
    fast = plan_tree(game, plan, "saved")
    slow = grow_tree(game, PlanPlayer(plan, "saved"))
    assert shape(fast) == shape(slow)
    assert [list(n.children) for n in fast.nodes()] == [list(n.children) for n in slow.nodes()]
    assert np.array_equal(fast.guesses, slow.guesses) and np.array_equal(fast.misses, slow.misses)
    assert fast.misses.any() or spec.startswith(("jotto", "wordle"))


def test_a_plan_that_splits_nothing_is_stopped_as_the_grower_stops_it():
    game = make_game("mastermind:pegs=2,colors=3")
    codes = int(game.n_codes)
    same = {("",) + (r,) * k: 0 for k in range(12) for r in range(codes)}  # the first guess, again and again
    first, second = refusals(game, same)
    assert first == second and "makes no progress" in first
    assert not can_replay_by_levels(make_game("wordle:first=80,hard=true"))
