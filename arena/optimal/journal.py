"""The root split's journal: the first guesses closed so far, keyed by what they were computed from.

A journal is JSON lines. The first line is its key: the game's canonical spec, the SHA-256 of
every file the game reads, the guess pool, the objective, cost and guess limit, a digest of
the weights, and the project's version. A journal whose key is not the run's is refused in one
line naming what changed (or, asked for, set aside as FILE.old and started anew): a first guess
closed for another word list, other weights or by another version of the search proves nothing
about this one.

Each later line is one first guess closed: {"guess", "bound", "exact"} (and the seconds and
nodes it took). Every record is checked as it is read, and one that cannot be right is refused,
never trusted: a line that is not such an object, a guess that is not a first guess of the
pool, a bound that is not a finite number, above what a plain tree costs after that guess (the
known total: guessing the candidates one at a time), or, for an exact value, below the guess's
proven root bound. Only the last line may be cut short (a run killed while writing it): it is
dropped, and cut off the file before the next record is appended.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from ..digests import file_digest, is_file, project_code
from ..errors import ArenaError
from ..game import Game, Index, Indexes

FORMAT = "arena-journal/2"
#: Relative slack when a bound read back is compared with the bounds computed now (floats).
TOLERANCE = 1e-9


def canonical_spec(spec: str) -> str:
    """The game spec with defaults dropped, so `jotto` and `jotto:words=sgb` key alike."""
    from ..games import GAMES
    from ..spec import bind, canonical, parse_spec

    name, raw = parse_spec(spec)
    return canonical(name, GAMES[name].params, bind(name, GAMES[name].params, raw)) if name in GAMES else spec


def weights_digest(weights: np.ndarray | None) -> str:
    """"equal", or the SHA-256 of the weights as float64 in the game's order."""
    if weights is None:
        return "equal"
    return hashlib.sha256(np.ascontiguousarray(weights, dtype="<f8").tobytes()).hexdigest()


def game_files(spec: str) -> dict[str, str]:
    """File -> SHA-256 for every file a game spec reads: its parameters (defaults included) that
    name a shipped word list or an existing file."""
    from ..games import GAMES
    from ..spec import bind, parse_spec
    from ..words import SHIPPED

    name, raw = parse_spec(spec)
    if name not in GAMES:
        return {}
    values = [str(v) for v in bind(name, GAMES[name].params, raw).values()]
    return {v: file_digest(v) for v in sorted(set(values)) if v in SHIPPED or is_file(v)}


def journal_key(game: Game, pool: str, weights: np.ndarray | None = None) -> dict:
    """Everything the root split's records depend on (the journal's first line)."""
    return {"journal": FORMAT, "game": canonical_spec(game.spec), "files": game_files(game.spec),
            "pool": pool, "objective": "average", "cost": "guesses", "max_guesses": None,
            "weights": weights_digest(weights), "version": project_code()}


def key_change(stored: dict, key: dict) -> str | None:
    """What differs between a journal's key and the run's, in words (None: nothing)."""
    if stored.get("journal") != key["journal"]:
        return f"its format is {stored.get('journal')!r}, not {key['journal']!r}"
    if stored.get("version") != key["version"]:
        return f"it was written by arena {stored.get('version')}, this is arena {key['version']}"
    if stored.get("game") != key["game"]:
        return f"it is for the game {stored.get('game')}, not {key['game']}"
    stored_files = stored.get("files")
    files: dict = stored_files if isinstance(stored_files, dict) else {}
    for name in sorted(set(files) | set(key["files"])):
        if name not in key["files"]:
            return f"it read the file {name}, which this game does not"
        if name not in files:
            return f"it did not read the file {name}"
        if files[name] != key["files"][name]:
            return f"the contents of {name} changed"
    for field, what in (("pool", "guess pool"), ("objective", "objective"), ("cost", "cost"),
                        ("max_guesses", "guess limit"), ("weights", "weights")):
        if stored.get(field) != key[field]:
            return f"its {what} {'differ' if field == 'weights' else 'differs'}" + (
                "" if field == "weights" else f" ({stored.get(field)!r}, not {key[field]!r})")
    return None


@dataclass(frozen=True)
class Record:
    """One first guess closed: its exact cost (exact) or a bound at least the incumbent then."""

    guess: Index
    bound: float
    exact: bool


@dataclass
class Limits:
    """What a record of each first guess must respect: its proven root bound (below it no exact
    value can be) and the known total (a plain tree's cost after it: no bound can be above)."""

    game: Game
    S: Indexes
    weights: np.ndarray
    root: dict[Index, float]

    def known(self, g: Index) -> float:
        return known_total(self.game, self.S, self.weights, g)


def known_total(game: Game, S: Indexes, weights: np.ndarray, g: Index) -> float:
    """The cost of the tree that plays g, then the candidates each reply leaves one at a time in
    the game's order (the i-th costs i + 1 guesses). Every best tree opening with g costs at
    most this, so no record's bound can be above it."""
    total = 0.0
    for reply, part in game.partition(int(g), S).items():
        w = weights[part]
        if game.finished(reply):
            total += float(w.sum())
        else:
            total += float(np.dot(w, np.arange(2, len(part) + 2)))
    return total


class Journal:
    """A journal file opened for one run: its records checked, then new ones appended."""

    def __init__(self, path: str | Path, key: dict, set_aside: bool = False):
        self.path, self.key = Path(path), key
        self.lines: list[tuple[int, str]] = []  # (line number, text) of the records
        self._file: IO[str] | None = None
        if self.path.is_dir():
            raise ArenaError(f"journal {self.path} is a directory: give a file name (FILE.jsonl)")
        if self.path.exists():
            self._load(set_aside)

    def _load(self, set_aside: bool) -> None:
        try:
            raw = self.path.read_bytes()
        except OSError as e:
            raise ArenaError(f"journal {self.path} cannot be read: {e.strerror or e}") from None
        if raw.endswith(b"\n") or b"\n" not in raw:
            complete = raw if raw.endswith(b"\n") else b""
        else:  # the last line was cut by a kill: that guess is searched again
            complete = raw[: raw.rindex(b"\n") + 1]
        try:
            text = complete.decode("utf-8")
        except UnicodeDecodeError as e:
            line = complete[: e.start].count(b"\n") + 1
            raise ArenaError(f"journal {self.path}, line {line}: not UTF-8 text ({e.reason} at byte {e.start}); "
                             "remove the journal or give --new-journal") from None
        lines = text.splitlines()
        if not lines:
            self._cut(len(complete))
            return
        change = self._key_change(lines[0])
        if change:
            if set_aside:
                self._set_aside()
                return
            raise ArenaError(f"journal {self.path} does not match this run: {change}; remove it, or give "
                             "--new-journal to set it aside and start anew")
        self.lines = list(enumerate(lines[1:], 2))
        self._cut(len(complete))

    def _key_change(self, first: str) -> str | None:
        try:
            stored = json.loads(first)
        except ValueError:
            return "its first line is not its key"
        if not isinstance(stored, dict) or "journal" not in stored:
            return "its first line is not its key (a journal of an older arena, keyed by the spec alone)"
        return key_change(stored, self.key)

    def _cut(self, size: int) -> None:
        """Drop a last line cut short, so the next record starts on a line of its own."""
        if self.path.stat().st_size != size:
            os.truncate(self.path, size)

    def _set_aside(self) -> None:
        aside = self.path.with_name(self.path.name + ".old")
        n = 1
        while aside.exists():
            aside, n = self.path.with_name(f"{self.path.name}.old{n}"), n + 1
        self.path.rename(aside)

    def records(self, game: Game, limits: Limits) -> list[Record]:
        """The journal's records, each checked (module docstring); a wrong one is an ArenaError."""
        return [self._record(number, text, game, limits) for number, text in self.lines if text.strip()]

    def _record(self, number: int, text: str, game: Game, limits: Limits) -> Record:
        where = f"journal {self.path}, line {number}"
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise ArenaError(f"{where}: not a JSON record: {text[:60]!r}") from None
        if not isinstance(data, dict) or not {"guess", "bound", "exact"} <= set(data):
            raise ArenaError(f"{where}: a record is an object with guess, bound and exact: {text[:60]!r}")
        guess, bound, exact = data["guess"], data["bound"], data["exact"]
        if not isinstance(guess, str):
            raise ArenaError(f"{where}: the guess must be written as text, got {guess!r}")
        try:
            g = game.guess_index(guess)
        except ArenaError:
            raise ArenaError(f"{where}: {guess!r} is not a guess of {game.spec}") from None
        if g not in limits.root:
            raise ArenaError(f"{where}: {guess!r} is not a first guess of this search's pool")
        if isinstance(bound, bool) or not isinstance(bound, (int, float)) or not math.isfinite(bound):
            raise ArenaError(f"{where}: the bound must be a finite number, got {bound!r}")
        if not isinstance(exact, bool):
            raise ArenaError(f"{where}: exact must be true or false, got {exact!r}")
        known, root = limits.known(g), limits.root[g]
        if bound > known * (1 + TOLERANCE):
            raise ArenaError(f"{where}: the bound {bound:g} of {guess} is above {known:g}, what a tree opening with "
                             f"it is known to cost: the record cannot be right")
        if exact and bound < root * (1 - TOLERANCE):
            raise ArenaError(f"{where}: the exact value {bound:g} of {guess} is below its proven bound {root:g}: "
                             f"the record cannot be right")
        return Record(g, float(bound), exact)

    def append(self, game: Game, guess: Index, bound: float, exact: bool, seconds: float, nodes: int) -> None:
        """One first guess closed, written and flushed at once (a kill loses at most this line)."""
        if self._file is None:
            new = not self.path.exists() or self.path.stat().st_size == 0
            self._file = self.path.open("a", encoding="utf-8")
            if new:
                self._file.write(json.dumps(self.key, sort_keys=True) + "\n")
        self._file.write(json.dumps({"guess": game.guesses[guess], "bound": bound, "exact": exact,
                                     "seconds": round(seconds, 3), "nodes": nodes}) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
