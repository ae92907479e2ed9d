"""A third-party package built from its files and installed into a folder of its own (pip
--target, no virtual environment), for the tests that plug agents and games in through entry points."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def install_package(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (name -> text, dedented) into root/plugin, install it into root/site, and
    return root/site (to put on sys.path or PYTHONPATH)."""
    source, target = root / "plugin", root / "site"
    source.mkdir()
    for name, text in files.items():
        (source / name).write_text(textwrap.dedent(text))
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(source)],
        check=True,
        capture_output=True,
    )
    return target
