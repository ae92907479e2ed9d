"""Weights files: how much each secret weighs, for a weighted chooser (`weighted:file=`) and the
exact solver (`optimal:weights=`, `arena optimal --weights`). One reader, one set of checks.

A weights file is UTF-8 text, one of
- a JSON object {secret: weight}: secrets not named weigh 0;
- a JSON list of weights, one per secret of the game, in the game's order;
- lines `secret weight` (or `secret,weight`), `#` starting a comment; secrets not named weigh 0.
A weight is a finite non-negative number (JSON true is not 1). A secret named twice (also once
as written and once as the game normalises it) weighs the sum. Every mistake is one line that
names the file and the entry (the line, the secret, the weight).

The weights are returned as written, not normalised: the solver's weighted cost is in the
file's units; a chooser divides by their sum.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .caches import shared_by_game_spec
from .errors import ArenaError, choices
from .game import Game, Index


def read_weights(path: str, game: Game) -> np.ndarray:
    """The weight of every secret of `game` (float64, in the game's order) read from `path`."""
    data, pairs = _read(path)
    if data is not None:
        if len(data) != len(game.secrets):
            raise ArenaError(f"weights file {path}: {len(data)} weights for {len(game.secrets)} secrets "
                             f"(a JSON list has one weight per secret, in order)")
        return np.array([weight(v, path, game.secrets[i]) for i, v in enumerate(data)], dtype=np.float64)
    weights = np.zeros(len(game.secrets), dtype=np.float64)
    for label, value in pairs:
        try:
            weights[secret_index(game, label)] += value
        except ArenaError as e:
            raise ArenaError(f"weights file {path}: {e}") from None
    return weights


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
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise ArenaError(f"weights file {path}: not valid JSON ({e})") from None
        if isinstance(data, list):
            return data, []
        if not isinstance(data, dict):
            raise ArenaError(f"weights file {path}: JSON weights are an object {{secret: weight}} or a list, "
                             f"not a {type(data).__name__}")
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


def weight(value: Any, path: str, label: Any) -> float:
    """`value` as a weight: a finite non-negative number, or an ArenaError naming the file and secret."""
    try:
        if isinstance(value, bool):  # JSON true is not a weight, though float(True) is 1
            raise TypeError
        w = float(value)
    except (TypeError, ValueError):
        raise ArenaError(f"weights file {path}: the weight of {label} is not a number: {value!r}") from None
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
