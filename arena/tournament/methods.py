"""What a run was, for a paper that cites it: the provenance record and the methods paragraph.

The record (a flat dict, written beside the results as `provenance.json`, at the head of
`summary.txt` and at the foot of the HTML page) says what computed the figures and where: the
arena version and the hash of its code, the UTC date of the run, the SHA-256 of the config as
read and of every file it read, the seeds, Python's, numpy's and scipy's versions and the
machine. `methods(report)` writes the paragraph a methods section needs (`arena report DIR
--methods`): which games, choosers and guessers, how many games were played, and how the
meta-game was solved. A record read back from a run directory is checked as any stored file
is: a damaged one is one ArenaError, never half read.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

from ..errors import ArenaError

FILE = "provenance.json"
FORMAT = "arena-provenance/1"


def record(report) -> dict[str, str]:
    """The provenance of `report`'s run, made now (a run's record is made when it is written)."""
    import numpy
    import scipy  # lazy: heavy

    from .. import __version__
    from ..digests import project_code

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


def read(directory: str | Path) -> dict[str, str] | None:
    """The record stored in a run's directory (None where the run predates records); a damaged
    one is an ArenaError naming the file."""
    path = Path(directory) / FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise ArenaError(f"{path}: not a provenance record ({type(e).__name__}); delete it or run again") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArenaError(f"{path}: not a provenance record of format {FORMAT}; delete it or run again")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ArenaError(f"{path}: a provenance record holds strings only; delete it or run again")
    return data


def methods(report, rec: dict[str, str] | None) -> str:
    """A methods paragraph for the run of `report`, citing the software (CITATION.cff)."""
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
