"""`arena run` configs: TOML files naming games, guessers and choosers, cell by cell.

A config is a grid, a list of rows, or both:

    title = "Mastermind strategies"
    seed = 1                      # every random choice flows from it
    repeat = 20                   # repetitions of random agents (default 1)
    game = "mastermind"           # defaults for every row; `games = [...]` etc. make a grid
    chooser = "uniform"

    [[rows]]
    label = "LC: always guess the lowest consistent code"
    guesser = "lowest"
    published = { total = 7471, mean = 5.76, max = 9 }
    tolerance = { mean = 0.005 }  # optional; published ranges "7.32-7.38" are also accepted

Without [[rows]], the grid `games` x `choosers` x `guessers` (each a spec, a list of specs or of
{spec, label} tables) gives the cells. With [[rows]], the rows are the cells and the top-level
`game`, `guesser` and `chooser` are their defaults; a top-level list of several (a grid) beside
[[rows]] is refused rather than silently dropped. Each cell is evaluated and printed with its published figures beside ours.
Only the uniform chooser exists yet: evaluations are over every secret.
"""

from __future__ import annotations

import csv
import itertools
import re
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ArenaError, choices

TOP_KEYS = {"title", "description", "seed", "repeat", "block", "strikes", "game", "games", "guesser", "guessers",
            "chooser", "choosers", "rows"}
ROW_KEYS = {"label", "game", "guesser", "chooser", "repeat", "seed", "strikes", "published", "tolerance", "note"}
FIGURES = ("total", "mean", "max", "misses", "misses_max", "lostK")
DEFAULT_TOLERANCE = {"total": 0, "mean": 0.005, "max": 0, "misses": 0.005, "misses_max": 0, "lost": 0}
_FORMATS = {"total": ",.0f", "mean": ".2f", "max": "d", "misses": ".2f", "misses_max": "d", "lost": ",d"}


def _figure_kind(key: str) -> str | None:
    """The kind of a published figure's key (`lost6` is a `lost`), or None if unknown."""
    if re.fullmatch(r"lost[1-9]\d*", key):
        return "lost"
    return key if key in DEFAULT_TOLERANCE and key != "lost" else None
CHOOSERS = ("uniform",)


@dataclass(frozen=True)
class Cell:
    """One evaluation to run: a guesser against a chooser on a game, and what was published."""

    label: str
    game: str
    guesser: str
    chooser: str = "uniform"
    repeat: int = 1
    seed: int = 0
    published: dict[str, Any] = field(default_factory=dict)
    tolerance: dict[str, float] = field(default_factory=dict)
    note: str = ""
    strikes: tuple[int, ...] = ()  # strike limits to count losses at (games with strikes)


@dataclass
class Config:
    title: str
    cells: list[Cell]
    path: str = ""
    block: int = 5  # repetitions of a random agent per task: the grain of parallel work
    text: str = ""  # the config file as read, kept with stored results


def _fail(where: str, message: str) -> ArenaError:
    return ArenaError(f"{where}: {message}")


def _entries(where: str, value: Any) -> list[tuple[str, str]]:
    """A spec list as (spec, label) pairs: accepts a string, a list of strings or of {spec, label}."""
    items = value if isinstance(value, list) else [value]
    out = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            out.append((item, item))
        elif isinstance(item, dict) and isinstance(item.get("spec"), str):
            extra = set(item) - {"spec", "label"}
            if extra:
                raise _fail(f"{where}[{i}]", f"unknown key {sorted(extra)[0]!r}; expected spec and label")
            out.append((item["spec"], str(item.get("label", item["spec"]))))
        else:
            raise _fail(f"{where}[{i}]", "expected a spec string or a table {spec = ..., label = ...}")
    if not out:
        raise _fail(where, "is empty")
    return out


def _strike_list(where: str, value: Any) -> tuple[int, ...]:
    """`strikes = 6` or `strikes = [6, 9]`: the limits to count losses at."""
    items = value if isinstance(value, list) else [value]
    return tuple(_int(where, v, 1) for v in items)


def _int(where: str, value: Any, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise _fail(where, f"expected an integer >= {low}, got {value!r}")
    return value


def _figures(where: str, table: Any, numeric_only: bool = False) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise _fail(where, f"expected a table such as {{ mean = 4.48, max = 5 }}, got {table!r}")
    unknown = [k for k in table if _figure_kind(k) is None]
    if unknown:
        raise _fail(where, f"unknown figure {unknown[0]!r}; figures: {choices(FIGURES)} "
                           "(lostK: games lost with K strikes, e.g. lost6)")
    for key, value in table.items():
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and not (numeric_only and value < 0)
        if numeric_only and isinstance(value, str) and _percent(value) is not None:
            continue
        if not ok and (numeric_only or not (isinstance(value, str) and _range(value))):
            expected = ("a number >= 0 or a percentage like '5%'" if numeric_only
                        else "a number or a range like '7.32-7.38'")
            raise _fail(f"{where}.{key}", f"expected {expected}, got {value!r}")
    return dict(table)


def _percent(text: str) -> float | None:
    """`5%` as 0.05 (a tolerance relative to the published figure)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*%\s*", text)
    return float(m[1]) / 100 if m else None


def _range(text: str) -> tuple[float, float] | None:
    """`7.32-7.38` as (7.32, 7.38); None unless it is a well-formed increasing range."""
    m = re.fullmatch(r"\s*([\d.,]+)\s*[-–]\s*([\d.,]+)\s*", text)
    try:
        low, high = (float(m[1].replace(",", "")), float(m[2].replace(",", ""))) if m else (1, 0)
    except ValueError:
        return None
    return (low, high) if low <= high else None


def parse_config(data: dict, path: str = "<config>") -> Config:
    """Check a parsed TOML document and expand it into cells; every error names its key."""
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise _fail(path, f"unknown key {sorted(unknown)[0]!r}; valid keys: {choices(sorted(TOP_KEYS))}")
    seed = _int(f"{path}: seed", data.get("seed", 0))
    strikes = _strike_list(f"{path}: strikes", data.get("strikes", []))
    repeat = _int(f"{path}: repeat", data.get("repeat", 1), 1)
    defaults = {}
    for single, plural in (("game", "games"), ("guesser", "guessers"), ("chooser", "choosers")):
        if single in data and plural in data:
            raise _fail(path, f"give {single} or {plural}, not both")
        if single in data or plural in data:
            key = single if single in data else plural
            defaults[single] = _entries(f"{path}: {key}", data[key])
    defaults.setdefault("chooser", [("uniform", "uniform")])
    cells: list[Cell] = []
    rows = data.get("rows", [])
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise _fail(path, "rows must be an array of tables ([[rows]])")
    for key, entries in defaults.items():
        if rows and len(entries) > 1:
            raise _fail(path, f"a list of {key}s makes a grid, and [[rows]] replace the grid: give one "
                              f"{key} as the rows' default, or name it in each row")
    if not rows:
        for key in ("game", "guesser"):
            if key not in defaults:
                raise _fail(path, f"no rows and no {key}s: name {key}s (or {key}) or add [[rows]]")
        for (g, _), (c, _), (q, ql) in itertools.product(defaults["game"], defaults["chooser"], defaults["guesser"]):
            cells.append(Cell(ql, g, q, c, repeat, seed, strikes=strikes))
    for i, row in enumerate(rows):
        where = f"{path}: rows[{i}]"
        unknown = set(row) - ROW_KEYS
        if unknown:
            raise _fail(where, f"unknown key {sorted(unknown)[0]!r}; valid keys: {choices(sorted(ROW_KEYS))}")
        picked = {}
        for key in ("game", "guesser", "chooser"):
            if key in row:
                if not isinstance(row[key], str):
                    raise _fail(f"{where}.{key}", f"expected a spec string, got {row[key]!r}")
                picked[key] = row[key]
            elif key in defaults and len(defaults[key]) == 1:
                picked[key] = defaults[key][0][0]
            else:
                raise _fail(where, f"no {key}: give {key} = \"...\" here or one {key} at the top")
        cells.append(Cell(str(row.get("label", picked["guesser"])), picked["game"], picked["guesser"],
                          picked["chooser"], _int(f"{where}.repeat", row.get("repeat", repeat), 1),
                          _int(f"{where}.seed", row.get("seed", seed)),
                          _figures(f"{where}.published", row.get("published", {})),
                          _figures(f"{where}.tolerance", row.get("tolerance", {}), numeric_only=True),
                          str(row.get("note", "")),
                          _strike_list(f"{where}.strikes", row["strikes"]) if "strikes" in row else strikes))
    for cell in cells:
        if cell.chooser.partition(":")[0] not in CHOOSERS:
            raise _fail(path, f"chooser {cell.chooser!r}: choosers available: {choices(CHOOSERS)}")
    return Config(str(data.get("title", Path(path).stem)), cells, path, _int(f"{path}: block", data.get("block", 5), 1))


def load_config(path: str) -> Config:
    """Read and check a TOML config: a syntax error or a wrong key is an ArenaError naming it."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise ArenaError(f"cannot read config {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ArenaError(f"{path}: not valid TOML: {e}") from None
    config = parse_config(data, path)
    config.text = Path(path).read_text()
    _check_specs(config)
    return config


def _check_specs(config: Config) -> None:
    """Build every agent and parse every game spec up front, so a typo stops the run before it starts."""
    from agents import make_guesser
    from .games import make_game

    for i, cell in enumerate(config.cells):
        try:
            guesser = make_guesser(cell.guesser)
            game = make_game(cell.game)  # cached: the run reuses it
            if hasattr(guesser, "openers_for"):
                guesser.openers_for(game)
        except ArenaError as e:
            raise ArenaError(f"{config.path}: cell {i + 1} ({cell.label}): {e}") from None


@dataclass
class Result:
    cell: Cell
    ours: dict[str, float]
    seconds: float
    agree: bool | None  # None when nothing was published
    error: str | None = None  # an agent that raised or broke the rules: its cell failed


def agrees(ours: float, published: Any, tolerance: float | str) -> bool:
    """Does our figure reproduce the published one (a number within tolerance, or inside a range)?
    A tolerance written `5%` is relative to the published figure."""
    if isinstance(tolerance, str):
        tolerance = _percent(tolerance) * abs(published if not isinstance(published, str) else _range(published)[1])
    if isinstance(published, str):
        low, high = _range(published)
        return low - tolerance <= ours <= high + tolerance
    return abs(ours - published) <= tolerance + 1e-9


def run_cell(cell: Cell) -> Result:
    """One cell, run on its own (in this process, no store)."""
    return run_config(Config(cell.label, [cell])).results[0]


def judge(cell: Cell, ours: dict[str, float], seconds: float, error: str | None = None) -> Result:
    """The cell's result, with its verdict against the published figures."""
    if error:
        return Result(cell, {}, seconds, False if cell.published else None, error)
    missing = [k for k in cell.published if k not in ours]
    if missing:
        return Result(cell, ours, seconds, False, f"no figure {missing[0]!r} for this game")
    verdicts = [agrees(ours[k], v, cell.tolerance.get(k, DEFAULT_TOLERANCE[_figure_kind(k)]))
                for k, v in cell.published.items()]
    return Result(cell, ours, seconds, all(verdicts) if verdicts else None)


@dataclass
class Report:
    config: Config
    results: list[Result]
    seconds: float

    @property
    def all_agree(self) -> bool:
        return all(r.agree is not False for r in self.results)

    def figures(self) -> list[str]:
        """The columns: total, mean, worst, then any other figure a row published or we measured."""
        seen = {k for r in self.results for k in [*r.cell.published, *r.ours]}
        lost = sorted((k for k in seen if _figure_kind(k) == "lost"), key=lambda k: int(k[4:]))
        return ["total", "mean", "max"] + [k for k in ("misses", "misses_max") if k in seen] + lost

    def table(self) -> str:
        """Ours and published side by side, one row per cell."""
        games = {r.cell.game for r in self.results}
        figures = self.figures()
        published = [k for k in figures if any(k in r.cell.published for r in self.results)]
        names = {"max": "worst", "misses_max": "worst misses"}
        lw = max(len("cell"), *(len(r.cell.label) for r in self.results))
        gw = max(len(g) for g in games)
        widths = {k: max(7, len(names.get(k, k))) for k in figures}
        head = f"{'cell':<{lw}} " + (f"{'game':<{gw}} " if len(games) > 1 else "")
        head += " ".join(f"{names.get(k, k):>{widths[k]}}" for k in figures)
        if published:
            head += "  | published: " + " ".join(f"{names.get(k, k):>{widths[k]}}" for k in published) + "  agree"
        lines = [f"{self.config.title}" + (f" ({next(iter(games))})" if len(games) == 1 else ""), head]
        for r in self.results:
            line = f"{r.cell.label:<{lw}} " + (f"{r.cell.game:<{gw}} " if len(games) > 1 else "")
            line += " ".join(f"{_figure(k, r.ours.get(k), r.cell.repeat):>{widths[k]}}" for k in figures)
            if published:
                line += "  |            " + " ".join(f"{_figure(k, r.cell.published.get(k)):>{widths[k]}}" for k in published)
                line += "  " + {True: "yes", False: "NO", None: ""}[r.agree]
            lines.append(line)
        for r in self.results:
            if r.error:
                lines.append(f"  FAILED '{r.cell.label}': {r.error}")
            if r.cell.note:
                lines.append(f"  note on '{r.cell.label}': {r.cell.note}")
        checked = [r for r in self.results if r.agree is not None]
        lines.append(f"{sum(r.agree for r in checked)} of {len(checked)} published rows reproduced; "
                     f"{self.seconds:.1f} s")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"title": self.config.title, "seconds": round(self.seconds, 3), "cells": [
            {"label": r.cell.label, "game": r.cell.game, "guesser": r.cell.guesser, "chooser": r.cell.chooser,
             "repeat": r.cell.repeat, "seed": r.cell.seed, **{k: v for k, v in r.ours.items()},
             "published": r.cell.published, "agree": r.agree, "error": r.error, "seconds": round(r.seconds, 3)}
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
                    if r is None or r.error:
                        row.append("failed" if r is not None else "")
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
        """The chooser x guesser table as a zero-sum game (payoff to the chooser: mean guesses)."""
        if len(choosers) < 2 and len(guessers) < 2:
            return ""
        if any(cells.get((c, g)) is None or cells[c, g].error for c in choosers for g in guessers):
            return "  meta-game: not solved (a cell failed or is missing)"
        try:
            from .equilibrium import solve_matrix_game
        except ImportError:
            return "  meta-game: the equilibrium solver is not available"
        import numpy as np
        payoff = np.array([[cells[c, g].ours["mean"] for g in guessers] for c in choosers])
        solution = solve_matrix_game(payoff)
        mix = lambda names, p: ", ".join(f"{n} {q:.3f}" for n, q in zip(names, p) if q > 1e-9)
        return (f"  meta-game value {solution.value:.4f} guesses; choosers: {mix(choosers, solution.row)}; "
                f"guessers: {mix(guessers, solution.column)}")

    def write_csv(self, path: str) -> None:
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["label", "game", "chooser", "guesser", "repeat", "seed", "total", "mean", "std", "max",
                        "published_total", "published_mean", "published_max", "agree"])
            for r in self.results:
                c, p = r.cell, r.cell.published
                w.writerow([c.label, c.game, c.chooser, c.guesser, c.repeat, c.seed, r.ours["total"],
                            round(r.ours["mean"], 6), round(r.ours["std"], 6), r.ours["max"],
                            p.get("total", ""), p.get("mean", ""), p.get("max", ""),
                            "" if r.agree is None else r.agree])


def _figure(key: str, value: Any, repeat: int = 1) -> str:
    """A figure as the table shows it (a total over several repetitions keeps one decimal)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    fmt = _FORMATS[_figure_kind(key)]
    if key == "total" and repeat > 1:
        fmt = ",.1f"
    return format(int(value) if fmt.endswith("d") else value, fmt)


def run_config(config: Config, progress: bool = False, workers: int = 1, backend: str = "local",
               scheduler: str | None = None, out: str | None = None, force: bool = False) -> Report:
    """Run every cell (in blocks of seeded tasks: see arena.tournament) and judge it.

    With `out`, every finished task is committed to DIR/results.sqlite and a second run
    resumes: only the missing tasks run.
    """
    from .tournament.run import run
    return run(config, progress=progress, workers=workers, backend=backend, scheduler=scheduler, out=out, force=force)
