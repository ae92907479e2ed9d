"""What a tournament leaves in its directory: tidy CSV, the summary, plots; and the report of
a stored tournament rebuilt without running anything."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from ..errors import ArenaError


def write_outputs(report, directory: str, plots: bool = True) -> list[Path]:
    """results.csv (one row per cell, byte-identical for the same seed), summary.txt and, for
    games with a chooser x guesser grid, plots: a heat map of mean guesses, the histograms per
    guesser against each chooser, and the meta-game's equilibrium mixes."""
    out = Path(directory)
    written = [out / "results.csv", out / "summary.txt"]
    report.write_csv(written[0])
    written[1].write_text(report.table() + "\n\n" + report.summary() + "\n")
    if plots:
        for game, grid in report.grids().items():
            written.append(out / f"heatmap-{_slug(game)}.png")
            heat_map(game, *grid, written[-1])
            written.append(out / f"histograms-{_slug(game)}.png")
            histograms(game, *grid, written[-1])
            if game in report.mixes:
                written.append(out / f"equilibrium-{_slug(game)}.png")
                equilibrium_mixes(game, *report.mixes[game], written[-1])
    return written


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def histograms(game: str, choosers: list[str], guessers: list[str], cells: dict, path: Path) -> None:
    """Per chooser, the distribution of guesses per game for each guesser."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(choosers), figsize=(4 * len(choosers), 3.4), squeeze=False, sharey=True)
    for ax, chooser in zip(axes[0], choosers):
        for guesser in guessers:
            r = cells.get((chooser, guesser))
            if r is None or r.error or not r.histogram:
                continue
            values = sorted(r.histogram)
            total = sum(r.histogram.values())
            ax.plot(values, [r.histogram[v] / total for v in values], marker="o", ms=3, label=guesser)
        ax.set_title(chooser, fontsize=9)
        ax.set_xlabel("guesses per game")
    axes[0][0].set_ylabel("share of games")
    axes[0][-1].legend(fontsize=7)
    fig.suptitle(game)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def equilibrium_mixes(game: str, choosers, row, guessers, column, value, path: Path) -> None:
    """The meta-game's equilibrium: the chooser's mix and the guesser's mix, as bars."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
    left.barh(choosers, row, color="tab:red")
    left.set_title("choosers' mix", fontsize=9)
    right.barh(guessers, column, color="tab:blue")
    right.set_title("guessers' mix", fontsize=9)
    for ax in (left, right):
        ax.set_xlim(0, 1)
        ax.tick_params(labelsize=8)
    fig.suptitle(f"{game}: meta-game value {value:.3f}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")


def heat_map(game: str, choosers: list[str], guessers: list[str], cells: dict, path: Path) -> None:
    """Mean guesses for each guesser (rows) against each chooser (columns)."""
    plt = _pyplot()
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
        tally = sum(tallies[1:], tallies[0])
        judged.append(judge(cell, tally.figures(), sum(r[3] for r in mine), histogram=tally.histogram))
    return Report(config, judged, sum(r.seconds for r in judged))
