"""The solution of a guessing game as a zero-sum game: what every solver here returns."""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import ArenaError
from ..core.frames import frame
from ..core.game import Game
from ..trees.tree import Tree
from .plans import first_guesses, plan_from_json
from .rational import ExactSolution
from .symmetry import Symmetry

if TYPE_CHECKING:
    from .crosscheck import NashpySolution

FORMAT = "arena-equilibrium/2"
#: Files saved before the key: refused with a line saying to solve again.
OLD_FORMAT = "arena-equilibrium/1"
#: A gap this small counts as closed (the LPs work to about 1e-9).
SETTLED = 1e-6


@dataclass(frozen=True)
class Step:
    """One round of a solver that narrows the value down: the bounds after it, and when."""

    lower: float
    upper: float
    seconds: float
    trees: int


@dataclass(frozen=True)
class Equilibrium:
    """The chooser's mix over secrets, the guesser's mix over trees, and the value between.

    `lower` is what the chooser's mix guarantees (the least expected number of guesses any
    guesser tree achieves against it) and `upper` what the guesser's mix guarantees (the most
    any secret costs on average against it); the value lies between, and `gap` = upper - lower
    is 0 at an equilibrium. The guesser plays `trees[k]` with probability `guesser[k]`, each
    carried by a uniformly random element of `symmetry`'s group (none for a trivial symmetry).
    `exact` holds the rational value and strategies (over `symmetry`'s rows and over `trees`)
    when they could be recovered and checked.
    """

    game: Game
    method: str
    value: float
    lower: float
    upper: float
    chooser: np.ndarray
    trees: tuple[Tree, ...]
    guesser: np.ndarray
    symmetry: Symmetry
    seconds: float
    exact: ExactSolution | None = None
    uniform: float | None = None  # the least expected guesses against the uniform chooser
    steps: tuple[Step, ...] = ()
    notes: tuple[str, ...] = field(default=())
    cost: str = "guesses"  # the payoff (arena.core.costs): guesses, or Hangman's misses or lost games
    #: where the lower and upper ends come from, where bounds proven elsewhere were folded in
    #: (verified.fold: a tuple of known.KnownBound, lower then upper); () where the run's own
    bounds: tuple = ()

    @property
    def unit(self) -> str:
        from ..core.costs import UNITS

        return UNITS[self.cost]

    def tree_costs(self, tree: Tree) -> np.ndarray:
        """What the tree costs on every secret, in this solution's payoff."""
        from ..core.costs import cost_for

        return cost_for(self.game, self.cost).of(tree)

    @property
    def gap(self) -> float:
        return max(0.0, self.upper - self.lower)

    @property
    def settled(self) -> bool:
        """Do the bounds meet (to the solvers' tolerance)? If not, `value` is their midpoint."""
        return self.gap <= SETTLED

    @property
    def support(self) -> np.ndarray:
        """The secrets the chooser may pick."""
        return np.flatnonzero(self.chooser > 0)

    def chooser_by_row(self) -> list[tuple[str, int, float, Fraction | None]]:
        """(row label, secrets in it, total probability, exact total) for each row of the
        symmetry (each code type, or each secret)."""
        totals = self.symmetry.gather(self.chooser)
        exact = self.exact.row if self.exact else [None] * len(totals)
        return [
            (label, int(size), float(p), x)
            for label, size, p, x in zip(self.symmetry.labels, self.symmetry.sizes, totals, exact)
        ]

    def guesser_mix(self) -> list[tuple[float, Tree, Fraction | None]]:
        """(probability, tree, exact probability) for each tree played, most likely first."""
        exact = self.exact.column if self.exact else [None] * len(self.trees)
        mix = [(float(p), t, x) for p, t, x in zip(self.guesser, self.trees, exact) if p > 0]
        return sorted(mix, key=lambda m: -m[0])

    def chooser_frame(self):
        """The chooser's mix as a pandas DataFrame, one row per secret: columns game, secret,
        row (its row of the symmetry: its code type, or itself) and probability."""
        labels = np.asarray(self.symmetry.labels, dtype=object)
        return frame(
            {
                "game": self.game.spec,
                "secret": self.game.secrets,
                "row": labels[self.symmetry.orbit],
                "probability": self.chooser,
            }
        )

    def guesser_frame(self):
        """The guesser's mix as a pandas DataFrame, one row per tree played, most likely first:
        columns game, probability, probability_exact (a Fraction, or None), first_guesses (the
        tree in one line), total and worst (its cost over the secrets) and against_chooser (its
        expected cost against the chooser's mix: the value, for every tree played)."""
        mix = self.guesser_mix()
        costs = [self.tree_costs(t) for _, t, _ in mix]
        return frame(
            {
                "game": self.game.spec,
                "probability": [p for p, _, _ in mix],
                "probability_exact": [x for _, _, x in mix],
                "first_guesses": [first_guesses(t) for _, t, _ in mix],
                "total": [int(c.sum()) for c in costs],
                "worst": [int(c.max()) for c in costs],
                "against_chooser": [float(c @ self.chooser) for c in costs],
            }
        )

    def to_frame(self):
        """The chooser's mix (chooser_frame): the half of the solution a table of secrets shows."""
        return self.chooser_frame()

    def to_json(self) -> dict:
        game = self.game
        out = {
            "game": game.spec,
            "payoff": self.cost,
            "method": self.method,
            "value": self.value,
            "value_exact": str(self.exact.value) if self.exact else None,
            "lower": self.lower,
            "upper": self.upper,
            "gap": self.gap,
            "settled": self.settled,
            "converged": self.settled,
            "seconds": round(self.seconds, 3),
            "chooser": {game.secrets[s]: float(p) for s, p in enumerate(self.chooser)},
            "chooser_rows": [
                {
                    "row": label,
                    "secrets": size,
                    "probability": p,
                    "probability_exact": str(x) if x is not None else None,
                }
                for label, size, p, x in self.chooser_by_row()
            ],
            "guesser": [
                {
                    "probability": p,
                    "probability_exact": str(x) if x is not None else None,
                    "first_guesses": first_guesses(t),
                    "total": int(self.tree_costs(t).sum()),
                    "worst": int(self.tree_costs(t).max()),
                    "mean_by_row": dict(
                        zip(self.symmetry.labels, self.symmetry.averages(self.tree_costs(t))[0].tolist())
                    )
                    if not self.symmetry.trivial
                    else None,
                }
                for p, t, x in self.guesser_mix()
            ],
            "symmetry": self.symmetry.group,
            "uniform_value": self.uniform,
            "iterations": len(self.steps),
            "steps": [
                {"lower": s.lower, "upper": s.upper, "seconds": round(s.seconds, 3), "trees": s.trees}
                for s in self.steps
            ],
            "notes": list(self.notes),
            "bounds": [b.to_json() for b in self.bounds],
        }
        return out

    def report(self, check: NashpySolution | FailedCheck | None = None) -> str:
        """The solution as `arena equilibrium` prints it: value, bounds, method, time, then both
        mixes; with `check` (`cross_check()`), the line saying whether nashpy agrees."""
        eq = self
        game = eq.game
        n = len(game.secrets)
        lines = [f"equilibrium of {game.spec}: {n:,} secret{'s' if n != 1 else ''}"]
        exact = f" = {eq.exact.value} (exact)" if eq.exact else ""
        ends = [b.exact for b in eq.bounds]
        if not exact and len(ends) == 2 and ends[0] is not None and ends[0] == ends[1]:
            exact = f" = {ends[0]} (exact)"  # settled by folded bounds that meet in fractions
        unit = eq.unit
        if eq.settled:
            lines.append(f"value = {eq.value:.6f} {unit}{exact}")
        else:
            lines.append(f"value: between {eq.lower:.6f} and {eq.upper:.6f} {unit} (not converged, gap {eq.gap:.2g})")
        lines.append(f"bounds: {eq.lower:.6f} <= value <= {eq.upper:.6f}; gap {eq.gap:.2g}")
        lines += [f"  {b.line()}" for b in eq.bounds]
        if eq.uniform is not None:
            lines.append(
                f"uniform chooser: {eq.uniform:.6f} (the least mean number of {unit} when every secret is equally likely)"
            )
        lines.append(f"method: {eq.method}")
        lines += [f"note: {n}" for n in eq.notes]
        if check is not None:
            lines.append(check_line(eq, check))
        lines.append(f"time: {eq.seconds:.2f} s")
        lines.append("")
        rows = eq.chooser_by_row()
        if not eq.symmetry.trivial:
            lines.append("chooser mix by code type (each code of a type equally likely):")
            lines.append(f"  {'type':<8} {'codes':>6} {'probability':>12}  {'exact':<10} {'each code':<10}")
            for label, size, p, x in rows:
                each = _fraction(x / size if x is not None else None)
                lines.append(f"  {label:<8} {size:>6,} {p:>12.6f}  {_fraction(x, 10)} {each}".rstrip())
        else:
            chosen = [r for r in rows if r[2] > 0]
            lines.append(f"chooser mix: {len(chosen)} of {len(rows)} secrets")
            lines.append(f"  {'secret':<10} {'probability':>12}  {'exact':<10}")
            for label, _, p, x in sorted(chosen, key=lambda r: -r[2]):
                lines.append(f"  {label:<10} {p:>12.6f}  {_fraction(x)}".rstrip())
            never = [r[0] for r in rows if r[2] == 0]
            if never:
                lines.append(
                    f"  never chosen: {', '.join(never[:12])}"
                    + (f" ... (+{len(never) - 12})" if len(never) > 12 else "")
                )
        lines.append("")
        carried = (
            "" if eq.symmetry.trivial else f" (each played with a uniformly random element of {eq.symmetry.group})"
        )
        lines.append(f"guesser mix: {len(eq.trees)} tree{'s' if len(eq.trees) != 1 else ''}{carried}:")
        mix = eq.guesser_mix()
        width = max([5] + [len(_fraction(x)) for _, _, x in mix])
        lines.append(
            f"  {'probability':>11}  {'exact':<{width}} {'total':>7} {'worst':>5}  "
            "first guess; second guesses after the commonest replies"
        )
        for p, tree, x in mix:
            costs = eq.tree_costs(tree)
            lines.append(
                f"  {p:>11.6f}  {_fraction(x, width)} {int(costs.sum()):>7,} {int(costs.max()):>5}  {first_guesses(tree)}"
            )
            if not eq.symmetry.trivial and len(eq.symmetry.labels) <= 8:  # what tells the trees apart
                means = eq.symmetry.averages(costs)[0]
                lines.append(
                    " " * (15 + width)
                    + "mean by type: "
                    + ", ".join(f"{label} {m:.4f}" for label, m in zip(eq.symmetry.labels, means))
                )
        return "\n".join(line.rstrip() for line in lines)

    def __str__(self) -> str:
        return self.report()

    def cross_check(self) -> NashpySolution | FailedCheck:
        """nashpy's solution of the payoff matrix of the trees the guesser mixes, or a FailedCheck
        where nashpy finds none (its Lemke-Howson fails on many games of trees above about 10x10)."""
        from .crosscheck import nashpy_solution
        from .payoff_matrix import PayoffMatrix

        try:
            return nashpy_solution(PayoffMatrix.of(np.array([self.tree_costs(t) for t in self.trees]), self.symmetry).A)
        except (RuntimeError, ArithmeticError, ValueError, np.linalg.LinAlgError) as e:
            ran = (
                f"the exact check (both rational mixes verified in fractions: value {self.exact.value})"
                if self.exact is not None
                else "linprog's mixes, checked by their exploitability"
            )
            return FailedCheck(" ".join(str(e).split()), ran)

    def save(self, path: str | Path) -> None:
        """The solution as JSON with the guesser's trees in full, for the `equilibrium` agent's
        `file=` parameter (and for people); gzip-compressed when `path` ends in .gz."""
        from .witness import witness_key

        data = {"format": FORMAT, "key": witness_key(self.game, self.cost), **self.to_json()}
        for entry, (_, tree, _) in zip(data["guesser"], self.guesser_mix()):
            entry["tree"] = tree.to_json()
        if str(path).endswith(".gz"):  # a big game's witnesses: compact and compressed
            with gzip.open(path, "wt", encoding="utf-8") as f:
                f.write(json.dumps(data, separators=(",", ":")) + "\n")
        else:
            Path(path).write_text(json.dumps(data, indent=1) + "\n")


@dataclass(frozen=True)
class FailedCheck:
    """A cross-check that could not run: why, and the checks the value rests on instead."""

    reason: str
    ran: str


def check_line(eq: Equilibrium, check: NashpySolution | FailedCheck) -> str:
    """The cross-check in one line: its value and whether it agrees, or why it could not run."""
    if isinstance(check, FailedCheck):
        return f"nashpy check: could not run ({check.reason}); the value rests on {check.ran}"
    agree = "agrees" if abs(check.value - eq.value) <= 1e-6 else "DISAGREES"
    return f"nashpy check: value {check.value:.6f} by {check.method} ({agree})" + (
        f"; nashpy warned: {'; '.join(check.warnings)}" if check.warnings else ""
    )


def check_json(check: NashpySolution | FailedCheck) -> dict:
    """The cross-check as `--json` gives it: its value, method and warnings, or why it failed."""
    if isinstance(check, FailedCheck):
        return {"error": check.reason, "checked_by": check.ran}
    return {"value": check.value, "method": check.method, "warnings": list(check.warnings)}


def _fraction(x: Fraction | None, width: int = 0) -> str:
    return f"{str(x) if x is not None else '':<{width}}"


class NotAnEquilibrium(ArenaError):
    """A file that is not an equilibrium saved by `arena equilibrium --save` at all (unreadable,
    not JSON, no format tag): `arena optimal --weights` then reads it as a weights file."""


class OtherGame(ArenaError):
    """An equilibrium saved for another game than the one asked (its key names another game):
    refused as a witness of this game's value, except its chooser mix where every secret the mix
    weighs is one of this game's (verified.borrowed_bound). `data`: the file's object, read
    once (a large file is not read again for its chooser mix)."""

    def __init__(self, message: str, data: dict | None = None):
        super().__init__(message)
        self.data = data


def read_saved(path: str | Path, game: Game, payoff: str | None = None, data: dict | None = None) -> dict:
    """A saved equilibrium of `game` as its JSON object, checked: readable, its format tag, and
    its key (arena.equilibrium.witness): the game, the contents of the files it reads and, where
    `payoff` is given, the payoff. `data` is the object already read (checked again, not re-read)."""
    from .witness import key_change, witness_key

    if data is None:
        data = read_saved_json(path)
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, OLD_FORMAT):
        raise NotAnEquilibrium(
            f"{path}: not an equilibrium saved by `arena equilibrium --save` (no {FORMAT} format tag)"
        )
    if data["format"] == OLD_FORMAT or not isinstance(data.get("key"), dict):
        if data.get("game") not in (None, game.spec) and data.get("key") is None:
            raise ArenaError(f"{path} is an equilibrium of {data.get('game')}, not of {game.spec}")
        raise ArenaError(
            f"{path} was saved without the key of the game and files it was solved for (format "
            f"{data['format']}): solve it again with `arena equilibrium {game.spec} --save {path}`"
        )
    key = witness_key(game, payoff or str(data["key"].get("payoff")))
    change = key_change(data["key"], key, payoff is not None)
    if change is not None:
        if data["key"].get("game") != key["game"]:
            raise OtherGame(f"{path} does not fit {game.spec}: {change}", data)
        raise ArenaError(f"{path} does not fit {game.spec}: {change}")
    return data


def read_saved_json(path: str | Path):
    """The JSON object of a saved equilibrium's file (gzipped where its name ends .gz), unchecked;
    NotAnEquilibrium where it cannot be read as JSON."""
    try:
        if str(path).endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as f:
                return json.load(f)
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except RecursionError:
        raise NotAnEquilibrium(
            f"{path}: not an equilibrium saved by `arena equilibrium --save` (nested too deep)"
        ) from None
    except (OSError, ValueError, EOFError) as e:
        raise NotAnEquilibrium(f"{path}: not an equilibrium saved by `arena equilibrium --save` ({e})") from None


def load_guesser_mix(
    path: str | Path, game: Game, data: dict | None = None
) -> tuple[list[tuple[Fraction, dict]], Symmetry]:
    """(probability, plan) for each tree of a saved equilibrium of `game`, the probabilities
    checked (witness.checked_mix: the exact fractions where the file gives them all, else its
    floats), and the symmetry that carries the trees (none for a game restricted to named guessers)."""
    from .symmetry import no_symmetry, symmetry_of
    from .witness import checked_mix

    data = read_saved(path, game, data=data)
    entries = data.get("guesser")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ArenaError(f"{path}: malformed saved equilibrium (the guesser's mix is not a list of trees)")
    probabilities = checked_mix(
        [e.get("probability") for e in entries],
        [e.get("probability_exact") for e in entries],
        f"{path}: the guesser's mix",
    )
    try:
        mix = [
            (p, plan_from_json(game, entry["tree"], f"{path}, guesser tree {k}"))
            for k, (p, entry) in enumerate(zip(probabilities, entries), 1)
        ]
    except KeyError as e:
        raise ArenaError(f"{path}: malformed saved equilibrium (a guesser tree has no {e})") from None
    symmetry = no_symmetry(game) if data.get("symmetry") == "none" else symmetry_of(game)
    return mix, symmetry
