"""Agents by role and name: `make_agent("minimax:pool=all", "guesser")`.

Guessers and choosers have separate name spaces (there is a `minimax` of each). Three ways
to name an agent: a registered name, found in any module of this package that lists its
classes in `AGENTS` (and its `Alias`es in `ALIASES`); a name that a third-party package
registers through the `arena.agents` entry point group; or a Python path
`package.module:Class` (parameters then follow a second colon).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any

from arena.errors import ArenaError, choices
from arena.spec import bind, parse_spec

ROLES = ("guesser", "chooser")


@dataclass(frozen=True)
class Alias:
    """A registered name for an agent with some parameters fixed (the user may override them)."""

    name: str
    target: str
    preset: dict[str, str] = field(default_factory=dict)
    summary: str = ""
    role: str = "guesser"


@lru_cache(maxsize=1)
def builtin() -> dict[str, dict[str, Any]]:
    """role -> name -> class or Alias, from every module of the agents package."""
    import agents

    table: dict[str, dict[str, Any]] = {role: {} for role in ROLES}
    for info in sorted(pkgutil.iter_modules(agents.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"agents.{info.name}")
        for cls in getattr(module, "AGENTS", []):
            table[getattr(cls, "role", "guesser")][cls.name] = cls
        for alias in getattr(module, "ALIASES", []):
            table[alias.role][alias.name] = alias
    return table


def _entry_point(name: str):
    for ep in entry_points(group="arena.agents"):
        if ep.name == name:
            try:
                return ep.load()
            except Exception as e:  # a broken plug-in is the plug-in's fault, reported as such
                raise ArenaError(f"agent {name!r} from entry point {ep.value!r} failed to load: {e}") from None
    return None


def lookup(name: str, role: str) -> tuple[type, dict[str, str], Alias | None]:
    """The class behind a registered name, the parameters an alias presets, and the alias."""
    entry = builtin()[role].get(name)
    if entry is None:
        entry = _entry_point(name)
        if entry is None or getattr(entry, "role", "guesser") != role:
            other = [r for r in ROLES if r != role and name in builtin()[r]]
            hint = f" ({name!r} is a {other[0]})" if other else ""
            raise ArenaError(f"unknown {role} {name!r}{hint}; {role}s: {choices(sorted(names(role)))}")
    if isinstance(entry, Alias):
        cls, preset, _ = lookup(entry.target, role)
        return cls, {**preset, **entry.preset}, entry
    return entry, {}, None


def names(role: str) -> list[str]:
    """Every name an agent of this role can be given: built-ins and entry points."""
    found = set(builtin()[role])
    found.update(ep.name for ep in entry_points(group="arena.agents"))
    return sorted(found)


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


def make_agent(spec: str, role: str = "guesser"):
    """The agent of `role` ('guesser' or 'chooser') written `spec`."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}")
    path = _split_path(spec.strip()) if isinstance(spec, str) else None
    if path:
        cls = _import_path(path[0])
        method = "guess" if role == "guesser" else "reply"
        if not (isinstance(cls, type) and callable(getattr(cls, method, None))):
            raise ArenaError(f"{path[0]} is not a {role}: a {role} is a class with a {method}(game, state) "
                             f"method, such as a subclass of agents.{role.title()}")
        name, raw = path[0], parse_spec("x:" + path[1])[1]
    else:
        name, raw = parse_spec(spec)
        cls, preset, _ = lookup(name, role)
        raw = {**preset, **raw}
    declared = cls.declared_params() if hasattr(cls, "declared_params") else getattr(cls, "params", {})
    values = bind(f"{role} {name}", declared, raw)
    try:
        agent = cls(**values)
    except TypeError as e:
        raise ArenaError(f"{role} {name!r} cannot be built from {spec!r}: {e}") from None
    agent.label = spec.strip()  # as the user wrote it (the alias survives: `knuth`, not `minimax`)
    return agent


def make_guesser(spec: str):
    """The guesser written `spec`, e.g. `entropy:pool=all,small=3,tiebreak=first`."""
    return make_agent(spec, "guesser")


def make_chooser(spec: str):
    """The chooser written `spec`, e.g. `uniform` or `evil`."""
    return make_agent(spec, "chooser")


def describe_agents() -> list[tuple[str, str, str, list[str]]]:
    """(name, role, summary, one line per parameter) for every agent, for `arena agents`."""
    rows = []
    for role in ROLES:
        for name in names(role):
            try:
                cls, preset, alias = lookup(name, role)
            except ArenaError:
                continue  # an entry point of the other role
            summary = getattr(cls, "summary", "")
            if alias:
                summary = alias.summary + f" (= {alias.target}:" + ",".join(f"{k}={v}" for k, v in preset.items()) + ")"
            declared = cls.declared_params() if hasattr(cls, "declared_params") else getattr(cls, "params", {})
            rows.append((name, role, summary, [p.describe() for p in declared.values()]))
    return rows
