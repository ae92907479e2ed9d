"""solve_matrix_game reads the column player's strategy off the row LP's duals where the pair
checks, and solves the column LP on its own where it does not: the same value and an
equilibrium either way."""

from __future__ import annotations

import numpy as np
import pytest

from arena.equilibrium import matrix
from arena.equilibrium.matrix import exploitability, maximin_and_duals, solve_matrix_game


@pytest.mark.parametrize("seed", range(6))
def test_the_duals_are_an_optimal_column_strategy(seed):
    rng = np.random.default_rng(seed)
    A = rng.integers(1, 9, size=(int(rng.integers(2, 60)), int(rng.integers(2, 30)))).astype(float)
    value, row, duals = maximin_and_duals(A)
    assert duals is not None and duals.min() >= 0 and duals.sum() == pytest.approx(1.0)
    assert float(np.max(A @ duals)) == pytest.approx(value, abs=1e-9)  # it holds the rows to the value
    solution = solve_matrix_game(A)
    assert solution.value == pytest.approx(value, abs=1e-9) and max(solution.exploitability) <= 1e-7 * 9


def test_duals_that_do_not_check_are_replaced_by_the_column_lp(monkeypatch):
    A = np.random.default_rng(9).integers(1, 9, size=(40, 12)).astype(float)
    plain = matrix.maximin_and_duals

    def off(M):  # the duals of a broken solver: all on the first column
        value, row, duals = plain(M)
        wrong = np.zeros_like(duals)
        wrong[0] = 1.0
        return value, row, wrong

    monkeypatch.setattr(matrix, "maximin_and_duals", off)
    solution = solve_matrix_game(A, reduce=False)
    assert max(exploitability(A, solution.row, solution.column)) <= 1e-7 * 9
    assert solution.value == pytest.approx(plain(A)[0], abs=1e-9)
