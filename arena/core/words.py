"""Word lists: the ones shipped with the package (`sgb`, `web2`, `wordle-answers`, `wordle-guesses`)
or any file of one word a line.

A file is UTF-8 text (with or without a byte-order mark) or UTF-16 with its byte-order mark;
anything else (bytes that are not UTF-8, a NUL, UTF-32) is refused in one line naming the
problem and the line, never guessed at. A game's filters (length, letters, repeats) leave words
out: `Dropped` counts them by reason, and a user's file is told about in one line (a warning
of the class WordsLeftOut, which the command line prints as a note on stderr).
"""

from __future__ import annotations

import codecs
import time
import warnings
import zlib
from functools import lru_cache
from pathlib import Path

from .errors import ArenaError, choices
from .resources import check_memory, memory_limit

#: Memory per byte of text, read as a tuple of words: the bytes, the decoded str and a str
#: object per word (about 50 bytes of overhead for a word of 8 or so letters).
_BYTES_PER_CHAR = 12

#: Shipped lists: name -> file inside arena/data.
SHIPPED = {
    "sgb": "sgb-words.txt",
    "web2": "web2.txt.gz",
    "wordle-answers": "wordle-answers.txt",
    "wordle-guesses": "wordle-guesses.txt",
}


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
        from importlib import resources  # lazy: heavy (tempfile, shutil), and only shipped lists need it

        data = resources.files("arena") / "data" / SHIPPED[name_or_path]
        raw = data.read_bytes()
    else:
        raw = _read_file(name_or_path)
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw, name_or_path)
    text = decode(raw, name_or_path)
    words = tuple(w.strip() for w in text.splitlines() if w.strip())
    if not words:
        raise ArenaError(f"word list {name_or_path!r} is empty: give one word a line")
    return words


def decode(raw: bytes, name: str) -> str:
    """The text of a word list: UTF-8 (a byte-order mark dropped) or UTF-16 with its byte-order
    mark; anything else is one line naming the problem and the line."""
    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        raise ArenaError(f"word list {name!r} is UTF-32 text: save it as UTF-8 (or UTF-16 with a byte-order mark)")
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding, body = "utf-16", raw
    else:
        encoding, body = "utf-8", raw[len(codecs.BOM_UTF8) :] if raw.startswith(codecs.BOM_UTF8) else raw
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as e:
        line = body[: e.start].decode(encoding, errors="replace").count("\n") + 1
        what = "UTF-16" if encoding == "utf-16" else "UTF-8"
        raise ArenaError(
            f"word list {name!r}, line {line}: not {what} text ({e.reason}); save the list as UTF-8"
        ) from None
    if "\0" in text:
        line = text[: text.index("\0")].count("\n") + 1
        raise ArenaError(
            f"word list {name!r}, line {line}: a NUL character (UTF-16 without its byte-order mark?); "
            "save the list as UTF-8"
        )
    return text


class WordsLeftOut(UserWarning):
    """A game's filters left words of a user's list out (the message says how many, and why)."""


class Dropped:
    """Words a game's filters left out of a list: how many for each reason, and one example."""

    def __init__(self) -> None:
        self.reasons: dict[str, list] = {}  # reason -> [count, first example]

    def add(self, reason: str, word: str) -> None:
        entry = self.reasons.setdefault(reason, [0, word])
        entry[0] += 1

    @property
    def count(self) -> int:
        return sum(n for n, _ in self.reasons.values())

    def summary(self, name: str, total: int) -> str:
        """`3 of the 40 words of w.txt left out: 2 not of 5 letters (such as 'abc'), 1 with a
        repeated letter (such as 'zzzzz')`."""
        why = ", ".join(f"{n:,} {reason} (such as {example!r})" for reason, (n, example) in self.reasons.items())
        return f"{self.count:,} of the {total:,} words of {name} left out: {why}"

    def line(self, spec: str, name: str, total: int) -> str | None:
        """The summary after the game's spec, or None if no word was left out."""
        return f"{spec}: {self.summary(name, total)}" if self.reasons else None

    def tell(self, spec: str, name: str, total: int) -> None:
        """Warn (WordsLeftOut) when words of a user's file were left out; a shipped list's
        filtering is documented with its game and not repeated at every run."""
        line = self.line(spec, name, total)
        if line and name not in SHIPPED:
            warnings.warn(line, WordsLeftOut, stacklevel=3)


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
    out: list[bytes] = []
    rest = raw
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
