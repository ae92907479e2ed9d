"""The contents a result was computed from: SHA-256 digests of files, and the files a game
spec reads. A saved state (the results store, an exact search's journal) is keyed by them, so
that a file edited under it is noticed, never served stale."""

from __future__ import annotations

import hashlib
from functools import cache, lru_cache
from pathlib import Path

from .errors import ArenaError
from .words import SHIPPED, racy


def is_file(text: str) -> bool:
    try:
        return bool(text) and Path(text).expanduser().is_file()
    except (OSError, ValueError):
        return False


def file_digest(name: str) -> str:
    """SHA-256 of a shipped word list's package file or of a file's bytes (re-read only when
    its size or modification time changed, and always while it is racy: modified so recently
    that a second edit could keep its time, as file times have a coarse tick)."""

    if name in SHIPPED:
        return _shipped_digest(name)
    path = Path(name).expanduser()
    try:
        st = path.stat()
        if racy(st.st_mtime_ns):
            return _digest.__wrapped__(str(path.resolve()), st.st_size, st.st_mtime_ns)
        return _digest(str(path.resolve()), st.st_size, st.st_mtime_ns)
    except OSError as e:
        raise ArenaError(f"cannot read {name}: {e.strerror}") from None


@cache
def _shipped_digest(name: str) -> str:
    from importlib import resources

    return hashlib.sha256((resources.files("arena") / "data" / SHIPPED[name]).read_bytes()).hexdigest()


@lru_cache(maxsize=256)
def _digest(path: str, size: int, mtime_ns: int) -> str:
    """Keyed by size and time as well as path, so an edited file is hashed afresh."""
    sha = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            sha.update(chunk)
    return sha.hexdigest()
