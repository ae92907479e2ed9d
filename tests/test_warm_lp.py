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


def slow_game(rows: int = 500, columns: int = 400) -> np.ndarray:
    """A random game whose LP takes a few tenths of a second or more (longer than POLL)."""
    rng = np.random.default_rng(7)
    return rng.integers(3, 9, size=(rows, columns)) + rng.random((rows, columns))


def test_a_stop_cancels_a_solve_and_the_last_rounds_mixes_answer():
    """A solve the run's stop cancels (Ctrl-C, the time limit) answers at once with the last
    solve's mixes, the columns since played by none; the model, built again, then solves as
    before (an interrupted HiGHS model would interrupt every later solve)."""
    A = slow_game()
    lp = WarmLP(A.shape[0])
    first = lp.solve(A[:, :3], stop=lambda: True)  # a first solve is not cancelled: nothing to fall back on
    assert first.value == pytest.approx(solve_matrix_game(A[:, :3]).value, abs=1e-9) and lp.cancelled == 0
    asked = []
    stopped = lp.solve(A, stop=lambda: asked.append(1) or True)
    assert asked and lp.cancelled == 1 and "stopped" in stopped.method
    assert stopped.value == first.value and np.array_equal(stopped.row, first.row)
    assert stopped.column.size == A.shape[1] and np.array_equal(stopped.column[:3], first.column)
    assert not stopped.column[3:].any()
    assert float((A @ stopped.column).max()) == pytest.approx(stopped.value, abs=1e-9)  # still an upper end
    again = lp.solve(A)
    assert again.value == pytest.approx(solve_matrix_game(A).value, abs=1e-9) and "stopped" not in again.method


def test_a_second_ctrl_c_cancels_the_solve_and_goes_on_up():
    """A KeyboardInterrupt while a solve runs (a second Ctrl-C) cancels it and is raised; the LP
    is usable after."""
    A = slow_game()
    lp = WarmLP(A.shape[0])
    lp.solve(A[:, :3])

    def ctrl_c() -> bool:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        lp.solve(A, stop=ctrl_c)
    assert lp.solve(A).value == pytest.approx(solve_matrix_game(A).value, abs=1e-9)


def test_the_double_oracle_stops_its_lp_on_ctrl_c_or_the_time_limit(monkeypatch):
    """The oracle hands the warm LP its stop: true once Ctrl-C is asked (STOP) or the time limit
    has passed, and a cancelled solve is said in a note."""
    import arena.equilibrium.oracle as oracle
    from arena import make_game
    from arena.equilibrium import double_oracle, warm_lp
    from arena.optimal.search import STOP

    seen = []
    solve = warm_lp.WarmLP.solve

    def cancelling(self, A, tolerance=warm_lp.TOLERANCE, stop=None):
        seen.append(stop())
        if self.last is not None and len(seen) == 2:  # the second solve: Ctrl-C comes (the loop ends)
            monkeypatch.setattr(STOP, "asked", True)
            seen.append(stop())
            self.cancelled += 1
            return warm_lp.padded(np.asarray(A, dtype=np.float64), self.last)
        return solve(self, A, tolerance, stop)

    monkeypatch.setattr(oracle, "WARM_CELLS", 0)
    monkeypatch.setattr(warm_lp.WarmLP, "solve", cancelling)
    eq = double_oracle(make_game("mastermind:pegs=2,colors=4"), time_limit=600)
    assert seen[:3] == [False, False, True]
    assert eq.lower <= eq.upper and any("stopped by Ctrl-C" in note for note in eq.notes)
    assert any("the last LP was cancelled by the stop" in note for note in eq.notes)
