"""Saved files' bounds proven again, and every bound the project proves folded into one interval.

`verified_value` gives the game value a file saved by `arena equilibrium --save` supports, both
ends recomputed from its witnesses (witness.py) and from what its folded bounds rest on
(`reproven`: the uniform chooser searched again, a split's journal read and checked again, a
saved equilibrium verified again); what the file claims beyond is printed as its claim.

`fold` narrows an equilibrium's interval to the best of the bounds known.py proves and those of
the files named (`--bounds-from`: saved equilibria, both ends; split journals, the uniform
chooser's optimum) and of the project's own journals of the game (`witnessed`: a checkout's
experiments/data, or the directories of ARENA_WITNESSES), each end named with where it comes
from (known.py's docstring).
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..core.costs import cost_for
from ..core.errors import ArenaError, shown
from ..core.game import Game
from ..optimal.journal import GZIP_MAGIC
from .known import (
    KnownBound,
    consistent,
    folded,
    journal_bound,
    level_bound,
    mix_worst,
    own_bounds,
    uniform_bound,
    uniform_optimum,
    witness_journals,
)
from .solution import Equilibrium, NotAnEquilibrium, OtherGame
from .witness import CLAIM_SLACK, REPROVE_LIMIT, finite, fraction

#: The longest a fold searches the uniform chooser (where the run has not finished it), and the
#: least it allows that search under a run's shorter time limit: the equal-weight search proves
#: a small game's optimum in well under a second, which a run stopped at 0.1 s has not reached.
FOLD_LIMIT = 60.0
FOLD_FLOOR = 5.0
#: How deep saved equilibria may lean on other saved equilibria (a file naming itself stops here).
DEPTH = 4


def uniform_within(game: Game, cost: str, seconds: float | None) -> KnownBound:
    """The uniform chooser's optimum bounded within `seconds` (None: searched to the end): a
    search for half of them, at most FOLD_LIMIT (a longer search rarely proves more), and where
    it stops unfinished its level bound (LB_3, deepened from LB_2) for the rest (known.uniform_bound)."""
    if seconds is None:
        return uniform_bound(game, cost, None)
    search = min(seconds / 2, FOLD_LIMIT)
    return uniform_bound(game, cost, search, seconds - search)


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
    lower_how: str = "the best response to its chooser mix"  # where the lower end comes from
    uniform: float | None = None  # the uniform chooser's optimum, proven again (its bounds' rest)
    lower_searched: bool = True  # its lower end searched again here (not a journal's bound records)


def searched_lower(
    game: Game, chooser: np.ndarray, exact: list[Fraction] | None, cost: str, limit: float
) -> tuple[bool, float, Fraction | None]:
    """The lower end a chooser mix proves on `game`, searched here within `limit` seconds: whether
    the best response finished, its bound, and where it finished and the mix is `exact`, the
    best tree's cost under the exact mix (a fraction), taken only if the float search agrees:
    another tree could win by a rounding's worth where two cost nearly the same."""
    from .response import bounded_best_response, mix_problem

    tree, bound = bounded_best_response(mix_problem(game, chooser, cost), limit)
    if tree.stopped or exact is None:
        return not tree.stopped, bound, None
    paid = cost_for(game, cost).of(tree).tolist()
    cost_exact = sum((q * int(c) for q, c in zip(exact, paid) if q), Fraction(0))
    if abs(float(cost_exact) - bound) <= 1e-9 * max(1.0, abs(bound)):
        return True, float(cost_exact), cost_exact
    return True, bound, None


def verified_value(path: str, game: Game, cost: str, time_limit: float | None = None, depth: int = 0) -> VerifiedValue:
    """The bounds on the value of `game` (payoff `cost`) proven again from the witnesses in the
    file `path` saved by `arena equilibrium --save` (see the module's docstring), and from what
    its folded bounds rest on (`reproven`); an ArenaError for a file that does not fit the
    game, a probability out of bounds, or a claim its own witnesses refute. `depth`: how many
    saved files lean on this one (DEPTH)."""
    from .plans import plan_tree
    from .solution import load_guesser_mix, read_saved
    from .witness import saved_chooser

    data = read_saved(path, game, cost)
    mix, symmetry = load_guesser_mix(path, game, data)
    paid = cost_for(game, cost)
    costs = [paid.of(plan_tree(game, plan, f"{path}, tree {k}")) for k, (_, plan) in enumerate(mix, 1)]
    upper, secret = mix_worst([p for p, _ in mix], costs, symmetry)
    chooser, exact_chooser = saved_chooser(path, game, data)
    limit = REPROVE_LIMIT if time_limit is None else time_limit

    finished, bound, lower_exact = searched_lower(game, chooser, exact_chooser, cost, limit)
    stopped = "" if finished else f" (the best response stopped at the time limit of {limit:g} s)"
    trees = f"{len(mix)} tree{'s' if len(mix) != 1 else ''}"
    own = [
        KnownBound("lower", bound, lower_exact, f"proven again against its chooser mix{stopped}", {}),
        KnownBound("upper", float(upper), upper, f"its guesser mix of {trees} replayed", {}),
    ]
    again = reproven(data, path, game, cost, limit, depth)
    if not finished and not any(uniform_optimum(b) for b in again):
        again.append(uniform_within(game, cost, limit))  # a file saved before bounds were folded in
    try:
        low, high = consistent(own + again)
    except ArenaError as e:
        raise ArenaError(f"{path}: {e}") from None
    uniform = next((b.value for b in again if uniform_optimum(b)), None)
    upper = high.exact if high.exact is not None else Fraction(high.value)
    lower = min(low.value, float(upper))  # float rounding only (consistent): the true value lies in between
    exact = upper if low.exact is not None and low.exact == upper else None
    claimed_lower, claimed_uniform, claims = _claims(data, path, lower, float(upper), exact, game)
    how = f"from {path}: the upper end {high.how}, the lower end {low.how}"
    return VerifiedValue(
        lower,
        float(upper),
        exact,
        game.secrets[secret],
        finished,
        claimed_lower,
        claimed_uniform,
        claims,
        how,
        low.how,
        uniform,
        "journal" not in low.rests_on or low.exact is not None,
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


def saved_bounds(game: Game, path: str | Path, cost: str, time_limit: float | None, depth: int = 0) -> list[KnownBound]:
    """Both ends a saved equilibrium proves (verified_value: its guesser mix replayed,
    its chooser mix's best response searched again, and its own folded bounds proven again)."""
    if depth >= DEPTH:
        raise ArenaError(f"{path}: saved equilibria lean on each other more than {DEPTH} deep (a file naming itself?)")
    v = verified_value(str(path), game, cost, time_limit, depth + 1)
    rests = {"equilibrium": str(path)}
    again = "proven again from" if v.lower_searched else "from"
    return [
        KnownBound("lower", v.lower, v.exact, f"{again} the saved equilibrium {path} ({v.lower_how})", rests),
        KnownBound("upper", v.upper, v.exact, f"the guesser mix of the saved equilibrium {path}, replayed", rests),
    ]


def borrowed_bound(
    game: Game, path: str | Path, cost: str, time_limit: float | None, data: dict | None = None
) -> KnownBound:
    """The lower end that the chooser mix of an equilibrium saved for another game proves on
    `game`: where every secret it weighs is a secret of `game` (witness.borrowed_chooser), it is
    a strategy of this game's chooser, so the exact best response to it, searched here in `game`
    and its payoff, is at most the value (a Hangman list's core, a few dozen of its words solved
    as a list of their own, folded into the whole list). Nothing else of that file is used: its
    guesser mix plays another game, and its figures are not read. `data`: the file's object where
    it was read already (OtherGame carries it)."""
    from .solution import FORMAT, OLD_FORMAT, read_saved_json
    from .witness import borrowed_chooser

    data = read_saved_json(path) if data is None else data
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, OLD_FORMAT):
        raise ArenaError(
            f"{path}: not an equilibrium saved by `arena equilibrium --save` (its chooser mix is borrowed)"
        )
    other = data["key"].get("game") if isinstance(data.get("key"), dict) else data.get("game")
    chooser, exact = borrowed_chooser(str(path), game, data)
    limit = REPROVE_LIMIT if time_limit is None else time_limit
    finished, bound, lower_exact = searched_lower(game, chooser, exact, cost, limit)
    stopped = "" if finished else f", stopped at the time limit of {limit:g} s"
    weighed = int(np.count_nonzero(chooser))
    how = (
        f"the chooser mix of {path} (an equilibrium of {other}; {weighed} secrets), its best response "
        f"searched in {game.spec}{stopped}"
    )
    return KnownBound("lower", bound, lower_exact, how, {"chooser_of": str(path)})


def from_file(game: Game, path: str | Path, cost: str, time_limit: float | None, depth: int = 0) -> list[KnownBound]:
    """The bounds a file proves: a saved equilibrium's both ends, a split journal's lower end, or
    the lower end of an equilibrium of another game whose chooser mix weighs only this game's
    secrets (borrowed_bound)."""
    read = "bounds are read from a saved equilibrium or a split's journal"
    try:
        return saved_bounds(game, path, cost, time_limit, depth)
    except OtherGame as e:
        try:
            return [borrowed_bound(game, path, cost, time_limit, e.data)]
        except ArenaError as why:
            raise ArenaError(f"{e}; nor can its chooser mix be played here: {why}") from None
    except NotAnEquilibrium:
        if Path(path).is_dir():
            raise ArenaError(f"{path} is a directory ({read})") from None
        if not Path(path).is_file():
            raise ArenaError(f"{path}: no such file ({read})") from None
        if not _keyed_journal(Path(path)):
            raise ArenaError(
                f"{path} is neither a saved equilibrium nor a split's journal (`arena equilibrium --save "
                "FILE` and `arena optimal GAME --workers W --journal FILE` write them)"
            ) from None
        return [journal_bound(game, path, cost)]


def _keyed_journal(path: Path) -> bool:
    """Does the file open with a split journal's key (a JSON object naming its format)?"""
    try:
        with path.open("rb") as f:
            gzipped = f.read(2) == GZIP_MAGIC
        with gzip.open(path, "rb") if gzipped else path.open("rb") as f:
            first = f.readline(1 << 20)
        key = json.loads(first.decode("utf-8"))
    except (OSError, EOFError, ValueError, RecursionError):
        return False
    return isinstance(key, dict) and "journal" in key


def fold(
    eq: Equilibrium,
    time_limit: float | None = None,
    bounds_from: Sequence[str | Path] = (),
    depth: int = 0,
    uniform_limit: float | None = None,
) -> Equilibrium:
    """`eq` with every bound the project proves folded in (module docstring): its interval
    narrowed to the best lower and upper ends, `bounds` naming where each comes from. A settled
    equilibrium is returned as it is. Where the run did not finish the uniform chooser's best
    response, the uniform chooser is bounded for at most `uniform_limit` seconds (None: the
    run's `time_limit`, at least FOLD_FLOOR and at most FOLD_LIMIT; None: FOLD_LIMIT): searched
    for half of it (at most FOLD_LIMIT) and, where the search stops unfinished, its level
    bound (LB_3, deepened from LB_2) for the rest (known.uniform_bound); not where the run spent nine tenths of that on its first best
    response already (a search as long again rarely proves more) unless `uniform_limit` is
    given (then the level bound alone, another method: level_bound), nor where a journal gave its
    optimum or Ctrl-C stopped the run. `bounds_from` are saved equilibria and split journals
    (from_file), each proven again within the run's limit (a run stopped at 0.05 s still
    proves a small saved bound again)."""
    from ..optimal.search import STOP

    if eq.settled and not bounds_from:
        return eq
    start = time.perf_counter()
    limit = FOLD_LIMIT if time_limit is None else min(max(time_limit, FOLD_FLOOR), FOLD_LIMIT)
    bounds = own_bounds(eq)
    spent = eq.steps[0].seconds if eq.steps else 0.0
    for path in bounds_from:  # a saved bound is proven again within the fold's limit too (its floor)
        bounds += from_file(eq.game, path, eq.cost, None if time_limit is None else limit, depth)
    if eq.uniform is None and not any(uniform_optimum(b) for b in bounds) and not STOP.asked:
        found, notes = witnessed(eq.game, eq.cost, [Path(p) for p in bounds_from])
        bounds, eq = bounds + found, replace(eq, notes=eq.notes + notes)
    budget = limit if uniform_limit is None else uniform_limit
    if eq.uniform is None and not any(uniform_optimum(b) for b in bounds) and not STOP.asked:
        if spent < 0.9 * budget:
            bounds.append(uniform_within(eq.game, eq.cost, budget))
        elif uniform_limit is not None:  # another method than the run's search
            level = level_bound(eq.game, eq.cost, budget)
            bounds += [level] if level is not None else []
    out = folded(eq, bounds)
    return replace(out, seconds=out.seconds + time.perf_counter() - start)


def witnessed(game: Game, cost: str, named: Sequence[Path]) -> tuple[list[KnownBound], tuple[str, ...]]:
    """The uniform chooser's bound from the project's own journals of this game (known.
    witness_journals: a checkout's experiments/data, or ARENA_WITNESSES), read and checked as
    --bounds-from reads them, largest first until one proves the optimum; those `named` are
    read already. A journal that cannot be read is said in a note and left out."""
    out: list[KnownBound] = []
    notes: tuple[str, ...] = ()
    done = {p.resolve() for p in named if p.exists()}
    for path in witness_journals(game, cost):
        if path.resolve() in done:
            continue
        try:
            bound = journal_bound(game, path, cost)
        except ArenaError as e:
            notes += (f"the journal {path} was not folded in: {e}",)
            continue
        out.append(bound)
        if bound.exact is not None:
            break
    return out, notes


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
            out.append(uniform_within(game, cost, time_limit))
        elif isinstance(rests.get("journal"), str):
            journal = _beside(rests["journal"], path)
            if Path(journal).is_file():  # gone: the file's lower end is then printed as its claim
                out.append(journal_bound(game, journal, cost))
        elif isinstance(rests.get("equilibrium"), str):
            out += saved_bounds(game, _beside(rests["equilibrium"], path), cost, time_limit, depth)
        elif isinstance(rests.get("chooser_of"), str):
            borrowed = _beside(rests["chooser_of"], path)
            if Path(borrowed).is_file():  # gone: the file's lower end is then printed as its claim
                out.append(borrowed_bound(game, borrowed, cost, time_limit))
        else:
            raise ArenaError(
                f"{path}: a bound rests on {shown(rests)}; valid: uniform, journal FILE, equilibrium FILE, "
                "chooser_of FILE, chooser or guesser"
            )
    return out


def _beside(name: str, path: str) -> str:
    """A file a saved file names: as named where it exists, else beside the saved file."""
    if Path(name).exists() or Path(name).is_absolute():
        return name
    near = Path(path).parent / Path(name).name
    return str(near) if near.exists() else name
