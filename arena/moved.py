"""Old import paths, kept working: `arena.report`, `arena.tree`, `arena.commands.optimal`, ...

The modules moved into folders (arena/core/, trees/, play/, study/, parallel/, api/, cli/,
bridges/); code written against the old flat layout still imports them by their old names. A
finder on `sys.meta_path` answers an old name with the module under its new name (the same
module object, not a copy: a patch through either name patches both), and nothing else.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:  # only for the types: see MovedLoader
    import importlib.abc

#: Old dotted name -> new one; a name below an old package moves with it (`arena.tournament.store`
#: -> `arena.study.tournament.store`), the longest old prefix deciding.
MOVED = {
    **{
        f"arena.{name}": f"arena.core.{name}"
        for name in (
            "caches compiled costs digests errors feedback frames game kernels outfile"
            " players plugins resources seeding spec state traits weights words"
        ).split()
    },
    "arena.payoff": "arena.core.costs",  # a cost and its payoff are one idea
    "arena.core.payoff": "arena.core.costs",
    "arena.door": "arena.core.checks",
    "arena.codes": "arena.games.codes",
    "arena.strategy": "arena.trees.tree",
    "arena.growth": "arena.trees.grow",
    "arena.levels": "arena.trees.levels",
    "arena.tree": "arena.trees.saved",
    "arena.greedy": "arena.trees.greedy",
    "arena.metrics": "arena.trees.metrics",
    "arena.treeplot": "arena.trees.plot",
    "arena.evaluate": "arena.play.evaluate",
    "arena.match": "arena.play.match",
    "arena.config": "arena.study.config",
    "arena.tournament": "arena.study.tournament",
    "arena.tournament.pool": "arena.parallel.pool",
    "arena.tournament.runner": "arena.study.tournament.play",
    "arena.report": "arena.study.results.report",
    "arena.report_views": "arena.study.results.views",
    "arena.html_report": "arena.study.results.html",
    "arena.export": "arena.study.results.export",
    "arena.dynamics": "arena.study.results.dynamics",
    "arena.paired": "arena.study.results.paired",
    "arena.orphans": "arena.parallel.orphans",
    "arena.optimal.progress": "arena.parallel.progress",
    "arena.frontdoor": "arena.api.frontdoor",
    "arena.commands": "arena.cli",
    "arena.bridge": "arena.play.moves",
    # renamed where two modules shared a name (issue 32)
    "arena.optimal.search.state": "arena.optimal.search.shared",
    "arena.optimal.search.scoring": "arena.optimal.search.ordering",
    "arena.optimal.search.misses": "arena.optimal.search.determined",
    "arena.equilibrium.payoff": "arena.equilibrium.payoff_matrix",
    "arena.study.tournament.cells": "arena.study.tournament.tasks",
    "arena.study.tournament.runner": "arena.study.tournament.play",
    "arena.tournament.cells": "arena.study.tournament.tasks",
    "arena.openspiel": "arena.bridges.openspiel",
    "arena.envs": "arena.bridges.envs",
}


def new_name(old: str) -> str | None:
    """The module's name now, or None where `old` never moved."""
    parts = old.split(".")
    for k in range(len(parts), 1, -1):
        new = MOVED.get(".".join(parts[:k]))
        if new is not None:
            return ".".join([new, *parts[k:]])
    return None


class MovedLoader:
    """Loads an old name as the module under its new name. (No importlib.abc base class: the
    import system asks only for these methods, and importlib.abc imports importlib.resources,
    tempfile and shutil, 5-7 ms of every command's start-up.)"""

    def __init__(self, new: str) -> None:
        self.new = new
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system has set the module's __spec__ to the old name's: give it back its
        # own, which pickling and reloading read.
        module.__spec__ = self.spec


class MovedFinder:
    """Finds the old names of moved modules (and only those); a MetaPathFinder by its method."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = new_name(fullname) if fullname.startswith("arena.") else None
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("importlib.abc.Loader", MovedLoader(new)))


def install() -> None:
    """Put the finder on sys.meta_path once (first, so an old name is never searched for as a file)."""
    if not any(isinstance(f, MovedFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
