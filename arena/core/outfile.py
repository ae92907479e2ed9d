"""Checks on an output file, made before any work: a `--plot out.xyz` (a format matplotlib cannot
write) or a `--plot`/`--save` path in a missing or read-only directory would otherwise fail only
after the evaluation it was to show had run (for the format, with matplotlib's traceback).

And the `--json` output kept clean: while a command with --json runs, anything printed (an
agent's print(), forked workers' too) goes to stderr, and only `print_json` writes to stdout.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, TextIO

from .errors import ArenaError, choices


@lru_cache(maxsize=1)
def plot_formats() -> tuple[str, ...]:
    """The file extensions matplotlib can write (png, pdf, svg, ...), sorted."""
    import matplotlib  # lazy: heavy

    matplotlib.use("Agg")  # as the plotting code does: no display is needed, or wanted
    from matplotlib.figure import Figure  # lazy: heavy

    return tuple(sorted(Figure().canvas.get_supported_filetypes()))


def check_plot_file(path: str, option: str = "--plot") -> None:
    """ArenaError, in one line, unless a figure can be written to `path`: its extension names a
    format matplotlib writes, its directory exists and is writable, and it is not a directory."""
    target = Path(path)
    where = f"{option} {path}"
    extension = target.suffix.lower().lstrip(".")
    formats = plot_formats()
    if not extension:
        raise ArenaError(f"{where}: give the file an extension naming its format: {choices(formats)}")
    if extension not in formats:
        raise ArenaError(f"{where}: matplotlib cannot write .{extension} files; formats: {choices(formats)}")
    check_output_file(path, option)


def file_format(path: str | Path, formats: tuple[str, ...], refusal: str) -> str:
    """The format a file's extension names (lower case, no dot), one of `formats`; any other
    is an ArenaError saying `refusal` (one line naming the formats the caller writes)."""
    kind = Path(path).suffix.lower().lstrip(".")
    if kind not in formats:
        raise ArenaError(refusal)
    return kind


def check_output_file(path: str, option: str) -> None:
    """ArenaError, in one line, unless a file can be written at `path`: not a directory, in a
    directory that exists and is writable."""
    target = Path(path)
    where = f"{option} {path}"
    if target.is_dir() or path.endswith(("/", os.sep)):  # Path() drops a trailing slash: look first
        raise ArenaError(f"{where} is a directory: name the file to write")
    folder = target.parent
    if not folder.is_dir():
        raise ArenaError(f"{where}: the directory {folder} does not exist")
    if not _writable(folder):
        raise ArenaError(f"{where}: the directory {folder} is not writable")


def _writable(folder: Path) -> bool:
    """Whether a file can be created in `folder`: tried, since permission bits do not tell
    (root ignores them; /proc refuses anyway)."""
    import tempfile  # here: it imports shutil, random, bz2 and lzma, which most commands never use

    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".arena-probe-"):
            return True
    except OSError:
        return False


_JSON_OUT: list[TextIO] = []  # the real stdout while a --json command runs


@contextlib.contextmanager
def stdout_for_json_only(enabled: bool) -> Iterator[None]:
    """With `enabled`: sys.stdout is stderr until the end (agents may print; processes forked
    meanwhile inherit it), and `print_json` alone writes to the real stdout."""
    if not enabled:
        yield
        return
    real = sys.stdout
    _JSON_OUT.append(real)
    sys.stdout = sys.stderr
    try:
        yield
    finally:
        sys.stdout = real
        _JSON_OUT.pop()


def print_json(data: Any) -> None:
    """One JSON object on its own line of the real stdout (see stdout_for_json_only)."""
    print(json.dumps(data), file=_JSON_OUT[-1] if _JSON_OUT else sys.stdout, flush=True)
