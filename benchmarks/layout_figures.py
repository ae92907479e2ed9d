"""The codebase's shape in figures (issue 32): modules at arena/'s top level, the longest
functions, parameter counts, and two user journeys followed through the code.

    python benchmarks/layout_figures.py [--root DIR] [--map arena/moved.py]

`--root` reads another checkout (an older commit, for the figures before); `--map` gives the
old-to-new module names (arena/moved.py) so that both layouts are told in the same folders. A
journey is run in this process with a profile hook: the project files whose code it calls
("files opened", modules loaded included), and the distinct caller -> callee file pairs of
function calls whose folders differ ("layer crossings"), folders named as in the new layout.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path

NAMED = ("split_root", "double_oracle", "optimal_tree", "remote_task")


def functions(root: Path):
    for path in sorted((root / "arena").rglob("*.py")) + sorted((root / "agents").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                params = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + bool(a.vararg) + bool(a.kwarg)
                params -= bool(a.args and a.args[0].arg in ("self", "cls"))
                compiled = any("njit" in ast.unparse(d) or "jit" in ast.unparse(d) for d in node.decorator_list)
                yield path.relative_to(root), node.name, node.end_lineno - node.lineno + 1, params, compiled


def folder_of(rel: str, moved: dict[str, str]) -> str:
    """The new layout's folder of a file (given relative to the root)."""
    parts = rel.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    name = ".".join(parts)
    for k in range(len(parts), 1, -1):
        new = moved.get(".".join(parts[:k]))
        if new:
            name = ".".join([new, *parts[k:]])
            break
    bits = name.split(".")
    return bits[0] if bits[0] == "agents" else (bits[1] if len(bits) > 2 else "arena")


def journey(root: Path, argv: list[str], moved: dict[str, str]) -> tuple[int, int]:
    sys.path.insert(0, str(root))
    import arena.cli

    main = arena.cli.main
    prefix = str(root) + os.sep
    files: set[str] = set()
    pairs: set[tuple[str, str]] = set()

    def hook(frame, event, arg):
        if event != "call":
            return
        here = frame.f_code.co_filename
        if not here.startswith(prefix):
            return
        rel = here[len(prefix) :]
        if not rel.startswith(("arena/", "agents/")) or rel == "arena/moved.py":
            return  # moved.py answers old import names: the import machinery, not a layer
        files.add(rel)
        if frame.f_code.co_name == "<module>":
            return  # a module loaded, not a call
        back = frame.f_back
        while back is not None and not back.f_code.co_filename.startswith(prefix):
            back = back.f_back
        if back is not None:
            caller = back.f_code.co_filename[len(prefix) :]
            if caller != rel and folder_of(caller, moved) != folder_of(rel, moved):
                pairs.add((caller, rel))

    sys.setprofile(hook)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                main(argv)
            except SystemExit:
                pass
    finally:
        sys.setprofile(None)
    return len(files), len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--map", type=Path, default=Path(__file__).resolve().parents[1] / "arena" / "moved.py")
    args = parser.parse_args()
    root = args.root.resolve()
    space: dict = {}
    exec(compile(args.map.read_text(), str(args.map), "exec"), space)  # only its MOVED table is read
    moved = space["MOVED"]
    top = sorted(p.name for p in (root / "arena").glob("*.py"))
    print(f"modules at arena/'s top level: {len(top)}")
    found = list(functions(root))
    print("the 15 longest functions (lines; compiled kernels marked):")
    for rel, name, lines, _params, compiled in sorted(found, key=lambda f: -f[2])[:15]:
        print(f"  {lines:4d}  {rel}:{name}{'  (compiled)' if compiled else ''}")
    print("parameters: " + ", ".join(f"{n} {max(p for _, m, _, p, _ in found if m == n)}" for n in NAMED))
    over = [(r, n, p) for r, n, _, p, c in found if p > 8 and not c]
    print(f"functions over 8 parameters (not compiled): {len(over)}")
    print(f"functions over 100 lines (not compiled): {sum(1 for f in found if f[2] > 100 and not f[4])}")
    with tempfile.TemporaryDirectory() as out:
        config = root / "experiments" / "tournament.toml"
        runs = {
            "arena run experiments/tournament.toml --out DIR (games cut to 2x3 Mastermind)": None,
            "arena optimal mastermind:pegs=3,colors=4": ["optimal", "mastermind:pegs=3,colors=4"],
        }
        small = Path(out) / "small.toml"
        text = config.read_text()
        start = text.index("games = ")
        text = text[:start] + 'games = ["mastermind:pegs=2,colors=3"]\n' + text[text.index("\n", start) + 1 :]
        small.write_text(text)
        runs[next(iter(runs))] = ["run", str(small), "--workers", "1", "--out", str(Path(out) / "demo")]
        for title, argv in runs.items():
            files, crossings = journey(root, argv, moved)
            print(f"journey `{title}`: {files} files opened, {crossings} layer crossings (caller -> callee files)")


if __name__ == "__main__":
    main()
