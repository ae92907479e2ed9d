"""Word lists: the ones shipped with the package (`sgb`, `web2`, `wordle-answers`, `wordle-guesses`)
or any file of one word a line."""

from __future__ import annotations

import time
import zlib
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .errors import ArenaError, choices
from .resources import check_memory, memory_limit

#: Memory per byte of text, read as a tuple of words: the bytes, the decoded str and a str
#: object per word (about 50 bytes of overhead for a word of 8 or so letters).
_BYTES_PER_CHAR = 12

#: Shipped lists: name -> file inside arena/data.
SHIPPED = {"sgb": "sgb-words.txt", "web2": "web2.txt.gz",
           "wordle-answers": "wordle-answers.txt", "wordle-guesses": "wordle-guesses.txt"}


#: A file modified this recently is read (or hashed) afresh each time: its size and time do not
#: yet tell its contents, as file times have a coarse tick (git's "racy" entries).
RACY_SECONDS = 2.0


def racy(mtime_ns: int) -> bool:
    """Modified in the last RACY_SECONDS: a second edit could keep its (size, time)."""
    return time.time_ns() - mtime_ns < RACY_SECONDS * 1e9


def read_words(name_or_path: str) -> tuple[str, ...]:
    """The words of a shipped list (`sgb`, `web2`) or of a text file, one word a line, in file order.

    Blank lines are skipped; nothing else is changed (case folding and filtering are the game's job).
    Read once per contents: a file is read again when its size or time changed (or while racy).
    """
    if name_or_path in SHIPPED:
        return _read_words(name_or_path, None)
    try:
        st = Path(name_or_path).expanduser().stat()
    except (OSError, ValueError):
        return _read_words.__wrapped__(name_or_path, None)  # not there: the reader says so in one line
    if racy(st.st_mtime_ns):
        return _read_words.__wrapped__(name_or_path, None)
    return _read_words(name_or_path, (st.st_size, st.st_mtime_ns, st.st_ino))


@lru_cache(maxsize=8)
def _read_words(name_or_path: str, stamp: tuple | None) -> tuple[str, ...]:
    if name_or_path in SHIPPED:
        data = resources.files("arena") / "data" / SHIPPED[name_or_path]
        raw = data.read_bytes()
    else:
        raw = _read_file(name_or_path)
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw, name_or_path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    words = tuple(w.strip() for w in text.splitlines() if w.strip())
    if not words:
        raise ArenaError(f"word list {name_or_path!r} is empty: give one word a line")
    return words


def _read_file(name: str) -> bytes:
    """The bytes of a word file, or one line saying why it cannot be read (or is too big)."""
    path = Path(name).expanduser()
    if path.is_dir():
        raise ArenaError(f"word list {name!r} is a directory, not a file of one word a line")
    if not path.is_file():
        raise ArenaError(f"word list {name!r} is neither a shipped list ({choices(SHIPPED)}) nor a file")
    try:
        check_memory(path.stat().st_size * _BYTES_PER_CHAR, f"the word list {name!r}")
        return path.read_bytes()
    except OSError as e:
        raise ArenaError(f"word list {name!r} cannot be read: {e.strerror or e}") from None


def _gunzip(raw: bytes, name: str) -> bytes:
    """A gzipped list decompressed, stopping (in one line) once its words would not fit in memory;
    a truncated or corrupt file is one line too."""
    cap = memory_limit() // _BYTES_PER_CHAR + 1
    out, rest = [], raw
    try:
        while rest:  # a .gz may hold several members one after another
            stream = zlib.decompressobj(wbits=31)
            out.append(stream.decompress(rest, cap - sum(map(len, out))))
            if stream.unconsumed_tail:  # the cap stopped it: more text than the budget allows
                check_memory(cap * _BYTES_PER_CHAR + 1, f"the word list {name!r} (decompressed)")
            if not stream.eof:
                raise EOFError("the compressed data ends early")
            rest = stream.unused_data.lstrip(b"\0")
    except (zlib.error, EOFError) as e:
        raise ArenaError(f"word list {name!r} is not a readable gzip file: {e}") from None
    return b"".join(out)
