"""Weights files: how much each secret weighs, for a weighted chooser (`weighted:file=`) and the
exact solver (`optimal:weights=`, `arena optimal --weights`). One reader, one set of checks.

A weights file is UTF-8 text, one of
- a JSON object {secret: weight}: secrets not named weigh 0;
- a JSON list of weights, one per secret of the game, in the game's order;
- lines `secret weight` (or `secret,weight`), `#` starting a comment; secrets not named weigh 0.
A weight is a finite non-negative number (JSON true is not 1); an integer weight is at most
2^53, where floating point stops counting exactly. A secret is named once (not twice, nor once
as written and once as the game normalises it). Some weight is positive, and the weighted
costs fit: with integer weights, the total weight times the most a secret can cost stays at
most 2^53 (the weighted totals are then exact), and with any weights it stays finite. Every
mistake is one line that names the file and the entry (the line, the secret, the weight).

The weights are returned as written, not normalised: the solver's weighted cost is in the
file's units; a chooser divides by their sum.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np

from .caches import shared_by_game_spec
from .errors import ArenaError, choices
from .game import Game, Index

#: Floating point counts every integer exactly up to here, and not beyond.
EXACT_INTEGERS = 2**53


def read_weights(path: str, game: Game) -> np.ndarray:
    """The weight of every secret of `game` (float64, in the game's order) read from `path`."""
    data, pairs = _read(path)
    if data is not None:
        if len(data) != len(game.secrets):
            raise ArenaError(
                f"weights file {path}: {len(data)} weights for {len(game.secrets)} secrets "
                f"(a JSON list has one weight per secret, in order)"
            )
        weights = np.array([weight(v, path, game.secrets[i]) for i, v in enumerate(data)], dtype=np.float64)
        check_weights(weights, game, f"weights file {path}")
        return weights
    weights = np.zeros(len(game.secrets), dtype=np.float64)
    named: dict[int, str] = {}
    for label, value in pairs:
        try:
            i = secret_index(game, label)
        except ArenaError as e:
            raise ArenaError(f"weights file {path}: {e}") from None
        if i in named:
            raise ArenaError(
                f"weights file {path}: the secret {game.secrets[i]} is named twice "
                f"({named[i]!r} and {label!r}); give each secret one weight"
            )
        named[i], weights[i] = label, value
    check_weights(weights, game, f"weights file {path}")
    return weights


def check_weights(weights: np.ndarray, game: Game, where: str = "weights") -> None:
    """Some weight positive, and the weighted costs representable (module docstring), else an
    ArenaError saying which. `weights`: those of the secrets covered."""
    w = np.asarray(weights, dtype=np.float64)
    if not np.any(w > 0):
        raise ArenaError(
            f"{where}: {'no weight is given' if not len(w) else 'every weight is 0'}; "
            "give some secret a positive weight"
        )
    most = len(game.secrets) + 1  # no secret costs more than this in a tree worth keeping
    try:
        total = math.fsum(w.tolist())
    except OverflowError:
        total = math.inf
    if not math.isfinite(total * most):
        raise ArenaError(
            f"{where}: the weights add up to {total:g}, too big for the weighted costs to be "
            "counted in floating point; scale them down"
        )
    if np.all(w == np.floor(w)) and total * most > EXACT_INTEGERS:
        raise ArenaError(
            f"{where}: the integer weights add up to {total:,.0f}, and the weighted costs (up to "
            f"{most:,} times that) would pass 2^53, where floating point stops counting exactly; "
            "scale them down"
        )


def _read(path: str) -> tuple[list | None, list[tuple[str, float]]]:
    """The file's entries: (a JSON list as is, no pairs), or (None, (secret label, checked
    weight) pairs) from a JSON object or from lines."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ArenaError(f"weights file {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ArenaError(f"weights file {path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    if text.lstrip().startswith(("{", "[")):
        try:
            data = json.loads(text, object_pairs_hook=lambda pairs: _no_twice(pairs, path))
        except ArenaError:
            raise
        except (ValueError, RecursionError) as e:
            raise ArenaError(f"weights file {path}: not valid JSON ({e})") from None
        if isinstance(data, list):
            return data, []
        if not isinstance(data, dict):
            raise ArenaError(
                f"weights file {path}: JSON weights are an object {{secret: weight}} or a list, "
                f"not a {type(data).__name__}"
            )
        return None, [(str(k), weight(v, path, k)) for k, v in data.items()]
    pairs = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.replace(",", " ").split()
        if len(parts) != 2:
            raise ArenaError(f"weights file {path}, line {number}: write one 'secret weight' a line, got {line!r}")
        pairs.append((parts[0], weight(parts[1], path, parts[0])))
    return None, pairs


def _no_twice(pairs: list[tuple[str, Any]], path: str) -> dict:
    """A JSON object's members, refusing a key written twice (json.loads would keep the last)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise ArenaError(f"weights file {path}: {key!r} is named twice; give each secret one weight")
        seen.add(key)
    return dict(pairs)


def weight(value: Any, path: str, label: Any) -> float:
    """`value` as a weight: a finite non-negative number (an integer at most 2^53), or an
    ArenaError naming the file and secret."""
    try:
        if isinstance(value, bool):  # JSON true is not a weight, though float(True) is 1
            raise TypeError
        if isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]+", value.strip()):
            value = int(value)
        w = float(value) if not isinstance(value, int) or abs(value) <= EXACT_INTEGERS else math.inf
    except (TypeError, ValueError):
        raise ArenaError(f"weights file {path}: the weight of {label} is not a number: {value!r}") from None
    if isinstance(value, int) and abs(value) > EXACT_INTEGERS:
        raise ArenaError(
            f"weights file {path}: the weight of {label} is {value}, an integer above 2^53, "
            "where floating point stops counting exactly; scale the weights down"
        )
    if not np.isfinite(w) or w < 0:
        raise ArenaError(f"weights file {path}: the weight of {label} must be a non-negative number, got {value!r}")
    return w


def secret_index(game: Game, label: str) -> Index:
    """The index of the secret written `label` (as the game writes guesses: case as it normalises)."""
    found = _secret_lookup(game).get(label.strip())
    if found is None:
        found = _secret_lookup(game).get(game.normalise_guess(label))
    if found is None:
        raise ArenaError(f"{label!r} is not a secret of {game.spec}; secrets such as {choices(game.secrets[:3])}")
    return found


@shared_by_game_spec(maxsize=16)
def _secret_lookup(game: Game) -> dict[str, int]:
    """secret label -> index, built once per game spec and holding no game."""
    return {label: i for i, label in enumerate(game.secrets)}
