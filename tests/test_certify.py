"""Certified bounds of a game too big to solve (arena/equilibrium/certify.py) and their
witnesses: the saved mixes replay the printed bounds, from Python and the command line (issue 24)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from arena import make_game
from arena.equilibrium import certified_bounds, mix_worst, witness_lower, witness_upper
from arena.equilibrium.symmetry import no_symmetry
from arena.trees.grow import grow_tree
from tests.cli_run import one_line, run


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


def test_a_compressed_witness_replays_like_a_plain_one(bounded, tmp_path):
    game, eq, path = bounded
    packed = tmp_path / "jotto16.json.gz"
    eq.save(packed)
    assert packed.stat().st_size < path.stat().st_size
    assert witness_upper(game, packed) == witness_upper(game, path)
    from agents.equilibrium import saved_chooser_mix

    assert np.array_equal(saved_chooser_mix(game, str(packed)), saved_chooser_mix(game, str(path)))


def jotto_16_rounds(monkeypatch, game, search_every):
    """certified_bounds on `game` (3 s, best responses stopped at 0.02 s, Knuth's tree to start,
    no extra trees) with `search_every`; the result, its steps, and the rounds (as steps
    counted before them) that searched and that tried greedy trees only."""
    from agents import make_guesser
    from arena.equilibrium import oracle

    steps: list = []
    searched: list[int] = []
    tried_greedy: list[int] = []
    real, real_quick = oracle.bounded_best_response, oracle._quick_round

    def counted(*args, **kwargs):
        searched.append(len(steps))
        return real(*args, **kwargs)

    def quick(loop, uniform):
        tried_greedy.append(len(steps))
        return real_quick(loop, uniform)

    monkeypatch.setattr(oracle, "bounded_best_response", counted)
    monkeypatch.setattr(oracle, "_quick_round", quick)
    eq = certified_bounds(
        game,
        time_limit=3.0,
        response_limit=0.02,
        initial=[grow_tree(game, make_guesser("knuth"))],
        progress=steps.append,
        search_every=search_every,
        extra=(),
    )
    return eq, steps, searched, tried_greedy


def test_rounds_between_searches_add_only_greedy_trees(monkeypatch):
    """search_every=3: the search runs in rounds 0, 3, 6, ... (and in a round whose greedy trees
    are not new), the others add weighted greedy trees; the bounds still bracket the value and
    the upper end is still the saved mix's exact worst secret."""
    game = make_game("jotto:first=16")
    eq, steps, searched, _ = jotto_16_rounds(monkeypatch, game, 3)
    assert searched[0] == 0 and len(steps) >= 2
    quick = [r for r in range(len(steps)) if r % 3 and r not in searched]
    assert quick, "no round went without a search"
    assert f"{len(steps) - len(searched)} rounds of greedy trees only" in eq.method  # not called best responses
    assert f"{len(searched)} best responses" in eq.method or f"{len(searched)} exact best responses" in eq.method
    holds_jotto_16s_value(game, eq)


def holds_jotto_16s_value(game, eq) -> None:
    """The bounds hold the value of Jotto's first 16 words, 79/30 (experiments/equilibria.md), and
    the upper end is the saved guesser mix's exact worst secret."""
    value = 79 / 30
    assert eq.lower <= value + 1e-12 <= eq.upper + 2e-12
    assert (
        float(mix_worst([float(p) for p in eq.guesser], [game_costs(game, t) for t in eq.trees], eq.symmetry)[0])
        == eq.upper
    )


def game_costs(game, tree):
    from arena.core.costs import cost_for

    return cost_for(game).of(tree)


def test_search_every_is_checked(capsys):
    rc, _, err = run(capsys, "equilibrium", "jotto:first=8", "--search-every", "3")
    one_line(rc, err, "--response-limit")
    rc, _, err = run(
        capsys, "equilibrium", "jotto:first=8", "--time-limit", "5", "--response-limit", "1", "--search-every", "0"
    )
    one_line(rc, err, "search_every")


def worst_a_fraction_at_a_time(probabilities, costs, symmetry):
    """mix_worst's definition, term by term in fractions (the reference)."""
    weights = [Fraction(p) for p in probabilities]
    sizes = symmetry.sizes
    expected = [Fraction(0)] * len(sizes)
    for w, tree_costs in zip(weights, costs):
        for row, t in enumerate(symmetry.totals(np.asarray(tree_costs))[0].tolist()):
            expected[row] += w * Fraction(int(t), int(sizes[row]))
    row = max(range(len(expected)), key=expected.__getitem__)
    return expected[row] / sum(weights), int(np.flatnonzero(symmetry.orbit == row)[0])


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.floats(0, 1, allow_subnormal=True),
            st.fractions(0, 10, max_denominator=10**30),
            st.just(0.0),
        ),
        min_size=1,
        max_size=12,
    ),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["mastermind:pegs=2,colors=3", "mastermind:pegs=1,colors=4"]),
    st.sampled_from([1, 7, 10**6, 2**58]),  # 2^58: too big for digits, term by term
)
def test_mix_worst_is_the_sum_of_fractions(probabilities, seed, spec, top):
    """The digits' integer products give the fractions' own sums, orbit by orbit, whatever the
    denominators (floats down to subnormals, fractions of 30 digits) and the costs' size."""
    from arena.equilibrium.symmetry import symmetry_of

    assume(sum(Fraction(p) for p in probabilities) > 0)
    game = make_game(spec)
    symmetry = symmetry_of(game)
    rng = np.random.default_rng(seed)
    costs = [rng.integers(0, top + 1, len(game.secrets)) for _ in probabilities]
    assert mix_worst(probabilities, costs, symmetry) == worst_a_fraction_at_a_time(probabilities, costs, symmetry)


def test_search_every_auto_runs_both_kinds_of_round(monkeypatch):
    """search_every="auto" (pace.py): the first round searches, the second adds greedy trees
    only, then the faster kind by the last rounds; the bounds still hold the value and the
    upper end is the saved mix's exact worst secret."""
    game = make_game("jotto:first=16")
    eq, steps, searched, tried_greedy = jotto_16_rounds(monkeypatch, game, "auto")
    assert searched[:1] == [0] and 0 not in tried_greedy
    if len(steps) >= 2:  # not settled in the first round: the second tried greedy trees first
        assert tried_greedy[:1] == [1]
    holds_jotto_16s_value(game, eq)


def test_search_every_auto_from_the_command_line(capsys):
    rc, out, err = run(
        capsys,
        "equilibrium",
        "jotto:first=8",
        "--time-limit",
        "2",
        "--response-limit",
        "0.05",
        "--search-every",
        "auto",
    )
    assert rc == 0 and "value" in out, err
    rc, _, err = run(
        capsys, "equilibrium", "jotto:first=8", "--time-limit", "2", "--response-limit", "1", "--search-every", "often"
    )
    assert rc == 2 and "'often' is not a number of rounds or 'auto'" in err


def test_a_round_of_greedy_trees_solves_the_lp_once(monkeypatch):
    """_quick_round adds its greedy tree and the extra one, then solves the LP once for both (an
    LP is a third of a Wordle round); the bounds still hold the value."""
    from arena.equilibrium import oracle

    game = make_game("jotto:first=16")
    solves: list[int] = []
    in_quick: list[bool] = [False]
    real_solve, real_quick = oracle._Loop.solve_lp, oracle._quick_round

    def solve(loop):
        if in_quick[0]:
            solves[-1] += 1
        return real_solve(loop)

    def quick(loop, uniform):
        in_quick[0] = True
        solves.append(0)
        try:
            return real_quick(loop, uniform)
        finally:
            in_quick[0] = False

    monkeypatch.setattr(oracle._Loop, "solve_lp", solve)
    monkeypatch.setattr(oracle, "_quick_round", quick)
    eq = certified_bounds(game, time_limit=3.0, response_limit=0.02, search_every=1000, extra=("greedy",))
    assert solves and max(solves) == 1
    holds_jotto_16s_value(game, eq)
