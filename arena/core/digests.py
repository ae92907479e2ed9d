"""The contents a result was computed from: SHA-256 digests of files, of the files a game
spec reads, and of the project's own code. A saved state (the results store, an exact search's
journal) is keyed by them, so that a file edited under it, or an upgrade that changes what the
code computes, is noticed, never served stale."""

from __future__ import annotations

import importlib.util
import json
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import ArenaError
from .words import SHIPPED, racy

if TYPE_CHECKING:  # the type only: hashlib is imported at the first digest (sha256)
    import hashlib


def sha256(data: bytes = b"") -> hashlib._Hash:
    """hashlib.sha256, hashlib imported at the first digest: it loads OpenSSL, a few ms of every
    start-up, which a command that digests nothing (a Mastermind solve) need not pay."""
    import hashlib

    return hashlib.sha256(data)


def content_key(identity: dict) -> str:
    """The key of a result: the SHA-256 (hex) of `identity`, what the result depends on, as
    canonical JSON (keys sorted, no spaces), so equal identities key alike in every process.
    The results store's task keys are these (arena.study.tournament.tasks); a journal's or a
    witness file's key is its identity itself, kept readable (arena.optimal.problem.Problem.key)."""
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return sha256(text.encode()).hexdigest()


def is_file(text: str) -> bool:
    try:
        return bool(text) and Path(text).expanduser().is_file()
    except (OSError, ValueError):
        return False


def file_digest(name: str) -> str:
    """SHA-256 of a shipped word list's package file or of a file's bytes (re-read only when
    its size or modification time changed, and always while it is racy: modified so recently
    that a second edit could keep its time, as file times have a coarse tick)."""

    if name in SHIPPED:
        return _shipped_digest(name)
    path = Path(name).expanduser()
    try:
        st = path.stat()
        if racy(st.st_mtime_ns):
            return _digest.__wrapped__(str(path.resolve()), st.st_size, st.st_mtime_ns)
        return _digest(str(path.resolve()), st.st_size, st.st_mtime_ns)
    except OSError as e:
        raise ArenaError(f"cannot read {name}: {e.strerror}") from None


@cache
def _shipped_digest(name: str) -> str:
    from importlib import resources

    return sha256((resources.files("arena") / "data" / SHIPPED[name]).read_bytes()).hexdigest()


@lru_cache(maxsize=256)
def _digest(path: str, size: int, mtime_ns: int) -> str:
    """Keyed by size and time as well as path, so an edited file is hashed afresh."""
    sha = sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            sha.update(chunk)
    return sha.hexdigest()


# --- code ------------------------------------------------------------------------------------

MAX_SOURCE_FILES = 5_000  # a "package" bigger than this is not an agent's source: refuse, don't crawl


def file_change(stored: object, now: dict[str, str]) -> tuple[str, str] | None:
    """The first file (by name) whose digest differs between a saved key's files (`stored`, as
    read back: anything but a dict counts as none) and the files read now: (name, how), how
    "gone" (saved, not read now), "new" (read now, not saved) or "changed"; None if all agree."""
    files: dict = stored if isinstance(stored, dict) else {}
    for name in sorted(set(files) | set(now)):
        if name not in now:
            return name, "gone"
        if name not in files:
            return name, "new"
        if files[name] != now[name]:
            return name, "changed"
    return None


def project_version() -> str:
    """The installed distribution's version (`arena --version`)."""
    from .. import __version__

    return __version__


def project_code() -> str:
    """The project's version and the SHA-256 (first 16 hex digits) of its two packages' files
    (`arena/` and `agents/`, data included, compiled caches aside): what every built-in game,
    agent and solver computes with."""
    return f"{project_version()}+{_project_files_digest()[:16]}"


def proof_code(modules: tuple[str, ...]) -> str:
    """The project's version and the SHA-256 (first 16 hex digits) of the modules that compute
    a result, found from `modules` (dotted names in arena) by following their imports inside
    arena (`import_closure`, lazy imports included): what a saved proof (a split's journal)
    depends on, so that a change elsewhere in the project (its command line, reports,
    tournaments) keeps it, and a change to any of these refuses it."""
    return f"{project_version()}+{code_digest(Path(__file__).resolve().parents[1], modules)[:16]}"


@cache
def code_digest(root: Path, modules: tuple[str, ...]) -> str:
    """SHA-256 over the names (below `root`, the package) and contents of `import_closure`'s
    files, and of the source of each module of `modules` outside the package (a plug-in's)."""
    sha = sha256()
    inside = tuple(m for m in modules if m.split(".")[0] == root.name)
    for path in import_closure(root, inside):
        st = path.stat()
        sha.update(f"{path.relative_to(root).as_posix()}\0".encode())
        sha.update(_digest(str(path), st.st_size, st.st_mtime_ns).encode())
    for name in sorted(set(modules) - set(inside)):
        spec = importlib.util.find_spec(name)
        origin = Path(spec.origin) if spec is not None and spec.origin else None
        sha.update(f"{name}\0".encode())
        if origin is not None and origin.is_file():
            st = origin.stat()
            sha.update(_digest(str(origin), st.st_size, st.st_mtime_ns).encode())
    return sha.hexdigest()


def import_closure(root: Path, modules: tuple[str, ...]) -> list[Path]:
    """The source files of `modules` (dotted names under the package at `root`; a package
    named is taken whole) and of every module of that package they import, at any depth, in their functions too (read from the
    sources, not imported), each package's __init__ with its modules (but the top package's,
    the front door that imports everything); sorted."""
    package = root.name
    seen: set[Path] = {root / "__init__.py"}
    todo = [module_file(root, name.split(".")[1:]) for name in modules]
    for name in modules:  # a package named is taken whole (its modules may be found by name, as games are)
        folder = root.joinpath(*name.split(".")[1:])
        todo += sorted(folder.rglob("*.py")) if (folder / "__init__.py").exists() else []
    while todo:
        path = todo.pop()
        if path is None or path in seen:
            continue
        seen.add(path)
        todo += [module_file(root, parts) for parts in imported(path, root, package)]
        if path.name != "__init__.py" and (path.parent / "__init__.py").exists() and path.parent != root:
            todo.append(path.parent / "__init__.py")
    return sorted(seen - {root / "__init__.py"})


def module_file(root: Path, parts: list[str]) -> Path | None:
    """The file of the module root/parts (a module, or a package's __init__), or None."""
    base = root.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imported(path: Path, root: Path, package: str) -> list[list[str]]:
    """The modules of `package` that the source at `path` imports, as parts below `root` (a
    name imported from a package that is a module of it counts as that module)."""
    import ast  # lazy: only digests of proofs read sources

    here = list(path.relative_to(root).parent.parts)
    out: list[list[str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name.split(".")[1:] for a in node.names if a.name.split(".")[0] == package]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1] + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == package:
                base = node.module.split(".")[1:]
            else:
                continue
            out.append(base)
            out += [[*base, a.name] for a in node.names if module_file(root, [*base, a.name]) is not None]
    return out


@lru_cache(maxsize=1)
def _project_files_digest() -> str:
    roots = [Path(__file__).resolve().parents[1]]  # arena/, the whole package
    agents = importlib.util.find_spec("agents")  # located, not imported: the engine never imports agents
    if agents is not None and agents.submodule_search_locations:
        roots += [Path(p) for p in agents.submodule_search_locations]
    return tree_digest(roots, suffixes=None)


def tree_digest(roots: list[Path], suffixes: tuple[str, ...] | None = (".py",)) -> str:
    """SHA-256 over the relative names and contents of every file under `roots` (with one of
    `suffixes`, or any; compiled caches aside), in a fixed order."""
    sha = sha256()
    for root in roots:
        files = sorted(
            p
            for p in root.rglob("*")
            if p.is_file()
            and "__pycache__" not in p.parts
            and not p.name.endswith((".pyc", ".nbi", ".nbc"))
            and (suffixes is None or p.suffix in suffixes)
        )
        if len(files) > MAX_SOURCE_FILES:
            raise ArenaError(
                f"{root} holds {len(files):,} source files: too many to be an agent's package; "
                "put the agent in a package of its own"
            )
        sha.update(f"{root.name}\0".encode())
        for path in files:
            st = path.stat()
            sha.update(f"{path.relative_to(root).as_posix()}\0".encode())
            sha.update(_digest(str(path), st.st_size, st.st_mtime_ns).encode())
    return sha.hexdigest()
