"""Equilibria of chooser against guesser: matrix games, tree enumeration, best responses,
the double oracle, the command and the agent.

Tiny games are checked against every guesser tree, listed in full, solved by linprog and by
nashpy; larger ones by the double oracle (best responses by arena.optimal's search).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from cli_run import run
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import make_guesser
from arena import make_game
from arena.cli.parser import main
from arena.equilibrium import (
    best_response,
    count_trees,
    double_oracle,
    enumerate_trees,
    exploitability,
    nashpy_solution,
    reduce_dominated,
    solve_enumerated,
    solve_matrix_game,
    solve_restricted,
    symmetry_of,
)
from arena.equilibrium.dominance import undominated_columns
from arena.equilibrium.payoff_matrix import PayoffMatrix
from arena.equilibrium.response import mix_problem
from arena.equilibrium.symmetry import no_symmetry
from arena.play.evaluate import evaluate

TINY = [
    "mastermind:pegs=2,colors=2",
    "mastermind:pegs=3,colors=2",
    "mastermind:pegs=2,colors=3",
    "jotto:first=5",
    "jotto:first=6",
    "jotto:first=7",
    "jotto:first=8",
]
EXACT = {  # the values these tests establish, by full enumeration, linprog and nashpy together
    "mastermind:pegs=2,colors=2": Fraction(2),
    "mastermind:pegs=3,colors=2": Fraction(23, 10),
    "mastermind:pegs=2,colors=3": Fraction(29, 12),
    "jotto:first=8": Fraction(41, 19),
}


# --- matrix games -------------------------------------------------------------------------------
def test_rock_paper_scissors():
    solution = solve_matrix_game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert solution.value == pytest.approx(0, abs=1e-9)
    assert solution.row == pytest.approx([1 / 3] * 3) and solution.column == pytest.approx([1 / 3] * 3)
    assert max(solution.exploitability) < 1e-9
    with pytest.raises(ValueError):
        solution.row[0] = 1  # frozen, arrays included
    assert nashpy_solution([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]).value == pytest.approx(0, abs=1e-9)


def test_dominated_strategies_are_removed_iteratively():
    # column 2 is dominated by column 0 for the minimiser; then row 1 by row 0; then column 1 by column 0
    A = np.array([[1, 2, 3], [0, 5, 4]])
    reduction = reduce_dominated(A)
    assert reduction.rows.tolist() == [0] and reduction.columns.tolist() == [0]
    solution = solve_matrix_game(A)
    assert solution.value == pytest.approx(1) and solution.row.tolist() == [1, 0] and "dominated" in solution.method
    # identical strategies: only the first survives; strict removal keeps both
    assert undominated_columns(np.array([[1, 1], [2, 2]])).tolist() == [0]
    assert undominated_columns(np.array([[1, 1], [2, 2]]), strict=True).tolist() == [0, 1]


@pytest.mark.parametrize("strict", [False, True])
def test_the_compiled_pass_keeps_the_columns_numpy_keeps(strict, monkeypatch):
    """Big matrices are reduced in compiled code (arena/core/dominance_loops.py): the same columns as the
    numpy pass, on matrices with dominated, identical and tied columns (few values), and on a
    double oracle's kind, where hardly any column is dominated."""
    from arena.equilibrium import dominance

    rng = np.random.default_rng(7)
    for shape, values in [((40, 60), 3), ((30, 200), 2), ((300, 90), 50)]:
        M = rng.integers(0, values, size=shape).astype(np.float64)
        M[:, 5] = M[:, 3]  # identical
        M[:, 6] = M[:, 3] + 1  # dominated
        monkeypatch.setattr(dominance, "COMPILED_CELLS", 1 << 60)
        plain = undominated_columns(M, strict)
        monkeypatch.setattr(dominance, "COMPILED_CELLS", 0)
        compiled = undominated_columns(M, strict)
        assert compiled.dtype == plain.dtype and compiled.tolist() == plain.tolist()
        assert (6 not in compiled.tolist()) and ((5 in compiled.tolist()) == strict)
    from arena.core.dominance_loops import undominated_in_order

    M = rng.integers(0, 3, size=(12, 20)).astype(np.float64)
    order = np.argsort(M.sum(axis=0), kind="stable")
    columns = np.ascontiguousarray(M.T)
    assert (
        undominated_in_order.py_func(columns, order, strict).tolist()
        == undominated_in_order(columns, order, strict).tolist()
    )


def test_a_degenerate_game_is_reported_and_still_solved():
    # every x with x1, x2 >= 1/3 is optimal for the rows: support enumeration's exact test finds no
    # equilibrium at all and nashpy warns; the warning is kept and Lemke-Howson solves the game
    A = np.array([[3, 0, 1], [0, 3, 1]])
    check = nashpy_solution(A)
    assert check.degenerate and "degenerate" in " ".join(check.warnings) and "Lemke-Howson" in check.method
    assert check.value == pytest.approx(1) == solve_matrix_game(A).value
    assert max(check.exploitability) < 1e-9
    # two equilibria (an even number): reported, and the first that checks out is returned
    B = np.array([[2, 0, 1], [0, 2, 1], [1, 1, 1]])
    check = nashpy_solution(B)
    assert "An even number of (2) equilibria" in " ".join(check.warnings)
    assert check.value == pytest.approx(solve_matrix_game(B).value)


matrices = st.integers(1, 6).flatmap(
    lambda m: st.integers(1, 6).flatmap(
        lambda n: st.lists(st.integers(-4, 4), min_size=m * n, max_size=m * n).map(lambda v: np.array(v).reshape(m, n))
    )
)


@settings(max_examples=60, deadline=None)
@given(matrices)
def test_matrix_game_invariants(A):
    solution = solve_matrix_game(A)
    V = solution.value
    assert A.min(axis=1).max() - 1e-9 <= V <= A.max(axis=0).min() + 1e-9  # pure maximin <= V <= pure minimax
    assert max(exploitability(A, solution.row, solution.column)) < 1e-7
    assert solution.row.sum() == pytest.approx(1) and (solution.row >= 0).all()
    assert solve_matrix_game(2 * A + 3).value == pytest.approx(2 * V + 3)
    assert solve_matrix_game(-A.T).value == pytest.approx(-V)  # the same game seen from the other side
    assert solve_matrix_game(A, reduce=False).value == pytest.approx(V)
    if A.size <= 16:
        assert nashpy_solution(A).value == pytest.approx(V, abs=1e-7)


# --- trees ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "spec, trees",
    [("mastermind:pegs=2,colors=2", 8), ("mastermind:pegs=3,colors=2", 1776), ("mastermind:pegs=2,colors=3", 26760)],
)
def test_tree_counts_of_the_issue(spec, trees):
    game = make_game(spec)
    assert count_trees(game) == trees
    listed = enumerate_trees(game)
    assert len(listed) == trees and len(np.unique(listed.costs, axis=0)) <= trees


@pytest.mark.parametrize("spec", TINY)
def test_every_listed_tree_is_a_real_tree(spec):
    game = make_game(spec)
    listed = enumerate_trees(game)
    for k in np.linspace(0, len(listed) - 1, 7).astype(int):
        tree = listed.tree(int(k))
        assert np.array_equal(tree.guesses, listed.costs[k])
    plans = {tuple(sorted(listed.plan(k).items())) for k in range(len(listed))}
    assert len(plans) == len(listed)  # every tree listed once


@pytest.mark.parametrize("spec", TINY)
def test_tiny_games_against_every_tree(spec):
    game = make_game(spec)
    costs = enumerate_trees(game).costs.astype(np.int64)
    every = costs.T.astype(float)  # secrets x every tree
    lp = solve_matrix_game(every)
    # nashpy on the same trees, Mastermind's rows merged into code types (see symmetry.py)
    check = nashpy_solution(PayoffMatrix.of(costs, symmetry_of(game)).A)
    assert check.value == pytest.approx(lp.value, abs=1e-9)
    frontier = solve_enumerated(game)
    assert frontier.value == pytest.approx(lp.value, abs=1e-9)
    assert frontier.exact is not None and float(frontier.exact.value) == pytest.approx(lp.value, abs=1e-9)
    oracle = double_oracle(game)
    assert oracle.gap < 1e-6 and oracle.value == pytest.approx(lp.value, abs=1e-7)
    assert oracle.exact is not None and oracle.exact.value == frontier.exact.value
    # the oracle's chooser mix holds every tree of the full list to the value
    assert (oracle.chooser @ every).min() == pytest.approx(lp.value, abs=1e-7)
    if spec in EXACT:
        assert frontier.exact.value == EXACT[spec]


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["mastermind:pegs=2,colors=3", "jotto:first=8", "mastermind:pegs=3,colors=2"]),
    st.lists(st.integers(0, 5), min_size=9, max_size=9),
)
def test_best_response_is_the_best_listed_tree(spec, raw):
    game = make_game(spec)
    n = len(game.secrets)
    w = np.array(raw[:n], dtype=float) + 1e-3 * np.arange(1, n + 1)
    w /= w.sum()
    best = float((enumerate_trees(game, frontier=True).costs @ w).min())
    assert float(w @ best_response(mix_problem(game, w)).guesses) == pytest.approx(best, abs=1e-9)


# --- symmetry -----------------------------------------------------------------------------------
def test_mastermind_code_types_and_permutations(mastermind):
    symmetry = symmetry_of(mastermind)
    assert symmetry.labels == ("aaaa", "aaab", "aabb", "aabc", "abcd")
    assert symmetry.sizes.tolist() == [6, 120, 90, 720, 360] and symmetry.order == 720 * 24
    for element in (1, 777, 17279):
        p = symmetry.permutation(element)
        assert sorted(p.tolist()) == list(range(1296))
        assert np.array_equal(mastermind.table[np.ix_(p, p)], mastermind.table)  # feedback is kept
        assert np.array_equal(symmetry.orbit[p], symmetry.orbit)  # types are kept


def test_symmetry_shrinks_the_game_without_changing_its_value():
    game = make_game("mastermind:pegs=2,colors=4")
    reduced = double_oracle(game)
    full = double_oracle(game, symmetry=no_symmetry(game))
    assert reduced.exact.value == full.exact.value == Fraction(45, 16)
    assert len(reduced.symmetry.labels) == 2


def test_a_time_limit_reports_bounds_around_the_value():
    game = make_game("mastermind:pegs=3,colors=4")
    stopped = double_oracle(game, time_limit=1e-9)  # stops in or after the first best response
    assert not stopped.settled and stopped.exact is None and "time limit" in stopped.notes[0]
    # the uniform chooser's value is given only when its best response finished (proven)
    assert stopped.lower <= 219 / 68 <= stopped.upper and stopped.uniform in (None, pytest.approx(206 / 64))


# --- restricted games -----------------------------------------------------------------------------
def test_named_guessers():
    game = make_game("mastermind:pegs=3,colors=3")
    specs = ["knuth", "entropy", "lowest", "most-parts:pool=consistent"]
    eq = solve_restricted(game, [make_guesser(s) for s in specs])
    costs = np.array([evaluate(game, make_guesser(s)).guesses[0] for s in specs])
    assert eq.value == pytest.approx(solve_matrix_game(costs.T).value)
    assert eq.value >= double_oracle(game).value - 1e-9  # fewer trees: no better for the guesser
    assert eq.exact is not None and eq.gap < 1e-9


# --- the command and the agent ----------------------------------------------------------------------
def test_command_json_and_text(capsys):
    rc, out, _ = run(capsys, "equilibrium", "mastermind:pegs=2,colors=3", "--json")
    data = json.loads(out)
    assert rc == 0 and data["value_exact"] == "29/12" and data["gap"] < 1e-6 and data["seconds"] >= 0
    assert set(data["chooser"]) == {"11", "12", "13", "21", "22", "23", "31", "32", "33"}
    assert sum(data["chooser"].values()) == pytest.approx(1) and "double oracle" in data["method"]
    rc, out, _ = run(capsys, "equilibrium", "jotto:first=6", "--method", "enumerate", "--check")
    assert rc == 0 and "value = " in out and "nashpy check" in out and "agrees" in out
    rc, out, _ = run(
        capsys,
        "equilibrium",
        "mastermind:pegs=2,colors=3",
        "--guessers",
        "knuth,entropy:pool=consistent,tiebreak=first,lowest",
    )
    assert rc == 0 and "restricted to 3 named guessers" in out


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["mastermind:pegs=2,colors=3", "--guessers", "knut"], "unknown guesser 'knut'"),
        (["mastermind:pegs=3,colors=3", "--method", "enumerate", "--all-trees"], "guesser trees"),
        (["mastermind:pegs=2,colors=3", "--time-limit", "0"], "--time-limit"),
        (["mastermind:pegs=2,colors=3", "--guessers", ","], "at least one guesser"),
    ],
)
def test_command_mistakes(capsys, argv, needle):
    rc, _, err = run(capsys, "equilibrium", *argv)
    assert rc == 2 and needle in err and "Traceback" not in err and err.count("\n") == 1


def test_equilibrium_guesser_draws_reproducible_trees_of_the_mix(tmp_path, capsys):
    game = make_game("mastermind:pegs=2,colors=3")
    eq = double_oracle(game)
    symmetry = eq.symmetry
    mix_types = {symmetry.totals(t.guesses).tobytes() for t in eq.trees}
    first = evaluate(game, make_guesser("equilibrium:seed=5"), repeat=40)
    again = evaluate(game, make_guesser("equilibrium:seed=5"), repeat=40)
    assert np.array_equal(first.guesses, again.guesses)
    assert all(symmetry.totals(row).tobytes() in mix_types for row in first.guesses)  # a carried tree of the mix
    assert first.mean == pytest.approx(eq.value, abs=0.25)
    path = tmp_path / "eq.json"
    rc, _, _ = run(capsys, "equilibrium", game.spec, "--save", str(path))
    assert rc == 0 and path.exists()
    replayed = evaluate(game, make_guesser(f"equilibrium:file={path},seed=5"), repeat=40)
    assert np.array_equal(replayed.guesses, first.guesses)


def test_equilibrium_chooser_draws_from_the_chooser_mix(tmp_path):
    from agents import make_chooser
    from arena.play.match import evaluate_against

    game = make_game("mastermind:pegs=2,colors=3")
    saved = tmp_path / "eq.json"
    assert main(["equilibrium", game.spec, "--save", str(saved)]) == 0
    chooser = make_chooser(f"equilibrium:file={saved}")
    weights = chooser.weights(game)
    assert weights.sum() == pytest.approx(1.0)
    assert np.allclose(weights, make_chooser("equilibrium").weights(game))
    a = evaluate_against(game, make_guesser("knuth"), chooser, repeat=30, seed=3)
    b = evaluate_against(game, make_guesser("knuth"), make_chooser(f"equilibrium:file={saved}"), repeat=30, seed=3)
    assert np.array_equal(a.guesses, b.guesses)
    ended = set(np.asarray(a.finals).ravel().tolist())
    assert ended and all(weights[s] > 0 for s in ended)  # only secrets in the mix's support


def test_initial_trees_still_start_from_the_uniform_chooser():
    from arena.trees.grow import grow_tree

    game = make_game("mastermind:pegs=3,colors=3")
    eq = double_oracle(game, initial=[grow_tree(game, make_guesser("knuth"))])
    assert eq.exact.value == Fraction(73, 27)
    assert eq.uniform == pytest.approx(73 / 27)


def test_the_dominance_benchmark_runs_and_agrees(capsys):
    """benchmarks/bench_dominance.py on a small random matrix: both passes keep the same
    columns (the script asserts it) and it prints the medians."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_dominance.py"
    spec = importlib.util.spec_from_file_location("bench_dominance", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(["--rows", "200", "--columns", "60", "--seeds", "1"])
    assert "200 x 60: median compiled" in capsys.readouterr().out
