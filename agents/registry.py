"""Agents by name: `make_guesser("minimax:pool=all,tiebreak=consistent")`.

Three ways to name an agent: a registered name (`knuth`, `entropy`, ...), a name that a
third-party package registers through the `arena.agents` entry point group, or a Python
path `package.module:Class` (parameters then follow a second colon).
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from arena.errors import ArenaError, choices
from arena.spec import bind, parse_spec

from .base import Guesser
from .replay import Replay
from .scoring import SCORING
from .simple import Lowest, RandomConsistent


@dataclass(frozen=True)
class Alias:
    """A registered name for an agent with some parameters fixed (the user may override them)."""

    name: str
    target: str
    preset: dict[str, str] = field(default_factory=dict)
    summary: str = ""


BUILTIN: dict[str, type] = {cls.name: cls for cls in [Lowest, RandomConsistent, *SCORING, Replay]}
ALIASES: dict[str, Alias] = {
    "knuth": Alias("knuth", "minimax", {"pool": "all", "tiebreak": "consistent"},
                   "Knuth 1977: minimax over every code, ties to a consistent code then the lowest"),
}


def registered() -> dict[str, Any]:
    """Every agent name: built-ins, aliases and the `arena.agents` entry points."""
    found: dict[str, Any] = dict(BUILTIN)
    found.update(ALIASES)
    for ep in entry_points(group="arena.agents"):
        found.setdefault(ep.name, ep)
    return found


def agent_class(name: str) -> type:
    """The class behind an agent name or a `module:Class` path."""
    table = registered()
    entry = table.get(name)
    if entry is None:
        raise ArenaError(f"unknown agent {name!r}; agents: {choices(sorted(table))}")
    if isinstance(entry, Alias):
        return agent_class(entry.target)
    if not isinstance(entry, type):  # an entry point, loaded on first use
        try:
            entry = entry.load()
        except Exception as e:  # a broken plug-in is the plug-in's fault, reported as such
            raise ArenaError(f"agent {name!r} from entry point {entry.value!r} failed to load: {e}") from None
    return entry


def _split_path(spec: str) -> tuple[str, str] | None:
    """`pkg.mod:Class[:params]` -> ("pkg.mod:Class", "params"), else None."""
    head, _, rest = spec.partition(":")
    cls, _, params = rest.partition(":")
    if cls.isidentifier() and ("." in head or cls[:1].isupper()):
        return f"{head}:{cls}", params
    return None


def _import_path(path: str) -> type:
    module, _, cls = path.partition(":")
    if os.getcwd() not in sys.path:  # as `python -m` would: the user's own modules are found
        sys.path.append(os.getcwd())
    try:
        return getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError) as e:
        raise ArenaError(f"agent {path!r} cannot be imported: {e}") from None


def make_agent(spec: str, role: str | None = None):
    """The agent written `spec`, checked to play `role` ('guesser' or 'chooser') if given."""
    path = _split_path(spec.strip()) if isinstance(spec, str) else None
    if path:
        cls = _import_path(path[0])
        if not (isinstance(cls, type) and callable(getattr(cls, "guess", None))):
            raise ArenaError(f"{path[0]} is not an agent: an agent is a class with a guess(game, state) "
                             "method, such as a subclass of agents.Guesser")
        name, raw = path[0], parse_spec("x:" + path[1])[1]
    else:
        name, raw = parse_spec(spec)
        alias = ALIASES.get(name)
        raw = {**alias.preset, **raw} if alias else raw
        cls = agent_class(name)
    declared = cls.declared_params() if hasattr(cls, "declared_params") else getattr(cls, "params", {})
    values = bind(f"agent {name}", declared, raw)
    kind = getattr(cls, "role", "guesser")
    if role and kind != role:
        raise ArenaError(f"agent {name!r} is a {kind}, not a {role}")
    try:
        agent = cls(**values)
    except TypeError as e:
        raise ArenaError(f"agent {name!r} cannot be built from {spec!r}: {e}") from None
    agent.label = spec.strip()  # as the user wrote it (the alias survives: `knuth`, not `minimax`)
    return agent


def make_guesser(spec: str) -> Guesser:
    """The guesser written `spec`, e.g. `entropy:pool=all,small=3,tiebreak=first`."""
    return make_agent(spec, "guesser")


def describe_agents() -> list[tuple[str, str, str, list[str]]]:
    """(name, role, summary, one line per parameter) for every registered agent, for `arena agents`."""
    rows = []
    for name, entry in sorted(registered().items()):
        try:
            cls = agent_class(name)
        except ArenaError as e:
            rows.append((name, "?", str(e), []))
            continue
        summary = entry.summary if isinstance(entry, Alias) else getattr(cls, "summary", "")
        if isinstance(entry, Alias):
            summary += f" (= {entry.target}:" + ",".join(f"{k}={v}" for k, v in entry.preset.items()) + ")"
        declared = cls.declared_params() if hasattr(cls, "declared_params") else {}
        rows.append((name, getattr(cls, "role", "guesser"), summary, [p.describe() for p in declared.values()]))
    return rows
