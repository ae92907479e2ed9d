"""The double oracle's state on disk, so that a run of hours survives a kill and goes on in
another session (`arena equilibrium GAME --state FILE`).

After every round the oracle writes the guesser's trees, the chooser's mix (over rows: code
types or secrets) that its best lower bound was proven against, that bound, the uniform
chooser's value and the rounds and seconds so far. The file is written to a temporary file
beside it and renamed over it (os.replace is atomic), so a kill at any moment leaves either the
last round's state or the one before: at most the round in flight is lost.

The file is keyed like a witness file (witness.witness_key: the game's canonical spec, the
SHA-256 of every file it reads, the payoff, the project's code) and by the symmetry the rows
are over; a state of another game, word list, payoff or symmetry is refused in one line. (The
code's version is recorded, not refused: nothing read is trusted.)

Read back, nothing is trusted: each tree is replayed over every secret of this game (a guess
the game does not know, or a plan with no guess where a secret needs one, is one line), and
the bounds are only claims. The lower bound is printed as the state's claim; the resumed run's
first best response is to the very mix it was proven against, which proves it again (or a
lower bound of its own, under a time limit). The upper bound is recomputed by the LP over the
replayed trees.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ArenaError, RuleBreak, shown
from ..core.game import Game
from ..core.resources import collector_paused
from ..trees.saved import Labels
from ..trees.tree import Tree
from .symmetry import Symmetry, no_symmetry, symmetry_of
from .witness import checked_mix, finite, key_change, witness_key

#: The state file's format tag.
FORMAT = "arena-oracle-state/1"


@dataclass(frozen=True)
class Resumed:
    """A state read back and checked: the trees replayed on this game, the chooser's mix over
    rows the best lower bound was proven against, and what the state claims (never proven here)."""

    trees: tuple[Tree, ...]
    best_rows: np.ndarray
    claimed_lower: float | None
    claimed_uniform: float | None
    rounds: int
    seconds: float
    rows: tuple[int, ...] = ()  # the rows the LP kept (growing.py: words of a long Hangman list)


def state_key(game: Game, payoff: str, symmetry: Symmetry) -> dict:
    """What a state of the double oracle on `game` depends on: the witness key and the rows' symmetry."""
    return witness_key(game, payoff) | {"symmetry": symmetry.group}


def save_state(
    path: str | Path,
    key: dict,
    trees: Sequence[str],
    best_rows: np.ndarray,
    claimed: tuple[float | None, float | None],
    progress: tuple[int, float],
    rows: Sequence[int] = (),
) -> None:
    """Write the state atomically (a temporary file beside `path`, renamed over it):
    `claimed` is (best lower bound, uniform chooser's value), `progress` (rounds, seconds),
    `rows` the secrets the LP keeps where it keeps a few (growing.py).
    `trees` come encoded (tree_json: the loop encodes each tree once, not each round: 5 of a
    Wordle round's 30 s at 220 trees); gzip at level 6 (level 9 took 3.0 s a round there for
    3.6% less)."""
    lower, uniform = claimed
    rounds, seconds = progress
    data = {
        "format": FORMAT,
        "key": key,
        "rounds": rounds,
        "seconds": round(seconds, 3),
        "claimed_lower": lower,
        "claimed_uniform": uniform,
        "best_rows": [float(p) for p in best_rows],
    }
    if len(rows):
        data["rows"] = [int(r) for r in rows]
    text = json.dumps(data, separators=(",", ":"))[:-1] + ',"trees":[' + ",".join(trees) + "]}\n"
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        if target.name.endswith(".gz"):
            with gzip.open(temporary, "wt", encoding="utf-8", compresslevel=6) as f:
                f.write(text)
        else:
            temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError as e:
        temporary.unlink(missing_ok=True)
        raise ArenaError(f"cannot write the state {path}: {e.strerror}") from None


def tree_json(tree: Tree) -> str:
    """A tree as the state file holds it (Tree.to_json, compact)."""
    return json.dumps(tree.to_json(), separators=(",", ":"))


def load_state(path: str | Path, game: Game, payoff: str, symmetry: Symmetry) -> Resumed | None:
    """The state saved at `path` for this game, payoff and symmetry, checked (module docstring);
    None where there is no such file yet (a fresh run). Anything else wrong is one ArenaError line."""
    target = Path(path)
    if not target.exists():
        return None
    with collector_paused():
        return _load(path, target, game, payoff, symmetry)


def state_trees(path: str | Path, game: Game, payoff: str, symmetric: bool = True) -> list[Tree] | None:
    """The trees of the state saved at `path` (load_state, checked), its rows over the game's
    symmetry, or over every secret where the run had --no-symmetry (`symmetric=False`); None
    where there is no such file. What the experiments that study a saved state read."""
    resumed = load_state(path, game, payoff, symmetry_of(game) if symmetric else no_symmetry(game))
    return None if resumed is None else list(resumed.trees)


def _load(path: str | Path, target: Path, game: Game, payoff: str, symmetry: Symmetry) -> Resumed:
    data = _read(target)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArenaError(f"{path}: not a double oracle state written by `arena equilibrium --state` ({FORMAT})")
    key = state_key(game, payoff, symmetry)
    change = key_change(data.get("key"), key)
    if change is None and data["key"].get("symmetry") != key["symmetry"]:
        change = f"its rows are over the symmetry {shown(data['key'].get('symmetry'))}, not {key['symmetry']!r}"
    if change is not None:
        change = change.replace("an equilibrium of", "a state of").replace("was solved", "was run")
        raise ArenaError(f"{path} is not a state of this run ({game.spec}, payoff {payoff}): {change}")
    trees = _trees(path, game, data.get("trees"))
    rows = data.get("best_rows")
    if not isinstance(rows, list) or len(rows) != len(symmetry.labels):
        raise ArenaError(f"{path}: best_rows is not a mix over the {len(symmetry.labels):,} rows of {game.spec}")
    best = np.array([float(p) for p in checked_mix(rows, [], f"{path}: best_rows")])
    rounds = data.get("rounds")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise ArenaError(f"{path}: rounds is not a whole number >= 0: {shown(rounds)}")
    return Resumed(
        tuple(trees),
        best,
        _claim(path, data, "claimed_lower"),
        _claim(path, data, "claimed_uniform"),
        rounds,
        max(0.0, finite(data.get("seconds"), f"{path}: seconds")),
        _rows(path, data.get("rows", []), len(game.secrets)),
    )


def _rows(path: str | Path, rows: Any, n: int) -> tuple[int, ...]:
    """The state's kept rows: secret indexes, each below n."""
    if not isinstance(rows, list) or not all(type(r) is int and 0 <= r < n for r in rows):
        raise ArenaError(f"{path}: rows is not a list of secret indexes below {n:,}")
    return tuple(rows)


def _read(path: Path) -> Any:
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as f:
                return json.load(f)
        return json.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise ArenaError(f"{path}: not a double oracle state (nested too deep)") from None
    except (OSError, ValueError, EOFError) as e:
        raise ArenaError(f"{path}: not a readable double oracle state ({' '.join(str(e).split())})") from None


def _claim(path: str | Path, data: dict, name: str) -> float | None:
    value = data.get(name)
    return None if value is None else finite(value, f"{path}: {name}")


def _trees(path: str | Path, game: Game, entries: Any) -> list[Tree]:
    """The state's trees, each replayed over every secret of `game`."""
    from .plans import plan_from_json, plan_tree

    if not isinstance(entries, list):
        raise ArenaError(f"{path}: trees is not a list of saved trees")
    trees = []
    read: Labels = ({}, {})  # the guesses' names and the replies' labels, read once for every tree
    for k, entry in enumerate(entries, 1):
        where = f"{path}, tree {k}"
        try:
            trees.append(plan_tree(game, plan_from_json(game, entry, where, read), f"state tree {k}"))
        except RuleBreak as e:
            raise ArenaError(f"{where} does not play every secret of {game.spec}: {e}") from None
    return trees
