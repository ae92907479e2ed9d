"""Hangman as a zero-sum game: the exact trees and values against plain brute force, and the
equilibria against a full enumeration of letter trees solved by linprog and by nashpy."""

from __future__ import annotations

import json
from functools import cache

import numpy as np
import pytest
from cli_run import one_line, run

from agents import make_chooser, make_guesser
from arena.core.costs import cost_for
from arena.equilibrium import double_oracle, nashpy_solution, solve_enumerated, solve_restricted
from arena.equilibrium.enumeration import count_trees, enumerate_trees
from arena.games import make_game
from arena.optimal import optimal_tree
from arena.optimal.against import conceded, fewest_against
from arena.play.match import evaluate_against
from arena.trees.grow import grow_tree

LISTS = {
    "ake": "bake cake fake lake make rake take wake",
    "at": "bat cat hat mat rat sat vat",
    "mixed": "ox bat cat bake cake lake",  # three lengths: the length is told first
    "hard": "jazz buzz fuzz jump bump dump",
}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    out = {}
    for name, words in LISTS.items():
        path = tmp_path_factory.mktemp("lists") / f"{name}.txt"
        path.write_text("\n".join(words.split()) + "\n")
        out[name] = make_game(f"hangman:words={path},strikes=2")
    out["web2"] = make_game("hangman:length=4,first=24,strikes=3")
    return out


# --- a plain definition of the recursions, on the words themselves ---------------------------
def plain_values(words: tuple[str, ...], strikes: int) -> dict[str, float]:
    """Total misses, letters and lost games of the best trees, and the least worst-case misses,
    by brute force over letters (each word length its own game: the length is told)."""

    def classes(S: frozenset, letter: str) -> list[tuple[bool, frozenset]]:
        by: dict = {}
        for w in S:
            by.setdefault(tuple(i for i, c in enumerate(w) if c == letter), set()).add(w)
        return [(not reply, frozenset(C)) for reply, C in by.items()]

    def splits(S):
        for letter in "abcdefghijklmnopqrstuvwxyz":
            parts = classes(S, letter)
            if len(parts) > 1:
                yield parts

    @cache
    def misses(S):
        return 0 if len(S) <= 1 else min(sum(miss * len(C) + misses(C) for miss, C in p) for p in splits(S))

    @cache
    def letters(S):
        return 0 if len(S) <= 1 else min(sum(len(C) + letters(C) for _, C in p) for p in splits(S))

    @cache
    def lost(S, left):
        if left <= 0:
            return len(S)
        return 0 if len(S) <= 1 else min(sum(lost(C, left - miss) for miss, C in p) for p in splits(S))

    @cache
    def worst(S):
        return 0 if len(S) <= 1 else min(max(miss + worst(C) for miss, C in p) for p in splits(S))

    lengths = {len(w) for w in words}
    groups = [frozenset(w for w in words if len(w) == n) for n in sorted(lengths)]
    return {
        "misses": sum(map(misses, groups)),
        "guesses": sum(map(letters, groups)),
        "lost": sum(lost(S, strikes) for S in groups),
        "worst": max(map(worst, groups)),
    }


@pytest.mark.parametrize("name", [*LISTS, "web2"])
def test_exact_trees_match_brute_force(games, name):
    game = games[name]
    plain = plain_values(game.secrets, game.strikes)
    for cost in ("misses", "guesses", "lost"):
        tree = optimal_tree(game, cost=cost)
        assert tree.exact and tree.value == plain[cost], cost
        assert int(cost_for(game, cost).of(tree).sum()) == plain[cost]  # the tree pays what it says
        grown = grow_tree(game, make_guesser("max-frequency"))  # an opening of one word has no root either
        assert sorted(tree.secrets.tolist()) == sorted(grown.secrets.tolist())
    worst = optimal_tree(game, objective="worst")
    assert int(worst.misses.max()) == plain["worst"]
    assert worst.value >= plain["misses"]


def test_weights_and_the_tree_played(games):
    game = games["ake"]
    w = np.arange(1, 9, dtype=float)  # wake is the heaviest: guessed first
    tree = optimal_tree(game, weights=w)
    assert tree.exact and tree.value == float(w @ tree.misses)
    assert tree.misses[game.secrets.index("wake")] == 0 and tree.misses[game.secrets.index("bake")] == 7
    played = grow_tree(game, make_guesser("optimal"))  # the optimal guesser plays the uniform optimum
    assert int(played.misses.sum()) == plain_values(game.secrets, 2)["misses"]


def test_a_time_limit_gives_a_tree_and_a_proven_bound(games):
    game = make_game("hangman:length=5,first=200")
    tree = optimal_tree(game, time_limit=0.2)
    assert tree.stopped and 0 <= tree.lower_bound <= tree.value == int(tree.misses.sum())


# --- equilibria -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["at", "mixed", "hard"])
@pytest.mark.parametrize("payoff", ["misses", "lost", "guesses"])
def test_equilibrium_matches_the_enumeration_by_linprog_and_nashpy(games, name, payoff):
    game = games[name]
    oracle = double_oracle(game, cost=payoff)
    listed = solve_enumerated(game, cost=payoff)
    assert oracle.settled and listed.settled and oracle.cost == listed.cost == payoff
    assert oracle.value == pytest.approx(listed.value, abs=1e-7)
    trees = enumerate_trees(game, frontier=True, cost=payoff)
    check = nashpy_solution(trees.costs.T.astype(float))
    assert check.value == pytest.approx(listed.value, abs=1e-6)
    # the chooser's mix holds every tree to the value, and the guesser's mix concedes no more
    payoffs = trees.costs.astype(float)
    assert (payoffs @ oracle.chooser).min() == pytest.approx(oracle.value, abs=1e-6)
    conceded_each = sum(p * oracle.tree_costs(t) for p, t in zip(oracle.guesser, oracle.trees))
    assert conceded_each.max() == pytest.approx(oracle.value, abs=1e-6)


def test_with_the_length_told_the_value_is_the_hardest_length(games):
    game = games["mixed"]
    whole = double_oracle(game)
    by_length = []
    for length in (2, 3, 4):
        part = make_game(game.spec.replace("hangman:", f"hangman:length={length},"))
        by_length.append(double_oracle(part).value)
    assert whole.value == pytest.approx(max(by_length))
    assert count_trees(game) == np.prod(
        [count_trees(make_game(game.spec.replace("hangman:", f"hangman:length={n},"))) for n in (2, 3, 4)]
    )


def test_the_uniform_chooser_is_not_an_equilibrium_on_a_hard_list(games):
    game = games["hard"]
    eq = double_oracle(game)
    assert eq.uniform is not None and eq.uniform <= eq.value + 1e-9
    assert eq.exact is not None  # rational strategies recovered and checked


def test_restricted_to_named_guessers(games):
    game = games["ake"]
    eq = solve_restricted(game, [make_guesser("max-frequency"), make_guesser("fewest-misses")], "misses")
    assert eq.cost == "misses" and eq.lower <= eq.value <= eq.upper


def test_the_equilibrium_agents_play_hangman(games):
    game = games["hard"]
    eq = double_oracle(game)
    chooser = make_chooser("equilibrium")
    assert np.allclose(chooser.weights(game), eq.chooser)
    result = evaluate_against(game, make_guesser("equilibrium:seed=2"), make_chooser("uniform"), repeat=3)
    assert result.shape == (3, len(game.secrets))


# --- the adaptive chooser --------------------------------------------------------------------
def test_the_minimax_chooser_forces_the_exact_worst_case(games):
    game = games["web2"]
    worst = int(optimal_tree(game, objective="worst").misses.max())
    minimax = make_chooser("minimax:exact=64")
    for spec in ("optimal:objective=worst", "max-frequency", "fewest-misses", "entropy"):
        forced = evaluate_against(game, make_guesser(spec), minimax).misses.max()
        assert forced >= worst, spec
        if spec.startswith("optimal"):
            assert forced == worst


def test_fewest_against_greedy_evil_is_a_shortest_path(games):
    game = games["web2"]
    evil = make_chooser("evil")
    best = fewest_against(game, evil, game.all_secrets)
    # its path, replayed against evil, pays what it says
    from arena.core.state import State

    state, paid = State(game.all_secrets), 0
    for guess in best.guesses:
        reply = evil.reply(game, state, guess)
        paid += int(game.is_miss(reply))
        state = state.after(guess, reply, state.candidates[game.table[guess, state.candidates] == reply])
    assert game.determined(state.candidates) and paid == best.value
    # and no tree does better against evil than the shortest path; the worst-case tree does no worse
    tree = optimal_tree(game, objective="worst")
    assert best.value <= conceded(game, tree.root, evil) <= tree.misses.max()


# --- the commands ----------------------------------------------------------------------------
def test_the_commands_print_every_figure(games, capsys):
    spec = games["hard"].spec
    rc, out, _ = run(capsys, "optimal", spec, "--objective", "worst", "--json")
    data = json.loads(out)
    assert rc == 0 and data["cost"] == "misses" and data["exact"]
    assert {"adaptive_value", "greedy_evil_forces", "fewest_against_greedy_evil"} <= set(data)
    _, text, _ = run(capsys, "optimal", spec, "--objective", "worst")
    assert "adaptive chooser" in text and "greedy evil chooser" in text
    lost = json.loads(run(capsys, "optimal", spec, "--objective", "lost", "--json")[1])
    assert lost["cost"] == "lost" and lost["value"] == plain_values(games["hard"].secrets, 2)["lost"]
    for payoff in ("misses", "lost", "guesses"):
        eq = json.loads(run(capsys, "equilibrium", spec, "--payoff", payoff, "--json")[1])
        assert eq["payoff"] == payoff and {"value", "chooser", "gap", "seconds"} <= set(eq)
    _, listed, _ = run(capsys, "equilibrium", spec, "--method", "enumerate", "--check")
    assert "misses" in listed and "nashpy check" in listed and "agrees" in listed
    assert run(capsys, "equilibrium", spec, "--guessers", "max-frequency,fewest-misses")[0] == 0


def test_costs_that_do_not_fit_are_refused_in_words(games, capsys):
    spec = games["hard"].spec
    for args, words in [
        (("equilibrium", "mastermind:pegs=2,colors=2", "--payoff", "misses"), "does not fit"),
        (("equilibrium", spec, "--payoff", "wins"), "costs: guesses, misses, lost"),
        (("optimal", spec, "--objective", "lost", "--cost", "guesses"), "cannot be combined"),
        (("optimal", spec, "--objective", "best"), "average, worst, fewest-at-worst, lost"),
    ]:
        rc, _, err = run(capsys, *args)
        one_line(rc, err, words)


@pytest.mark.parametrize("spec", ["hangman:length=4,first=24", "mastermind:pegs=3,colors=3", "jotto:first=30"])
def test_the_worst_case_proof_is_a_tree(spec):
    """A time-limited worst-case search whose greedy seeds exceed the proven depth starts from
    the tree the proof holds (fitting_tree): within the depth, every secret covered."""
    from arena.optimal import Problem
    from arena.optimal.solve import fitting_tree, least_depth

    game = make_game(spec)
    depth, prover = least_depth(Problem.of(game), game.all_secrets, None, None)
    tree = fitting_tree(prover, game.all_secrets, depth, "", "fit")
    paid = tree.misses if not game.rules.hits else tree.guesses
    assert int(paid.max()) == depth == int(optimal_tree(game, objective="worst").costs.max())
    assert (tree.guesses > 0).sum() == len(game.secrets) - sum(
        len(p) == 1 for _, p in game.openings(game.all_secrets) if not game.rules.hits
    )


def test_a_lost_game_goes_on_with_a_splitting_letter(games):
    tree = optimal_tree(games["web2"], cost="lost")  # 3 strikes: some words are lost, and still determined
    assert tree.exact and (tree.misses >= 3).any() and (tree.guesses > 0).all()
