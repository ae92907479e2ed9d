"""The split's journal: the pieces closed so far, keyed by what they were computed from.

A journal is JSON lines. The first line is its key: the game's canonical spec, the SHA-256 of
every file the game reads, the guess pool, the objective, cost and guess limit, a digest of
the weights, and the project's version. A journal whose key is not the run's is refused in one
line naming what changed (or, asked for, set aside as FILE.old and started anew): a piece
closed for another word list, other weights or by another version of the search proves nothing
about this one.

Each later line is a proof, never a decision: what it says holds whatever incumbent the run
that wrote it had, and each run decides afresh what the proofs close under its own incumbent
(proofs.py). A line is a first guess's bound, {"guess", "bound", "exact": false}, with its
classes when it was opened, "classes": [{"reply", "bound", "exact", "tree"?}, ...] (every class
it leaves, once each: their bounds, and the subtrees of those closed at once; none when the
bound reached the incumbent of the run that wrote it, which proves only the bound); or one
piece (split.py: the class a first guess leaves on one reply) with its exact value and best
subtree or a proven bound: {"guess", "reply", "bound", "exact"}, with "tree" (its guesses in
pre-order) when exact, and the seconds and nodes it took. A piece that split itself is written
as it splits, with the bound its node gives it (the least of its guesses' bounds before any is
opened), which can close its first guess before any record below it exists: a journal read back
proves what the run that wrote it printed. Below the root (a piece that split
itself into guesses of its own, ledger.py) the same records carry "at": the guesses and replies
that lead from the root to the class the guess is played at, ["g1", "r1", ...]. Every record is checked as it is
read, and one that cannot be right is refused in one line naming its line, never trusted: a
line that is not such an object, a guess that is not a first guess of the pool, a reply that
leaves no class after it (on the way down "at" too), a class listed twice or left out, a bound that is not a finite
number, that is below what opening the guess proves before anything is searched
(pieces.first_bounds), above what a plain tree costs (guessing the class's secrets one at a
time), or, for an opened guess, not what its classes add up to; an exact value whose subtree is
no tree of the class or does not cost that value; and records that contradict each other
(proofs.combine). Only the last line may be cut short (a run killed while writing it): it is
dropped, and cut off the file before the next record is appended. A run's time limit covers
reading its journal: the records past it are left unread (and in the file), and the run says so. The format is
arena-journal/3: its records were read as decisions before (a first guess "closed" was written
with the bound that closed it, and kept closed under any incumbent) and are read as proofs now,
which is what they hold; the arena version in the key refuses a journal another version wrote.
Journals of older formats are refused.
"""

from __future__ import annotations

import gzip
import json
import os
import time
import zlib
from pathlib import Path
from typing import IO

import numpy as np

from ..core.digests import file_change
from ..core.errors import ArenaError
from ..core.game import Game, Index, Indexes
from .problem import Problem

# their old place (before issue 32: the problem's identity is arena.optimal.problem's now), kept
from .problem import canonical_spec as canonical_spec
from .problem import game_files as game_files
from .problem import weights_digest as weights_digest
from .proofs import TOLERANCE, GuessProof, combine, path_words, same, slack
from .records import GuessRecord, Limits, PieceRecord, Place

FORMAT = "arena-journal/3"
#: Formats whose records recorded decisions: a first guess closed under the incumbent then.
OLD_FORMATS = ("arena-journal/1", "arena-journal/2")


def journal_key(problem: Problem) -> dict:
    """Everything the root split's records depend on (the journal's first line): the format,
    then the problem's key (Problem.key: game, files, pool, objective, cost, guess limit,
    weights, version), in the order journals have always been written; with weights given,
    the weights themselves too (`weighed`, in the game's order: what a journal proves a bound
    against, read back by journal_weights; not compared, the digest is)."""
    given = problem.given_weights
    weighed = {} if given is None else {"weighed": [int(x) if float(x).is_integer() else float(x) for x in given]}
    return {"journal": FORMAT} | problem.key() | weighed


def journal_weights(stored: dict, where: str | Path) -> np.ndarray | None:
    """The weights a journal's key carries (`weighed`), checked against its digest; None for
    equal weights. A weighted journal without them, or with weights its digest does not name,
    is one ArenaError."""
    digest = stored.get("weights")
    if digest == weights_digest(None):
        return None
    weighed = stored.get("weighed")
    if not isinstance(weighed, list) or not all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in weighed
    ):
        raise ArenaError(
            f"{where}: a journal of a weighted search that does not carry its weights (journals written "
            "before they did name only their digest)"
        )
    weights = np.array(weighed, dtype=np.float64)
    if weights_digest(weights) != digest:
        raise ArenaError(f"{where}: the weights its first line carries are not those its digest names: a damaged file")
    return weights


def key_change(stored: dict, key: dict) -> str | None:
    """What differs between a journal's key and the run's, in words (None: nothing)."""
    if stored.get("journal") != key["journal"]:
        return f"its format is {stored.get('journal')!r}, not {key['journal']!r}"
    if stored.get("version") != key["version"]:
        return f"it was written by arena {stored.get('version')}, this is arena {key['version']}"
    if stored.get("game") != key["game"]:
        return f"it is for the game {stored.get('game')}, not {key['game']}"
    changed = file_change(stored.get("files"), key["files"])
    if changed:
        name, how = changed
        return {
            "gone": f"it read the file {name}, which this game does not",
            "new": f"it did not read the file {name}",
            "changed": f"the contents of {name} changed",
        }[how]
    for field, what in (
        ("pool", "guess pool"),
        ("objective", "objective"),
        ("cost", "cost"),
        ("max_guesses", "guess limit"),
        ("weights", "weights"),
    ):
        if stored.get(field) != key[field]:
            return f"its {what} {'differ' if field == 'weights' else 'differs'}" + (
                "" if field == "weights" else f" ({stored.get(field)!r}, not {key[field]!r})"
            )
    return None


def journal_header(path: str | Path) -> dict | None:
    """A journal file's key (its first line) read alone, gzipped or not; None where the file is
    no journal (unreadable, not JSON, no "journal" format)."""
    try:
        with open(path, "rb") as raw:
            opened = gzip.open(raw) if raw.read(2) == GZIP_MAGIC[:2] else None
            raw.seek(0)
            first = (opened or raw).readline(1 << 16)
    except (OSError, EOFError, zlib.error):
        return None
    try:
        stored = json.loads(first)
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None
    return stored if isinstance(stored, dict) and "journal" in stored else None


def same_problem(stored: dict, key: dict) -> bool:
    """Whether a journal's key is the run's problem in this format, whatever version of arena
    wrote it (such a journal is read, its records checked, as --standing reads it:
    Journal(read_only=True))."""
    return key_change(stored | {"version": key["version"]}, key) is None


def piece_json(game: Game, reply: int, bound: float, exact: bool, tree: list[Index] | None) -> dict:
    """A class as the journal writes it: reply, bound, exact, and the subtree when exact."""
    record: dict = {"reply": game.reply_label(reply), "bound": bound, "exact": exact}
    if exact and tree is not None:
        record["tree"] = [game.guesses[t] for t in tree]
    return record


def at_json(game: Game, at: tuple[int, ...]) -> dict:
    """Where a record's guess is played, as the journal writes it: nothing at the root, else
    "at", the guesses and replies that lead there."""
    return {"at": path_words(game, at)} if at else {}


#: Reading a journal looks at the clock every this many lines (its deadline: the run's time limit).
READ_CHECK = 256

#: The first bytes of a gzip file.
GZIP_MAGIC = b"\x1f\x8b"

#: The advice closing a refusal, for `arena optimal`: what a reader of bounds only (known.py,
#: for `arena equilibrium --bounds-from`, which has no --new-journal) leaves out.
UNREADABLE_ADVICE = "; remove the journal or give --new-journal"
MISMATCH_ADVICE = "; remove it, or give --new-journal to set it aside and start anew"
ADVICE = (UNREADABLE_ADVICE, MISMATCH_ADVICE)


class Journal:
    """A journal file opened for one run: its records checked, then new ones appended."""

    def __init__(self, path: str | Path, key: dict, set_aside: bool = False, read_only: bool = False):
        """`read_only`: the journal is read, never written (it must exist), and one written by
        another version of arena is read too (`written_by` names it): its records are checked
        as any (module docstring), but its proofs are that version's."""
        self.path, self.key, self.read_only = Path(path), key, read_only
        self.lines: list[tuple[int, str]] = []  # (line number, text) of the records
        self.written_by: str | None = None  # another version of arena that wrote it (read only)
        self.pieces_read = 0  # the pieces closed that `proofs` read
        self.unread = 0  # records `proofs` left unread at its deadline (they stay in the file)
        self._indexes: dict[str, Index] = {}  # each guess as written, read once
        # while records are read: each place (its "at" as written) and reply label checked once,
        # since the pieces at any depth share their paths' prefixes (Wordle's 293,000 records)
        self._places: dict[tuple, Place] = {}
        self._replies: dict[str, int] = {}
        self._file: IO[str] | None = None
        if self.path.is_dir():
            raise ArenaError(f"journal {self.path} is a directory: give a file name (FILE.jsonl)")
        if self.path.exists() and not self.path.is_file():  # a FIFO would block the read for ever
            raise ArenaError(
                f"journal {self.path} is not a regular file (a pipe, socket or device): give a file name (FILE.jsonl)"
            )
        if self.path.exists():
            self._load(set_aside)
        elif read_only:
            raise ArenaError(f"journal {self.path} does not exist: there is nothing to read")
        elif self.path.suffix.lower() == ".gz":  # it would be written as plain text under a gzip name
            raise ArenaError(
                f"journal {self.path}: a new journal is written as plain text, record by record, so it cannot "
                "be named .gz; name it FILE.jsonl and gzip it once the run is done (--standing and "
                "--bounds-from read a gzipped journal)"
            )

    def _load(self, set_aside: bool) -> None:
        try:
            raw = self.path.read_bytes()
        except OSError as e:
            raise ArenaError(f"journal {self.path} cannot be read: {e.strerror or e}") from None
        if raw.startswith(GZIP_MAGIC):  # a journal committed compressed: read, never appended to
            if not self.read_only:
                raise ArenaError(
                    f"journal {self.path} is compressed (gzip): it can be read (--standing, or `arena equilibrium "
                    f"--bounds-from`), not resumed; gunzip it to resume it"
                )
            try:
                raw = gzip.decompress(raw)
            except (OSError, EOFError, zlib.error) as e:
                raise ArenaError(f"journal {self.path} is not a whole gzip file: {e}") from None
        if raw.endswith(b"\n") or b"\n" not in raw:
            complete = raw if raw.endswith(b"\n") else b""
        else:  # the last line was cut by a kill: that guess is searched again
            complete = raw[: raw.rindex(b"\n") + 1]
        try:
            text = complete.decode("utf-8")
        except UnicodeDecodeError as e:
            line = complete[: e.start].count(b"\n") + 1
            raise ArenaError(
                f"journal {self.path}, line {line}: not UTF-8 text ({e.reason} at byte {e.start}){UNREADABLE_ADVICE}"
            ) from None
        lines = text.splitlines()
        if not lines:
            if self.read_only:
                raise ArenaError(f"journal {self.path} is empty: there is nothing to read")
            self._cut(len(complete))
            return
        change = self._key_change(lines[0])
        if change:
            if set_aside:
                self._set_aside()
                return
            raise ArenaError(f"journal {self.path} does not match this run: {change}{MISMATCH_ADVICE}")
        self.lines = list(enumerate(lines[1:], 2))
        self._cut(len(complete))

    def _key_change(self, first: str) -> str | None:
        try:
            stored = json.loads(first)
        except (ValueError, RecursionError):
            return "its first line is not its key (not a JSON object)"
        if not isinstance(stored, dict) or "journal" not in stored:
            return "its first line is not its key (a journal of an older arena, keyed by the spec alone)"
        if stored.get("journal") in OLD_FORMATS:
            return (
                f"its format is {stored['journal']!r}, whose records were decisions under that run's incumbent "
                f"(first guesses closed), not proofs"
            )
        key = self.key
        if self.read_only and stored.get("version") != key["version"]:
            self.written_by = str(stored.get("version"))
            key = key | {"version": stored.get("version")}
        return key_change(stored, key)

    def _cut(self, size: int) -> None:
        """Drop a last line cut short, so the next record starts on a line of its own."""
        if self.read_only:
            return
        if self.path.stat().st_size != size:
            os.truncate(self.path, size)

    def _set_aside(self) -> None:
        aside = self.path.with_name(self.path.name + ".old")
        n = 1
        while aside.exists():
            aside, n = self.path.with_name(f"{self.path.name}.old{n}"), n + 1
        self.path.rename(aside)

    def records(self, game: Game, limits: Limits, deadline: float | None = None) -> list[PieceRecord | GuessRecord]:
        """The journal's records, each checked (module docstring); a wrong one is an ArenaError.
        Past `deadline` (time.perf_counter()) the rest are left unread (`unread` counts them):
        each record is a proof of its own, so the records read prove what they prove."""
        out = []
        self._places, self._replies = {}, {}  # for these limits (their root set) alone
        for k, (number, text) in enumerate(self.lines):
            if deadline is not None and not k % READ_CHECK and time.perf_counter() > deadline:
                self.unread = sum(1 for _, rest in self.lines[k:] if rest.strip())
                break
            if text.strip():
                out.append(self._record(number, text, game, limits))
        return out

    def proofs(self, game: Game, limits: Limits, deadline: float | None = None) -> dict[tuple[int, ...], GuessProof]:
        """What the records prove of each guess, by its path (proofs.combine), checked one by
        one and against each other; a wrong record is an ArenaError naming its line. Those
        past `deadline` are not read (`records`)."""
        records = self.records(game, limits, deadline)
        self.pieces_read = sum(isinstance(r, PieceRecord) for r in records)

        def label(path: tuple[int, ...], reply: int) -> str:
            words = path_words(game, path[:-1])
            return f"the class {game.reply_label(reply)} of {game.guesses[path[-1]]}" + (
                f" after {' '.join(words)}" if words else ""
            )

        return combine(records, lambda line: f"journal {self.path}, line {line}", label)

    def _record(self, number: int, text: str, game: Game, limits: Limits) -> PieceRecord | GuessRecord:
        where = f"journal {self.path}, line {number}"
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise ArenaError(f"{where}: not a JSON record: {text[:60]!r}") from None
        if not isinstance(data, dict) or not {"guess", "bound", "exact"} <= set(data):
            raise ArenaError(f"{where}: a record is an object with guess, reply, bound and exact: {text[:60]!r}")
        guess, bound, exact = data["guess"], data["bound"], data["exact"]
        at = self._place(where, data.get("at", []), game, limits)
        g = self._guess(where, guess, game)
        if not at.path and g not in limits.first:
            raise ArenaError(f"{where}: {guess!r} is not a first guess of this search's pool")
        if isinstance(bound, bool) or not isinstance(bound, (int, float)) or not limits.bound_allowed(bound):
            raise ArenaError(f"{where}: the bound must be a finite number, got {bound!r}")
        if not isinstance(exact, bool):
            raise ArenaError(f"{where}: exact must be true or false, got {exact!r}")
        if "reply" in data:
            return self._piece(where, number, data, g, game, limits, at)
        known = limits.known_after(g, at.secrets)
        if exact or bound > known * (1 + TOLERANCE):
            raise ArenaError(
                f"{where}: the bound {bound:g} of {guess} is above {known:g}, what a tree opening "
                f"with it is known to cost, or called exact: the record cannot be right"
            )
        classes = data.get("classes", [])
        if not isinstance(classes, list) or not all(isinstance(c, dict) for c in classes):
            raise ArenaError(f"{where}: the classes of {guess} must be a list of records, got {classes!r:.60}")
        pieces = tuple(self._piece(where, number, c | {"guess": guess}, g, game, limits, at) for c in classes)
        floors = limits.floor((*at.path, g), at.secrets)
        floor = limits.paid(at.secrets) + sum(floors.values())
        if bound < floor - slack(floor):
            raise ArenaError(
                f"{where}: the bound {bound:g} of {guess} is below {floor:g}, what every tree opening with it "
                f"is known to cost before anything is searched: the record cannot be right"
            )
        if pieces:
            self._check_classes(where, guess, float(bound), pieces, floors, game, limits.paid(at.secrets))
        return GuessRecord(g, float(bound), pieces, number, at.path)

    @staticmethod
    def _check_classes(
        where: str, guess: str, bound: float, pieces: tuple, floors: dict[int, float], game: Game, paid: float
    ) -> None:
        """An opened guess lists each class it leaves once, and its bound is what they add up to."""
        seen: set[int] = set()
        for piece in pieces:
            if piece.reply in seen:
                raise ArenaError(
                    f"{where}: the class {game.reply_label(piece.reply)} of {guess} is listed twice: "
                    "the record cannot be right"
                )
            seen.add(piece.reply)
        missing = sorted(set(floors) - seen)
        if missing:
            raise ArenaError(
                f"{where}: the classes of {guess} leave out {game.reply_label(missing[0])} (an opened guess "
                f"lists every class it leaves, {len(floors)} here): the record cannot be right"
            )
        total = paid + sum(piece.bound for piece in pieces)
        if not same(total, bound):
            raise ArenaError(
                f"{where}: the bound {bound:g} of {guess} is not {total:g}, what its classes' bounds add up "
                f"to: the record cannot be right"
            )

    def _piece(
        self, where: str, number: int, data: dict, g: Index, game: Game, limits: Limits, at: Place
    ) -> PieceRecord:
        if not {"reply", "bound", "exact"} <= set(data):
            raise ArenaError(f"{where}: a class is an object with reply, bound and exact: {str(data)[:60]!r}")
        guess, bound, exact = data["guess"], data["bound"], data["exact"]
        if isinstance(bound, bool) or not isinstance(bound, (int, float)) or not limits.bound_allowed(bound):
            raise ArenaError(f"{where}: the bound must be a finite number, got {bound!r}")
        if not isinstance(exact, bool):
            raise ArenaError(f"{where}: exact must be true or false, got {exact!r}")
        C, reply = self._class(where, data["reply"], g, game, at.secrets)
        what = f"the class {data['reply']} of {guess}" + (
            f" after {' '.join(path_words(game, at.path))}" if at.path else ""
        )
        known = limits.known(C)
        if bound > known * (1 + TOLERANCE):
            raise ArenaError(
                f"{where}: the bound {bound:g} of {what} is above {known:g}, what guessing its "
                f"secrets one at a time costs: the record cannot be right"
            )
        floor = limits.floor((*at.path, g), at.secrets).get(reply, 0.0)
        if bound < floor - slack(floor):
            raise ArenaError(
                f"{where}: the bound {bound:g} of {what} is below {floor:g}, what it is known to cost before "
                f"it is searched: the record cannot be right"
            )
        if not exact:
            return PieceRecord(g, reply, float(bound), False, None, number, at.path)
        tree = data.get("tree")
        if not isinstance(tree, list) or not tree:
            raise ArenaError(f"{where}: an exact record carries its subtree, a list of guesses, got {tree!r:.60}")
        guesses = [self._guess(where, t, game) for t in tree]
        try:
            played = limits.replay(C, guesses)[C]
        except ValueError as e:
            raise ArenaError(f"{where}: the subtree of {what} is no tree: {e}; the record cannot be right") from None
        cost = float(limits.weights[C] @ played)
        depth = len(at.path) // 2 + 1  # the guesses played before the class
        if limits.max_guesses is not None and played.max() > limits.max_guesses - depth:
            raise ArenaError(
                f"{where}: the subtree of {what} takes {played.max()} guesses after the {depth} before it, "
                f"over the limit of {limits.max_guesses}: the record cannot be right"
            )
        if abs(cost - bound) > TOLERANCE * max(1.0, abs(bound)):
            raise ArenaError(
                f"{where}: the subtree of {what} costs {cost:g}, not its value {bound:g}: the record cannot be right"
            )
        return PieceRecord(g, reply, float(bound), True, guesses, number, at.path)

    def _place(self, where: str, at, game: Game, limits: Limits) -> Place:
        """The class a record's guess is played at (its "at": guesses and replies from the
        root; none: the root), checked to be one: each guess a guess, each reply one that
        leaves a class, the first guess a first guess of the pool. Each place is found from
        its parent's, each found once while records are read (`_places`)."""
        if not isinstance(at, list) or len(at) % 2:
            raise ArenaError(
                f"{where}: at is a list of guesses and replies, one reply after each guess, got {at!r:.60}"
            )
        key = tuple(at) if all(isinstance(x, str) for x in at) else None
        found = None if key is None else self._places.get(key)
        if found is not None:
            return found
        if not at:
            place = Place((), limits.S)
        else:
            parent = self._place(where, at[:-2], game, limits)
            g = self._guess(where, at[-2], game)
            if not parent.path and g not in limits.first:
                raise ArenaError(f"{where}: {at[-2]!r} is not a first guess of this search's pool")
            C, r = self._class(where, at[-1], g, game, parent.secrets)
            place = Place((*parent.path, g, r), C)
        if key is not None:
            self._places[key] = place
        return place

    def _guess(self, where: str, guess, game: Game) -> Index:
        found = self._indexes.get(guess) if isinstance(guess, str) else None
        if found is not None:  # millions of guesses are read, a few thousand of them different
            return found
        if not isinstance(guess, str):
            raise ArenaError(f"{where}: a guess must be written as text, got {guess!r}")
        try:
            found = self._indexes[guess] = game.guess_index(guess)
        except ArenaError:
            raise ArenaError(f"{where}: {guess!r} is not a guess of {game.spec}") from None
        return found

    def _class(self, where: str, reply, g: Index, game: Game, S: Indexes) -> tuple[Indexes, int]:
        """The class of S that `reply` to the guess g names, and the reply's code."""
        if not isinstance(reply, str):
            raise ArenaError(f"{where}: the reply must be written as text, got {reply!r}")
        code = self._replies.get(reply)
        if code is None:
            try:
                code = int(game.parse_reply(reply))
            except ArenaError:
                code = -1
            self._replies[reply] = code
        C = game.consistent(S, g, code) if code >= 0 else S[:0]
        if len(C) == 0 or game.finished(code):
            raise ArenaError(f"{where}: {reply!r} is not a reply that leaves a class after {game.guesses[g]}")
        return C, code

    def begin(self) -> None:
        """Open the journal for appending, its key written first if it is new (so that a run
        whose pieces all closed without a worker still leaves its key to check)."""
        if self.read_only:
            raise ArenaError(f"journal {self.path} was opened to be read, not written")
        if self._file is None:
            new = not self.path.exists() or self.path.stat().st_size == 0
            self._file = self.path.open("a", encoding="utf-8")
            if new:
                self._file.write(json.dumps(self.key, sort_keys=True) + "\n")
                self._file.flush()

    def append(
        self,
        game: Game,
        path: tuple[int, ...],
        bound: float,
        exact: bool,
        tree: list[Index] | None,
        seconds: float,
        nodes: int,
    ) -> None:
        """One piece closed, the class at the end of `path`, written and flushed at once (a kill
        loses at most this line)."""
        self.begin()
        assert self._file is not None
        record = (
            at_json(game, path[:-2])
            | {"guess": game.guesses[path[-2]]}
            | piece_json(game, path[-1], bound, exact, tree)
        )
        self._file.write(json.dumps(record | {"seconds": round(seconds, 3), "nodes": nodes}) + "\n")
        self._file.flush()

    def append_opened(
        self, game: Game, path: tuple[int, ...], bound: float, classes: list, seconds: float = 0.0, nodes: int = 0
    ) -> None:
        """The guess at the end of `path` opened: its bound and its classes, (reply, bound,
        exact, subtree or None) each (none: it was closed by its bound), and the seconds and
        sets the opening took."""
        self.begin()
        assert self._file is not None
        record: dict = at_json(game, path[:-1]) | {"guess": game.guesses[path[-1]], "bound": bound, "exact": False}
        if classes:
            record["classes"] = [piece_json(game, r, b, e, t) for r, b, e, t in classes]
        self._file.write(json.dumps(record | {"seconds": round(seconds, 3), "nodes": nodes}) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
