"""`SolvedTree`: a tree with what the exact solver knows about it (its cost, the proven
lower bound, the search's effort), and the text that reports it (`report()`, also `str()`):
what the tree costs and what is proven about the optimum, and for a tree the split put
together, what the split closed. `arena optimal` prints this text; a notebook gets the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.costs import UNITS, cost_for
from ..core.game import Indexes
from ..trees.tree import Node, Tree
from .problem import Objective

#: How many first guesses solved exactly the split's report names.
PROVEN_SHOWN = 10


def at_worst(costs: np.ndarray, S: Indexes) -> tuple[int, int]:
    """(the worst of the costs of the secrets S, how many of them have it)."""
    worst = int(costs[S].max())
    return worst, int(np.count_nonzero(costs[S] == worst))


@dataclass
class SolvedTree(Tree):
    """A Tree with what the solver knows about it: its weighted cost `value` (sum of weight x
    cost, the cost `cost` of arena.core.costs: guesses, or Hangman's misses; with equal weights, the
    total), a proven `lower_bound` on the best possible cost (equal to `value` when the search
    finished: the tree is optimal), and the search's effort."""

    value: float = 0.0
    lower_bound: float = 0.0
    seconds: float = 0.0
    searched: int = 0  # candidate sets whose guesses the search scored
    depth_bound: int = 0  # a proven lower bound on the worst case of any tree (objective=worst)
    time_limit: float | None = None  # the limit the search ran under (None: none)
    stopped: bool = False  # did the time limit stop the search?
    cost: str = "guesses"  # what `value` counts (arena.core.costs)
    openers: tuple[str, ...] = ()  # fixed first guesses: value and bound are the best after them
    split: Any = None  # the root split's result (arena.optimal.split.SplitResult) when it made the tree
    weighted: bool = False  # were weights given? (then `value` is the weighted cost, and the report says so)
    objective: Objective = Objective.AVERAGE  # what the tree minimises: WORST proves the worst case first
    at_worst_bound: int = 0  # FEWEST_AT_WORST: a proven lower bound on the secrets that need the worst case

    @property
    def at_worst(self) -> int:
        """How many of the secrets covered need the tree's worst case."""
        return at_worst(self.costs, self.secrets)[1] if len(self.secrets) else 0

    @property
    def costs(self) -> np.ndarray:
        """Each secret's cost, as `value` counts it (the guesses, misses or lost games)."""
        return cost_for(self.game, self.cost).of(self)

    def cost_of(self, node: Node) -> np.ndarray:
        return self.costs[node.candidates]

    @property
    def exact(self) -> bool:
        if self.objective == Objective.FEWEST_AT_WORST and self.at_worst_bound < self.at_worst:
            return False
        return self.lower_bound >= self.value - 1e-9 * max(1.0, abs(self.value))

    @property
    def gap(self) -> float:
        """value - lower_bound: 0 for a tree proven optimal."""
        return max(0.0, self.value - self.lower_bound)

    @property
    def unit(self) -> str:
        """What the cost is counted in ("guesses", "misses", "lost games")."""
        return UNITS[self.cost]

    def report(self, interrupted: bool = False) -> str:
        """What the tree costs and what is proven about the optimum (two lines; with weights
        given, about the weighted cost), then what the split closed, when the split made it.
        `interrupted`: Ctrl-C stopped the search, not its time limit."""
        return "\n".join([cost_lines(self, self.weighted, interrupted)] + split_lines(self))

    def __str__(self) -> str:
        return self.report()

    def figures(self) -> dict:
        """What the split closed, as figures (none when the split did not make the tree)."""
        result = self.split
        if result is None:
            return {}
        return (
            {
                "first_guess": self.game.guesses[result.best_guess],
                "first_guesses": len(result.openings),
                "closed": result.closed,
                "pieces": result.pieces,
                "searched_pieces": result.searched,
                "split_pieces": result.split_pieces,
                "proven_first_guesses": {self.game.guesses[g]: total for g, total in result.proven()},
            }
            | ({"journal_written_by": result.written_by} if result.written_by else {})
            | ({"journal_unread": result.journal_unread} if result.journal_unread else {})
            | result.work.figures(self.game, result.seconds)
        )

    def to_json(self) -> dict:
        data = super().to_json()
        data.update(
            value=_plain(self.value),
            lower_bound=_plain(self.lower_bound),
            exact=self.exact,
            gap=_plain(self.gap),
            time_limit=self.time_limit,
            stopped=self.stopped,
            seconds=round(self.seconds, 3),
            cost=self.cost,
        )
        if self.openers:
            data.update(openers=list(self.openers))
        if self.objective == Objective.FEWEST_AT_WORST:
            worst, count = at_worst(self.costs, self.secrets)
            data.update(
                objective=self.objective.value,
                worst=worst,
                depth_bound=self.depth_bound,
                at_worst=count,
                at_worst_bound=self.at_worst_bound,
            )
        return data


def _plain(x: float):
    """An integer-valued float as an int (so JSON says 5625, not 5625.0)."""
    return int(x) if float(x).is_integer() else float(x)


def cost_lines(tree: SolvedTree, weighted: bool = False, interrupted: bool = False) -> str:
    """Two lines: what the tree costs, and what is proven about the optimum."""
    n = len(tree.secrets)
    cost = tree.costs[tree.secrets]
    unit = tree.unit
    head = (
        f"{tree.guesser} on {tree.game.spec}: {n:,} secrets; total {int(cost.sum()):,} {unit}, "
        f"mean {cost.mean():.4f}, worst {cost.max()}"
    )
    if not cost_for(tree.game, tree.cost).pays_every_guess:
        head += f" (guesses until determined: mean {tree.guesses[tree.secrets].mean():.4f})"
    if weighted:
        head += f"; weighted cost {tree.value:.6g}"
    what = "weighted cost" if weighted else f"total {unit}"
    trees = f"tree opening with {'+'.join(tree.openers)}" if tree.openers else "tree"
    if tree.objective == Objective.WORST:  # the worst case is proven least first, then the total among such trees
        trees = f"tree needs fewer than {tree.depth_bound} {unit} in the worst case, and no tree with that worst case"
    if tree.objective == Objective.FEWEST_AT_WORST:
        head += "\n" + at_worst_line(tree)
        trees = (
            f"tree needs fewer than {tree.depth_bound} {unit} in the worst case, nor has fewer than "
            f"{tree.at_worst:,} {'secret' if tree.at_worst == 1 else 'secrets'} that need {tree.depth_bound}, "
            "and no tree with those"
        )
    if tree.exact:
        proof = f"proven optimal: no {trees} has a smaller {what}"
    elif tree.objective == Objective.FEWEST_AT_WORST and tree.at_worst_bound < tree.at_worst:
        proof = (
            f"not proven optimal{stopped_by(tree, interrupted)}: best tree found; "
            "its secrets at the worst case are not proven fewest"
        )
    else:
        mean = "" if weighted else f" (mean >= {tree.lower_bound / n:.4f})"
        why = stopped_by(tree, interrupted)
        among = f" of a {trees}" if trees != "tree" else ""
        proof = (
            f"not proven optimal{why}: best tree found; proven lower bound on the optimal {what}{among}: "
            f"{tree.lower_bound:,.6g}{mean}, gap {tree.value - tree.lower_bound:,.6g}"
        )
    return f"{head}\n{proof}; {tree.seconds:.2f} s, {tree.searched:,} candidate sets searched"


def stopped_by(tree: SolvedTree, interrupted: bool) -> str:
    """What stopped the search, in brackets ("" if nothing did)."""
    if not tree.stopped:
        return ""
    return (
        " (stopped by Ctrl-C or SIGTERM)" if interrupted else f" (stopped at the time limit of {tree.time_limit:g} s)"
    )


def at_worst_line(tree: SolvedTree) -> str:
    """Objective fewest-at-worst: how many secrets need the worst case, and what is proven."""
    worst, count = at_worst(tree.costs, tree.secrets)
    if worst > tree.depth_bound:
        proof = f"the least worst case is not proven (at least {tree.depth_bound})"
    elif tree.at_worst_bound >= count:
        proof = f"proven fewest among the trees within {worst} {tree.unit}"
    else:
        proof = f"proven at least {tree.at_worst_bound:,} in any tree within {worst} {tree.unit}"
    secrets = "1 secret needs" if count == 1 else f"{count:,} secrets need"
    return f"{secrets} the worst case of {worst} {tree.unit}: {proof}"


def split_lines(tree: SolvedTree) -> list[str]:
    """What the split closed (none when the split did not make the tree)."""
    result = tree.split
    if result is None:
        return []
    others = ", the others read from the journal" if result.pieces > result.searched else ""
    lines = [
        f"split: {result.closed:,} of {len(result.openings):,} first guesses closed, {result.pieces:,} pieces "
        f"({'classes at any depth' if result.split_pieces else 'first guess, reply class'}) searched "
        f"({result.searched:,} in this run{others}); "
        + (f"{result.split_pieces:,} split themselves into pieces below; " if result.split_pieces else "")
        + f"best first guess {tree.game.guesses[result.best_guess]}"
    ]
    lines.append(result.work.line(tree.game, result.seconds))
    proven = result.proven()
    if proven:
        shown = ", ".join(f"{tree.game.guesses[g]} {total:,.6g}" for g, total in proven[:PROVEN_SHOWN])
        more = f" and {len(proven) - PROVEN_SHOWN:,} more (--json lists them)" if len(proven) > PROVEN_SHOWN else ""
        lines.append(f"first guesses solved exactly: {shown}{more}")
    if result.written_by:
        lines.append(f"journal written by arena {result.written_by}: read, its proofs are that version's")
    if result.journal_unread:
        lines.append(
            f"the time limit passed while the journal was read: {result.journal_unread:,} of its records were not "
            "read, and what they prove is not counted above (they stay in the journal: run again to read them)"
        )
    return lines
