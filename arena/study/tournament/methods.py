"""What a run was, for a paper that cites it: the provenance record and the methods paragraph.

The record (a flat dict, written beside the results as `provenance.json`, at the head of
`summary.txt` and at the foot of the HTML page) says what computed the figures and where: the
arena version and the hash of its code, the UTC date of the run, the SHA-256 of the config as
read and of every file it read, the seeds, Python's, numpy's and scipy's versions and the
machine. `methods(report)` writes the paragraph a methods section needs (`arena report DIR
--methods`): which games, choosers and guessers, how many games were played, and how the
meta-game was solved. A record read back from a run directory is checked as any stored file
is, and also against the config stored with the results: a damaged record, or one a run
stopped before it wrote its own left behind, is never cited (the results are still shown).
A run deletes the old record when it starts and writes its own when it ends.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

FILE = "provenance.json"
FORMAT = "arena-provenance/1"


def record(report) -> dict[str, str]:
    """The provenance of `report`'s run, made now (a run's record is made when it is written)."""
    import numpy
    import scipy  # lazy: heavy

    from ... import __version__
    from ...core.digests import project_code

    config = report.config
    seeds = sorted({cell.seed for cell in config.cells})
    return {
        "format": FORMAT,
        "arena": __version__,
        "code": project_code(),
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "config": config.path or "(given in Python)",
        "config_sha256": hashlib.sha256(config.text.encode()).hexdigest(),
        "files": ", ".join(f"{Path(f).name} {h[:16]}" for f, h in sorted((config.files or {}).items())) or "none",
        "seeds": ", ".join(map(str, seeds)),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        "command": " ".join(["arena", *sys.argv[1:]]) if Path(sys.argv[0]).name == "arena" else "(Python)",
    }


def header(rec: dict[str, str]) -> str:
    """The record as the lines at the head of summary.txt."""
    return (
        f"# Guessing Arena {rec['arena']} (code {rec['code']}), run {rec['date']}; config {rec['config']} "
        f"(sha256 {rec['config_sha256'][:16]}), files read: {rec['files']}; seeds {rec['seeds']}\n"
        f"# Python {rec['python']}, numpy {rec['numpy']}, scipy {rec['scipy']}; {rec['machine']}\n"
    )


def write(rec: dict[str, str], directory: str | Path) -> Path:
    """`provenance.json` in the run's directory."""
    path = Path(directory) / FILE
    path.write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")
    return path


#: What a record holds (`record`): a record without one of them cannot be cited.
KEYS = ("arena", "code", "date", "config", "config_sha256", "files", "seeds", "python", "numpy", "scipy", "machine")


def read(directory: str | Path, config_text: str | None = None) -> dict[str, str] | None:
    """The record stored in a run's directory (None where the run predates records). One that
    cannot be cited (damaged, or another run's: its config hash is not that of `config_text`,
    the config stored with the results, as when a run stopped before writing its own) comes
    back as {"format": ..., "problem": why}: the results stay readable, and nothing cites it."""
    path = Path(directory) / FILE
    if not path.exists():
        return None
    try:
        problem = _problem(json.loads(path.read_text(encoding="utf-8")), config_text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        problem = f"{FILE} is not JSON ({type(e).__name__})"
    if isinstance(problem, dict):
        return problem
    return {"format": FORMAT, "problem": f"{path}: {problem}; it is left out (run again to write one)"}


def _problem(data: object, config_text: str | None) -> dict[str, str] | str:
    """The record, or why it cannot be cited."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return f"not a provenance record of format {FORMAT}"
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        return "a provenance record holds strings only"
    missing = [k for k in KEYS if k not in data]
    if missing:
        return f"the record has no {missing[0]!r}"
    if config_text is not None and data["config_sha256"] != hashlib.sha256(config_text.encode()).hexdigest():
        return "it is another run's (its config hash is not that of the config stored with these results)"
    return data


def usable(rec: dict[str, str] | None) -> dict[str, str] | None:
    """A record that can be cited, or None."""
    return rec if rec is not None and "problem" not in rec else None


def methods(report, stored: dict[str, str] | None) -> str:
    """A methods paragraph for the run of `report`, citing the software (CITATION.cff)."""
    rec = usable(stored)
    cells = report.config.cells
    games = _listed(dict.fromkeys(c.game for c in cells))
    choosers = _listed(dict.fromkeys(c.chooser for c in cells))
    guessers = _listed(dict.fromkeys(c.label if c.guesser in c.label else f"{c.label} (= {c.guesser})" for c in cells))
    played = sum(r.histogram and sum(r.histogram.values()) or 0 for r in report.results)
    repeats = sorted({c.repeat for c in cells})
    where = (
        f"Guessing Arena {rec['arena']} (code {rec['code']}; Python {rec['python']}, numpy {rec['numpy']}, "
        f"scipy {rec['scipy']}; {rec['machine']}) on {rec['date'][:10]}"
        if rec
        else "Guessing Arena (no provenance record was stored with this run)"
        if stored is None
        else f"Guessing Arena (its provenance record cannot be cited: {stored['problem']})"
    )
    text = (
        f"We ran {len(cells)} cells with {where}, from the config {report.config.title or '(untitled)'} "
        f"(SHA-256 {rec['config_sha256'][:16] if rec else 'unknown'}). Games: {games}. Choosers: {choosers}. "
        f"Guessers: {guessers}. Each guesser played each chooser over every secret of the game "
        f"(an adaptive chooser once per opening), {max(repeats, default=1)} times where an agent is random, with seeds "
        f"{rec['seeds'] if rec else 'as configured'}: {played:,} games in all. "
    )
    if report.grids():
        text += (
            "Each game's guesser x chooser table of mean costs was solved as a zero-sum matrix game by "
            "linear programming (scipy's HiGHS, arena.equilibrium.solve_matrix_game). "
        )
    return text + "Cite the software as in its CITATION.cff."


def _listed(items) -> str:
    items = list(items)
    return ", ".join(items[:-1]) + (" and " if len(items) > 1 else "") + items[-1] if items else "none"
