"""The results store: one SQLite file, one row per finished task, committed as it finishes.

SQLite's transactions make each commit atomic, so a run killed at any moment leaves every
finished task intact and no half-written one; a resumed run skips the tasks already stored.
A task is stored under its key (a hash of everything its result depends on, see
arena.study.tournament.tasks) with its identity beside it in readable columns; a failed task is a
row like any other, with its status and error.

The store is a set of results by content: a task's key hashes everything its result depends
on, its code included, so a run of any config reuses every result whose key it holds and runs
only the rest. A study grows (a guesser added, a seed changed) without recomputing anything it
already has, and a changed agent, word file or project version is run afresh, never served
stale. Results no longer in the config stay in the store, unreported; `force` discards them all.

The store also keeps the text of the config last run into it, the files it read and their
hashes, and its plan: every task's key, cell and block in order, so `arena report` (and
`Report.from_dir`) rebuild the tables from the store alone without importing or building any
agent.

One writer per directory: DIR/lock is held (a POSIX record lock, which dies with its process
and is not inherited by worker processes) for as long as a run writes; it names the holder's
pid and command, and is removed when the run ends (one killed leaves it, to be taken over by the
next run). Readers (`arena report`) take no lock: the store is in WAL mode, so they read
a consistent snapshot while a run writes.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import sqlite3
import sys
from pathlib import Path

from ...core.errors import ArenaError, shown
from ...parallel.outcome import Status, TaskResult
from .tally import Tally

#: A task's result, by its old name (a (status, tally, error, seconds) tuple before issue 32).
Result = TaskResult

FORMAT = "3"  # the store's layout; stores of another layout are refused, never misread

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS plan (position INTEGER PRIMARY KEY, key TEXT NOT NULL, cell INTEGER NOT NULL,
    block INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
    key TEXT PRIMARY KEY, cell INTEGER, game TEXT, chooser TEXT, guesser TEXT, cell_seed INTEGER,
    block INTEGER, repeat INTEGER, seed INTEGER, strikes TEXT, files TEXT,
    status TEXT NOT NULL, error TEXT, tally TEXT, seconds REAL, slot TEXT, code TEXT);
CREATE INDEX IF NOT EXISTS tasks_by_slot ON tasks (slot);
"""

STATUSES = (Status.OK.value, Status.FAILED.value)  # a task not run has no row
HEX = set("0123456789abcdef")  # a task's key is a SHA-256 in hex


# --- the lock -------------------------------------------------------------------------------


class DirectoryLock:
    """The one-writer lock of a results directory (re-entrant within a process).

    `fcntl.lockf` locks belong to the process: a run killed by any signal releases its lock,
    and the pool workers it forks do not hold it on, so a leftover lock file from a dead run is
    simply taken over.
    """

    _held: dict[Path, list] = {}  # directory -> [file descriptor, depth] held by this process

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        self.path = self.directory / "lock"

    def __enter__(self) -> DirectoryLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def acquire(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            key = self.directory.resolve()
        except OSError as e:
            raise ArenaError(f"cannot use {self.directory} for results: {e.strerror}") from None
        if key in self._held:
            self._held[key][1] += 1
            return
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError as e:
                raise ArenaError(f"cannot create the lock {self.path}: {e.strerror}") from None
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _read_holder(fd)
                os.close(fd)
                raise ArenaError(
                    f"{self.directory} is being written by another arena run ({holder}); wait for it "
                    "to finish, or use another --out directory"
                ) from None
            if _still_named(fd, self.path):
                break
            os.close(fd)  # the file was removed by the run that held it, after we opened it: open the new one
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()}: {' '.join(_command())}\n".encode())
        self._held[key] = [fd, 1]

    def release(self) -> None:
        key = self.directory.resolve()
        held = self._held.get(key)
        if held is None:
            return
        held[1] -= 1
        if held[1] == 0:
            del self._held[key]
            # removed while still held: a writer that opened it meanwhile finds, once it holds the
            # lock, that the name is gone (_still_named) and opens the lock afresh
            if _still_named(held[0], self.path):  # not a lock another run made after ours was deleted
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
            os.close(held[0])  # closing releases the lock


def _still_named(fd: int, path: Path) -> bool:
    """Is the file open as `fd` still the one at `path` (not removed or replaced)?"""
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def _command() -> list[str]:
    argv = list(sys.argv)
    if argv and argv[0].endswith(("cli.py", "__main__.py", "/arena")):
        argv[0] = "arena"
    return argv


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text.splitlines()[0] if text else "pid unknown"


# --- writing ------------------------------------------------------------------------------


class Store:
    """The SQLite results of one tournament, in DIR/results.sqlite, open for writing.

    Opening takes the directory's lock; a damaged file or a store of another layout is refused
    (with `force`: discarded and started afresh). The results of another config are kept:
    the tasks the two share are reused, the others stay stored but unreported.
    """

    def __init__(
        self,
        directory: str | Path,
        fingerprint: str,
        config_text: str,
        force: bool = False,
        plan: list | None = None,
        files: dict[str, str] | None = None,
    ):
        self.directory = Path(directory)
        self.path = self.directory / "results.sqlite"
        self.fingerprint = fingerprint
        self.lock = DirectoryLock(self.directory)
        self.lock.acquire()
        try:
            self.db = self._open(force)
            # one transaction: a reader sees either no store or a whole one (layout, config, plan)
            self.db.execute("BEGIN IMMEDIATE")
            for statement in filter(str.strip, SCHEMA.split(";")):
                self.db.execute(statement)
            if force:
                self.db.execute("DELETE FROM tasks")
            self.held = self.db.execute("SELECT count(*) FROM tasks").fetchone()[0]  # results held on opening
            self._set_meta("format", FORMAT)
            self._set_meta("fingerprint", fingerprint)
            self._set_meta("config", config_text)
            self._set_meta("files", json.dumps(files or {}, sort_keys=True))
            if plan is not None:
                self.db.execute("DELETE FROM plan")
                self.db.executemany(
                    "INSERT INTO plan VALUES (?,?,?,?)", [(i, t.key, t.cell, t.block) for i, t in enumerate(plan)]
                )
            self.db.execute("COMMIT")
        except BaseException as e:
            self._abandon()
            if isinstance(e, sqlite3.Error):
                raise ArenaError(f"{self.path}: cannot write the results store ({e})") from None
            raise

    def _abandon(self) -> None:
        """Roll back and let go of the store and its lock (opening failed)."""
        db = getattr(self, "db", None)
        try:
            if db is not None:
                if db.in_transaction:
                    db.rollback()
                db.close()
        except sqlite3.Error:
            pass
        finally:
            self.lock.release()

    def _open(self, force: bool) -> sqlite3.Connection:
        """The store's connection, after checking the file is a sound store of this layout."""
        if self.path.is_dir() or not (self.path.is_file() or not self.path.exists()):
            raise ArenaError(
                f"{self.path} is {'a directory' if self.path.is_dir() else 'not a file'}, not a results "
                "store (--force discards only a store file); move it, or use another --out directory"
            )
        damage = _damage(self.path) if self.path.exists() else None
        if damage and not force:
            raise ArenaError(
                f"{self.path} is damaged ({damage}); rerun with --force to discard it and start "
                "afresh, or use another --out directory"
            )
        if damage:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            db.execute("PRAGMA journal_mode=WAL")
            layout = _layout(db)
            if layout not in (None, FORMAT):
                if not force:
                    db.close()
                    raise ArenaError(
                        f"{self.path} was written by another version of arena (store format "
                        f"{layout}, this one reads {FORMAT}); rerun with --force to discard it, "
                        "or use another --out directory"
                    )
                db.executescript("DROP TABLE IF EXISTS tasks; DROP TABLE IF EXISTS plan; DROP TABLE IF EXISTS meta;")
        except sqlite3.Error as e:
            raise ArenaError(
                f"{self.path}: cannot open the results store ({e}); rerun with --force to start "
                "afresh, or use another --out directory"
            ) from None
        return db

    def _set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def check(self) -> None:
        """Before a commit: the store still holds this run's config (nothing else wrote to it)."""
        if self.meta("fingerprint") != self.fingerprint:
            raise ArenaError(f"{self.path} was changed by something else during the run; stopped")

    def save(self, task, result: TaskResult) -> None:
        """Commit one task's result (its own transaction), with its identity in readable columns."""
        tally = result.value if result.ok else None
        try:
            with self.db:
                self.db.execute(
                    "INSERT OR REPLACE INTO tasks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        task.key,
                        task.cell,
                        task.game,
                        task.chooser,
                        task.guesser,
                        task.cell_seed,
                        task.block,
                        task.repeat,
                        task.seed,
                        json.dumps(list(task.strikes)),
                        json.dumps(dict(task.files)),
                        result.status.value,
                        result.error,
                        json.dumps(tally) if tally is not None else None,
                        result.seconds,
                        task.slot,
                        json.dumps(dict(task.code)),
                    ),
                )
        except sqlite3.Error as e:
            raise ArenaError(f"{self.path}: cannot store a result ({e}); the results stored so far are kept") from None

    def _rows_where(self, columns: str, column: str, values) -> list[tuple]:
        """SELECT `columns` of the tasks whose `column` is one of `values` (each asked once),
        in batches below SQLite's limit on bound parameters; a damaged store is an ArenaError."""
        wanted = list(dict.fromkeys(values))
        rows: list[tuple] = []
        try:
            for start in range(0, len(wanted), 500):
                part = wanted[start : start + 500]
                rows += self.db.execute(
                    f"SELECT {columns} FROM tasks WHERE {column} IN ({','.join('?' * len(part))})", part
                ).fetchall()
        except sqlite3.Error as e:
            raise ArenaError(f"{self.path} is damaged ({e}); rerun with --force to start afresh") from None
        return rows

    def results(self, tasks) -> tuple[dict[str, TaskResult], dict[str, str]]:
        """The stored results of these tasks (those it holds), each checked, and what is wrong
        with each damaged one (by key): a resumed run runs a damaged result again, never adds
        it in. Rows of other keys are not read: they may be another config's."""
        by_key = {t.key: t for t in tasks}
        rows = self._rows_where("key, cell, block, status, tally, error, seconds", "key", by_key)
        good: dict[str, TaskResult] = {}
        damaged: dict[str, str] = {}
        for row in rows:
            task = by_key[row[0]]
            try:
                good[row[0]] = _result(self.path, (row[0], task.cell, task.block, *row[3:]), "", task.repeat)
            except ArenaError as e:
                damaged[row[0]] = str(e)
        return good, damaged

    def earlier(self, slots) -> dict[str, tuple[dict, dict]]:
        """For each of these slots the store holds a result of (under another key): the code
        and files that result was made with, to say why the task runs again."""
        found: dict[str, tuple[dict, dict]] = {}
        for slot, code, files in self._rows_where("slot, code, files", "slot", slots):
            found[slot] = (_table(code), _table(files))
        return found

    def close(self) -> None:
        try:
            self.db.close()
        finally:
            self.lock.release()


def _table(text) -> dict[str, str]:
    """A stored {name: digest} column as a dict; {} if it is damaged (it only explains a rerun)."""
    try:
        data = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        return {}
    return data


def _layout(db: sqlite3.Connection) -> str | None:
    """The store format of an open database: None if empty, '1' for the layout without a format."""
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        return None
    if "meta" in tables:
        row = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if row:
            return row[0]
    return "1"


def _damage(path: Path) -> str | None:
    """What is wrong with a store file, or None if SQLite finds it sound."""
    try:
        db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            verdict = db.execute("PRAGMA quick_check").fetchall()
        finally:
            db.close()
    except sqlite3.Error as e:
        return str(e)
    return None if verdict == [("ok",)] else "; ".join(str(v[0]) for v in verdict[:2])


def _result(path: Path, row: tuple, fix: str, repeat: int | None = None) -> TaskResult:
    """One stored row as a TaskResult (its value the tally as JSON data), every field checked so a damaged row never becomes a number
    (an ArenaError naming the row and what is wrong, then `fix`). `repeat`: the repetitions the
    task plays, which its tally must count."""
    key, cell, block, status, tally, error, seconds = row
    cell = cell + 1 if isinstance(cell, int) and not isinstance(cell, bool) else shown(cell, 40)
    where = f"{path}: the stored result of cell {cell}, block {shown(block, 40)}"
    fix = f"; {fix}" if fix else ""
    if status not in STATUSES:
        raise ArenaError(f"{where} has status {shown(status, 40)} (expected {' or '.join(STATUSES)}){fix}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < math.inf:
        raise ArenaError(f"{where} is damaged (its time is {shown(seconds, 40)}, not a number of seconds){fix}")
    if status == "failed":
        if not isinstance(error, str) or tally is not None:
            raise ArenaError(f"{where} is damaged (a failed task with error {shown(error, 40)} and a tally){fix}")
        return TaskResult.failed(error, float(seconds))
    try:
        if not isinstance(tally, str):
            raise ArenaError(f"stored as {type(tally).__name__}, not JSON text")
        data = json.loads(tally, parse_constant=_no_constant)
        counted = Tally.from_json(data)
        if repeat is not None and counted.repeat != repeat:
            raise ArenaError(f"it counts {counted.repeat} repetitions, the task plays {repeat}")
    except RecursionError:
        raise ArenaError(f"{where} is damaged (bad tally: nested too deeply){fix}") from None
    except (TypeError, ValueError) as e:  # ArenaError is a ValueError
        raise ArenaError(f"{where} is damaged (bad tally: {shown(str(e), 200, raw=True)}){fix}") from None
    if error is not None:
        raise ArenaError(f"{where} is damaged (a result with figures and an error){fix}")
    return TaskResult.done(data, float(seconds))


def _no_constant(name: str) -> None:
    raise ArenaError(f"{name} is not a count")


# --- reading ------------------------------------------------------------------------------


def read_store(directory: str | Path) -> tuple[str, list[tuple[str, int, int]], dict[str, TaskResult]]:
    """(config text, plan, results) of a stored tournament, read without any lock or write.

    The plan is every task's (key, cell, block) in order; results are by key. A missing,
    damaged or foreign file is an ArenaError saying what to do.
    """
    path = Path(directory) / "results.sqlite"
    fix = f"rerun arena run CONFIG --out {directory} --force to rebuild it"
    if not path.is_file():
        raise ArenaError(f"{directory}: no results.sqlite here (arena run CONFIG --out {directory} makes one)")
    damage = _damage(path)
    if damage:
        raise ArenaError(f"{path} is damaged ({damage}); {fix}")
    try:
        db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, isolation_level=None, timeout=30)
    except sqlite3.Error as e:
        raise ArenaError(f"{path}: cannot open it ({e})") from None
    try:
        layout = _layout(db)
        if layout != FORMAT:
            raise ArenaError(
                f"{path} is not a results store this arena reads (format {layout}, expected {FORMAT}); {fix}"
            )
        db.execute("BEGIN")  # one read transaction: a consistent snapshot while a run may be writing
        row = db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
        plan = db.execute("SELECT key, cell, block FROM plan ORDER BY position").fetchall()
        rows = db.execute(
            "SELECT key, cell, block, status, tally, error, seconds FROM tasks WHERE key IN (SELECT key FROM plan)"
        ).fetchall()
        db.execute("COMMIT")
    except sqlite3.Error as e:
        raise ArenaError(f"{path}: not a tournament store ({e}); {fix}") from None
    finally:
        db.close()
    if row is None or not plan:
        raise ArenaError(f"{path}: no config or task plan stored; {fix}")
    if not isinstance(row[0], str):
        raise ArenaError(f"{path}: the stored config is {type(row[0]).__name__}, not text; {fix}")
    keys = set()
    for position, (key, _, _) in enumerate(plan):
        if not (isinstance(key, str) and len(key) == 64 and set(key) <= HEX) or key in keys:
            raise ArenaError(
                f"{path}: task {position + 1} of the stored plan has a bad or repeated key {shown(key, 40)}; {fix}"
            )
        keys.add(key)
    cells = {key: (cell, block) for key, cell, block in plan}
    rerun = f"rerun arena run CONFIG --out {directory} to run it again (the other results are kept)"
    return row[0], plan, {r[0]: _result(path, (r[0], *cells[r[0]], *r[3:]), rerun) for r in rows}
