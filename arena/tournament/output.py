"""What a tournament leaves in its directory: tidy CSV, the summary, plots; and the report of
a stored tournament rebuilt without running anything."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from ..errors import ArenaError


def write_outputs(report, directory: str, plots: bool = True) -> list[Path]:
    """results.csv (one row per cell, byte-identical for the same seed), summary.txt and, for
    games with a chooser x guesser grid, a heat map of mean guesses."""
    out = Path(directory)
    written = [out / "results.csv", out / "summary.txt"]
    report.write_csv(written[0])
    written[1].write_text(report.table() + "\n\n" + report.summary() + "\n")
    if plots:
        for game, grid in report.grids().items():
            path = out / f"heatmap-{_slug(game)}.png"
            heat_map(game, *grid, path)
            written.append(path)
    return written


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")


def heat_map(game: str, choosers: list[str], guessers: list[str], cells: dict, path: Path) -> None:
    """Mean guesses for each guesser (rows) against each chooser (columns)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    values = np.array([[cells[c, g].ours.get("mean", np.nan) if (c, g) in cells and not cells[c, g].error
                        else np.nan for c in choosers] for g in guessers])
    fig, ax = plt.subplots(figsize=(1.6 * len(choosers) + 3, 0.45 * len(guessers) + 1.8))
    image = ax.imshow(values, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(choosers)), choosers, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(guessers)), guessers, fontsize=8)
    for (i, j), v in np.ndenumerate(values):
        if not np.isnan(v):
            ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7, color="white")
    fig.colorbar(image, ax=ax, label="mean guesses")
    ax.set_title(game)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def stored_report(directory: str):
    """The Report of a stored tournament: its config from the store, its results from the store."""
    from ..config import parse_config
    from ..report import Report, judge
    from .cells import expand
    from .tally import Tally
    import sqlite3

    path = Path(directory) / "results.sqlite"
    if not path.is_file():
        raise ArenaError(f"{directory}: no results.sqlite here (arena run CONFIG --out {directory} makes one)")
    db = sqlite3.connect(path)
    try:
        text = db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0]
        rows = {k: (s, t, e, sec) for k, s, t, e, sec in db.execute("SELECT key, status, tally, error, seconds FROM tasks")}
    except (sqlite3.Error, TypeError) as e:
        raise ArenaError(f"{path}: not a tournament store ({e})") from None
    finally:
        db.close()
    config = parse_config(tomllib.loads(text), str(path))
    import json
    judged, missing = [], 0
    tasks = expand(config.cells, config.block)
    for i, cell in enumerate(config.cells):
        mine = [rows.get(t.key) for t in tasks if t.cell == i]
        if any(r is None for r in mine):
            missing += sum(r is None for r in mine)
            judged.append(judge(cell, {}, 0.0, "not run yet (resume with arena run CONFIG --out DIR)"))
            continue
        errors = [r[2] for r in mine if r[0] != "ok"]
        if errors:
            judged.append(judge(cell, {}, sum(r[3] for r in mine), errors[0]))
            continue
        tallies = [Tally.from_json(json.loads(r[1])) for r in mine]
        judged.append(judge(cell, sum(tallies[1:], tallies[0]).figures(), sum(r[3] for r in mine)))
    return Report(config, judged, sum(r.seconds for r in judged))
