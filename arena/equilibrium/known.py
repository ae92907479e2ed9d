"""Every bound the project proves on a game's value, folded into one interval.

A double oracle stopped early brackets the value between what its own chooser mix proves and
what its own guesser mix concedes. Other proofs may say more, and each goes in:

- **the uniform chooser**: a chooser playing every secret alike is one of the chooser's
  strategies, so the value is at least the least expected cost of any tree against it, the
  exact optimum of `arena optimal GAME` divided by the number of secrets. Proven by this run's
  first best response where it finished; else searched here (within a time limit: a stopped
  search still proves the bound it reached); or read from a split's journal (`arena optimal
  GAME --workers W --journal FILE`, its records checked as `arena optimal --standing` checks
  them), which is how whole Wordle's 7,920/2,315 goes in (35 minutes of search, not minutes);
- **saved equilibria** (`--bounds-from FILE`, files of `arena equilibrium --save`): the
  exact best response to their chooser mix, searched again (a lower end), and their guesser
  mix's worst secret, replayed (an upper end): certify.verified_value, never the file's figures;
- **this run's guesser mix**, replayed: its exact worst secret (certify.mix_worst), not the
  LP's float.

The interval printed is the best lower end and the best upper end, each named with where it
comes from. The bounds go into the file `--save` writes ("bounds", what each rests on), and
`arena evaluate --value-from FILE` proves each again (`reproven`): the uniform chooser by a
search, a journal read and checked again, a saved equilibrium verified again; nothing read from
the file is taken as proven.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from ..costs import Guesses, cost_for
from ..errors import ArenaError, shown
from ..game import Game
from .solution import SETTLED, Equilibrium, NotAnEquilibrium

#: The longest a fold searches the uniform chooser (where the run has not finished it), and the
#: least it allows that search under a run's shorter time limit: the equal-weight search proves
#: a small game's optimum in well under a second, which a run stopped at 0.1 s has not reached.
FOLD_LIMIT = 60.0
FOLD_FLOOR = 5.0
#: How deep saved equilibria may lean on other saved equilibria (a file naming itself stops here).
DEPTH = 4


@dataclass(frozen=True)
class KnownBound:
    """One proven end of the value's interval: `side` "lower" or "upper", its value (and exact
    fraction where known), where it comes from in words (`how`), and what it rests on
    (`rests_on`, JSON: what `arena evaluate --value-from` proves it again from)."""

    side: str
    value: float
    exact: Fraction | None
    how: str
    rests_on: dict

    def line(self) -> str:
        """`lower 3.421166 = 7920/2315, the exact optimum against the uniform chooser (...)`."""
        exact = f" = {self.exact}" if self.exact is not None and self.exact.denominator != 1 else ""
        return f"{self.side} {self.value:.6f}{exact}, {self.how}"

    def to_json(self) -> dict:
        return {
            "side": self.side,
            "value": self.value,
            "exact": str(self.exact) if self.exact is not None else None,
            "how": self.how,
            "rests_on": self.rests_on,
        }


def _total(total: float, n: int) -> Fraction:
    """A proven lower bound on a total of whole costs, as a fraction of `n` secrets: the least
    whole number it admits (the search adds floats: a hair below a whole number is that number)."""
    return Fraction(math.ceil(total - 1e-6), n)


def uniform_bound(game: Game, cost: str, time_limit: float | None) -> KnownBound:
    """The least expected cost of any tree against the uniform chooser, proven by the exact
    search within `time_limit` seconds (None: to the end): the optimum where it finishes, else
    the bound it reached."""
    from ..optimal import optimal_tree

    n = len(game.secrets)
    tree = optimal_tree(game, cost=cost, time_limit=time_limit)
    costs = cost_for(game, cost).of(tree)
    if not tree.stopped and float(costs.sum()) == tree.value and tree.exact:
        exact = Fraction(int(costs.sum()), n)
        how = f"the exact optimum against the uniform chooser (searched in {tree.seconds:.2g} s)"
        return KnownBound("lower", float(exact), exact, how, {"uniform": "search", "exact": True})
    bound = _total(tree.lower_bound, n) if isinstance(cost_for(game, cost), Guesses) else None
    value = float(bound) if bound is not None else tree.lower_bound / n
    how = f"proven against the uniform chooser by a search stopped at its time limit ({time_limit:g} s)"
    return KnownBound("lower", value, None, how, {"uniform": "search", "exact": False})


def journal_bound(game: Game, path: str | Path, cost: str) -> KnownBound:
    """The lower bound on the uniform chooser's optimum that a split's journal proves (`arena
    optimal GAME --journal FILE`, equal weights, no guess limit), its records checked as
    `arena optimal --standing` checks them; nothing is searched."""
    from ..optimal.split import split_root

    if not isinstance(cost_for(game, cost), Guesses) or not game.rules.hits:
        raise ArenaError(f"{path}: a split's journal bounds the guesses of a game whose guesses hit the secret")
    result = split_root(game, journal=path, standing=True, workers=1)
    n = len(game.secrets)
    bound = _total(result.lower_bound, n)
    exact = result.exact
    by = f", written by arena {result.written_by}" if result.written_by else ""
    how = (
        f"the {'exact optimum' if exact else 'bound proven'} against the uniform chooser, read from the journal "
        f"{path} (its records checked as `arena optimal --standing` checks them{by})"
    )
    return KnownBound("lower", float(bound), bound if exact else None, how, {"journal": str(path)})


def saved_bounds(game: Game, path: str | Path, cost: str, time_limit: float | None, depth: int = 0) -> list[KnownBound]:
    """Both ends a saved equilibrium proves (certify.verified_value: its guesser mix replayed,
    its chooser mix's best response searched again, and its own folded bounds proven again)."""
    from .certify import verified_value

    if depth >= DEPTH:
        raise ArenaError(f"{path}: saved equilibria lean on each other more than {DEPTH} deep (a file naming itself?)")
    v = verified_value(str(path), game, cost, time_limit, depth + 1)
    rests = {"equilibrium": str(path)}
    return [
        KnownBound("lower", v.lower, None, f"proven again from the saved equilibrium {path} ({v.lower_how})", rests),
        KnownBound("upper", v.upper, None, f"the guesser mix of the saved equilibrium {path}, replayed", rests),
    ]


def from_file(game: Game, path: str | Path, cost: str, time_limit: float | None, depth: int = 0) -> list[KnownBound]:
    """The bounds a file proves: a saved equilibrium's both ends, or a split journal's lower end."""
    try:
        return saved_bounds(game, path, cost, time_limit, depth)
    except NotAnEquilibrium:
        if not Path(path).is_file():
            raise ArenaError(
                f"{path}: no such file (bounds are read from a saved equilibrium or a split's journal)"
            ) from None
        return [journal_bound(game, path, cost)]


def own_bounds(eq: Equilibrium) -> list[KnownBound]:
    """What the run itself proves: its best lower bound (against the chooser mix it keeps), its
    uniform chooser's optimum where its first best response finished, and its guesser mix's
    exact worst secret."""
    from .certify import mix_worst

    n = len(eq.game.secrets)
    paid = cost_for(eq.game, eq.cost)
    out = [KnownBound("lower", eq.lower, None, "the best response to this run's chooser mix", {"chooser": "own"})]
    if eq.uniform is not None:
        exact = Fraction(round(eq.uniform * n), n) if isinstance(paid, Guesses) else None
        how = "the exact optimum against the uniform chooser (this run's first best response)"
        out.append(KnownBound("lower", eq.uniform, exact, how, {"uniform": "search", "exact": True}))
    if len(eq.trees):
        worst, secret = mix_worst([float(p) for p in eq.guesser], [paid.of(t) for t in eq.trees], eq.symmetry)
        trees = f"{len(eq.trees)} tree{'s' if len(eq.trees) != 1 else ''}"
        how = f"this run's guesser mix of {trees}, replayed: its worst secret {eq.game.secrets[secret]}"
        out.append(KnownBound("upper", float(worst), worst, how, {"guesser": "own"}))
    return out


def uniform_optimum(bound: KnownBound) -> bool:
    """Is `bound` the exact optimum against the uniform chooser (searched, or read from a journal)?"""
    return bound.exact is not None and bool(bound.rests_on.get("uniform") or "journal" in bound.rests_on)


def best(bounds: Sequence[KnownBound]) -> tuple[KnownBound, KnownBound]:
    """The highest lower end and the lowest upper end (of equal ones, an exact one, then the first named)."""
    lower = max((b for b in bounds if b.side == "lower"), key=lambda b: (b.value, b.exact is not None))
    upper = min((b for b in bounds if b.side == "upper"), key=lambda b: (b.value, b.exact is None))
    return lower, upper


def fold(
    eq: Equilibrium, time_limit: float | None = None, bounds_from: Sequence[str | Path] = (), depth: int = 0
) -> Equilibrium:
    """`eq` with every bound the project proves folded in (module docstring): its interval
    narrowed to the best lower and upper ends, `bounds` naming where each comes from. A settled
    equilibrium is returned as it is. Where the run did not finish the uniform chooser's best
    response, and spent less time on it than this allows, the uniform chooser is searched for
    `time_limit` seconds, at least FOLD_FLOOR and at most FOLD_LIMIT (None: FOLD_LIMIT), unless
    Ctrl-C stopped the run; `bounds_from` are saved equilibria and split journals (from_file)."""
    from ..optimal.search import STOP

    if eq.settled and not bounds_from:
        return eq
    limit = FOLD_LIMIT if time_limit is None else min(max(time_limit, FOLD_FLOOR), FOLD_LIMIT)
    bounds = own_bounds(eq)
    spent = eq.steps[0].seconds if eq.steps else 0.0
    journals = []
    for path in bounds_from:
        found = from_file(eq.game, path, eq.cost, time_limit, depth)
        journals += [b for b in found if "journal" in b.rests_on]
        bounds += found
    if eq.uniform is None and not any(b.exact is not None for b in journals) and spent < limit and not STOP.asked:
        bounds.append(uniform_bound(eq.game, eq.cost, limit))
    return folded(eq, bounds)


def folded(eq: Equilibrium, bounds: Sequence[KnownBound]) -> Equilibrium:
    """`eq` narrowed to the best of `bounds` (its value the midpoint, or the upper end where they meet)."""
    lower, upper = best(bounds)
    if eq.settled and eq.exact is not None and lower.value <= eq.lower and upper.value >= eq.upper:
        return eq  # nothing beats the exact value proven
    low = min(lower.value, upper.value)  # float rounding only: the value lies in between
    settled = upper.value - low <= SETTLED
    value = upper.value if settled else (low + upper.value) / 2
    uniform = [b for b in bounds if uniform_optimum(b)]
    notes = eq.notes
    if settled and not eq.settled:
        notes += ("settled by the bounds folded in",)
    return replace(
        eq,
        lower=low,
        upper=upper.value,
        value=value,
        uniform=eq.uniform if eq.uniform is not None or not uniform else uniform[0].value,
        bounds=(lower, upper),
        notes=notes,
    )


# --- proven again from a saved file ---------------------------------------------------------------


def reproven(
    data: dict, path: str, game: Game, cost: str, time_limit: float | None, depth: int = 0
) -> list[KnownBound]:
    """The bounds a saved file's "bounds" rest on, each proven again here (never read as
    proven): the uniform chooser searched within `time_limit`, a journal read and checked
    again, a saved equilibrium verified again. A record that is not one of these is refused."""
    records = data.get("bounds", [])
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise ArenaError(f"{path}: its bounds are not a list of objects (side, value, rests_on)")
    out: list[KnownBound] = []
    for record in records:
        rests = record.get("rests_on")
        if not isinstance(rests, dict) or len(rests) == 0:
            raise ArenaError(f"{path}: a bound rests on nothing named: {shown(record)}")
        if "chooser" in rests or "guesser" in rests:
            continue  # the file's own mixes: verified_value replays them
        if "uniform" in rests:
            out.append(uniform_bound(game, cost, time_limit))
        elif isinstance(rests.get("journal"), str):
            journal = _beside(rests["journal"], path)
            if Path(journal).is_file():  # gone: the file's lower end is then printed as its claim
                out.append(journal_bound(game, journal, cost))
        elif isinstance(rests.get("equilibrium"), str):
            out += saved_bounds(game, _beside(rests["equilibrium"], path), cost, time_limit, depth)
        else:
            raise ArenaError(
                f"{path}: a bound rests on {shown(rests)}; valid: uniform, journal FILE, equilibrium FILE, "
                "chooser or guesser"
            )
    return out


def _beside(name: str, path: str) -> str:
    """A file a saved file names: as named where it exists, else beside the saved file."""
    if Path(name).exists() or Path(name).is_absolute():
        return name
    near = Path(path).parent / Path(name).name
    return str(near) if near.exists() else name
