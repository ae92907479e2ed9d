"""The results of a config: each cell judged against its published figures, the table that
puts ours beside theirs, the guesser x chooser summary and the meta-game on a named payoff,
the ranking of the guessers, and the CSV; and a stored run loaded back (`Report.from_dir`)."""

from __future__ import annotations

import csv
import itertools
import json
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.costs import MISSES, Payoff, default, loss_limits, lost, measures, payoff, strikes_in
from ...core.errors import ArenaError, shown
from ...core.frames import pandas
from ..config import DEFAULT_TOLERANCE, FIGURE_FORMATS, Cell, Config, agrees, figure_kind, known_kind, parse_config
from ..tournament.store import read_store
from ..tournament.tally import Tally

NOT_RUN = "not run yet (resume with arena run CONFIG --out DIR)"


@dataclass
class Result:
    cell: Cell
    ours: dict[str, float]
    seconds: float
    agree: bool | None  # None when nothing was published
    error: str | None = None  # an agent that raised or broke the rules: its cell failed
    histogram: dict[int, int] | None = None  # guesses -> games, for the plots
    status: str = "ok"  # ok (figures measured), failed (a task failed) or not run (not stored yet)
    misses_histogram: dict[int, int] | None = None  # misses -> games, where misses count
    #: where every secret was played: each secret's guesses and misses, summed over the
    #: repetitions (None elsewhere; a store written before such records keeps only the worst)
    per_secret: tuple[list[int] | None, list[int] | None] = (None, None)

    @property
    def measured(self) -> bool:
        """Did every task of the cell run, so its figures exist?"""
        return self.status == "ok"


def judge(
    cell: Cell,
    ours: dict[str, float],
    seconds: float,
    error: str | None = None,
    histogram: dict[int, int] | None = None,
    status: str | None = None,
    misses_histogram: dict[int, int] | None = None,
) -> Result:
    """The cell's result, with its verdict against the published figures.

    With an `error` and no figures the cell failed (status `failed`, or `not run`); an error
    beside figures is a verdict's (a published figure this game does not measure).
    """
    if error and not ours:
        return Result(cell, {}, seconds, False if cell.published else None, error, status=status or "failed")
    missing = [k for k in cell.published if k not in ours]
    if missing:
        return Result(cell, ours, seconds, False, f"no figure {missing[0]!r} for this game")
    verdicts = [
        agrees(ours[k], v, cell.tolerance.get(k, DEFAULT_TOLERANCE[known_kind(k)])) for k, v in cell.published.items()
    ]
    return Result(
        cell, ours, seconds, all(verdicts) if verdicts else None, histogram=histogram, misses_histogram=misses_histogram
    )


def judge_cell(cell: Cell, mine: list, counted: list[Tally | None] | None = None) -> Result:
    """A cell's Result from its tasks' results in block order (None: a task not run yet).

    Failed tasks fail the cell with the first task's error (and how many failed); missing ones
    mark it not run; otherwise the tallies (`counted`, where read already) add up to its figures.
    """
    seconds = sum(r.seconds for r in mine if r is not None)
    if not mine or any(r is None for r in mine):
        return judge(cell, {}, seconds, NOT_RUN, status="not run")
    errors = [r.error for r in mine if not r.ok]
    if errors:
        more = f" ({len(errors)} of {len(mine)} tasks failed)" if len(errors) > 1 else ""
        return judge(cell, {}, seconds, (errors[0] or "failed") + more, status="failed")
    tallies = [t for t in (counted or _tallies(mine)) if t is not None]
    if len({tuple(sorted(t.lost)) for t in tallies}) > 1:  # one cell's blocks count losses at one set of limits
        raise ArenaError("its blocks count lost games at different strike limits")
    tally = sum(tallies[1:], tallies[0])
    result = judge(
        cell,
        tally.figures(),
        seconds,
        histogram=tally.histogram,
        misses_histogram=tally.misses_histogram if tally.misses is not None else None,
    )
    result.per_secret = (tally.secret_guesses, tally.secret_misses)
    return result


def _tied(a: dict, b: dict) -> bool:
    """Two ranking rows whose means are equal up to float rounding: neither ranks above the other."""
    return math.isclose(a["mean"], b["mean"], rel_tol=1e-12, abs_tol=1e-12)


def _tallies(mine: list) -> list[Tally | None]:
    """The tally of each task that ran (None for one not run or failed)."""
    return [Tally.from_json(r.value) if r is not None and r.ok else None for r in mine]


def _check_repetitions(path: Path, cell: Cell, block: int, counted: list[Tally | None], fix: str) -> None:
    """A stored cell's blocks (their tallies, None where not run or failed) must play its
    repetitions: once in one block (deterministic agents), else `repeat` in blocks of `block`;
    anything else (a damaged plan or store) is an ArenaError, not figures over other games."""
    sizes = [min(block, cell.repeat - start) for start in range(0, cell.repeat, block)]
    found = [t.repeat if t is not None else None for t in counted]
    expected = [sizes, [1]] if len(counted) == 1 else [sizes]
    if not any(len(found) == len(e) and all(f in (None, s) for f, s in zip(found, e)) for e in expected):
        raise ArenaError(
            f"{path}: cell {cell.label!r} is stored as {len(counted)} block(s) of {found} repetitions, "
            f"not the {cell.repeat} it plays in blocks of {block}; {fix}"
        )


def confidence_interval(mean: float, error: float, repeat: int, level: float = 0.95) -> tuple[float, float]:
    """Student's t interval of a mean estimated from `repeat` repetitions with standard error
    `error`: mean -/+ t_{(1+level)/2, repeat-1} * error."""
    from scipy.stats import t  # lazy: heavy

    half = float(t.ppf((1 + level) / 2, repeat - 1)) * error
    return mean - half, mean + half


@dataclass
class Report:
    config: Config
    results: list[Result]
    seconds: float
    _meta: dict = field(default_factory=dict, repr=False, compare=False)  # the meta-games solved, kept
    #: what computed the figures, and where (arena.study.tournament.methods.record): made when the run
    #: is written, read back by from_dir (None: not written yet, or a run older than records)
    provenance: dict[str, str] | None = None

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
        lost = sorted((k for k in seen if figure_kind(k) == "lost"), key=lambda k: int(k[4:]))
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
                line += "  |            " + " ".join(
                    f"{_figure(k, r.cell.published.get(k)):>{widths[k]}}" for k in published
                )
                line += "  " + {True: "yes", False: "NO", None: ""}[r.agree]
            lines.append(line)
        for r in self.results:
            if r.error:
                lines.append(f"  {'NOT RUN' if r.status == 'not run' else 'FAILED'} '{r.cell.label}': {r.error}")
            if r.cell.note:
                lines.append(f"  note on '{r.cell.label}': {r.cell.note}")
        checked = [r for r in self.results if r.agree is not None]
        done = f"{sum(bool(r.agree) for r in checked)} of {len(checked)} published rows reproduced; " if checked else ""
        failed = sum(r.error is not None and r.status != "not run" for r in self.results)
        missing = sum(r.status == "not run" for r in self.results)
        lines.append(
            done
            + f"{len(self.results)} cells"
            + (f", {failed} failed" if failed else "")
            + (f", {missing} not run yet" if missing else "")
            + f"; {self.seconds:.1f} s"
        )
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {
            "title": self.config.title,
            "seconds": round(self.seconds, 3),
            "cells": [
                {
                    "label": r.cell.label,
                    "game": r.cell.game,
                    "guesser": r.cell.guesser,
                    "chooser": r.cell.chooser,
                    "repeat": r.cell.repeat,
                    "seed": r.cell.seed,
                    **{k: v for k, v in r.ours.items()},
                    "published": r.cell.published,
                    "agree": r.agree,
                    "status": r.status,
                    "error": r.error,
                    "seconds": round(r.seconds, 3),
                }
                for r in self.results
            ],
        }

    @classmethod
    def from_dir(cls, directory: str | Path) -> Report:
        """The Report of a run stored in `directory` (by `arena run CONFIG --out DIR`), from the
        store alone: the config last run into it (read as data: no agent is imported or built),
        its plan and its results. A partial run's missing cells are `not run`, a failed task's
        cell `failed`; a missing, damaged or foreign store is an ArenaError saying what to do."""
        text, plan, rows = read_store(directory)
        path = Path(directory) / "results.sqlite"
        fix = f"rerun arena run CONFIG --out {directory} --force to rebuild the store"
        try:  # a config given as a dict is stored as its JSON (load_config), which TOML never starts as
            data = json.loads(text) if text.lstrip().startswith("{") else tomllib.loads(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
            raise ArenaError(f"{path}: the stored config is not valid TOML ({e}); {fix}") from None
        except RecursionError:
            raise ArenaError(f"{path}: the stored config nests too deeply to read; {fix}") from None
        try:
            config = parse_config(data, f"{path} (stored config)")
        except ArenaError as e:
            raise ArenaError(f"{e}; {fix}") from None
        config.text = text
        by_cell: list[list] = [[] for _ in config.cells]
        for key, cell, block in plan:
            if not isinstance(cell, int) or not 0 <= cell < len(by_cell) or block != len(by_cell[cell]):
                raise ArenaError(
                    f"{path}: the stored plan names cell {shown(cell, 40)}, block {shown(block, 40)} (of {len(by_cell)} "
                    f"cells, each with blocks 0, 1, ... in order); {fix}"
                )
            by_cell[cell].append(rows.get(key))
        judged = []
        for row, mine in zip(config.cells, by_cell):
            counted = _tallies(mine)  # read once, for the blocks' check and for the figures
            _check_repetitions(path, row, config.block, counted, fix)
            try:
                judged.append(judge_cell(row, mine, counted))
            except ArenaError as e:
                raise ArenaError(f"{path}: cell {row.label!r}: {e}; {fix}") from None
        from ..tournament.methods import read

        return cls(config, judged, sum(r.seconds for r in judged), provenance=read(directory, text))

    def methods(self) -> str:
        """A methods paragraph for a paper (arena.study.tournament.methods), from `provenance`."""
        from ..tournament.methods import methods

        return methods(self, self.provenance)

    def payoff_for(self, game: str) -> Payoff:
        """The payoff this game's grid, heat map and meta-game use: the config's `payoff`, else
        the game's own cost (misses where they count, else guesses)."""
        if self.config.payoff:
            return payoff(self.config.payoff)
        return default(any(measures(r.ours, MISSES) for r in self.results if r.cell.game == game))

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
        """Guessers x choosers per game, on the game's payoff: its mean (± its standard error
        where random agents repeat), the worst game, and the loss rate within each strike limit."""
        lines = []
        for game, (choosers, guessers, cells) in self.grids().items():
            pay = self.payoff_for(game)
            limits = loss_limits(k for r in cells.values() for k in r.ours)
            texts = {(c, g): grid_text(cells.get((c, g)), pay, limits) for c in choosers for g in guessers}
            worst = self.worst_secrets(game)
            columns = choosers + (["worst secret"] if worst else [])
            for g in guessers:
                texts["worst secret", g] = f"{worst[g]:.3f}" if g in worst else ""
            width = max(12, *(len(t) for t in texts.values()), *map(len, columns))
            lw = max(len("guesser"), *map(len, guessers))
            worst_game = " (worst)" if pay.worst else ""
            losses = f" [loss rate within {', '.join(map(str, limits))} strikes]" if limits else ""
            lines.append(
                f"{game}: {pay.title}{' ± standard error' if _any_error(cells, pay) else ''}{worst_game}"
                f"{losses}" + ("; worst secret: its cost against the worst chooser" if worst else "")
            )
            lines.append(f"{'guesser':<{lw}} " + " ".join(f"{c:>{width}}" for c in columns))
            for g in guessers:
                lines.append(f"{g:<{lw}} " + " ".join(f"{texts[c, g]:>{width}}" for c in columns))
            lines.append(self.meta_game(game, choosers, guessers, cells))
        return "\n".join(lines)

    def meta_game(self, game: str, choosers: list[str], guessers: list[str], cells: dict) -> str:
        """The line that `summary` prints for a game's meta-game (its solution is
        `meta_game_solution`): the chooser x guesser table as a zero-sum game whose payoff to
        the chooser is the game's payoff (`payoff_for`), named with its unit."""
        if len(choosers) < 2 and len(guessers) < 2:
            return ""
        solved = self._solve_meta(game, choosers, guessers, cells)
        pay = self.payoff_for(game)
        if isinstance(solved, str):
            return f"  meta-game on {pay.title}: not solved ({solved})"
        _, row, _, column, value = solved
        mix = lambda names, p: ", ".join(f"{n} {q:.3f}" for n, q in zip(names, p) if q > 1e-9)
        return (
            f"  meta-game on {pay.title}: value {pay.describe(value)}; choosers: "
            f"{mix(choosers, row)}; guessers: {mix(guessers, column)}"
        )

    @property
    def mixes(self) -> dict[str, tuple]:
        """Per game with a grid, its meta-game's (choosers, their mix, guessers, theirs, value),
        where it could be solved: computed when asked (and kept), whatever was called before."""
        found = {}
        for game, (choosers, guessers, cells) in self.grids().items():
            solved = self._solve_meta(game, choosers, guessers, cells)
            if not isinstance(solved, str):
                found[game] = solved
        return found

    def _solve_meta(self, game: str, choosers: list[str], guessers: list[str], cells: dict) -> tuple | str:
        """The meta-game's solution as in `mixes`, or why it was not solved (a str); kept, since
        a report's results do not change."""
        key = (game, tuple(choosers), tuple(guessers))
        if key not in self._meta:
            self._meta[key] = self._compute_meta(game, choosers, guessers, cells)
        return self._meta[key]

    def _compute_meta(self, game: str, choosers: list[str], guessers: list[str], cells: dict) -> tuple | str:
        pay = self.payoff_for(game)
        if any(cells.get((c, g)) is None or not cells[c, g].measured for c in choosers for g in guessers):
            return "a cell failed or is missing"
        missing = [(c, g) for c in choosers for g in guessers if pay.figure not in cells[c, g].ours]
        if missing:
            return f"{missing[0][1]} against {missing[0][0]} has no {pay.key}"
        try:
            from ...equilibrium import solve_matrix_game
        except ImportError:
            return "the equilibrium solver is not available"
        import numpy as np

        matrix = np.array([[cells[c, g].ours[pay.figure] for g in guessers] for c in choosers])
        solution = solve_matrix_game(matrix)
        return (choosers, solution.row, guessers, solution.column, solution.value)

    def _grid_of(self, game: str) -> tuple[list[str], list[str], dict]:
        """One game's grid (see `grids`); an ArenaError naming the games that have one."""
        grids = self.grids()
        if game not in grids:
            raise ArenaError(f"no guesser x chooser grid for {game!r}; grids: {', '.join(grids) or 'none'}")
        return grids[game]

    def grid(self, game: str):
        """A game's guesser x chooser grid on its payoff, as a pandas DataFrame (guessers as the
        index, choosers as columns; NaN where a cell failed or was not run)."""
        choosers, guessers, cells = self._grid_of(game)
        pay = self.payoff_for(game)
        values = [
            [cells[c, g].ours.get(pay.figure) if (c, g) in cells and cells[c, g].measured else None for c in choosers]
            for g in guessers
        ]
        frame = pandas().DataFrame(values, index=guessers, columns=choosers, dtype=float)
        frame.index.name, frame.columns.name = "guesser", pay.title
        return frame

    def meta_game_solution(self, game: str) -> dict | None:
        """The equilibrium of a game's grid as a zero-sum game on its payoff: the value, its
        payoff and unit, and both mixes by name (None when a cell is missing)."""
        solved = self._solve_meta(game, *self._grid_of(game))
        if isinstance(solved, str):
            return None
        choosers, row, guessers, column, value = solved
        pay = self.payoff_for(game)
        return {
            "value": float(value),
            "payoff": pay.key,
            "unit": pay.unit,
            "choosers": dict(zip(choosers, map(float, row))),
            "guessers": dict(zip(guessers, map(float, column))),
        }

    def worst_secrets(self, game: str) -> dict[str, float]:
        """Per guesser of a game, its (mean) cost in the game's payoff against its worst secret,
        read off a cell where it played every secret (against the uniform chooser): its value
        against the worst chooser of all, to set beside the game's value (`arena evaluate GAME
        GUESSER --exploitability`)."""
        pay = self.payoff_for(game)
        found: dict[str, float] = {}
        if pay.against_worst is None:
            return found
        for r in self.results:
            if r.cell.game == game and r.measured and pay.against_worst in r.ours:
                found.setdefault(r.cell.label, r.ours[pay.against_worst])
        return found

    def ranking(self, game: str | None = None) -> list[dict]:
        """The guessers ranked per game and chooser on the game's payoff (smallest first): its
        mean, and where random agents repeated, the standard error between repetitions and a
        95% Student-t confidence interval (None for an exact figure). Cells not measured are left out."""
        rows: list[dict[str, Any]] = []
        for r in self.results:
            if not r.measured or game is not None and r.cell.game != game:
                continue
            pay = self.payoff_for(r.cell.game)
            if pay.figure not in r.ours:
                continue
            mean, error = r.ours[pay.figure], r.ours.get(pay.error) if pay.error else None
            low, high = confidence_interval(mean, error, r.cell.repeat) if error is not None else (None, None)
            rows.append(
                {
                    "game": r.cell.game,
                    "chooser": r.cell.chooser,
                    "guesser": r.cell.label,
                    "payoff": pay.key,
                    "mean": mean,
                    "se": error,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
        rows.sort(key=lambda row: (row["game"], row["chooser"], row["mean"]))
        for _, group in itertools.groupby(rows, key=lambda row: (row["game"], row["chooser"])):
            ranked = list(group)
            for row in ranked:  # ties share the best place (1, 1, 3): equal means, equal rank
                row["rank"] = 1 + sum(1 for other in ranked if other["mean"] < row["mean"] and not _tied(other, row))
        return rows

    def paired(self, game: str, first: str, second: str, chooser: str = "uniform"):
        """Guesser `second` against `first` (labels) on `game` against `chooser`, secret by secret,
        from the stored per-secret records (arena.study.results.paired.stored_pair)."""
        from .paired import stored_pair

        return stored_pair(self, game, first, second, chooser)

    def overall_ranking(self) -> list[dict]:
        """The guessers ranked across every game and chooser: for each guesser, its mean rank over
        the (game, chooser) cells where every guesser of that game was measured (`ranking`'s ranks,
        ties shared), how many of those cells it ranked first in, and how many cells that is;
        smallest mean rank first. Cells where some guesser failed are left out, so that each
        guesser is ranked over the same cells as the others of its game."""
        by_cell: dict[tuple[str, str], list[dict]] = {}
        for row in self.ranking():
            by_cell.setdefault((row["game"], row["chooser"]), []).append(row)
        expected = {g: {r.cell.label for r in self.results if r.cell.game == g} for g, _ in by_cell}
        ranks: dict[str, list[int]] = {}
        for (game, _), rows in by_cell.items():
            if {row["guesser"] for row in rows} != expected[game]:
                continue
            for row in rows:
                ranks.setdefault(row["guesser"], []).append(row["rank"])
        table: list[dict[str, Any]] = [
            {"guesser": g, "mean_rank": sum(r) / len(r), "first": r.count(1), "cells": len(r)} for g, r in ranks.items()
        ]
        table.sort(key=lambda row: (row["mean_rank"], -row["first"], row["guesser"]))
        return table

    def ranking_frame(self, game: str | None = None):
        """`ranking()` as a pandas DataFrame."""
        return pandas().DataFrame(
            self.ranking(game),
            columns=["game", "chooser", "rank", "guesser", "payoff", "mean", "se", "ci_low", "ci_high"],
        )

    def columns(self) -> list[str]:
        """results.csv's columns, and the frame's: the cell, every payoff figure any cell measured
        (guesses; misses and the games lost within each strike limit where misses count), the
        standard errors and 95% intervals of the means where random agents repeat, what was
        published, and the verdict."""
        seen = {k for r in self.results for k in r.ours}
        limits = loss_limits(seen)
        figures = ["total", "mean", "mean_se", "mean_ci_low", "mean_ci_high", "std", "max", "worst_secret"]
        if "misses" in seen or any(r.cell.published.get("misses") is not None for r in self.results):
            figures += ["misses", "misses_se", "misses_ci_low", "misses_ci_high", "misses_max", "misses_worst_secret"]
        figures += [name for k in limits for name in (f"lost{k}", lost(k).figure)]
        published = ["total", "mean", "max"] + [
            k
            for k in dict.fromkeys(k for r in self.results for k in r.cell.published)
            if k not in ("total", "mean", "max")
        ]
        return (
            ["label", "game", "chooser", "guesser", "repeat", "seed"]
            + figures
            + [f"published_{k}" for k in published]
            + ["agree", "status", "error"]
        )

    def rows(self) -> list[list]:
        """One row per cell in `columns()` order, failed ones included (a figure not measured or
        not published is None): what results.csv and the frame hold."""
        columns = self.columns()
        return [[_cell_value(r, column) for column in columns] for r in self.results]

    def write_csv(self, path: str) -> None:
        """One row per cell, failed ones included (figures blank, status and error filled in);
        no timings, so the same seed gives the same bytes whatever the workers."""
        with open(path, "w", newline="") as f:
            w = csv.writer(f)  # writes None as a blank field
            w.writerow(self.columns())
            w.writerows(self.rows())

    def to_frame(self):
        """results.csv as a pandas DataFrame: one row per cell, the same columns (a blank
        field is None; `pandas.read_csv` reads it as NaN)."""
        return pandas().DataFrame(self.rows(), columns=self.columns())


def _cell_value(r: Result, column: str) -> Any:
    """One field of a cell's CSV row."""
    c, o = r.cell, r.ours
    identity = {
        "label": c.label,
        "game": c.game,
        "chooser": c.chooser,
        "guesser": c.guesser,
        "repeat": c.repeat,
        "seed": c.seed,
        "agree": r.agree,
        "status": r.status,
        "error": r.error,
    }
    if column in identity:
        return identity[column]
    if column.startswith("published_"):
        return c.published.get(column[len("published_") :])
    if column.endswith(("_ci_low", "_ci_high")):
        mean_key = column.rsplit("_ci_", 1)[0]
        error = o.get(f"{mean_key}_se")
        if error is None or mean_key not in o:
            return None
        low, high = confidence_interval(o[mean_key], error, c.repeat)
        return round(low if column.endswith("low") else high, 6)
    value = o.get(column)
    exact = column == "total" or strikes_in(column) is not None  # counts (lostK: games lost), kept whole
    return round(value, 6) if isinstance(value, float) and not exact else value


def _any_error(cells: dict, pay: Payoff) -> bool:
    return pay.error is not None and any(pay.error in r.ours for r in cells.values() if r is not None)


def grid_text(r: Result | None, pay: Payoff, limits: list[int]) -> str:
    """One cell of a summary grid as the terminal and the HTML page print it: `3.270 ±0.021 (5)
    [12.5%, 3.1%]` (the mean, its standard error where random agents repeat, the worst game, the
    loss rates within each strike limit), or why it has no figure."""
    if r is None:
        return ""
    if not r.measured:
        return r.status
    if pay.figure not in r.ours:
        return f"no {pay.key}"
    value = r.ours[pay.figure]
    text = pay.show(value, 3, 1)
    if pay.error and pay.error in r.ours:
        text += f" ±{r.ours[pay.error]:.3f}"
    if pay.worst:
        text += f" ({r.ours[pay.worst]})"
    rates = [r.ours.get(lost(k).figure) for k in limits]
    if limits and all(v is not None for v in rates):
        text += " [" + ", ".join(f"{v:.1%}" for v in rates) + "]"
    return text


def _figure(key: str, value: Any, repeat: int = 1) -> str:
    """A figure as the table shows it (a total over several repetitions keeps one decimal)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    fmt = FIGURE_FORMATS[known_kind(key)]
    if key == "total" and repeat > 1 or figure_kind(key) == "lost" and value != int(value):
        fmt = ",.1f"  # an average over repetitions
    return format(int(value) if fmt.endswith("d") else value, fmt)
