"""The weighted best responses (arena/equilibrium/response.py: the exact search against a
chooser's mix) and their speed-ups (the candidates' bound with weights, weights constant on
Mastermind's code types searched like equal weights, the oracle's reuse of trees) give the
answers of the slow path (issue 24)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_run import run

import arena.equilibrium.oracle as oracle
import arena.games.mastermind_symmetry as mastermind_symmetry
import arena.optimal.search.closures as closures
from arena import make_game
from arena.equilibrium import double_oracle
from arena.equilibrium.response import OnTheSplit, bounded_best_response, mix_problem
from arena.equilibrium.symmetry import no_symmetry, symmetry_of
from arena.optimal import optimal_tree
from arena.trees.grow import grow_tree


def random_weights(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w = rng.random(n) ** 3
    if seed % 2:
        w = np.round(w * 4)  # ties and zeros
        w[0] = 1.0
    return w / w.sum()


@pytest.mark.parametrize(
    "spec",
    [
        "mastermind:pegs=3,colors=3",
        "mastermind:pegs=2,colors=5",
        "jotto:first=16",
        "mastermind:pegs=3,colors=4",
        "wordle:first=40",
    ],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_weighted_candidates_bound_keeps_the_value(monkeypatch, spec, seed):
    game = make_game(spec)
    w = random_weights(len(game.secrets), seed)
    fast = optimal_tree(game, weights=w)
    monkeypatch.setattr(closures, "WEIGHTED_CANDIDATES", False)
    slow = optimal_tree(game, weights=w)
    assert fast.value == pytest.approx(slow.value, abs=1e-12)
    assert float(w @ fast.costs) == pytest.approx(fast.value, abs=1e-12)  # the tree costs what is claimed


def test_weighted_candidates_bound_is_a_bound_and_closes_exactly():
    """Every set of a small game: the closure's value is the optimum, and its bound never exceeds it."""
    game = make_game("mastermind:pegs=2,colors=4")
    w = random_weights(len(game.secrets), 3) + 0.01
    from arena.optimal.search import Search

    search = Search(game, w)
    rng = np.random.default_rng(5)
    for _ in range(40):
        S = np.sort(rng.choice(len(game.secrets), size=int(rng.integers(3, 12)), replace=False))
        value, guess = search.close_by_weighted_candidates(S, 1 << 20, search.b_max)
        best = optimal_tree(game, secrets=S, weights=w[S]).value
        scale = w[S].sum()  # optimal_tree's weights over S are taken as given (not normalised)
        if guess >= 0:
            assert value == pytest.approx(best, rel=1e-12), (S, scale)
        else:
            assert value <= best + 1e-12


@pytest.mark.parametrize(
    "spec", ["mastermind:pegs=3,colors=4", "mastermind:pegs=4,colors=3", "mastermind:pegs=3,colors=5"]
)
def test_weights_constant_on_code_types_search_like_equal_weights(monkeypatch, spec):
    game = make_game(spec)
    symmetry = symmetry_of(game)
    q = np.random.default_rng(len(spec)).random(len(symmetry.labels))
    q[0] = 0.0
    w = 0.999 * symmetry.spread(q / q.sum()) + 0.001 / len(game.secrets)
    assert game.symmetry().keeps_all(w)
    assert not game.symmetry().keeps_all(random_weights(len(game.secrets), 2))
    fast = optimal_tree(game, weights=w)
    monkeypatch.setattr(mastermind_symmetry, "SYMMETRIC_WEIGHTS", False)
    slow = optimal_tree(game, weights=w)
    assert fast.value == pytest.approx(slow.value, abs=1e-12)


def test_incumbent_keeps_the_optimum():
    game = make_game("mastermind:pegs=3,colors=4")
    w = random_weights(len(game.secrets), 0)
    best = optimal_tree(game, weights=w)
    from agents import make_guesser

    for start in (grow_tree(game, make_guesser("lowest")), best):  # a poor tree, the optimum itself
        again = optimal_tree(game, weights=w, incumbent=start)
        assert again.value == pytest.approx(best.value, abs=1e-12) and again.lower_bound == pytest.approx(best.value)


@pytest.mark.parametrize(
    "spec, rows",
    [
        ("mastermind:pegs=3,colors=4", "types"),
        ("mastermind:pegs=4,colors=3", "types"),
        ("mastermind:pegs=3,colors=3", "secrets"),
        ("jotto:first=12", "secrets"),
    ],
)
def test_double_oracle_speed_ups_keep_the_exact_value(monkeypatch, spec, rows):
    game = make_game(spec)
    fast = double_oracle(game)
    for flag in ((closures, "WEIGHTED_CANDIDATES"), (mastermind_symmetry, "SYMMETRIC_WEIGHTS"), (oracle, "REUSE")):
        monkeypatch.setattr(*flag, False)
    slow = double_oracle(game, symmetry=no_symmetry(game) if rows == "secrets" else None)  # the LP over every secret
    assert fast.exact is not None and slow.exact is not None
    assert fast.exact.value == slow.exact.value


@pytest.mark.parametrize("spec", ["jotto:first=40", "mastermind:pegs=3,colors=4", "wordle:first=30"])
def test_weighted_greedy_tree_finds_every_secret_and_follows_the_weights(spec):
    from arena.equilibrium.response import weighted_greedy_tree

    game = make_game(spec)
    n = len(game.secrets)
    heavy = np.full(n, 1e-3)
    heavy[n // 2] = 1.0  # one secret weighs nearly everything: guessed first
    tree = weighted_greedy_tree(game, heavy / heavy.sum())
    assert tree.guesses[n // 2] == 1
    uniform = weighted_greedy_tree(game, np.full(n, 1.0 / n))
    assert uniform.guesses.min() >= 1 and sorted(uniform.secrets.tolist()) == list(range(n))
    assert uniform.guesses.sum() >= optimal_tree(game).value  # no better than the optimum


@pytest.mark.parametrize("spec", ["mastermind:pegs=3,colors=4", "jotto:first=30"])
def test_a_best_response_on_the_split_is_the_one_process_best_response(spec, tmp_path):
    """`OnTheSplit`: the split's workers search the same weighted optimum (its tree costs it,
    its bound is it); each mix journals in a file of its own, and the same mix again reads its
    proofs instead of searching (no piece searched in the second run)."""
    game = make_game(spec)
    mix = random_weights(len(game.secrets), 3)
    one, one_bound = bounded_best_response(mix_problem(game, mix))
    split = OnTheSplit(2, tmp_path / "journals")
    tree, bound = bounded_best_response(mix_problem(game, mix), split=split)
    assert tree.split is not None and tree.split.exact  # searched by the split, proven
    assert bound == pytest.approx(one_bound, rel=1e-9) and float(mix @ tree.costs) == pytest.approx(one_bound, rel=1e-9)
    journals = sorted((tmp_path / "journals").iterdir())
    assert len(journals) == 1 and journals[0] == split.journal(mix_problem(game, mix))
    again, again_bound = bounded_best_response(mix_problem(game, mix), split=split)
    assert again.split.searched == 0 and again_bound == pytest.approx(bound, rel=1e-12)
    other = random_weights(len(game.secrets), 4)
    bounded_best_response(mix_problem(game, other), split=split)
    assert len(list((tmp_path / "journals").iterdir())) == 2  # another mix, another journal


def test_the_double_oracle_with_best_responses_on_the_split_finds_the_same_value(capsys):
    """`arena equilibrium GAME --workers 2`: the value of the one-process double oracle; and
    --journals without --workers, or --workers with named guessers, is one line."""
    rc, plain, _ = run(capsys, "equilibrium", "mastermind:pegs=3,colors=3", "--json")
    rc2, split, _ = run(capsys, "equilibrium", "mastermind:pegs=3,colors=3", "--workers", "2", "--json")
    assert rc == rc2 == 0
    assert json.loads(split)["value"] == pytest.approx(json.loads(plain)["value"], rel=1e-9)
    rc, _, err = run(capsys, "equilibrium", "mastermind:pegs=3,colors=3", "--journals", "j")
    assert rc == 2 and "give it with --workers N" in err
    rc, _, err = run(capsys, "equilibrium", "mastermind:pegs=3,colors=3", "--workers", "2", "--guessers", "knuth")
    assert rc == 2 and "--workers searches the double oracle's best responses" in err


def test_a_split_that_is_not_one_is_refused_in_one_line():
    from arena.api.frontdoor import equilibrium
    from arena.core.errors import ArenaTypeError

    with pytest.raises(ArenaTypeError, match="split must be an arena.equilibrium.OnTheSplit"):
        equilibrium(make_game("mastermind:pegs=2,colors=3"), split=2)
    from arena.api.frontdoor import best_responses_split
    from arena.core.errors import ArenaError

    with pytest.raises(ArenaError, match="workers must be a number of worker processes, 1 or more, got 0"):
        best_responses_split(0)
    assert best_responses_split(3, "j") == OnTheSplit(3, "j")


@pytest.mark.parametrize("spec", ["wordle:first=60", "jotto:first=40", "mastermind:pegs=3,colors=4"])
def test_the_greedy_scores_by_sorting_are_the_table_scores(spec):
    """response._sorted_scores (Wordle's 243 replies) and _dense_scores agree on random sets and
    weights, up to the order the classes are summed in; inf (one class holds all) at the same guesses."""
    from arena.equilibrium.response import _dense_scores, _sorted_scores

    game = make_game(spec)
    rng = np.random.default_rng(7)
    pool = np.arange(len(game.guesses))
    for size in (2, 3, 7, len(game.secrets)):
        S = np.sort(rng.choice(len(game.secrets), size, replace=False))
        w = rng.random(size)
        dense, by_sorting = _dense_scores(game, pool, S, w), _sorted_scores(game, pool, S, w)
        assert np.array_equal(np.isinf(dense), np.isinf(by_sorting))
        finite = np.isfinite(dense)
        assert np.allclose(dense[finite], by_sorting[finite], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("spec", ["wordle:first=60", "jotto:first=40"])
def test_the_greedy_guess_at_two_candidates_is_the_scored_one(spec):
    """_greedy_guess's shortcut at two candidates (the heavier, ties to the first guess) picks
    what scoring every guess picks, equal and zero weights included."""
    from arena.equilibrium.response import TIE, _dense_scores, _greedy_guess

    game = make_game(spec)
    rng = np.random.default_rng(3)
    pool = np.arange(len(game.guesses))
    for pair_weights in ([0.3, 0.7], [0.5, 0.5], [0.0, 0.2], [0.0, 0.0], [0.9, 0.1]):
        S = np.sort(rng.choice(len(game.secrets), 2, replace=False))
        w = np.zeros(len(game.secrets))
        w[S] = pair_weights
        scores = _dense_scores(game, pool, S, w[S])
        tied = np.flatnonzero(scores <= scores.min() + TIE * max(1.0, scores.min()))
        named = np.isin(tied, game.secret_guess[S])
        assert _greedy_guess(game, S, w) == (tied[named][0] if named.any() else tied[0])


@pytest.mark.parametrize("spec", ["jotto:first=120", "mastermind:pegs=3,colors=4", "wordle:first=60"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_mix_that_leaves_secrets_out_is_searched_on_its_support(spec, seed):
    """A chooser's mix with zeros: searched on its support alone and completed on the other
    secrets, the same optimum as the search over every secret (the zeros carried), the tree a
    whole-game column that plays every secret to its hit, and the support's secrets played as
    the support's own optimal tree plays them."""
    from arena.equilibrium import response
    from arena.optimal.problem import Problem

    game = make_game(spec)
    n = len(game.secrets)
    rng = np.random.default_rng(seed)
    w = np.zeros(n)
    support = np.sort(rng.choice(n, size=n // 4, replace=False))
    w[support] = rng.random(len(support)) + 0.1
    w /= w.sum()
    calls = []
    real = response.on_support
    try:
        response.on_support = lambda *a, **k: calls.append(len(a[1])) or real(*a, **k)
        tree, bound = bounded_best_response(mix_problem(game, w))
    finally:
        response.on_support = real
    assert calls == [len(support)]
    every = optimal_tree(Problem.of(game, weights=w))  # the search over every secret, zeros and all
    assert bound == pytest.approx(every.value, abs=1e-12) and tree.exact
    assert float(w @ tree.guesses) == pytest.approx(every.value, abs=1e-12)
    assert sorted(tree.secrets.tolist()) == list(range(n)) and tree.guesses.min() >= 1
    alone = optimal_tree(Problem.of(game, secrets=support, weights=w[support]))
    assert float(w[support] @ tree.guesses[support]) == pytest.approx(alone.value, abs=1e-12)


def test_a_support_tree_completed_keeps_its_guesses_and_skips_one_that_learns_nothing():
    """weighted_greedy_tree with a known plan: its guesses where they split the set (and the
    greedy guess where the plan's would learn nothing on the whole set)."""
    from agents import make_guesser
    from arena.equilibrium.plans import tree_plan
    from arena.equilibrium.response import weighted_greedy_tree

    game = make_game("jotto:first=60")
    w = np.full(60, 1 / 60)
    plain = weighted_greedy_tree(game, w)
    other = grow_tree(game, make_guesser("most-parts"))
    plan = tree_plan(other)
    assert weighted_greedy_tree(game, w, plan).guesses.tolist() == other.guesses.tolist()
    first = other.root.guess
    useless = {key: first for key in plan}  # the same guess again below the root learns nothing
    again = weighted_greedy_tree(game, w, useless)  # before the check, this looped for ever
    assert again.root.guess == first and sorted(again.secrets.tolist()) == list(range(60))
    assert plain.root.guess != first  # so the root's guess came from the plan


def test_the_support_experiment_on_a_converged_state(tmp_path, capsys):
    """experiments/support_response.py on the state of a double oracle run to the end: the best
    response to the LP's own chooser mix, searched on its support, concedes the LP's value (the
    state is converged) and proves it; the search over every secret finds no better tree."""
    import importlib.util
    from pathlib import Path

    game = make_game("jotto:first=40")
    state = tmp_path / "state.json.gz"
    eq = double_oracle(game, state=state)
    spec = importlib.util.spec_from_file_location(
        "support_experiment", Path(__file__).parents[1] / "experiments" / "support_response.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["jotto:first=40", str(state), "--seconds", "30", "--every"]) == 0
    lines = capsys.readouterr().out.splitlines()
    held = float(lines[1].split("concedes ")[1].split()[0])
    assert held == pytest.approx(eq.value, abs=1e-6)
    support, every = lines[3], lines[4]
    assert "on its support" in support and "(exact" in support and "over every secret" in every
    conceded = float(support.split("conceding ")[1].split(",")[0])
    assert conceded == pytest.approx(held, abs=1e-6) == float(support.split("none below ")[1].split()[0])
    assert float(every.split("conceding ")[1].split(",")[0]) >= conceded - 1e-6
    assert module.main(["jotto:first=40", str(tmp_path / "none.json.gz")]) == 2


@pytest.mark.parametrize("spec", ["jotto:first=120", "wordle:first=60"])
def test_a_support_search_from_a_whole_game_incumbent_or_stopped_is_still_sound(spec):
    """The double oracle hands a support search its cheapest tree of the whole game: the same
    optimum from it; stopped at once, the tree still covers every secret, costs no less than
    the optimum and the bound is no more."""
    from arena.equilibrium.response import weighted_greedy_tree
    from arena.optimal.problem import Problem

    game = make_game(spec)
    n = len(game.secrets)
    rng = np.random.default_rng(5)
    w = np.zeros(n)
    support = rng.choice(n, n // 4, replace=False)
    w[support] = rng.random(len(support))
    w /= w.sum()
    incumbent = weighted_greedy_tree(game, np.full(n, 1 / n))
    best = optimal_tree(Problem.of(game, weights=w)).value
    tree, bound = bounded_best_response(mix_problem(game, w), None, None, incumbent)
    assert bound == pytest.approx(best, abs=1e-12) and float(w @ tree.guesses) == pytest.approx(best, abs=1e-12)
    stopped, proven = bounded_best_response(mix_problem(game, w), 0.001, None, incumbent)
    assert sorted(stopped.secrets.tolist()) == list(range(n))
    assert proven <= best + 1e-12 <= float(w @ stopped.guesses) + 2e-12
