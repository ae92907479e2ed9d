"""The double oracle's guesser side: the trees found so far, one per distinct payoff column,
their costs on every secret, and the payoff matrix of their LP."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.costs import Cost
from ..core.resources import memory_limit
from ..trees.tree import Tree
from . import flows
from .matrix import lp_bytes
from .payoff_matrix import PayoffMatrix
from .symmetry import Symmetry


class Columns:
    """The guesser's trees found so far (one per distinct payoff column) and their LP."""

    def __init__(self, symmetry: Symmetry, paid: Cost):
        self.symmetry, self.paid = symmetry, paid
        self.trees: list[Tree] = []
        self.costs: list[np.ndarray] = []  # each tree's cost on every secret (int64, as Cost.of gives it)
        self.seen: set[bytes] = set()  # the trees' payoff columns, as bytes
        self.encoded = flows.StateTrees()  # the trees as the state file holds them (encode)

    def add(self, tree: Tree) -> bool:
        costs = self.paid.of(tree)
        key = self.symmetry.totals(costs).tobytes()
        if key in self.seen:
            return False
        self.seen.add(key)
        self.trees.append(tree)
        self.costs.append(costs)
        return True

    def encode(self, playing: Sequence[int] = ()) -> list[str]:
        """The trees as the state file holds them (flows.StateTrees: all but those drawn from
        the flows that the mix, `playing`, does not play), each encoded once."""
        return self.encoded.of(self.trees, playing)

    def cheapest(self, mix: np.ndarray) -> Tree | None:
        """The tree found so far that costs least against the chooser's `mix` (over secrets):
        the next best response's starting budget (the double oracle's REUSE)."""
        if not self.trees:
            return None
        return self.trees[int(np.argmin(np.array(self.costs) @ mix))]

    def payoff(self) -> PayoffMatrix:
        """The trees' payoff matrix over the symmetry's rows, from the costs kept as they came."""
        return PayoffMatrix.of(np.array(self.costs), self.symmetry)

    def room_for_another(self) -> bool:
        """Would the LP with one more tree fit the memory limit? (The costs as int64, the
        payoffs as float64, and the LP itself; arena.core.resources.)"""
        rows, columns = len(self.symmetry.labels), len(self.trees) + 1
        secrets = len(self.symmetry.orbit)
        return columns * (secrets + rows) * 8 + lp_bytes(rows, columns) <= memory_limit()
