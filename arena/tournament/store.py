"""The results store: one SQLite file, one row per finished task, committed as it finishes.

SQLite's transactions make each commit atomic, so a run killed at any moment leaves every
finished task intact and no half-written one; a resumed run skips the tasks already stored.
The config's fingerprint is stored too, so results of another config are never mixed in.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from ..errors import ArenaError

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks (
    key TEXT PRIMARY KEY, cell INTEGER, game TEXT, chooser TEXT, guesser TEXT, block INTEGER,
    repeat INTEGER, seed INTEGER, status TEXT NOT NULL, error TEXT, tally TEXT, seconds REAL);
"""


class Store:
    """The SQLite results of one tournament, in DIR/results.sqlite."""

    def __init__(self, directory: str | Path, fingerprint: str, config_text: str, force: bool = False):
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.directory / "results.sqlite", isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            raise ArenaError(f"cannot open the results store in {directory}: {e}") from None
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)
        stored = self.meta("fingerprint")
        if stored is not None and stored != fingerprint:
            if not force:
                raise ArenaError(f"{self.directory} holds results of a different config; use --force to "
                                 "discard them, or another --out directory")
            self.db.execute("DELETE FROM tasks")
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('fingerprint', ?)", (fingerprint,))
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('config', ?)", (config_text,))

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def done(self) -> set[str]:
        """Keys of the tasks already stored (finished or failed)."""
        return {k for (k,) in self.db.execute("SELECT key FROM tasks")}

    def save(self, task, status: str, tally: dict | None, error: str | None, seconds: float) -> None:
        """Commit one task's result (its own transaction)."""
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO tasks VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                            (task.key, task.cell, task.game, task.chooser, task.guesser, task.block, task.repeat,
                             task.seed, status, error, json.dumps(tally) if tally else None, seconds))

    def results(self) -> dict[str, tuple[str, dict | None, str | None, float]]:
        return {k: (s, json.loads(t) if t else None, e, sec)
                for k, s, t, e, sec in self.db.execute("SELECT key, status, tally, error, seconds FROM tasks")}

    def close(self) -> None:
        self.db.close()
