"""The code behind a result: what a task's key hashes besides its specs, seeds and files.

A stored result is only as good as the code that computed it, so a task's key covers:

- the project itself (every built-in game, agent, referee and evaluation): its version and a
  SHA-256 of its two packages' files (`arena/`, `agents/`), so an upgrade or an edit that
  changes a guesser is never resumed silently;
- each agent the task's specs name from outside the project: for a `module:Class` path or an
  entry-point name, a SHA-256 of its top-level package's source files (found on sys.path
  without importing anything), and for an entry point the installed distribution's name and
  version. Specs nested in parameters (`spoiler:against=mypkg:Mine`) count too;
- every module such an agent imports from outside its own package (`import helper_mod` beside
  it on PYTHONPATH): found by what importing the agent actually loaded (the registry notes it)
  and what the loaded modules refer to, leaving out the standard library, installed
  distributions (keyed by name and version where they are an entry point's) and the project.
  Each is keyed like the agent's own module, so editing a helper reruns exactly the tasks of
  the agents that import it.

A Python process runs the code it imported, not the code on disk: `verify` checks, where the
task runs, that each module's files are still those this process first imported, so a worker
(or a notebook) holding an older copy of an agent fails the task instead of filing an old
result under the new code's key.
"""

from __future__ import annotations

import importlib.util
import os
import site
import sys
import sysconfig
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType

from agents.registry import ROLES, builtin, loaded_with, module_path

from ...core.digests import file_digest, project_code, tree_digest
from ...core.errors import ArenaError
from ...core.spec import parse_spec

#: A source: (what, digest), e.g. ("arena", "0.2.0+3f2a..."), ("module first_ten", "9c1e..."),
#: ("distribution first-ten", "1.0").
Source = tuple[str, str]


def module_code(module: str) -> str:
    """SHA-256 of the source files of `module`'s top-level package (or of the module's one
    file), located on sys.path without importing it."""
    top = module.split(".")[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError) as e:
        raise ArenaError(f"cannot locate the Python module {top}: {e}") from None
    if spec is None:
        raise ArenaError(f"cannot locate the Python module {top} (not on PYTHONPATH)")
    if spec.submodule_search_locations:
        roots = [Path(p) for p in spec.submodule_search_locations]
    elif spec.origin and Path(spec.origin).is_file():
        return file_digest(spec.origin)
    else:
        return f"built-in {top}"  # a module with no source file (compiled in): its name is all there is
    return tree_digest(roots)


def entry_point_sources(group: str, name: str) -> list[Source]:
    """The code behind the entry point `name` of `group`: its module's source and its
    distribution's name and version (none if no such entry point is installed)."""
    for ep in entry_points(group=group):
        if ep.name == name:
            module = ep.value.partition(":")[0].strip()
            dist = getattr(ep, "dist", None)
            return (
                [(f"module {module.split('.')[0]}", module_code(module))]
                + ([(f"distribution {dist.name}", str(dist.version))] if dist is not None else [])
                + imported_code(module)
            )
    return []


# --- the modules an outside agent imports ------------------------------------------------------


@cache
def _roots() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Where code that is not the user's own lives: (the standard library and this project,
    which is keyed as a whole under "arena"; the installed distributions' site-packages)."""
    paths = sysconfig.get_paths()
    ours = {paths.get("stdlib"), paths.get("platstdlib"), str(Path(__file__).resolve().parents[2])}
    ours.add(str(Path(module_path.__code__.co_filename).resolve().parent))  # agents/
    installed = {paths.get("purelib"), paths.get("platlib"), site.getusersitepackages()}
    installed |= set(getattr(site, "getsitepackages", list)())
    return tuple(os.path.realpath(r) + os.sep for r in ours if r), tuple(
        os.path.realpath(r) + os.sep for r in installed if r
    )


def _kind(name: str) -> str | None:
    """What the loaded module `name` is: "outside" (the user's own code), "installed" (an
    installed distribution's), or None (the standard library, the project, no file at all)."""
    module = sys.modules.get(name)
    top = name.split(".")[0]
    if not isinstance(module, ModuleType) or top in sys.stdlib_module_names or top in ("arena", "agents"):
        return None
    file = getattr(module, "__file__", None)
    if not isinstance(file, str):
        return None  # compiled in, or a namespace package: it has no file of its own to change
    path = os.path.realpath(file)
    ours, installed = _roots()
    if path.startswith(installed):  # first: a virtual environment's site-packages lies in its stdlib folder
        return "installed"
    return None if path.startswith(ours) else "outside"


def _refers_to(module: ModuleType) -> set[str]:
    """The modules a loaded module's namespace refers to: modules it holds and the modules its
    functions and classes come from (`import helper`, `from helper import f`)."""
    names = set()
    for value in list(vars(module).values()):
        if isinstance(value, ModuleType):
            names.add(value.__name__)
        else:
            owner = getattr(value, "__module__", None) if callable(value) else None
            if isinstance(owner, str):
                names.add(owner)
    return names


def imported_code(module: str) -> list[Source]:
    """The code `module` (an outside agent's, imported) runs beyond its own top-level package,
    the standard library and the project: each outside module that importing it loaded or that
    it refers to (followed through each such module in turn), by its source; and each installed
    distribution that this code imports directly, by its name and version."""
    own = module.split(".")[0]
    seen, todo, tops, installed = {module}, [module], set(), set()
    while todo:
        name = todo.pop()
        loaded = sys.modules.get(name)
        if not isinstance(loaded, ModuleType):
            continue
        # what it asked for and refers to; the first import's whole haul only for its own code
        # (an installed package's dependencies are its own affair, and loaded once per process)
        direct = _refers_to(loaded) | loaded_with(name, asked_only=True)
        for found in direct | loaded_with(name):
            kind = _kind(found)
            if kind == "installed" and found in direct:
                installed.add(found.split(".")[0])
            elif kind == "outside" and found not in seen:
                seen.add(found)
                todo.append(found)
                tops.add(found.split(".")[0])
    return [(f"module {top}", module_code(top)) for top in sorted(tops - {own})] + _distributions(installed)


def _distributions(tops: set[str]) -> list[Source]:
    """The installed distributions that provide these top-level modules, with their versions."""
    if not tops:
        return []
    from importlib.metadata import packages_distributions, version

    found = {}
    providers = _providers(packages_distributions)
    for top in tops:
        for name in providers.get(top, []):
            try:
                found[f"distribution {name}"] = version(name)
            except Exception:  # metadata unreadable: its modules' presence is all we can key
                found[f"distribution {name}"] = "unknown"
    return sorted(found.items())


_provided: dict[str, list[str]] = {}


def _providers(packages_distributions) -> dict[str, list[str]]:
    """Top-level module -> the distributions that provide it (read once: it lists every one)."""
    if not _provided:
        try:
            _provided.update(packages_distributions())
        except Exception:  # a broken distribution's metadata: key no distribution rather than fail
            _provided["\0"] = []
    return _provided


def spec_sources(spec: str, depth: int = 0) -> list[Source]:
    """The code an agent spec runs, beyond the project's own: its module's source (and for an
    entry point, its distribution), then that of any agent named in its parameters."""
    if depth > 4 or not isinstance(spec, str):
        return []
    spec = spec.strip()
    found: list[Source] = []
    path = module_path(spec)
    head = spec.partition(":")[0]
    is_builtin = any(head in builtin()[role] for role in ROLES)
    if path and not ("." not in head and is_builtin):
        module = path[0].partition(":")[0]
        found.append((f"module {module.split('.')[0]}", module_code(module)))
        found += imported_code(module)
        params = path[1]
    else:
        try:
            name, raw = parse_spec(spec)
        except ArenaError:
            return []
        params = ",".join(f"{k}={v}" for k, v in raw.items())
        if not is_builtin:
            found += entry_point_sources("arena.agents", name)
    for value in _values(params):
        for part in value.split("+"):
            found.extend(spec_sources(part, depth + 1))
    return found


def _values(params: str) -> list[str]:
    try:
        return [str(v) for v in parse_spec("x:" + params)[1].values()] if params else []
    except ArenaError:
        return []


def game_sources(spec: str) -> list[Source]:
    """The code a game spec runs beyond the project's: a plug-in game's module and distribution."""
    from ... import games

    try:
        name = parse_spec(spec)[0]
    except ArenaError:
        return []
    return [] if name in games.builtin() else entry_point_sources(games.GROUP, name)


def task_code(game: str, *agents: str) -> tuple[Source, ...]:
    """Every source a task runs: the project's, then a plug-in game's and each outside agent's,
    each under the spec that runs it (`first_ten:FirstTen | module first_ten`)."""
    sources: dict[str, str] = {"arena": project_code()}
    for spec, found in [(game, game_sources(game)), *((spec, spec_sources(spec)) for spec in agents)]:
        for what, digest in found:
            sources.setdefault(f"{spec.strip()} | {what}", digest)
    return tuple(sources.items())


# --- the code in memory ----------------------------------------------------------------------

_loaded: dict[str, str] = {}  # top-level module -> the digest of its files when this process first used them


def verify(code: tuple[Source, ...]) -> None:
    """Where a task runs: is every outside module it is keyed on, as this process has it
    imported (or is about to import it), the code of the key? An ArenaError if not."""
    for what, digest in code:
        if what == "arena":
            if digest != project_code():
                raise ArenaError(f"this process runs arena {project_code()}, not {digest} as the task is keyed on")
            continue
        what = what.rpartition(" | ")[2]
        if not what.startswith("module "):
            continue
        top = what.split(" ", 1)[1]
        now = module_code(top)
        if top not in sys.modules:
            _loaded[top] = now  # it will be imported from the files as they are now
        first = _loaded.setdefault(top, now)
        if first != digest or now != digest:
            raise ArenaError(
                f"the code of {top} changed on disk after this Python process imported it, so it "
                f"would run the old code under the new code's key; restart the process (or the "
                f"notebook's kernel) to run the new code"
            )
