"""The documentation site builds without a warning, and every example on it runs and prints
what the page says it prints.

Each page of docs/ is read block by block, in order, in a fresh directory:

- a block after a line ``File `NAME`:`` (and a blank line) is written to NAME (a guesser
  module, a config), for the examples after it to use: the reader sees the file's name;
- a `console` block holds `$ arena ...` commands, each followed by what it prints on stdout;
  they run in this process (tests/cli_run.py's way), and the output is compared as doctest
  compares (a `...` stands for any text, here a line left out); timings (`0.14 s`) are not
  compared; `PYTHONPATH=. arena ...` puts the directory on the path;
- a `pycon` block is a doctest (`>>>`), run with ELLIPSIS; the blocks of a page share names;
- a `toml` block is parsed (an entry point table, shown, not run);
- a `bash` block may only set things up (`pip install ...`, `arena warm`, `dask scheduler`, `dask worker`):
  the suite itself is what it set up.

Any other kind of block fails the test: every example on the site runs. The site itself is
built with `mkdocs build --strict` (the `docs` extra, which .ci/run installs).
"""

from __future__ import annotations

import contextlib
import doctest
import importlib.util
import io
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from arena.cli.parser import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))

FENCE = re.compile(r"(?:^File `(?P<file>[\w./-]+)`:\n\n)?```(?P<kind>\w*)\n(?P<body>.*?)^```", re.S | re.M)
TIMING = re.compile(r"\b\d+(?:\.\d+)? s\b")
#: What a bash block may hold: setting up, not examples with output.
SETUP = ("python -m pip install ", "pip install ", "arena warm", "dask scheduler", "dask worker ")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def blocks(page: str) -> list[tuple[str, str, str | None]]:
    """(kind, body, file name or None) for each fenced block of a page, in order."""
    text = (DOCS / page).read_text(encoding="utf-8")
    return [(m["kind"], m["body"], m["file"]) for m in FENCE.finditer(text)]


def commands(body: str) -> list[tuple[str, str]]:
    """(command, expected output) for each `$ ` line of a console block."""
    found: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif found:
            found[-1][1].append(line)
        else:
            raise AssertionError(f"a console block starts with output, not a `$ ` command: {line!r}")
    return [(command, "\n".join(out) + "\n") for command, out in found]


def run_arena(command: str) -> str:
    """What `arena ...` prints on stdout, run in this process (the current directory on the
    path when the command starts with `PYTHONPATH=.`)."""
    argv = shlex.split(command)
    here = argv[0] == "PYTHONPATH=."
    if here:
        argv.pop(0)
    assert argv[0] == "arena", f"a console example runs `arena`, not {argv[0]!r}"
    out = io.StringIO()
    if here:
        sys.path.insert(0, str(Path.cwd()))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            try:
                rc = main(argv[1:])
            except SystemExit as e:
                rc = e.code
    finally:
        if here:
            sys.path.remove(str(Path.cwd()))
    assert rc in (0, None), f"`{command}` exited {rc}:\n{out.getvalue()}"
    return out.getvalue()


def same(want: str, got: str) -> bool:
    """Does the output match the page's, `...` standing for anything and timings aside?"""
    want, got = TIMING.sub("T s", want), TIMING.sub("T s", got)
    return doctest.OutputChecker().check_output(want, got, doctest.ELLIPSIS)


def run_page(page: str) -> None:
    """Every block of the page, in order, in the current directory."""
    names: dict = {"__name__": f"docs/{page}"}
    for number, (kind, body, file) in enumerate(blocks(page), 1):
        where = f"docs/{page}, block {number}"
        if file:
            Path(file).parent.mkdir(parents=True, exist_ok=True)
            Path(file).write_text(body)
            if kind == "toml":
                tomllib.loads(body)
        elif kind == "console":
            for command, want in commands(body):
                got = run_arena(command)
                assert same(want, got), f"{where}: `{command}` printed\n{got}\nnot\n{want}"
        elif kind == "pycon":
            test = doctest.DocTestParser().get_doctest(body, names, where, str(DOCS / page), 0)
            runner = doctest.DocTestRunner(optionflags=FLAGS)
            report = io.StringIO()
            runner.run(test, out=report.write, clear_globs=False)
            names = test.globs  # the next block of the page goes on from here
            assert not runner.failures, report.getvalue()
        elif kind == "toml":
            tomllib.loads(body)
        elif kind == "bash":
            for line in body.strip().splitlines():
                assert line.startswith(SETUP), (
                    f"{where}: a bash block only sets up (installs, a Dask cluster); run examples in console blocks"
                )
        else:
            raise AssertionError(f"{where}: a ```{kind} block is not run: write it as console, pycon, toml or a file")


def test_every_page_is_found():
    assert {"index.md", "tutorial.md", "games/mastermind.md", "howto/guesser.md"} <= set(PAGES)


#: A page whose examples need optional extras says so on its first line, `<!-- needs: pyspiel, gymnasium -->`
#: (modules): it is skipped, with its reason, where one is missing (the README's command installs none).
NEEDS = re.compile(r"<!-- needs: ([\w., ]+) -->")


def needs(page: str) -> list[str]:
    """The modules a page's examples need that are not installed."""
    found = NEEDS.search((DOCS / page).read_text(encoding="utf-8"))
    wanted = [m.strip() for m in found[1].split(",")] if found else []
    return [m for m in wanted if not _importable(m)]


@pytest.mark.parametrize("page", PAGES)
def test_the_examples_print_what_the_page_says(page, tmp_path, monkeypatch):
    missing = needs(page)
    if missing:
        pytest.skip(f"docs/{page} needs {', '.join(missing)} (an optional extra, installed in CI)")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))  # a module an example wrote is importable
    (tmp_path / "experiments").symlink_to(ROOT / "experiments")  # the configs pages run
    run_page(page)


def test_the_site_builds_without_a_warning(tmp_path):
    missing = [m for m in ("mkdocs", "mkdocstrings", "mkdocstrings_handlers.python") if not _importable(m)]
    if missing:
        pytest.skip(f"the docs extra is not installed ({', '.join(missing)}): pip install -e '.[docs]'")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "reference" / "games" / "index.html").exists()
    assert (tmp_path / "site" / "experiments" / "index.html").exists()
    assert not (tmp_path / "site" / "hooks.py").exists()  # the build's own hook is no page


def test_every_experiments_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    missing = [p.name for p in (ROOT / "experiments").glob("*.md") if f"experiments/{p.name}" not in nav]
    assert not missing, f"experiments pages built but not in mkdocs.yml's nav: {missing}"


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


if __name__ == "__main__":  # python tests/test_docs.py PAGE: what its examples print, for writing it
    import os
    import tempfile

    page = sys.argv[1]
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory() as where:
        os.chdir(where)
        sys.path.insert(0, where)
        Path("experiments").symlink_to(ROOT / "experiments")
        names: dict = {"__name__": page}
        for kind, body, file in blocks(page):
            if file:
                Path(file).write_text(body)
            elif kind == "console":
                for command, _ in commands(body):
                    print(f"$ {command}\n{run_arena(command)}", end="")
            elif kind == "pycon":
                test = doctest.DocTestParser().get_doctest(body, names, page, page, 0)
                doctest.DocTestRunner(optionflags=FLAGS).run(test, clear_globs=False)
                names = test.globs
