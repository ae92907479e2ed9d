"""Certified bounds on the value of a game too big to solve: lower <= value <= upper, each end
with a witness saved to a file that can be replayed.

- The upper end is achieved: a guesser mix of trees (the double oracle's LP over the trees it
  found) concedes at most its worst secret's expected cost, max over secrets s of
  sum_k y_k cost_k(s) (each cost averaged over s's orbit where the trees are carried by a random
  symmetry, as in symmetry.py). `mix_worst` computes it in exact fractions of the probabilities
  as saved, so the figure is the saved mix's own, not the LP's float.
- The lower end is proven: a chooser mix q, and a lower bound on the least expected cost of
  any guesser tree against q, proven by the exact search (arena.optimal; a search stopped by a
  time limit still proves the bound it reached, and an unstopped one proves its optimum). The
  search adds floats, so the bound is exact up to their rounding (relative 1e-15 a sum).

`certified_bounds` runs the double oracle with each best response stopped at `response_limit`
(`arena equilibrium GAME --time-limit T --response-limit R --save FILE`); the file holds both
witnesses: the trees and their probabilities, and the chooser's mix the lower bound was proven
against. `witness_upper` recomputes the upper end from such a file (`arena evaluate GAME
equilibrium:file=FILE --exploitability` prints the same worst secret), and `witness_lower`
searches again against its chooser's mix (`arena optimal GAME --weights FILE`): on a small game,
to the exact best response, whose cost can only be at least the lower end printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..core.costs import cost_for
from ..core.errors import ArenaError
from ..core.game import Game
from ..trees.saved import Tree
from .oracle import double_oracle
from .solution import Equilibrium
from .symmetry import Symmetry
from .witness import CLAIM_SLACK, REPROVE_LIMIT, finite, fraction


def certified_bounds(
    game: Game,
    time_limit: float,
    response_limit: float,
    initial: Sequence[Tree] = (),
    cost: str | None = None,
    progress=None,
) -> Equilibrium:
    """The double oracle within `time_limit` seconds, each best response within `response_limit`,
    seeded with the `initial` trees; its upper end replaced by the exact worst secret of the
    guesser's mix (mix_worst) and its chooser's mix the one the lower end is proven against."""
    eq = double_oracle(
        game,
        time_limit=time_limit,
        response_limit=response_limit,
        initial=initial,
        certify=False,
        progress=progress,
        cost=cost,
        witness=True,
    )
    paid = cost_for(game, eq.cost)
    worst, secret = mix_worst([float(p) for p in eq.guesser], [paid.of(t) for t in eq.trees], eq.symmetry)
    note = (
        f"upper end: the guesser's mix of {len(eq.trees)} trees concedes {float(worst):.6f} {eq.unit} "
        f"at most, on {game.secrets[secret]} (its exact worst secret)"
    )
    return replace(eq, upper=float(worst), notes=eq.notes + (note,))


def mix_worst(
    probabilities: Sequence[float | Fraction], costs: Sequence[np.ndarray], symmetry: Symmetry
) -> tuple[Fraction, int]:
    """(the largest expected cost over secrets, that secret) of the mix playing tree k (costs[k]
    per secret) with probability proportional to probabilities[k] (floats or fractions), each
    carried by a uniformly random element of `symmetry`'s group: exact, from the probabilities as given."""
    weights = [Fraction(p) for p in probabilities]
    total = sum(weights)
    sizes = symmetry.sizes
    expected = [Fraction(0)] * len(sizes)
    for w, tree_costs in zip(weights, costs):
        if w:
            for row, t in enumerate(symmetry.totals(np.asarray(tree_costs))[0].tolist()):
                expected[row] += w * Fraction(int(t), int(sizes[row]))
    row = max(range(len(expected)), key=expected.__getitem__)
    return expected[row] / total, int(np.flatnonzero(symmetry.orbit == row)[0])


def witness_upper(game: Game, path: str | Path, cost: str | None = None) -> tuple[Fraction, str]:
    """The upper end a saved equilibrium's guesser mix achieves: its exact worst secret's expected
    cost, and that secret (a representative of its orbit)."""
    from .plans import plan_tree
    from .solution import load_guesser_mix

    mix, symmetry = load_guesser_mix(path, game)
    paid = cost_for(game, cost)
    costs = [paid.of(plan_tree(game, plan, f"tree {k}")) for k, (_, plan) in enumerate(mix, 1)]
    worst, secret = mix_worst([p for p, _ in mix], costs, symmetry)
    return worst, game.secrets[secret]


def witness_lower(
    game: Game, chooser: np.ndarray, time_limit: float | None = None, cost: str | None = None
) -> tuple[float, bool]:
    """A lower bound proven again on the least expected cost of any tree against the chooser's
    mix `chooser` (e.g. a saved equilibrium's), and whether it is the exact optimum (the search
    finished within `time_limit`)."""
    from .response import bounded_best_response, mix_problem

    weights = np.asarray(chooser, dtype=np.float64)
    tree, bound = bounded_best_response(mix_problem(game, weights / weights.sum(), cost), time_limit)
    return bound, not tree.stopped


# --- a saved file's bounds, proven again --------------------------------------------------------


@dataclass(frozen=True)
class VerifiedValue:
    """The game value a saved file supports: lower <= value <= upper, both recomputed here;
    `exact` where they meet in fractions; `claims` the lines saying what the file claims beyond."""

    lower: float
    upper: float
    exact: Fraction | None
    worst_secret: str  # the guesser mix's worst secret (its upper end)
    lower_exact: bool  # the best response against the file's chooser mix finished
    claimed_lower: float | None
    claimed_uniform: float | None
    claims: tuple[str, ...]
    how: str  # where both ends come from, in words


def verified_value(path: str, game: Game, cost: str, time_limit: float | None = None) -> VerifiedValue:
    """The bounds on the value of `game` (payoff `cost`) proven again from the witnesses in the
    file `path` saved by `arena equilibrium --save` (see the module's docstring); an
    ArenaError for a file that does not fit the game, a probability out of bounds, or a claim
    its own witnesses refute."""
    from .plans import plan_tree
    from .response import bounded_best_response, mix_problem
    from .solution import load_guesser_mix, read_saved
    from .witness import saved_chooser

    data = read_saved(path, game, cost)
    mix, symmetry = load_guesser_mix(path, game, data)
    paid = cost_for(game, cost)
    costs = [paid.of(plan_tree(game, plan, f"{path}, tree {k}")) for k, (_, plan) in enumerate(mix, 1)]
    upper, secret = mix_worst([p for p, _ in mix], costs, symmetry)
    chooser, exact_chooser = saved_chooser(path, game, data)
    limit = REPROVE_LIMIT if time_limit is None else time_limit

    tree, bound = bounded_best_response(mix_problem(game, chooser, cost), limit)
    finished = not tree.stopped
    lower_exact: Fraction | None = None
    if finished and exact_chooser is not None:
        # the tree's exact cost under the exact mix: the least only if the float search agrees
        # (another tree could win by a rounding's worth where two cost nearly the same)
        cost_exact = sum((q * int(c) for q, c in zip(exact_chooser, paid.of(tree).tolist()) if q), Fraction(0))
        if abs(float(cost_exact) - bound) <= 1e-9 * max(1.0, abs(bound)):
            lower_exact, bound = cost_exact, float(cost_exact)
    lower = min(bound, float(upper))  # float rounding only: the true value lies in between
    exact = upper if lower_exact is not None and lower_exact == upper else None
    claimed_lower, claimed_uniform, claims = _claims(data, path, lower, float(upper), exact, game)
    how = (
        f"from {path}: the upper end its guesser mix of {len(mix)} tree{'s' if len(mix) != 1 else ''} replayed, "
        f"the lower end proven again against its chooser mix"
        + ("" if finished else f" (the best response stopped at the time limit of {limit:g} s)")
    )
    return VerifiedValue(
        lower, float(upper), exact, game.secrets[secret], finished, claimed_lower, claimed_uniform, claims, how
    )


def _claims(
    data: dict, path: str, lower: float, upper: float, exact: Fraction | None, game: Game
) -> tuple[float | None, float | None, tuple[str, ...]]:
    """What the file claims beyond what was proven again, checked against it: (its lower end
    where above the proven one, its uniform chooser's value, the lines saying so)."""
    slack = CLAIM_SLACK * max(1.0, abs(upper))
    low = finite(data.get("lower"), f"{path}: its lower end")
    high = finite(data.get("upper"), f"{path}: its upper end")
    if low > high + slack:
        raise ArenaError(f"{path}: its lower end {low!r} is above its upper end {high!r}")
    if low > upper + slack:
        raise ArenaError(
            f"{path} claims the value is at least {low:.6f}, but its own guesser mix concedes at most "
            f"{upper:.6f}: a damaged or forged file"
        )
    if high < upper - slack:
        raise ArenaError(
            f"{path} claims its guesser mix concedes at most {high:.6f}, but its trees concede "
            f"{upper:.6f} (replayed): a damaged or forged file"
        )
    claims = []
    if data.get("value_exact") is not None:
        claimed = fraction(data["value_exact"], f"{path}: its exact value")
        if exact is not None and claimed != exact:
            raise ArenaError(
                f"{path} claims the value is {claimed}, but its witnesses prove {exact}: a damaged or forged file"
            )
        if not lower - slack <= claimed <= upper + slack:
            raise ArenaError(
                f"{path} claims the value is {claimed}, outside [{lower:.6f}, {upper:.6f}] proven from its "
                "witnesses: a damaged or forged file"
            )
        if exact is None:
            claims.append(f"value {claimed} claimed by {path}, not re-proven")
    claimed_lower = None
    if exact is None and low > lower + slack:
        claimed_lower = low
        claims.append(f"lower end {low:.6f} claimed by {path}, not re-proven")
    uniform = data.get("uniform_value")
    claimed_uniform = None
    if uniform is not None:
        claimed_uniform = finite(uniform, f"{path}: its uniform chooser's value")
        if claimed_uniform > upper + slack or claimed_uniform < 0:
            raise ArenaError(
                f"{path} claims the best guesser needs {claimed_uniform:.6f} against the uniform chooser, "
                f"more than its own guesser mix concedes ({upper:.6f}): a damaged or forged file"
            )
    return claimed_lower, claimed_uniform, tuple(claims)
