"""Results as pandas DataFrames (`.to_frame()`), for people who study the games in a notebook.

pandas is an optional extra (`pip install -e '.[frames]'`): it is imported only when
a frame is asked for, and its absence is a user's mistake with a one-line remedy.
"""

from __future__ import annotations

from typing import Any

from .errors import ArenaError

INSTALL = "pip install -e '.[frames]'"


def pandas() -> Any:
    """The pandas module, or an ArenaError saying how to install it."""
    try:
        import pandas as pd  # lazy: heavy
    except ImportError:
        raise ArenaError(f"DataFrames need pandas: {INSTALL}") from None
    return pd


def frame(columns: dict[str, Any]) -> Any:
    """A DataFrame of these columns (equal-length sequences, or scalars repeated down them)."""
    return pandas().DataFrame(columns)


def counts(values: Any, length: int) -> Any:
    """A nullable integer column: `values`, or missing (<NA>) throughout where a figure is not
    counted in this game (misses outside Hangman)."""
    pd = pandas()
    return pd.array([None] * length if values is None else values, dtype="Int64")
