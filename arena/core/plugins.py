"""Installed plug-ins: the entry points of a group (`arena.games`, `arena.agents`), read through
importlib.metadata only when an installed distribution may declare one.

Importing importlib.metadata costs 0.03-0.04 s of CPU (it imports email, zipfile and csv), a
tenth of `arena games`, and most installations declare no plug-in at all. So the directories
that importlib.metadata would search (sys.path) are looked through first for an
`entry_points.txt` that names the group; only if one does, or if something there cannot be
looked through this way (a zip file on sys.path, a finder of distributions other than
Python's own), is importlib.metadata asked. The look is a superset test: it may send a
question on to importlib.metadata needlessly, never keep a plug-in from it.

Also here: whether a `module:Class` agent spec may import its module (`imports_allowed`, the
user's `--allow-import`), which agents.registry reads and re-exports; kept below the agents so
that a command that builds no agent (`arena optimal`) sets it without importing them (about
0.01 s of start-up).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib.machinery import PathFinder
from typing import Any

#: May a `module:Class` spec import its module? Off unless the user said so (`--allow-import`).
_IMPORTS_ALLOWED: ContextVar[bool] = ContextVar("arena_imports_allowed", default=False)


@contextmanager
def imports_allowed(allowed: bool = True) -> Iterator[None]:
    """Within this block, `module:Class` specs may (or, with False, may not) import their module."""
    token = _IMPORTS_ALLOWED.set(bool(allowed))
    try:
        yield
    finally:
        _IMPORTS_ALLOWED.reset(token)


def imports_are_allowed() -> bool:
    """Whether `module:Class` specs may import here (agents that build other agents later,
    such as the spoiler's `against=`, keep the answer they were built with)."""
    return _IMPORTS_ALLOWED.get()


def entry_points(group: str) -> list[Any]:
    """The installed entry points of `group` (importlib.metadata's EntryPoint objects)."""
    if not may_declare(group):
        return []
    from importlib.metadata import entry_points as installed

    return list(installed(group=group))


def may_declare(group: str) -> bool:
    """Whether an installed distribution may declare an entry point of `group`: False only
    when every place importlib.metadata would look was looked through and no entry_points.txt
    there mentions the group."""
    if any(finder is not PathFinder and hasattr(finder, "find_distributions") for finder in sys.meta_path):
        return True  # distributions listed by a finder of their own: only importlib.metadata asks it
    return any(_mentions(entry or ".", group) for entry in sys.path)


def _mentions(folder: str, group: str) -> bool:
    """Whether a distribution's metadata in the sys.path entry `folder` may name `group`."""
    if os.path.isfile(folder) or folder.lower().endswith(".egg"):
        return True  # a zip file or an egg: importlib.metadata reads inside it
    try:
        names = os.listdir(folder)
    except OSError:  # missing, or not readable: importlib.metadata finds nothing there either
        return False
    for name in names:
        if name.lower().endswith((".dist-info", ".egg-info")):  # as importlib.metadata matches them
            try:
                with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8", errors="replace") as f:
                    if group in f.read():
                        return True
            except OSError:  # no entry points (or an .egg-info file): nothing declared
                continue
    return False
