"""What a long search says while it runs: one status line on stderr, only on a terminal.

A search that may run for minutes rewrites one line in place (carriage return, no newline) at
most every half second, and erases it when it ends, so the report that follows is clean. When
stderr is a pipe or a file (a log, a test capturing it) nothing is written: a log full of
carriage returns helps nobody, and `--json` output stays the only output.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

#: Seconds between two rewrites of the line.
EVERY = 0.5


def is_terminal(stream: TextIO) -> bool:
    """Is this stream an interactive terminal? (False for anything that cannot say.)"""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class ProgressLine:
    """A status line rewritten in place on `stream` (default stderr), throttled to one write
    every `every` seconds; `enabled` defaults to "the stream is a terminal"."""

    def __init__(self, label: str, stream: TextIO | None = None, every: float = EVERY,
                 enabled: bool | None = None):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = is_terminal(self.stream) if enabled is None else enabled
        self.label, self.every = label, every
        self.started = time.perf_counter()
        self.last = self.started  # the first line waits one interval: quick runs print nothing
        self.width = 0

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def due(self) -> bool:
        """Is it time to rewrite the line? (Cheap: callers ask before formatting it.)"""
        return self.enabled and time.perf_counter() - self.last >= self.every

    def show(self, text: str) -> None:
        """Rewrite the line with `text` (the label in front), padding over a longer old line."""
        if not self.enabled:
            return
        self.last = time.perf_counter()
        line = f"{self.label}: {text}"
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def close(self) -> None:
        """Erase the line, if one was written."""
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
