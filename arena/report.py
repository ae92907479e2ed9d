"""The results of a config: each cell judged against its published figures, the table that
puts ours beside theirs, the guesser x chooser summary and the meta-game, and the CSV."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from typing import Any

from .config import DEFAULT_TOLERANCE, _FORMATS, Cell, Config, _figure_kind, agrees
from .frames import pandas


@dataclass
class Result:
    cell: Cell
    ours: dict[str, float]
    seconds: float
    agree: bool | None  # None when nothing was published
    error: str | None = None  # an agent that raised or broke the rules: its cell failed
    histogram: dict[int, int] | None = None  # guesses -> games, for the plots
    status: str = "ok"  # ok (figures measured), failed (a task failed) or not run (not stored yet)

    @property
    def measured(self) -> bool:
        """Did every task of the cell run, so its figures exist?"""
        return self.status == "ok"


def judge(cell: Cell, ours: dict[str, float], seconds: float, error: str | None = None,
          histogram: dict[int, int] | None = None, status: str | None = None) -> Result:
    """The cell's result, with its verdict against the published figures.

    With an `error` and no figures the cell failed (status `failed`, or `not run`); an error
    beside figures is a verdict's (a published figure this game does not measure).
    """
    if error and not ours:
        return Result(cell, {}, seconds, False if cell.published else None, error, status=status or "failed")
    missing = [k for k in cell.published if k not in ours]
    if missing:
        return Result(cell, ours, seconds, False, f"no figure {missing[0]!r} for this game")
    verdicts = [agrees(ours[k], v, cell.tolerance.get(k, DEFAULT_TOLERANCE[_figure_kind(k)]))
                for k, v in cell.published.items()]
    return Result(cell, ours, seconds, all(verdicts) if verdicts else None, histogram=histogram)


@dataclass
class Report:
    config: Config
    results: list[Result]
    seconds: float
    mixes: dict = field(default_factory=dict)  # game -> the meta-game's solution, once summarised

    @property
    def all_agree(self) -> bool:
        return all(r.agree is not False for r in self.results)

    @property
    def failed(self) -> list[Result]:
        """Cells whose figures are missing: a task failed, or was not run yet."""
        return [r for r in self.results if not r.measured]

    def figures(self) -> list[str]:
        """The columns: total, mean, worst, then any other figure a row published or we measured."""
        seen = {k for r in self.results for k in [*r.cell.published, *r.ours]}
        lost = sorted((k for k in seen if _figure_kind(k) == "lost"), key=lambda k: int(k[4:]))
        return ["total", "mean", "max"] + [k for k in ("misses", "misses_max") if k in seen] + lost

    def table(self, cells: bool = True) -> str:
        """Ours and published side by side, one row per cell (`cells=False`: only the title,
        the failed and annotated cells and the count line)."""
        games = {r.cell.game for r in self.results}
        figures = self.figures()
        published = [k for k in figures if any(k in r.cell.published for r in self.results)]
        names = {"max": "worst", "misses_max": "worst misses"}
        lw = max(len("cell"), *(len(r.cell.label) for r in self.results))
        gw = max(len(g) for g in games)
        choosers = list(dict.fromkeys(r.cell.chooser for r in self.results))
        cw = max(len("chooser"), *map(len, choosers))
        widths = {k: max(7, len(names.get(k, k))) for k in figures}
        head = f"{'cell':<{lw}} " + (f"{'game':<{gw}} " if len(games) > 1 else "")
        head += f"{'chooser':<{cw}} " if len(choosers) > 1 else ""
        head += " ".join(f"{names.get(k, k):>{widths[k]}}" for k in figures)
        if published:
            head += "  | published: " + " ".join(f"{names.get(k, k):>{widths[k]}}" for k in published) + "  agree"
        lines = [f"{self.config.title}" + (f" ({next(iter(games))})" if len(games) == 1 else "")]
        lines += [head] if cells else []
        for r in self.results if cells else ():
            line = f"{r.cell.label:<{lw}} " + (f"{r.cell.game:<{gw}} " if len(games) > 1 else "")
            line += f"{r.cell.chooser:<{cw}} " if len(choosers) > 1 else ""
            line += " ".join(f"{_figure(k, r.ours.get(k), r.cell.repeat):>{widths[k]}}" for k in figures)
            if published:
                line += "  |            " + " ".join(f"{_figure(k, r.cell.published.get(k)):>{widths[k]}}" for k in published)
                line += "  " + {True: "yes", False: "NO", None: ""}[r.agree]
            lines.append(line)
        for r in self.results:
            if r.error:
                lines.append(f"  {'NOT RUN' if r.status == 'not run' else 'FAILED'} '{r.cell.label}': {r.error}")
            if r.cell.note:
                lines.append(f"  note on '{r.cell.label}': {r.cell.note}")
        checked = [r for r in self.results if r.agree is not None]
        done = f"{sum(r.agree for r in checked)} of {len(checked)} published rows reproduced; " if checked else ""
        failed = sum(r.error is not None and r.status != "not run" for r in self.results)
        missing = sum(r.status == "not run" for r in self.results)
        lines.append(done + f"{len(self.results)} cells" + (f", {failed} failed" if failed else "") +
                     (f", {missing} not run yet" if missing else "") + f"; {self.seconds:.1f} s")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"title": self.config.title, "seconds": round(self.seconds, 3), "cells": [
            {"label": r.cell.label, "game": r.cell.game, "guesser": r.cell.guesser, "chooser": r.cell.chooser,
             "repeat": r.cell.repeat, "seed": r.cell.seed, **{k: v for k, v in r.ours.items()},
             "published": r.cell.published, "agree": r.agree, "status": r.status, "error": r.error,
             "seconds": round(r.seconds, 3)}
            for r in self.results]}

    def grids(self) -> dict[str, tuple[list[str], list[str], dict]]:
        """Per game: the choosers, the guessers and (chooser, guesser) -> result, for games where
        several choosers played (a tournament rather than a reproduction)."""
        out: dict[str, tuple[list[str], list[str], dict]] = {}
        for r in self.results:
            choosers, guessers, cells = out.setdefault(r.cell.game, ([], [], {}))
            if r.cell.chooser not in choosers:
                choosers.append(r.cell.chooser)
            if r.cell.label not in guessers:
                guessers.append(r.cell.label)
            cells[r.cell.chooser, r.cell.label] = r
        return {g: v for g, v in out.items() if len(v[0]) > 1}

    def summary(self) -> str:
        """Guessers x choosers per game: mean guesses (worst), and the loss rate where strikes count."""
        lines = []
        for game, (choosers, guessers, cells) in self.grids().items():
            lw = max(len("guesser"), *map(len, guessers))
            lines.append(f"{game}: mean guesses (worst) [loss rate]")
            lines.append(f"{'guesser':<{lw}} " + " ".join(f"{c:>22}" for c in choosers))
            for g in guessers:
                row = []
                for c in choosers:
                    r = cells.get((c, g))
                    if r is None or not r.measured:
                        row.append(r.status if r is not None else "")
                        continue
                    text = f"{r.ours['mean']:.3f} ({r.ours['max']})"
                    lost = [k for k in r.ours if k.startswith("lost")]
                    if lost:
                        text += f" [{r.ours[lost[0]] / max(1, r.ours['total'] / r.ours['mean']):.1%}]"
                    row.append(text)
                lines.append(f"{g:<{lw}} " + " ".join(f"{t:>22}" for t in row))
            lines.append(self.meta_game(game, choosers, guessers, cells))
        return "\n".join(lines)

    def meta_game(self, game: str, choosers: list[str], guessers: list[str], cells: dict) -> str:
        """The chooser x guesser table as a zero-sum game (payoff to the chooser: mean guesses, or
        mean misses where misses count)."""
        if len(choosers) < 2 and len(guessers) < 2:
            return ""
        if any(cells.get((c, g)) is None or not cells[c, g].measured for c in choosers for g in guessers):
            return "  meta-game: not solved (a cell failed or is missing)"
        try:
            from .equilibrium import solve_matrix_game
        except ImportError:
            return "  meta-game: the equilibrium solver is not available"
        import numpy as np
        key = "misses" if "misses" in cells[choosers[0], guessers[0]].ours else "mean"
        payoff = np.array([[cells[c, g].ours[key] for g in guessers] for c in choosers])
        solution = solve_matrix_game(payoff)
        self.mixes[game] = (choosers, solution.row, guessers, solution.column, solution.value)
        mix = lambda names, p: ", ".join(f"{n} {q:.3f}" for n, q in zip(names, p) if q > 1e-9)
        unit = "misses" if key == "misses" else "guesses"
        return (f"  meta-game value {solution.value:.4f} {unit}; choosers: {mix(choosers, solution.row)}; "
                f"guessers: {mix(guessers, solution.column)}")

    #: results.csv's columns, and the frame's.
    COLUMNS = ("label", "game", "chooser", "guesser", "repeat", "seed", "total", "mean", "std", "max",
               "published_total", "published_mean", "published_max", "agree", "status", "error")

    def rows(self) -> list[list]:
        """One row per cell in COLUMNS' order, failed ones included (a figure not measured or
        not published is None): what results.csv and the frame hold."""
        rows = []
        for r in self.results:
            c, p, o = r.cell, r.cell.published, r.ours
            rows.append([c.label, c.game, c.chooser, c.guesser, c.repeat, c.seed, o.get("total"),
                         round(o["mean"], 6) if "mean" in o else None, round(o["std"], 6) if "std" in o else None,
                         o.get("max"), p.get("total"), p.get("mean"), p.get("max"), r.agree, r.status, r.error])
        return rows

    def write_csv(self, path: str) -> None:
        """One row per cell, failed ones included (figures blank, status and error filled in);
        no timings, so the same seed gives the same bytes whatever the workers."""
        with open(path, "w", newline="") as f:
            w = csv.writer(f)  # writes None as a blank field
            w.writerow(self.COLUMNS)
            w.writerows(self.rows())

    def to_frame(self):
        """results.csv as a pandas DataFrame: one row per cell, the same columns (a blank
        field is None; `pandas.read_csv` reads it as NaN)."""
        return pandas().DataFrame(self.rows(), columns=list(self.COLUMNS))


def _figure(key: str, value: Any, repeat: int = 1) -> str:
    """A figure as the table shows it (a total over several repetitions keeps one decimal)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    fmt = _FORMATS[_figure_kind(key)]
    if key == "total" and repeat > 1 or _figure_kind(key) == "lost" and value != int(value):
        fmt = ",.1f"  # an average over repetitions
    return format(int(value) if fmt.endswith("d") else value, fmt)
