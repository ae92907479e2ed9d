"""Symmetries of a game: permutations of the codes that keep the feedback table.

If a permutation p of the codes satisfies F[p(g), p(s)] = F[g, s] for every guess g and
secret s, then p carries every guesser tree T to a tree p(T) with cost_{p(T)}(p(s)) =
cost_T(s). In Mastermind the colour permutations and the position permutations (and their
products, a group G) are such symmetries. Averaging any equilibrium over G gives another, so
there is an equilibrium in which

- the chooser gives the same probability to every code of one orbit of G (a *code type*:
  Mastermind codes with the same multiset of colour multiplicities, e.g. aabc), and
- the guesser plays a tree drawn from its mix, carried by a uniformly random element of G.

Against such a guesser secret s costs the average of cost_T over s's orbit. So the game
shrinks to one whose rows are the code types, with payoff

    A[O, T] = (1 / |O|) sum over s in O of cost_T(s),

and its value is the value of the full game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..core.game import Game


@dataclass(frozen=True)
class Symmetry:
    """A partition of the secrets into orbits, with a name for each orbit and, for games
    whose group is known, the means to apply a group element to a guess."""

    orbit: np.ndarray  # orbit[s] = the orbit of secret s
    labels: tuple[str, ...]
    group: str  # how the group is described to people
    order: int = 1  # |G|
    _act: Callable[[int], np.ndarray] | None = field(default=None, repr=False, compare=False)

    @property
    def sizes(self) -> np.ndarray:
        return np.bincount(self.orbit, minlength=len(self.labels))

    @property
    def trivial(self) -> bool:
        return len(self.labels) == len(self.orbit)

    def spread(self, q: np.ndarray) -> np.ndarray:
        """A mix over orbits as a mix over secrets: each orbit's share split equally."""
        return np.asarray(q, dtype=np.float64)[self.orbit] / self.sizes[self.orbit]

    def gather(self, weights: np.ndarray) -> np.ndarray:
        """A mix over secrets as a mix over orbits (the orbits' total weights)."""
        return np.bincount(self.orbit, weights=weights, minlength=len(self.labels))

    def totals(self, costs: np.ndarray) -> np.ndarray:
        """totals[k, O] = sum over s in O of costs[k, s] (integers: exact)."""
        costs = np.atleast_2d(costs)
        out = np.zeros((len(costs), len(self.labels)), dtype=np.int64)
        np.add.at(out.T, self.orbit, costs.T)
        return out

    def averages(self, costs: np.ndarray) -> np.ndarray:
        """The payoff of the orbit game: averages[k, O] = mean of costs[k, s] over s in O."""
        return self.totals(costs) / self.sizes

    def permutation(self, element: int) -> np.ndarray | None:
        """Group element number `element` (0 <= element < order) as a permutation of the
        guesses (None for the identity of a trivial group)."""
        return None if self._act is None else self._act(element)


def no_symmetry(game: Game) -> Symmetry:
    """Every secret its own orbit."""
    n = len(game.secrets)
    return Symmetry(np.arange(n), tuple(game.secrets), "none")


def symmetry_of(game: Game) -> Symmetry:
    """The symmetry the solvers may use for this game: its group's orbits (Mastermind: the code
    types, from arena.games.mastermind_symmetry), or none."""
    group = game.symmetry()
    return no_symmetry(game) if group is None else Symmetry(*group.code_types())
