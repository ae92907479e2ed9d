"""Agents by role and name: `make_agent("minimax:pool=all", "guesser")`.

Guessers and choosers have separate name spaces (there is a `minimax` of each). Three ways
to name an agent: a registered name, found in any module of this package that lists its
classes in `AGENTS` (and its `Alias`es in `ALIASES`) and looked up through INDEX, which
names each one's module (only that module is imported); a name that a third-party package
registers through the `arena.agents` entry point group; or a Python path
`package.module:Class` (parameters then follow a second colon).

A Python path imports a module, and importing runs the module's code, so a config or a command
line could run any code through it. It is therefore refused unless importing is allowed: by
`allow_import=True`, or inside `with imports_allowed():` (the CLI's `--allow-import` flag). The
module is looked up on sys.path as it is: the current directory is never added to it. Built-in
agents and installed entry points need no permission (they are code the user installed).
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import os
import sys
import traceback
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from arena.core import errors as arena_errors
from arena.core.errors import ArenaError, choices, did_you_mean
from arena.core.plugins import imports_allowed, imports_are_allowed
from arena.core.spec import bind, parse_spec
from arena.core.traits import Traits

ROLES = ("guesser", "chooser")


@dataclass(frozen=True)
class Alias:
    """A registered name for an agent with some parameters fixed (the user may override them)."""

    name: str
    target: str
    preset: dict[str, str] = field(default_factory=dict)
    summary: str = ""
    role: str = "guesser"


#: role -> name -> the module of this package that registers it (in its AGENTS or ALIASES):
#: a fixed index, so that building an agent imports its own module and not all of them (a
#: tiny evaluation's start-up). tests/test_startup.py checks it against `builtin()` both ways:
#: a new agent, or a renamed one, is a line here.
INDEX: dict[str, dict[str, str]] = {
    "guesser": {
        "entropy": "scoring",
        "equilibrium": "equilibrium",
        "expected": "scoring",
        "fewest-misses": "misses",
        "human": "human",
        "knuth": "scoring",
        "learned": "learned",
        "lookahead": "lookahead",
        "lowest": "simple",
        "max-frequency": "scoring",
        "minimax": "scoring",
        "most-parts": "scoring",
        "optimal": "optimal",
        "random": "simple",
        "tree": "replay",
    },
    "chooser": {
        "equilibrium": "equilibrium",
        "evil": "evil",
        "fixed": "chooser",
        "human": "human",
        "minimax": "adversary",
        "spoiler": "spoiler",
        "uniform": "chooser",
        "weighted": "chooser",
    },
}


def registered(module_name: str) -> dict[str, dict[str, Any]]:
    """role -> name -> class or Alias, as the module `agents.<module_name>` lists them in its
    `AGENTS` and `ALIASES`."""
    module = importlib.import_module(f"agents.{module_name}")
    table: dict[str, dict[str, Any]] = {role: {} for role in ROLES}
    for cls in getattr(module, "AGENTS", []):
        table[getattr(cls, "role", "guesser")][cls.name] = cls
    for alias in getattr(module, "ALIASES", []):
        table[alias.role][alias.name] = alias
    return table


def agent_modules() -> list[str]:
    """The modules of this package, by name (the files themselves: what the index is checked against)."""
    import pkgutil

    import agents

    return sorted(info.name for info in pkgutil.iter_modules(agents.__path__))


@lru_cache(maxsize=1)
def builtin() -> dict[str, dict[str, Any]]:
    """role -> name -> class or Alias, from every module of the agents package (all of them
    imported: `arena agents` and the tests; one agent is found through INDEX)."""
    table: dict[str, dict[str, Any]] = {role: {} for role in ROLES}
    for name in agent_modules():
        for role, found in registered(name).items():
            table[role].update(found)
    return table


def _builtin_entry(name: str, role: str) -> Any:
    """The class or Alias of the built-in agent `name`, importing only its own module; None
    if no built-in agent of this role has that name."""
    module = INDEX[role].get(name)
    if module is None:
        return None
    return registered(module)[role][name]


def entry_points(group: str):
    """The installed entry points of `group` (arena.core.plugins: importlib.metadata, imported only
    when a distribution may declare one)."""
    from arena.core.plugins import entry_points as installed

    return installed(group)


#: The code an outside agent runs besides its own module, which the results store keys tasks
#: on: module -> the modules that first importing it loaded, and importer -> the modules its
#: import statements asked for while an agent was imported (already loaded ones too).
_brought: dict[str, set[str]] = {}
_asked: dict[str, set[str]] = {}


def _import_noting(module: str, load: Any = None) -> Any:
    """Import `module` (or call `load`, which imports it), noting what the import loaded and
    which module asked for which (`from helper import X` names helper even if it was loaded)."""
    before = set(sys.modules)
    original = builtins.__import__

    def noting(name, globals=None, locals=None, fromlist=(), level=0):
        found = original(name, globals, locals, fromlist, level)
        importer = globals.get("__name__") if isinstance(globals, dict) else None
        if isinstance(importer, str):
            _asked.setdefault(importer, set()).add(getattr(found, "__name__", name))
        return found

    builtins.__import__ = noting
    try:
        return load() if load is not None else importlib.import_module(module)
    finally:
        builtins.__import__ = original
        _brought.setdefault(module, set(sys.modules) - before)


def loaded_with(module: str, asked_only: bool = False) -> set[str]:
    """The modules `module` brought in, as far as this registry saw it imported: those its
    first import (as an outside agent's) loaded, and those its import statements asked for
    (only these with `asked_only`)."""
    asked = _asked.get(module, set())
    return set(asked) if asked_only else _brought.get(module, set()) | asked


def _entry_point(name: str):
    for ep in entry_points(group="arena.agents"):
        if ep.name == name:
            try:
                return _import_noting(ep.value.partition(":")[0].strip(), ep.load)
            except Exception as e:  # a broken plug-in is the plug-in's fault, reported as such
                raise ArenaError(f"agent {name!r} from entry point {ep.value!r} failed to load: {e}") from None
    return None


def lookup(name: str, role: str) -> tuple[type, dict[str, str], Alias | None]:
    """The class behind a registered name, the parameters an alias presets, and the alias."""
    entry = _builtin_entry(name, role)
    if entry is None:
        entry = _entry_point(name)
        if entry is None or getattr(entry, "role", "guesser") != role:
            other = [r for r in ROLES if r != role and name in INDEX[r]]
            hint = f" ({name!r} is a {other[0]})" if other else did_you_mean(name, names(role))
            raise ArenaError(f"unknown {role} {name!r}{hint}; {role}s: {choices(sorted(names(role)))}")
    if isinstance(entry, Alias):
        cls, preset, _ = lookup(entry.target, role)
        return cls, {**preset, **entry.preset}, entry
    return entry, {}, None


def names(role: str) -> list[str]:
    """Every name an agent of this role can be given: built-ins and the entry points whose
    class plays this role (one that fails to load is listed under both: its error says why)."""
    found = set(INDEX[role])
    for ep in entry_points(group="arena.agents"):
        try:
            cls = ep.load()
        except Exception:  # a broken plug-in: lookup reports it by name
            found.add(ep.name)
            continue
        if getattr(cls, "role", "guesser") == role:
            found.add(ep.name)
    return sorted(found)


def module_path(spec: str) -> tuple[str, str] | None:
    """`pkg.mod:Class[:params]` -> ("pkg.mod:Class", "params") by its form alone (nothing is
    looked up or imported), else None."""
    head, _, rest = spec.strip().partition(":")
    cls, _, params = rest.partition(":")
    if cls.isidentifier() and ("." in head or cls[:1].isupper()):
        return f"{head}:{cls}", params
    return None


def _split_path(spec: str) -> tuple[str, str] | None:
    """module_path, except for a registered name (`entropy:X` is a malformed parameter list,
    not a module called entropy)."""
    head = spec.partition(":")[0]
    if "." not in head and any(head in INDEX[role] for role in ROLES):
        return None
    return module_path(spec)


def _module_name(path: str, role: str) -> str:
    """The module of `pkg.mod:Class`, checked to be an absolute dotted name of identifiers."""
    module = path.partition(":")[0]
    if module.startswith("."):
        raise ArenaError(
            f"{role} {path!r}: a relative module path cannot be imported (nothing to be "
            f"relative to); write the full module path, like package.module:Class"
        )
    if not all(part.isidentifier() for part in module.split(".")):
        raise ArenaError(f"{role} {path!r}: {module!r} is not a module path; write package.module:Class")
    return module


def _import_path(path: str, role: str, allowed: bool) -> type:
    """The class that `pkg.mod:Class` names, imported only when allowed (importing runs code)."""
    module = _module_name(path, role)
    if not allowed:
        raise ArenaError(
            f"{role} {path!r} would import Python module {module}: pass --allow-import to allow it "
            f"(a config or spec can run code only with this flag)"
        )
    try:
        loaded = _import_noting(module)
    except ModuleNotFoundError as e:
        raise ArenaError(
            f"{role} {path!r} cannot be imported: {e} (modules are found on PYTHONPATH; "
            f"the current directory is not searched unless it is on it)"
        ) from None
    except ImportError as e:
        raise ArenaError(f"{role} {path!r} cannot be imported: {e}") from None
    except (Exception, SystemExit) as e:  # the module's own code failed while it was imported
        detail = f"{type(e).__name__}: {e}".rstrip(": ").replace("\n", " ")
        raise ArenaError(
            f"{role} {path!r} cannot be imported: module {module} failed while importing ({detail})"
        ) from None
    try:
        return getattr(loaded, path.partition(":")[2])
    except AttributeError:
        raise ArenaError(
            f"{role} {path!r} cannot be imported: module {module} has no {path.partition(':')[2]!r}"
        ) from None


def _check_role(cls: Any, path: str, role: str) -> None:
    """A class named by a Python path must be an agent of the role asked for."""
    method = "guess" if role == "guesser" else "reply"
    declared = getattr(cls, "role", role) if isinstance(cls, type) else role
    if not (isinstance(cls, type) and callable(getattr(cls, method, None))) or declared != role:
        raise ArenaError(
            f"{path} is not a {role}: a {role} is a class with a {method}(game, state) "
            f"method, such as a subclass of agents.{role.title()}"
        )


def make_agent(spec: str, role: str = "guesser", *, allow_import: bool | None = None):
    """The agent of `role` ('guesser' or 'chooser') written `spec`.

    `allow_import`: may a `module:Class` spec import its module? None (the default) asks the
    context (`imports_allowed`), which is False unless the caller allowed it."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}")
    allowed = imports_are_allowed() if allow_import is None else bool(allow_import)
    path = _split_path(spec.strip()) if isinstance(spec, str) else None
    if path:
        cls = _import_path(path[0], role, allowed)
        _check_role(cls, path[0], role)
        name, raw = path[0], parse_spec("x:" + path[1])[1]
    else:
        name, raw = parse_spec(spec)
        cls, preset, _ = lookup(name, role)
        raw = {**preset, **raw}
    declared = cls.declared_params() if hasattr(cls, "declared_params") else getattr(cls, "params", {})
    values = bind(f"{role} {name}", declared, raw)
    try:
        with imports_allowed(allowed):  # agents built by this one (spoiler:against=...) inherit the answer
            agent = cls(**values)
    except TypeError as e:
        raise ArenaError(f"{role} {name!r} cannot be built from {spec!r}: {e}") from None
    if not isinstance(getattr(agent, "traits", None), Traits):  # every caller asks agent.traits.X
        raise ArenaError(
            f"{role} {name!r} declares no traits: give its class `traits = Traits(...)` "
            f"(arena.core.traits), or subclass agents.{role.title()}"
        )
    agent.label = spec.strip()  # as the user wrote it (the alias survives: `knuth`, not `minimax`)
    _note_outside_code(cls, role, agent.label)
    return agent


# --- an outside agent's failure, told as such --------------------------------------------------

_PROJECT = tuple(
    str(p) + os.sep for p in (Path(__file__).resolve().parent, Path(arena_errors.__file__).resolve().parents[1])
)
_outside: dict[str, list[str]] = {}  # source file of outside agent classes -> ["guesser first_ten:FirstTen", ...]


def _note_outside_code(cls: type, role: str, label: str) -> None:
    """Remember the files of an agent's classes that are not the project's (a module:Class or
    entry-point agent), so a failure in them is reported as that agent's, at its own line."""
    for klass in cls.__mro__:
        try:
            path = inspect.getsourcefile(klass)
        except TypeError:  # a built-in class (object)
            continue
        if path and not str(Path(path).resolve()).startswith(_PROJECT):
            agents = _outside.setdefault(str(Path(path).resolve()), [])
            if f"{role} {label}" not in agents:
                agents.append(f"{role} {label}")


def agent_fault(error: BaseException, agents: tuple = ()) -> str | None:
    """If `error` was raised in (or below) the code of an agent from outside the project, one
    line naming the agent and its own file, line and function: `guesser first_ten:FirstTen
    failed at first_ten.py:14 in choose (pool[np.argmax(...)]): ValueError: ...`; else None.

    The agent is the one whose method was running (its `self`), else the one of `agents` (those
    playing, e.g. a task's guesser and chooser) whose class is in that file; several agents'
    classes may share a file, so the file alone never names one of them."""
    frames = traceback.extract_tb(error.__traceback__)
    running = [frame for frame, _ in traceback.walk_tb(error.__traceback__)]
    for i in reversed(range(len(frames))):
        frame = frames[i]
        known = _outside.get(str(Path(frame.filename).resolve()))
        if known is None:
            continue
        agent = _whose(running[: i + 1], known, agents)
        code = f" ({frame.line.strip()})" if frame.line else ""
        detail = f"{type(error).__name__}: {error}".rstrip(": ").replace("\n", " ")
        return f"{agent} failed at {Path(frame.filename).name}:{frame.lineno} in {frame.name}{code}: {detail}"
    return None


def _whose(running: list, known: list[str], agents: tuple) -> str:
    """Which agent was running: the innermost frame whose `self` is an agent, else the one
    agent in play (or ever built) with a class in the file, else every candidate, named so."""
    for frame in reversed(running):
        me = frame.f_locals.get("self")
        label, role = getattr(me, "label", None), getattr(type(me), "role", None)
        if isinstance(label, str) and f"{role} {label}" in known:
            return f"{role} {label}"
    playing = [a for a in (f"{getattr(type(x), 'role', '')} {getattr(x, 'label', '')}" for x in agents) if a in known]
    candidates = playing or known
    return candidates[0] if len(candidates) == 1 else "one of " + " or ".join(candidates)


def make_guesser(spec: str, *, allow_import: bool | None = None):
    """The guesser written `spec`, e.g. `entropy:pool=all,small=3,tiebreak=first`."""
    return make_agent(spec, "guesser", allow_import=allow_import)


def make_chooser(spec: str, *, allow_import: bool | None = None):
    """The chooser written `spec`, e.g. `uniform` or `evil`."""
    return make_agent(spec, "chooser", allow_import=allow_import)


def first_line(doc: str | None) -> str:
    """A docstring's first sentence or line: the summary of an agent that sets none."""
    text = " ".join((doc or "").strip().split("\n\n")[0].split())
    return text.split(". ")[0].rstrip(".") if text else "(no summary: set the class's summary)"


def describe_agents() -> list[tuple[str, str, str, list[str]]]:
    """(name, role, summary, one line per parameter) for every agent, for `arena agents`."""
    rows = []
    for role in ROLES:
        for name in names(role):
            try:
                cls, preset, alias = lookup(name, role)
            except ArenaError:
                continue  # an entry point of the other role
            summary = getattr(cls, "summary", "") or first_line(cls.__doc__)
            if alias:
                summary = alias.summary + f" (= {alias.target}:" + ",".join(f"{k}={v}" for k, v in preset.items()) + ")"
            declared = cls.declared_params() if hasattr(cls, "declared_params") else getattr(cls, "params", {})
            rows.append((name, role, summary, [p.describe() for p in declared.values()]))
    return rows
