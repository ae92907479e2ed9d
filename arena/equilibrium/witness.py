"""Saved equilibria and bounds read as witnesses: checked, never trusted.

A file saved by `arena equilibrium --save` carries a key like an exact search's journal
(arena.optimal.journal): the game's canonical spec, the SHA-256 of every file the game reads
(its word lists), the payoff and the project's code. A file whose game, files or payoff are not
the run's is refused in one line naming what changed: a mix solved for another word list proves
nothing about this one. (The code's version is recorded but not refused: nothing read from the
file is printed as proven without being proven again by this code, so an upgrade cannot make a
stale proof pass; what is only claimed is printed as a claim.)

Every probability read is checked: a finite non-negative number, the mix summing to 1 within
`TOLERANCE`, and its exact fractions, where given, non-negative, summing to exactly 1 and
within `TOLERANCE` of the floats beside them.

`certify.verified_value` gives the game value a file supports, recomputed from its witnesses:

- the upper end is the exact worst secret of the guesser's mix, its trees replayed on this
  game (certify.mix_worst, in fractions of the probabilities as read);
- the lower end is proven again against the file's chooser mix by the exact best response
  (arena.optimal) within a time limit: the least expected cost of any tree against a mix the
  chooser may play is at most the value; where the search finishes and the mix is exact, the
  best response's cost in fractions;
- what the file claims beyond that (a higher lower end, the uniform chooser's value) is printed
  as claimed by the file, not re-proven; a claim its own witnesses refute is refused.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..core.digests import file_change, project_code
from ..core.errors import ArenaError, shown
from ..core.game import Game

#: How far a mix's floats may add up from 1, and lie from their exact fractions.
TOLERANCE = 1e-9
#: How far a file's claimed bounds may lie outside the recomputed ones before they are refuted
#: (the LP's floats are good to about 1e-9 of the payoffs; SETTLED in solution.py).
CLAIM_SLACK = 1e-6
#: The exact best response's time limit when none is given (seconds).
REPROVE_LIMIT = 60.0

_FRACTION = re.compile(r"[+-]?[0-9]{1,400}(?:/[0-9]{1,400})?")


def witness_key(game: Game, payoff: str) -> dict:
    """What a saved equilibrium of `game` in `payoff` depends on (the file's "key")."""
    from ..optimal.problem import game_identity  # the game's part of a journal's key too

    return game_identity(game) | {"payoff": payoff, "version": project_code()}


def key_change(stored: Any, key: dict, payoff: bool = True) -> str | None:
    """What differs between a file's key and the run's, in words (None: nothing that matters):
    the game, a file it reads, or (where `payoff`) the payoff."""
    if not isinstance(stored, dict):
        return "it has no key (the game and files it was solved for)"
    if stored.get("game") != key["game"]:
        return f"it is an equilibrium of {stored.get('game')}, not of {key['game']}"
    changed = file_change(stored.get("files"), key["files"])
    if changed:
        name, how = changed
        return {
            "gone": f"it was solved on the file {name}, which this game does not read",
            "new": f"it was not solved on the file {name}",
            "changed": f"the contents of {name} changed since it was solved",
        }[how]
    if payoff and stored.get("payoff") != key["payoff"]:
        return f"its payoff is {stored.get('payoff')!r}, not {key['payoff']!r}"
    return None


def fraction(value: Any, where: str) -> Fraction:
    """An exact number written as a JSON integer or a string p or p/q (what `str(Fraction)`
    writes), or an ArenaError: never parsed by Fraction() from free text, which takes
    exponents such as 1e999999999 and computes them."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**400:
        return Fraction(value)
    if isinstance(value, str) and _FRACTION.fullmatch(value.strip()):
        try:
            return Fraction(value.strip())
        except ZeroDivisionError:
            pass
    raise ArenaError(f"{where} is not an exact number p or p/q: {shown(value)}")


def finite(value: Any, where: str) -> float:
    """A JSON number that is finite, or an ArenaError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArenaError(f"{where} is not a number: {shown(value)}")
    try:
        x = float(value)
    except OverflowError:
        x = math.inf
    if not math.isfinite(x):
        raise ArenaError(f"{where} is not a finite number: {shown(value)}")
    return x


def checked_mix(floats: Sequence[Any], exact: Sequence[Any], where: str) -> list[Fraction]:
    """The probabilities of a mix, checked: each float finite and non-negative, summing to 1
    within TOLERANCE; where every entry also has an exact fraction (not None), those
    non-negative, summing to exactly 1 and each within TOLERANCE of its float. Returns the
    exact fractions where given, else the floats as fractions, normalised (the mix played)."""
    if not floats:
        raise ArenaError(f"{where}: an empty mix")
    ps = [finite(p, f"{where}: probability {k}") for k, p in enumerate(floats, 1)]
    for k, p in enumerate(ps, 1):
        if p < 0:
            raise ArenaError(f"{where}: probability {k} is negative ({p!r}); probabilities lie in [0, 1]")
    total = math.fsum(ps)
    if not abs(total - 1.0) <= TOLERANCE:
        raise ArenaError(f"{where}: the probabilities add up to {total!r}, not 1 (within {TOLERANCE:g})")
    if len(exact) == len(ps) and all(x is not None for x in exact):
        xs = [fraction(x, f"{where}: exact probability {k}") for k, x in enumerate(exact, 1)]
        if any(x < 0 for x in xs) or sum(xs) != 1:
            raise ArenaError(f"{where}: the exact probabilities are not non-negative fractions adding up to exactly 1")
        for k, (p, x) in enumerate(zip(ps, xs), 1):
            if not abs(p - float(x)) <= TOLERANCE:
                raise ArenaError(f"{where}: probability {k} is {p!r}, but its exact value {x} is {float(x)!r}")
        return xs
    fs = [Fraction(p) for p in ps]
    exact_total = sum(fs)
    return [f / exact_total for f in fs]


def saved_chooser(path: str, game: Game, data: dict) -> tuple[np.ndarray, list[Fraction] | None]:
    """The chooser's mix of a saved equilibrium as checked probabilities of every secret
    (floats, summing to 1), and the same in exact fractions where the file gives them for
    every row (code type, or secret) of its symmetry."""
    from ..core.weights import secret_index
    from .symmetry import no_symmetry, symmetry_of

    mix = data.get("chooser")
    if not isinstance(mix, dict) or not mix:
        raise ArenaError(f"{path}: the chooser's mix is not an object {{secret: probability}}")
    where = f"{path}: the chooser's mix"
    found: dict[int, Any] = {}
    for label, p in mix.items():
        try:
            s = secret_index(game, str(label))
        except ArenaError as e:
            raise ArenaError(f"{path}: {e}" if path not in str(e) else str(e)) from None
        if s in found:
            raise ArenaError(f"{where} names the secret {label} twice")
        found[s] = finite(p, f"{where}: the probability of {label}")
    checked = checked_mix(list(found.values()), [], where)
    floats = np.zeros(len(game.secrets))
    for s, q in zip(found, checked):
        floats[s] = float(q)
    symmetry = no_symmetry(game) if data.get("symmetry") == "none" else symmetry_of(game)
    rows = data.get("chooser_rows")
    if not (
        isinstance(rows, list)
        and len(rows) == len(symmetry.labels)
        and all(isinstance(r, dict) and r.get("probability_exact") is not None for r in rows)
    ):
        return floats, None
    if [r.get("row") for r in rows] != list(symmetry.labels):
        raise ArenaError(f"{path}: the chooser's rows are not the rows of {game.spec} ({symmetry.group})")
    by_row = checked_mix([r.get("probability") for r in rows], [r["probability_exact"] for r in rows], where)
    sizes = symmetry.sizes.tolist()
    exact = [by_row[o] / sizes[o] for o in symmetry.orbit.tolist()]
    for s, q in enumerate(exact):
        if not abs(float(q) - floats[s]) <= TOLERANCE:
            raise ArenaError(
                f"{where}: the probability of {game.secrets[s]} is {float(floats[s])!r}, but its row's exact "
                f"probability gives {q}"
            )
    return np.array([float(q) for q in exact]), exact


def borrowed_chooser(path: str, game: Game, data: dict) -> tuple[np.ndarray, list[Fraction] | None]:
    """The chooser's mix of an equilibrium saved for another game (a few dozen of a list's words
    solved as a list of their own, say) as a mix of `game`'s secrets: every secret it weighs must
    be one of `game`'s (named alike), those it leaves at 0 need not be. Checked as saved_chooser
    checks a mix; exact where the file gives a fraction for every secret it weighs (rows of one
    secret each: a file saved without symmetry)."""
    from ..core.weights import secret_index

    mix = data.get("chooser")
    if not isinstance(mix, dict) or not mix:
        raise ArenaError(f"{path}: the chooser's mix is not an object {{secret: probability}}")
    where = f"{path}: the chooser's mix"
    labels = [str(label) for label in mix]
    checked = checked_mix([mix[label] for label in mix], [], where)
    weighed = {label: q for label, q in zip(labels, checked) if q > 0}
    rows = data.get("chooser_rows") if data.get("symmetry") == "none" else None
    exact_of = {}
    if isinstance(rows, list) and all(isinstance(r, dict) for r in rows):
        exact_of = {str(r.get("row")): r.get("probability_exact") for r in rows}
    exact = None
    if weighed and all(exact_of.get(label) is not None for label in weighed):
        exact = checked_mix(
            [float(q) for q in weighed.values()], [exact_of[label] for label in weighed], where + " (its exact rows)"
        )
    floats = np.zeros(len(game.secrets))
    fractions: list[Fraction] = [Fraction(0)] * len(game.secrets)
    for k, label in enumerate(weighed):
        try:
            s = secret_index(game, label)
        except ArenaError:
            raise ArenaError(
                f"{where} weighs {label}, which is not a secret of {game.spec}: it is no strategy of this game's chooser"
            ) from None
        if floats[s]:
            raise ArenaError(f"{where} names the secret {label} twice")
        q = exact[k] if exact is not None else weighed[label]
        floats[s], fractions[s] = float(q), q
    return floats, (fractions if exact is not None else None)
