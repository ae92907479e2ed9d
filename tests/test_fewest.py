"""Objective fewest-at-worst (arena/optimal/fewest.py): the least worst case, then the fewest
secrets that need it, then the least total, checked against an exhaustive search over every
tree on small instances, and from the command line, the agent and the refusals."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from arena.core.errors import ArenaError
from arena.games import make_game
from arena.optimal import optimal_tree
from arena.optimal.solved import at_worst
from arena.trees.saved import load_tree
from arena.trees.tree import Tree

INF = (1 << 30, 1 << 30)


def every_tree_best(game, secrets: list[int]) -> tuple[int, int, int]:
    """(worst case, secrets needing it, total) least in that order over every tree, by trying
    every guess at every node (no bound, no symmetry): the definition, slowly."""

    @functools.cache
    def best(C: frozenset, k: int) -> tuple[int, int]:
        """(secrets found at the k-th guess from here, total) with every secret within k."""
        if k == 0:
            return INF
        if len(C) == 1:
            return (1 if k == 1 else 0, 1)
        if k == 1:
            return INF
        found = INF
        ordered = np.array(sorted(C))
        for guess in range(len(game.guesses)):
            parts = game.partition(guess, ordered)
            if len(parts) == 1 and not game.finished(next(iter(parts))):
                continue  # learns nothing
            count, total = 0, len(C)
            for reply, part in parts.items():
                if game.finished(reply):
                    continue
                sub = best(frozenset(part.tolist()), k - 1)
                count, total = count + sub[0], total + sub[1]
            found = min(found, (count, total))
        return found

    S = frozenset(secrets)
    for depth in range(1, len(secrets) + 2):
        count, total = best(S, depth)
        if (count, total) < INF:
            return depth, count, total
    raise AssertionError("no tree")


def solved_keys(tree: Tree) -> tuple[int, int, int]:
    worst, count = at_worst(tree.guesses, tree.secrets)
    return worst, count, int(tree.guesses[tree.secrets].sum())


CASES = [
    ("mastermind:pegs=2,colors=3", None),
    ("mastermind:pegs=3,colors=3", None),
    ("mastermind:pegs=2,colors=4", None),
    ("mastermind:pegs=2,colors=5", None),
]


@pytest.mark.parametrize("spec,_", CASES)
def test_whole_small_games_match_every_tree(spec, _):
    game = make_game(spec)
    tree = optimal_tree(game, objective="fewest-at-worst")
    assert solved_keys(tree) == every_tree_best(game, list(range(len(game.secrets))))
    assert tree.exact and tree.at_worst_bound == tree.at_worst and tree.depth_bound == tree.guesses.max()


@pytest.mark.parametrize("seed", range(8))
def test_random_secret_sets_match_every_tree(seed):
    rng = np.random.default_rng(seed)
    game = make_game("mastermind:pegs=3,colors=4")
    secrets = sorted(rng.choice(len(game.secrets), size=int(rng.integers(5, 13)), replace=False).tolist())
    tree = optimal_tree(game, secrets=secrets, objective="fewest-at-worst")
    assert solved_keys(tree) == every_tree_best(game, secrets)
    assert tree.exact


def test_consistent_pool_matches_every_tree_restricted_to_it():
    game = make_game("mastermind:pegs=2,colors=4")
    tree = optimal_tree(game, objective="fewest-at-worst", pool="consistent")
    worst, count = at_worst(tree.guesses, tree.secrets)
    plain = optimal_tree(game, objective="worst", pool="consistent")
    assert worst == plain.guesses.max()  # the same least worst case
    assert count <= plain.at_worst and tree.exact


def test_fewer_at_the_worst_case_than_the_worst_objective_on_4x4():
    """Mastermind with 4 pegs and 4 colours: the fewest at the worst case, never more than the
    tree of least total within that worst case, whose total is never more."""
    game = make_game("mastermind:colors=4")
    fewest = optimal_tree(game, objective="fewest-at-worst")
    worst = optimal_tree(game, objective="worst")
    assert fewest.guesses.max() == worst.guesses.max()
    assert fewest.at_worst <= worst.at_worst
    assert fewest.value >= worst.value
    assert fewest.exact


def test_the_tree_is_what_it_says(tmp_path):
    game = make_game("mastermind:pegs=3,colors=4")
    tree = optimal_tree(game, objective="fewest-at-worst")
    saved = tmp_path / "tree.json"
    saved.write_text(json.dumps(tree.to_json()))
    again = load_tree(saved)
    assert np.array_equal(again.guesses, tree.guesses)
    data = tree.to_json()
    assert data["objective"] == "fewest-at-worst" and data["at_worst"] == tree.at_worst == 21
    assert data["at_worst_bound"] == 21 and data["worst"] == 4 and data["depth_bound"] == 4
    assert "21 secrets need the worst case of 4 guesses: proven fewest" in tree.report()


def test_a_time_limit_gives_a_tree_within_the_worst_case_and_true_bounds():
    game = make_game("mastermind:colors=5")
    exact = optimal_tree(game, objective="fewest-at-worst")
    stopped = optimal_tree(game, objective="fewest-at-worst", time_limit=0.3)
    assert stopped.guesses.max() == exact.guesses.max()
    assert stopped.at_worst >= exact.at_worst >= stopped.at_worst_bound >= 1
    if stopped.at_worst_bound == stopped.at_worst:
        assert stopped.lower_bound <= exact.value
    assert stopped.exact == (not stopped.stopped)


@pytest.mark.parametrize(
    "spec,given,message",
    [
        ("hangman:words=sgb,length=5,first=30", {}, "a game a hit ends"),
        ("mastermind:pegs=2,colors=3", {"weights": [1] * 9}, "takes no weights"),
        ("mastermind:pegs=2,colors=3", {"openers": ["11"]}, "searches its own first guess"),
        ("wordle:first=40,hard=true", {}, "hard mode"),
    ],
)
def test_refused_with_one_line(spec, given, message):
    with pytest.raises(ArenaError, match=message):
        optimal_tree(make_game(spec), objective="fewest-at-worst", **given)


def test_command_line(capsys):
    from arena.cli import main

    assert main(["optimal", "mastermind:pegs=3,colors=4", "--objective", "fewest-at-worst"]) in (0, None)
    out = capsys.readouterr().out
    assert "21 secrets need the worst case of 4 guesses: proven fewest among the trees within 4 guesses" in out
    assert "proven optimal" in out


def test_the_split_refuses_it(capsys):
    from arena.cli import main

    code = main(["optimal", "mastermind:pegs=3,colors=4", "--objective", "fewest-at-worst", "--workers", "2"])
    assert code == 2
    assert "cannot be combined with --objective" in capsys.readouterr().err


def test_the_agent_plays_the_tree():
    from arena.api.frontdoor import evaluate

    game = make_game("mastermind:pegs=3,colors=4")
    result = evaluate(game, "optimal:objective=fewest-at-worst")
    tree = optimal_tree(game, objective="fewest-at-worst")
    assert np.array_equal(result.guesses[0], tree.guesses[tree.secrets])


@pytest.mark.parametrize("compiled", [0, 64])
@pytest.mark.parametrize("seed", range(4))
def test_the_count_alone_matches_every_tree(seed, compiled):
    """The first search (the count alone, no totals) finds the count of the exhaustive search,
    its depth checks by `fits` or by the compiled search of small sets."""
    from arena.optimal.fewest import Fewest
    from arena.optimal.problem import Problem

    rng = np.random.default_rng(100 + seed)
    game = make_game("mastermind:pegs=2,colors=5")
    secrets = np.sort(rng.choice(len(game.secrets), size=int(rng.integers(6, 15)), replace=False))
    depth, count, _ = every_tree_best(game, secrets.tolist())
    search = Problem.of(game, secrets, objective="fewest-at-worst").search(max_guesses=depth, symmetry=None)
    search.compiled_below = compiled
    counting = Fewest(search, depth, len(secrets), totals=False)
    assert counting.solve(secrets, float("inf"), depth) == count


def test_a_cache_past_its_budget_forgets_and_still_finds_the_fewest():
    """With a cache budget of a few entries, classes are forgotten and searched again, and the
    tree read back is still the fewest (the exhaustive search's keys)."""
    from arena.optimal.fewest import Fewest, fewest_tree
    from arena.optimal.problem import Problem

    game = make_game("mastermind:pegs=3,colors=4")
    secrets = np.arange(0, 64, 3)
    depth, count, total = every_tree_best(game, secrets.tolist())
    search = Problem.of(game, secrets, objective="fewest-at-worst").search(
        max_guesses=depth, symmetry=None, cache_budget=3000
    )
    found = fewest_tree(Fewest(search, depth, len(secrets)), secrets, None)
    assert (found.count, found.total, found.count_bound) == (count, total, count)
    assert search.forgotten > 0


@pytest.mark.parametrize("guesser", ["knuth", "entropy", "most-parts"])
def test_polishing_keeps_the_first_guess_and_beats_or_keeps_each_class(guesser):
    """`polished` (a time limit's first step): the incumbent's first guess kept, every class
    solved on its own; the tree is then the fewest among trees opening with that guess (the
    exhaustive search with the first guess fixed), and never worse than the incumbent."""
    from arena.api.frontdoor import tree as guesser_tree
    from arena.optimal.fewest import Fewest, polished, tree_value
    from arena.optimal.problem import Problem

    game = make_game("mastermind:pegs=3,colors=4")
    S = np.arange(len(game.secrets))
    greedy = guesser_tree(game, guesser)
    depth = 4
    if greedy.guesses.max() > depth:
        pytest.skip("the greedy tree needs more than the least worst case")
    search = Problem.of(game, objective="fewest-at-worst").search(max_guesses=depth, symmetry=None)
    counting = Fewest(search, depth, len(S), totals=False)
    incumbent = (greedy.roots[0], np.array([greedy.guesses, greedy.misses]))
    root, costs = polished(counting, S, incumbent, "")
    assert root.guess == greedy.roots[0].guess
    assert costs[0].max() <= depth and (costs[0] >= 1).all()
    fewest_after_it = sum(
        every_tree_best_within(game, part.tolist(), depth - 1)[0]
        for reply, part in game.partition(root.guess, S).items()
        if not game.finished(reply)
    )
    assert tree_value(counting, costs, S) == fewest_after_it <= tree_value(counting, incumbent[1], S)


def every_tree_best_within(game, secrets: list[int], k: int) -> tuple[int, int]:
    """(secrets at the k-th guess from here, total) least over every tree within k guesses."""
    if len(secrets) == 1:
        return (1 if k == 1 else 0, 1)
    depth, count, total = every_tree_best(game, secrets)
    if depth < k:
        return 0, total  # not the least total within k, but the count is what is compared
    assert depth == k
    return count, total


def test_stopped_before_the_worst_case_is_proven():
    game = make_game("mastermind:colors=5")
    tree = optimal_tree(game, objective="fewest-at-worst", time_limit=1e-6)
    assert tree.stopped and not tree.exact and tree.at_worst_bound == 1
    assert tree.depth_bound <= 5 <= tree.guesses.max()
    assert "the least worst case is not proven" in tree.report()
    assert "its secrets at the worst case are not proven fewest" in tree.report()
    data = tree.to_json()
    assert data["at_worst"] == tree.at_worst and data["at_worst_bound"] == 1


def test_a_short_time_limit_polishes_the_greedy_tree():
    """Stopped in the count's search, the tree is the greedy incumbent with its classes beaten
    below the first guess: never more at the worst case than the best greedy tree."""
    from arena.optimal.seeds import greedy_trees
    from arena.optimal.solve import SEED_METRICS

    game = make_game("mastermind:colors=5")
    S = np.arange(len(game.secrets))
    greedy = min(at_worst(t.guesses, S)[1] for t in greedy_trees(game, S, "all", SEED_METRICS))
    tree = optimal_tree(game, objective="fewest-at-worst", time_limit=0.5)
    assert tree.guesses.max() == 5 and 68 <= tree.at_worst <= greedy
