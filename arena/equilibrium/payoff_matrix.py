"""The payoff matrix of chooser against guesser: rows are secrets (or orbits of secrets),
columns are guesser trees, entries the number of guesses.

Kept exact: `totals[O, k]` is the sum over the secrets s of row O of the guesses tree k needs
for s (an integer) and `sizes[O]` the number of those secrets, so the payoff is the rational
totals / sizes (with no symmetry every row is one secret and the payoff is the integer cost).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .dominance import reduce_dominated
from .matrix import MatrixGameSolution, solve_matrix_game
from .rational import ExactSolution, as_fractions, exact_equilibrium
from .symmetry import Symmetry


@dataclass(frozen=True)
class PayoffMatrix:
    """Chooser rows x guesser columns, with the payoff A = totals / sizes (row-wise)."""

    totals: np.ndarray
    sizes: np.ndarray

    @classmethod
    def of(cls, costs: np.ndarray, symmetry: Symmetry) -> PayoffMatrix:
        """From costs[k, s] (guesses of tree k for secret s): rows are the symmetry's orbits."""
        return cls(symmetry.totals(costs).T, symmetry.sizes)

    @property
    def A(self) -> np.ndarray:
        return self.totals / self.sizes[:, None]

    def equilibrium(self) -> tuple[MatrixGameSolution, ExactSolution | None]:
        """The LP solution, and an exact rational one near it if there is one.

        The exact check runs on the game left after removing dominated strategies (the LP's
        strategies vanish outside it, and a removed strategy cannot be a better response than
        the one that dominates it, so checking the rest suffices)."""
        solution = solve_matrix_game(self.A)
        keep = reduce_dominated(self.A)
        exact = exact_equilibrium(
            as_fractions(self.totals[np.ix_(keep.rows, keep.columns)], self.sizes[keep.rows]),
            solution.row[keep.rows],
            solution.column[keep.columns],
        )
        if exact is None:
            return solution, None
        return solution, ExactSolution(
            exact.value,
            _padded(exact.row, keep.rows, self.totals.shape[0]),
            _padded(exact.column, keep.columns, self.totals.shape[1]),
        )


def _padded(values: tuple[Fraction, ...], where: np.ndarray, size: int) -> tuple[Fraction, ...]:
    """Exact probabilities over the kept strategies as probabilities over all of them."""
    out = [Fraction(0)] * size
    for i, v in zip(where.tolist(), values):
        out[i] = v
    return tuple(out)
