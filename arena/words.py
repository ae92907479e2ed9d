"""Word lists: the ones shipped with the package (`sgb`, `web2`) or any file of one word a line."""

from __future__ import annotations

import gzip
from functools import lru_cache
from importlib import resources
from pathlib import Path

from .errors import ArenaError, choices

#: Shipped lists: name -> file inside arena/data.
SHIPPED = {"sgb": "sgb-words.txt", "web2": "web2.txt.gz"}


@lru_cache(maxsize=8)
def read_words(name_or_path: str) -> tuple[str, ...]:
    """The words of a shipped list (`sgb`, `web2`) or of a text file, one word a line, in file order.

    Blank lines are skipped; nothing else is changed (case folding and filtering are the game's job).
    """
    if name_or_path in SHIPPED:
        data = resources.files("arena") / "data" / SHIPPED[name_or_path]
        raw = data.read_bytes()
    else:
        path = Path(name_or_path).expanduser()
        if not path.is_file():
            raise ArenaError(f"word list {name_or_path!r} is neither a shipped list ({choices(SHIPPED)}) nor a file")
        raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return tuple(w.strip() for w in text.splitlines() if w.strip())
