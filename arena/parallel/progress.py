"""What a long run says while it runs: one status line on stderr, only on a terminal; or,
asked for, a log (`ProgressLine`: a search, the split); or a bar of tasks done (`TaskBar`: a
tournament).

A search that may run for minutes rewrites one line in place (carriage return, no newline) at
most every half second, and erases it when it ends, so the report that follows is clean. When
stderr is a pipe or a file (a log, a test capturing it) nothing is written: a log full of
carriage returns helps nobody, and `--json` output stays the only output. A run left in the
background for hours asks for a log instead (`log_every`): the same status as whole lines,
each with the time it was written, one every so many seconds, terminal or not.
"""

from __future__ import annotations

import shutil
import sys
import time
from typing import Any, TextIO

#: Seconds between two rewrites of the line.
EVERY = 0.5


def is_terminal(stream: TextIO) -> bool:
    """Is this stream an interactive terminal? (False for anything that cannot say.)"""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def screen() -> dict[str, int]:
    """The terminal's size as tqdm's `ncols` and `nrows`: a pseudo-terminal that reports 0 (a
    test's, or `script`'s) would make tqdm cut every line to nothing or skip it, so 100 x 24."""
    size = shutil.get_terminal_size((100, 24))
    return {"ncols": size.columns if size.columns > 0 else 100, "nrows": size.lines if size.lines > 0 else 24}


class ProgressLine:
    """A status line rewritten in place on `stream` (default stderr), throttled to one write
    every `every` seconds; `enabled` defaults to "the stream is a terminal". The line is a tqdm
    status bar (no bar, only the text): tqdm owns the terminal handling, this class the
    throttling that lets callers skip formatting the text."""

    def __init__(
        self,
        label: str,
        stream: TextIO | None = None,
        every: float = EVERY,
        enabled: bool | None = None,
        log_every: float | None = None,
    ):
        """`log_every`: write whole lines, one every that many seconds, instead of one line
        rewritten in place (terminal or not)."""
        self.stream = sys.stderr if stream is None else stream
        self.enabled = True if log_every is not None else is_terminal(self.stream) if enabled is None else enabled
        self.label, self.every = label, every if log_every is None else log_every
        self.log = log_every is not None
        self.started = time.perf_counter()
        self.last = self.started  # the first line waits one interval: quick runs print nothing
        self.bar: Any = None  # a tqdm status bar once the first line is shown

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def due(self) -> bool:
        """Is it time to rewrite the line? (Cheap: callers ask before formatting it.)"""
        return self.enabled and time.perf_counter() - self.last >= self.every

    def show(self, text: str) -> None:
        """Rewrite the line with `text` (the label in front)."""
        if not self.enabled:
            return
        if self.log:
            self.last = time.perf_counter()
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            print(f"{stamp} {self.label}: {text}", file=self.stream, flush=True)
            return
        if self.bar is None:
            from tqdm import tqdm  # lazy: heavy (only a long search on a terminal shows a line)

            self.bar = tqdm(file=self.stream, bar_format="{desc}", leave=False, **screen())
        self.last = time.perf_counter()
        self.bar.set_description_str(f"{self.label}: {text}", refresh=True)

    def close(self) -> None:
        """Erase the line, if one was written."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class TaskBar:
    """Tasks done, rate and time left: a tqdm bar on stderr (the caller shows it only on a
    terminal: arena run with stderr a tty and no --json). `initial`: tasks done before (a
    resumed run counts from there)."""

    def __init__(self, total: int, initial: int = 0, unit: str = "task"):
        from tqdm import tqdm  # lazy: heavy (only a run with a progress bar needs it)

        self.bar = tqdm(total=total, initial=initial, unit=unit, file=sys.stderr, **screen())

    def step(self) -> None:
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()
