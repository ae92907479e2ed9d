"""Issue 24: the weighted best responses' speed-ups give the answers of the slow path, and the
certified bounds of a game too big to solve are replayed from their witnesses."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import arena.equilibrium.oracle as oracle
import arena.games.mastermind_symmetry as mastermind_symmetry
import arena.optimal.search.closures as closures
from arena import make_game
from arena.equilibrium import certified_bounds, double_oracle, mix_worst, witness_lower, witness_upper
from arena.equilibrium.symmetry import no_symmetry, symmetry_of
from arena.optimal import optimal_tree
from arena.trees.grow import grow_tree
from tests.cli_run import one_line, run

SCRIPT = Path(__file__).resolve().parents[1] / "experiments" / "game_values.py"


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


def game_values():
    """experiments/game_values.py as a module."""
    spec = importlib.util.spec_from_file_location("game_values", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_value_checked_from_the_other_side():
    """experiments/game_values.py --check: the slow path's best response to the rational chooser mix."""
    game = make_game("mastermind:pegs=3,colors=4")
    eq = double_oracle(game)
    assert game_values().other_side(game, eq) == eq.exact.value == Fraction(219, 68)


def test_the_script_prints_its_rows_and_checks(capsys):
    assert game_values().main(["--games", "mastermind:pegs=2,colors=3", "--check"]) == 0
    out = capsys.readouterr().out
    assert "| mastermind:pegs=2,colors=3 | 9 | 29/12 ≈ 2.416667 |" in out
    assert out.count("agrees") == 2 and "DISAGREES" not in out


def test_initial_trees_still_start_from_the_uniform_chooser():
    from agents import make_guesser

    game = make_game("mastermind:pegs=3,colors=3")
    eq = double_oracle(game, initial=[grow_tree(game, make_guesser("knuth"))])
    assert eq.exact.value == Fraction(73, 27)
    assert eq.uniform == pytest.approx(73 / 27)


@pytest.fixture(scope="module")
def bounded(tmp_path_factory):
    """jotto:first=16 bounded as if too big: each best response stopped after a few nodes' time."""
    game = make_game("jotto:first=16")
    from agents import make_guesser

    eq = certified_bounds(
        game,
        time_limit=3.0,
        response_limit=0.02,
        initial=[grow_tree(game, make_guesser(g)) for g in ("knuth", "entropy")],
    )
    path = tmp_path_factory.mktemp("witness") / "jotto16.json"
    eq.save(path)
    return game, eq, path


def test_certified_bounds_bracket_the_value(bounded):
    game, eq, _ = bounded
    value = Fraction(79, 30)  # experiments/equilibria.md, the double oracle to convergence
    assert eq.lower <= float(value) + 1e-12 and float(value) <= eq.upper + 1e-12


def test_witnesses_give_the_printed_bounds(bounded):
    game, eq, path = bounded
    worst, secret = witness_upper(game, path)
    assert float(worst) == eq.upper and secret in game.secrets
    from agents.equilibrium import saved_chooser_mix

    proven, exact = witness_lower(game, saved_chooser_mix(game, str(path)))
    assert exact and proven >= eq.lower - 1e-12  # the exact best response to the saved mix


def test_mix_worst_is_exact():
    symmetry = no_symmetry(make_game("mastermind:pegs=1,colors=3"))
    worst, secret = mix_worst(
        [0.5, 0.25, 0.25], [np.array([1, 2, 3]), np.array([3, 1, 2]), np.array([2, 3, 1])], symmetry
    )
    assert worst == Fraction(9, 4) and secret == 2


def test_cli_replays_the_witnesses(bounded, capsys):
    game, eq, path = bounded
    rc, out, err = run(
        capsys, "evaluate", game.spec, f"equilibrium:file={path}", "--exploitability", "--value-from", path
    )
    assert rc == 0, err
    assert f"{eq.upper:.6f} guesses (exact)" in out and f"in [{eq.lower:.6f}, {eq.upper:.6f}]" in out
    rc, out, err = run(capsys, "optimal", game.spec, "--weights", path)
    assert rc == 0, err
    assert "proven optimal" in out


def test_cli_mistakes_are_one_line(capsys):
    rc, _, err = run(capsys, "equilibrium", "jotto:first=8", "--response-limit", "1")
    one_line(rc, err, "--time-limit")
    rc, _, err = run(capsys, "evaluate", "jotto:first=8", "knuth", "--value-from", "x.json")
    one_line(rc, err, "--exploitability")
    rc, _, err = run(capsys, "equilibrium", "jotto:first=8", "--initial", ",")
    one_line(rc, err, "--initial")


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


def test_a_compressed_witness_replays_like_a_plain_one(bounded, tmp_path):
    game, eq, path = bounded
    packed = tmp_path / "jotto16.json.gz"
    eq.save(packed)
    assert packed.stat().st_size < path.stat().st_size
    assert witness_upper(game, packed) == witness_upper(game, path)
    from agents.equilibrium import saved_chooser_mix

    assert np.array_equal(saved_chooser_mix(game, str(packed)), saved_chooser_mix(game, str(path)))
