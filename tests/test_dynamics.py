"""Learning dynamics on matrix games (arena/study/results/dynamics.py): the replicator's path is nashpy's
equation, fictitious play's empirical mixes approach the equilibrium, runs repeat."""

import io

import numpy as np
import pytest
from nashpy.learning.replicator_dynamics import get_derivative_of_asymmetric_fitness

from arena.study.results.dynamics import dynamics, replicator
from arena.study.results.export import MatrixGame

PENNIES = MatrixGame("pennies", ("heads", "tails"), ("heads", "tails"), np.array([[1.0, 0.0], [0.0, 1.0]]))
#: A saddle point: row 0 and column 1 are each side's only equilibrium strategy (value 3).
SADDLE = MatrixGame("saddle", ("a", "b", "c"), ("x", "y"), np.array([[4.0, 3.0], [2.0, 1.0], [5.0, 0.5]]))


def test_the_replicator_path_follows_nashpys_equation():
    A = np.array([[0.2, 0.9, 0.4], [0.7, 0.1, 0.5]])
    times = np.linspace(0, 5, 2001)
    xs, ys = replicator(A, times)
    dt = times[1] - times[0]
    for k in (10, 500, 1500):
        z = np.concatenate((xs[k], ys[k]))
        want = get_derivative_of_asymmetric_fitness(z, times[k], A, -A)
        got = np.concatenate((xs[k + 1] - xs[k - 1], ys[k + 1] - ys[k - 1])) / (2 * dt)
        assert np.allclose(got, want, atol=1e-5)
    assert np.allclose(xs.sum(axis=1), 1) and np.allclose(ys.sum(axis=1), 1) and (xs > 0).all()


def test_matching_pennies_circles_around_its_equilibrium():
    d = dynamics(PENNIES, iterations=400)
    rows, columns = d.time_average()
    assert d.value == pytest.approx(0.5)
    assert np.allclose(rows, 0.5, atol=0.05) and np.allclose(columns, 0.5, atol=0.05)
    assert np.allclose(d.play_rows[-1], 0.5, atol=0.05) and np.allclose(d.play_columns[-1], 0.5, atol=0.05)


def test_a_saddle_point_attracts_both_dynamics():
    d = dynamics(SADDLE, iterations=300)
    assert d.value == pytest.approx(3.0)
    assert d.replicator_rows[-1][0] > 0.99 and d.replicator_columns[-1][1] > 0.99
    assert d.play_rows[-1][0] > 0.95 and d.play_columns[-1][1] > 0.95
    assert d.exploitability(d.play_rows[-1], d.play_columns[-1]) < 0.1


def test_the_same_seed_gives_the_same_play_and_leaves_numpys_generator_alone():
    np.random.seed(7)
    before = np.random.get_state()[1].copy()
    first, again = dynamics(PENNIES, iterations=200, seed=3), dynamics(PENNIES, iterations=200, seed=3)
    assert np.array_equal(first.play_rows, again.play_rows)
    assert np.array_equal(np.random.get_state()[1], before)


def test_summary_and_plot():
    d = dynamics(SADDLE, iterations=100)
    text = d.summary()
    assert text.startswith("saddle: value 3.0000") and "exploitability" in text
    assert len([line for line in text.splitlines() if line.startswith("  chooser")]) == 3
    buffer = io.BytesIO()
    d.plot(buffer)
    assert buffer.getvalue().startswith(b"\x89PNG")
