"""What a tournament leaves in its directory: tidy CSV, the summary, plots; and the report of
a stored tournament rebuilt without running anything."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ...core.costs import GUESSES, Payoff
from ..results.report import Report


def write_outputs(report, directory: str, plots: bool = True) -> list[Path]:
    """results.csv (one row per cell, byte-identical for the same seed), summary.txt (headed by
    the run's provenance, also written as provenance.json: arena.study.tournament.methods) and, for
    games with a chooser x guesser grid, plots: a heat map of mean guesses, the histograms per
    guesser against each chooser, and the meta-game's equilibrium mixes."""
    from .methods import header, record, usable, write

    out = Path(directory)
    written = [out / "results.csv", out / "summary.txt"]
    report.write_csv(written[0])
    report.provenance = usable(report.provenance) or record(report)
    written[1].write_text(header(report.provenance) + "\n" + report.table() + "\n\n" + report.summary() + "\n")
    written.append(write(report.provenance, out))
    if plots:
        for game, (choosers, guessers, cells) in report.grids().items():
            pay = report.payoff_for(game)
            written.append(out / f"heatmap-{_slug(game)}.png")
            heat_map(game, choosers, guessers, cells, written[-1], pay)
            written.append(out / f"histograms-{_slug(game)}.png")
            histograms(game, choosers, guessers, cells, written[-1], pay.plotted)
            if game in report.mixes:
                written.append(out / f"equilibrium-{_slug(game)}.png")
                mix_choosers, row, mix_guessers, column, value = report.mixes[game]
                equilibrium_mixes(game, mix_choosers, row, mix_guessers, column, value, written[-1], pay)
    return written


def _pyplot():
    import matplotlib  # lazy: heavy

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: heavy

    return plt


def histograms(
    game: str, choosers: list[str], guessers: list[str], cells: dict, path: Path, pay: Payoff = GUESSES
) -> None:
    """Per chooser, the distribution of guesses (or misses) per game for each guesser, written
    to `path` (`histogram_figure`)."""
    plt = _pyplot()
    fig = histogram_figure(game, choosers, guessers, cells, pay)
    fig.savefig(path, dpi=110)
    plt.close(fig)


#: Each guesser's marker, so that lines that coincide still show one marker apiece.
MARKERS = "osD^v<>ph*"


def histogram_figure(game: str, choosers: list[str], guessers: list[str], cells: dict, pay: Payoff = GUESSES):
    """The histograms' matplotlib Figure: one panel per chooser, a line per guesser. Guessers
    whose distributions coincide (tied deterministic agents) are drawn side by side, each
    shifted a little along x, and the legend names them together ("a = b")."""
    plt = _pyplot()
    pay = pay.plotted  # lost games have no distribution per game: their guesses'
    fig, axes = plt.subplots(1, len(choosers), figsize=(4 * len(choosers), 3.4), squeeze=False, sharey=True)
    for ax, chooser in zip(axes[0], choosers):
        shares: dict[str, dict] = {}
        for guesser in guessers:
            r = cells.get((chooser, guesser))
            histogram = None if r is None else r.histogram if pay.cost.pays_every_guess else r.misses_histogram
            if r is None or not r.measured or not histogram:
                continue
            total = sum(histogram.values())
            shares[guesser] = {v: histogram[v] / total for v in sorted(histogram)}
        same = {g: [h for h in shares if shares[h] == shares[g]] for g in shares}
        for k, (guesser, share) in enumerate(shares.items()):
            group = same[guesser]
            shift = 0.08 * (group.index(guesser) - (len(group) - 1) / 2)
            label = guesser if len(group) == 1 else f"{guesser} (= {', '.join(h for h in group if h != guesser)})"
            ax.plot(
                [v + shift for v in share],
                list(share.values()),
                marker=MARKERS[k % len(MARKERS)],
                ms=4,
                linestyle="-" if len(group) == 1 or group[0] == guesser else "--",
                label=label,
            )
        ax.set_title(f"against {chooser}", fontsize=9)
        ax.set_xlabel(f"{pay.unit} per game")
        tied = any(len(group) > 1 for group in same.values())
        ax.legend(fontsize=7, title="(= ...): identical, drawn side by side" if tied else None, title_fontsize=7)
    axes[0][0].set_ylabel("share of games")
    fig.suptitle(f"{game}: distribution of {pay.unit} per game")
    fig.tight_layout()
    return fig


def equilibrium_mixes(game: str, choosers, row, guessers, column, value, path: Path, pay: Payoff = GUESSES) -> None:
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
    fig.suptitle(f"{game}: meta-game on {pay.title}, value {pay.describe(value)}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")


def heat_map(
    game: str, choosers: list[str], guessers: list[str], cells: dict, path: Path, pay: Payoff = GUESSES
) -> None:
    """The payoff (mean guesses by default) of each guesser (rows) against each chooser (columns)."""
    plt = _pyplot()
    values = np.array(
        [
            [
                cells[c, g].ours.get(pay.figure, np.nan) if (c, g) in cells and cells[c, g].measured else np.nan
                for c in choosers
            ]
            for g in guessers
        ]
    )
    fig, ax = plt.subplots(figsize=(1.6 * len(choosers) + 3, 0.45 * len(guessers) + 1.8))
    image = ax.imshow(values, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(choosers)), choosers, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(guessers)), guessers, fontsize=8)
    ax.set_xlabel("chooser", fontsize=9)
    ax.set_ylabel("guesser", fontsize=9)
    for (i, j), v in np.ndenumerate(values):
        r = cells.get((choosers[j], guessers[i]))
        if not np.isnan(v):
            ax.text(
                j,
                i,
                pay.show(v, 2, 1),
                ha="center",
                va="center",
                fontsize=8,
                color=ink_on(image, v),
            )
        elif r is not None and not r.measured:  # a failed cell stays blank, marked as such
            ax.text(j, i, r.status, ha="center", va="center", fontsize=7, color="tab:red")
    fig.colorbar(image, ax=ax, label=pay.title)
    ax.set_title(f"{game}: {pay.title}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def ink_on(image, value: float) -> str:
    """Black on a light cell, white on a dark one (by the colour's luminance), so that every
    number of a heat map can be read."""
    red, green, blue, _ = image.cmap(image.norm(value))
    return "black" if 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.45 else "white"


def stored_report(directory: str) -> Report:
    """The Report of a stored tournament (`Report.from_dir`)."""
    return Report.from_dir(directory)
