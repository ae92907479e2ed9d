"""warm_lp.WarmLP: the double oracle's LP kept between rounds gives what a solve from scratch
gives (the value; mixes that check out), column by column as the trees come."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.equilibrium.matrix import exploitability, solve_matrix_game
from arena.equilibrium.warm_lp import WarmLP


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 12), st.integers(2, 30))
def test_the_warm_lp_has_the_value_of_a_solve_from_scratch(seed, rows, columns):
    """Payoffs of whole guesses (1-7, as trees cost), columns added a few at a time: each solve
    has the value solve_matrix_game finds and a pair of mixes that checks out."""
    rng = np.random.default_rng(seed)
    A = rng.integers(1, 8, size=(rows, columns)).astype(np.float64)
    lp = WarmLP(rows)
    for k in sorted({1, columns // 3 + 1, columns // 2 + 1, columns}):
        warm, cold = lp.solve(A[:, :k]), solve_matrix_game(A[:, :k])
        assert warm.value == pytest.approx(cold.value, abs=1e-9)
        assert max(exploitability(A[:, :k], warm.row, warm.column)) <= 1e-7 * 7
        assert warm.row.sum() == pytest.approx(1.0) and warm.column.sum() == pytest.approx(1.0)
    assert lp.columns == columns


def test_payoffs_of_rows_with_symmetry_are_fractions():
    """Code types' rows pay averages (totals / sizes): not whole numbers, the same value."""
    A = np.array([[4.5, 5.0, 4.25], [5.5, 4.0, 4.75], [4.0, 4.5, 5.125]])
    assert WarmLP(3).solve(A).value == pytest.approx(solve_matrix_game(A).value, abs=1e-12)


def test_a_game_not_the_lps_is_refused():
    lp = WarmLP(3)
    lp.solve(np.ones((3, 2)))
    with pytest.raises(ValueError, match="not this LP's 3 rows"):
        lp.solve(np.ones((4, 2)))
    with pytest.raises(ValueError, match="2\\+ columns"):
        lp.solve(np.ones((3, 1)))


def test_a_pair_that_does_not_check_out_is_solved_from_scratch(monkeypatch):
    """A warm solve whose mixes do not form an equilibrium (here: the check made impossible to
    pass) falls back to solve_matrix_game: never worse than before."""
    import arena.equilibrium.warm_lp as warm_lp

    A = np.array([[1.0, 3.0], [3.0, 1.0]])
    monkeypatch.setattr(warm_lp, "exploitability", lambda *_: (1.0, 1.0))
    solution = WarmLP(2).solve(A)
    assert solution.method.startswith("linprog") and solution.value == pytest.approx(2.0)


def test_a_big_game_keeps_its_lp(monkeypatch):
    """The double oracle keeps the LP between rounds once rows x trees reaches WARM_CELLS (here
    lowered to every game), and the value is the same."""
    from arena import make_game
    from arena.equilibrium import double_oracle, warm_lp

    game = make_game("mastermind:pegs=2,colors=4")
    cold = double_oracle(game)
    monkeypatch.setattr(warm_lp, "WARM_CELLS", 0)
    import arena.equilibrium.oracle as oracle

    monkeypatch.setattr(oracle, "WARM_CELLS", 0)
    warm = double_oracle(game)
    assert warm.exact is not None and warm.exact.value == cold.exact.value
    assert "warm-started" in warm.method and "warm-started" not in cold.method


def test_the_lp_prints_nothing(capfd):
    """HiGHS's banner (printed by its first model in a process) does not reach the output."""
    import subprocess
    import sys

    code = "from arena.equilibrium.warm_lp import WarmLP; import numpy as np; WarmLP(2).solve(np.eye(2)); print('done')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "done\n" and "HiGHS" not in out.stderr
