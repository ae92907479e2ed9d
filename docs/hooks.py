"""MkDocs hook: the write-ups in experiments/ (the reproduced tables) become pages of the site
under experiments/, from the files themselves, so the site never holds a stale copy."""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


def on_files(files, config):
    for page in sorted(EXPERIMENTS.glob("*.md")):
        files.append(File.generated(config, f"experiments/{page.name}", content=page.read_text(encoding="utf-8")))
    return files
