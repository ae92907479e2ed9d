"""A tournament's grid (the choosers, the guessers and their cells for one game) and its
meta-game: the grid as a zero-sum matrix game whose payoff to the chooser is the game's payoff
(arena.core.costs), solved by linear programming. A MetaGame is a value: its line in the
summary is `str(meta)`, its solution by name `meta.solution()`, and the plots and the HTML page
read its mixes; nothing is stored on the Report on the way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ...core.payoff import Payoff


class Grid(NamedTuple):
    """One game's guesser x chooser grid: the choosers and the guessers (labels) in the order
    the config first names them, and (chooser, guesser) -> that cell's Result."""

    choosers: list[str]
    guessers: list[str]
    cells: dict[tuple[str, str], Any]  # arena.study.results.report.Result (which imports this module)

    def complete(self, pay: Payoff) -> str | None:
        """None when every cell was measured and has `pay`'s figure, else why not."""
        if any(
            self.cells.get((c, g)) is None or not self.cells[c, g].measured
            for c in self.choosers
            for g in self.guessers
        ):
            return "a cell failed or is missing"
        missing = [(c, g) for c in self.choosers for g in self.guessers if pay.figure not in self.cells[c, g].ours]
        if missing:
            return f"{missing[0][1]} against {missing[0][0]} has no {pay.key}"
        return None


@dataclass(frozen=True)
class MetaGame:
    """A game's grid solved as a zero-sum game on `payoff`: the choosers' mix `row`, the
    guessers' mix `column` and the `value` to the chooser; or, where it could not be solved,
    `reason` (and no mixes)."""

    game: str
    payoff: Payoff
    choosers: tuple[str, ...]
    guessers: tuple[str, ...]
    row: tuple[float, ...] = ()
    column: tuple[float, ...] = ()
    value: float | None = None
    reason: str | None = None

    @property
    def solved(self) -> bool:
        return self.reason is None

    def __str__(self) -> str:
        """The line that the summary prints under the game's grid."""
        title = self.payoff.title
        if self.value is None:
            return f"  meta-game on {title}: not solved ({self.reason})"
        return (
            f"  meta-game on {title}: value {self.payoff.describe(self.value)}; choosers: "
            f"{_mix(self.choosers, self.row)}; guessers: {_mix(self.guessers, self.column)}"
        )

    def solution(self) -> dict[str, Any] | None:
        """The value, its payoff and unit, and both mixes by name (None where not solved)."""
        if self.value is None:
            return None
        return {
            "value": float(self.value),
            "payoff": self.payoff.key,
            "unit": self.payoff.unit,
            "choosers": dict(zip(self.choosers, map(float, self.row))),
            "guessers": dict(zip(self.guessers, map(float, self.column))),
        }


def _mix(names: tuple[str, ...], p: tuple[float, ...]) -> str:
    return ", ".join(f"{n} {q:.3f}" for n, q in zip(names, p) if q > 1e-9)


def solve_meta_game(game: str, grid: Grid, pay: Payoff) -> MetaGame:
    """`grid` as a zero-sum game on `pay`, solved (arena.equilibrium.solve_matrix_game), or a
    MetaGame saying why not (a cell failed or lacks the payoff; no solver installed)."""
    unsolved = MetaGame(game, pay, tuple(grid.choosers), tuple(grid.guessers))
    reason = grid.complete(pay)
    if reason is not None:
        return _with_reason(unsolved, reason)
    try:
        from ...equilibrium import solve_matrix_game
    except ImportError:
        return _with_reason(unsolved, "the equilibrium solver is not available")
    import numpy as np

    matrix = np.array([[grid.cells[c, g].ours[pay.figure] for g in grid.guessers] for c in grid.choosers])
    solution = solve_matrix_game(matrix)
    return MetaGame(
        game,
        pay,
        unsolved.choosers,
        unsolved.guessers,
        tuple(solution.row),
        tuple(solution.column),
        float(solution.value),
    )


def _with_reason(meta: MetaGame, reason: str) -> MetaGame:
    return MetaGame(meta.game, meta.payoff, meta.choosers, meta.guessers, reason=reason)
