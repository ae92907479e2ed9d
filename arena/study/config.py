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

Optional top-level keys: `block = 5` (repetitions of a random agent per task, the grain of
parallel work and of resuming; a config may make at most 200,000 tasks), `strikes = [6, 8]`
(strike limits to count losses at), `task_timeout = 60` (seconds a task may run before it is
recorded as failed; `arena run --task-timeout` overrides it), `payoff = "misses"` (what the
grids and meta-games measure). Every key is in `KEYS`, from which the reference page
docs/reference/config.md is written; an unknown key is refused with the nearest valid one.

Without [[rows]], the grid `games` x `choosers` x `guessers` (each a spec, a list of specs or of
{spec, label} tables) gives the cells. With [[rows]], the rows are the cells and the top-level
`game`, `guesser` and `chooser` are their defaults; a top-level list of several (a grid) beside
[[rows]] is refused rather than silently dropped. Each cell is evaluated and printed with its published figures beside ours.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from agents.registry import imports_are_allowed, make_agent, module_path

from ..core.costs import payoff, strikes_in
from ..core.errors import ArenaError, ArenaTypeError, choices, did_you_mean
from ..core.spec import parse_spec
from ..games import make_game
from .tournament.tasks import files_read


@dataclass(frozen=True)
class Key:
    """One key a config may hold: where (top level, or in a [[rows]] table), what value it
    takes, its default, and what it does. The parser checks keys against this table, and the
    reference page of config keys (docs/reference/config.md) is written from it."""

    name: str
    where: str  # "top" or "row"
    value: str
    default: str
    doc: str


KEYS = (
    Key("title", "top", "string", "the file's name", "the heading of the tables and the summary"),
    Key("description", "top", "string", "none", "free text, kept with the stored results"),
    Key("seed", "top", "integer >= 0", "0", "the tournament seed: every random choice of every cell flows from it"),
    Key(
        "repeat",
        "top",
        "integer >= 1",
        "1",
        "repetitions of a cell whose guesser or chooser is random (a deterministic pair plays once)",
    ),
    Key(
        "block",
        "top",
        "integer >= 1",
        "5",
        "repetitions per task: the grain of parallel work and of resuming (at most 200,000 tasks a config)",
    ),
    Key(
        "strikes",
        "top",
        "integer or list of integers >= 1",
        "[]",
        "strike limits to count games lost at (Hangman), e.g. [6, 8]",
    ),
    Key(
        "task_timeout",
        "top",
        "number of seconds > 0",
        "no limit",
        "a task still running after this is recorded as failed (`arena run --task-timeout` overrides it)",
    ),
    Key(
        "payoff",
        "top",
        "guesses, misses or lostK",
        "the game's cost: misses where they count, else guesses",
        "what the summary grids, heat maps and meta-games measure (lostK: the share of games lost within K strikes)",
    ),
    Key("game", "top", "spec", "none", "the game of every cell (or every row's default)"),
    Key("games", "top", "list of specs or of {spec, label}", "none", "the games of a grid"),
    Key("guesser", "top", "spec", "none", "the guesser of every cell (or every row's default)"),
    Key("guessers", "top", "list of specs or of {spec, label}", "none", "the guessers of a grid"),
    Key("chooser", "top", "spec", "uniform", "the chooser of every cell (or every row's default)"),
    Key("choosers", "top", "list of specs or of {spec, label}", '["uniform"]', "the choosers of a grid"),
    Key("rows", "top", "array of tables ([[rows]])", "none", "the cells one by one, instead of a grid"),
    Key("label", "row", "string", "the guesser's spec", "the cell's name in the tables"),
    Key("game", "row", "spec", "the top-level game", "this row's game"),
    Key("guesser", "row", "spec", "the top-level guesser", "this row's guesser"),
    Key("chooser", "row", "spec", "the top-level chooser", "this row's chooser"),
    Key("repeat", "row", "integer >= 1", "the top-level repeat", "this row's repetitions"),
    Key("seed", "row", "integer >= 0", "the top-level seed", "this row's seed"),
    Key("strikes", "row", "integer or list of integers >= 1", "the top-level strikes", "this row's strike limits"),
    Key(
        "published",
        "row",
        "table of figures",
        "{}",
        "the published figures to reproduce: total, mean, max, "
        'misses, misses_max, lostK (a number, or a range like "7.32-7.38")',
    ),
    Key(
        "tolerance",
        "row",
        "table of figures",
        "mean 0.005, misses 0.005, others 0",
        'how far ours may be from each published figure (a number, or a percentage like "5%")',
    ),
    Key("note", "row", "string", "none", "printed under the table beside the row"),
)
TOP_KEYS = {k.name for k in KEYS if k.where == "top"}
ROW_KEYS = {k.name for k in KEYS if k.where == "row"}
SINGULAR = {"game": "games", "guesser": "guessers", "chooser": "choosers"}


def reference() -> str:
    """The reference page of config keys, in Markdown, written from KEYS (docs/reference/config.md)."""
    lines = [
        "# Config keys",
        "",
        "Every key an `arena run` config may hold, as the parser reads it (written from "
        "`arena.study.config.KEYS` by `python -m arena.study.config`; a test checks this page is current). "
        "An unknown key is refused with the valid ones.",
        "",
    ]
    for where, heading in (("top", "Top level"), ("row", "In a `[[rows]]` table")):
        lines += [f"## {heading}", "", "| key | value | default | what it does |", "| --- | --- | --- | --- |"]
        lines += [f"| `{k.name}` | {k.value} | {k.default} | {k.doc} |" for k in KEYS if k.where == where]
        lines.append("")
    return "\n".join(lines)


def _unknown_key(where: str, keys: list[str], valid: set[str]) -> ArenaError:
    """The unknown keys (all of them, in one line), each with the nearest valid one if it looks
    like a typo."""
    named = "; ".join(f"unknown key {key!r}{did_you_mean(key, sorted(valid))}" for key in keys)
    return _fail(where, f"{named} (valid keys: {choices(sorted(valid))})")


T = TypeVar("T")

FIGURES = ("total", "mean", "max", "misses", "misses_max", "lostK")
DEFAULT_TOLERANCE = {"total": 0, "mean": 0.005, "max": 0, "misses": 0.005, "misses_max": 0, "lost": 0}
#: How each kind of figure is printed (arena.study.results.report's tables).
FIGURE_FORMATS = {"total": ",.0f", "mean": ".2f", "max": "d", "misses": ".2f", "misses_max": "d", "lost": ",d"}


def figure_kind(key: str) -> str | None:
    """The kind of a published figure's key (`lost6` is a `lost`), or None if unknown."""
    if strikes_in(key) is not None:
        return "lost"
    return key if key in DEFAULT_TOLERANCE and key != "lost" else None


def known_kind(key: str) -> str:
    """The kind of a figure's key that parse_config has checked (figure_kind, never None)."""
    kind = figure_kind(key)
    if kind is None:
        raise ArenaError(f"{key!r} is not a published figure; figures: {choices(FIGURES)}")
    return kind


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
    task_timeout: float | None = None  # seconds a task may run before it is failed (None: no limit)
    allow_import: bool = False  # may module:Class agents be imported (never on `arena report`)
    files: dict[str, str] | None = None  # file -> SHA-256 of every file the cells read, hashed on loading
    payoff: str | None = None  # what the grids and meta-games measure (arena.core.costs.payoff); None: each game's cost


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
    _unique(where, out)
    return out


def _unique(where: str, entries: list[tuple[str, str]]) -> None:
    """Labels name rows and columns of the tables: two entries with one label would be merged
    into one row (and a spec listed twice is the same row twice), so both are refused."""
    labels: dict[str, int] = {}
    specs: dict[str, int] = {}
    for i, (spec, label) in enumerate(entries):
        j, k = labels.setdefault(label, i), specs.setdefault(spec.strip(), i)
        if k != i:
            raise _fail(f"{where}[{i}]", f"{spec!r} is listed twice (as [{k}] and [{i}]); list each spec once")
        if j != i:
            raise _fail(
                f"{where}[{i}]",
                f"{entries[j][0]!r} and {spec!r} have the same label {label!r}; labels must be unique "
                "(give each a label of its own)",
            )


def _strike_list(where: str, value: Any) -> tuple[int, ...]:
    """`strikes = 6` or `strikes = [6, 9]`: the limits to count losses at."""
    items = value if isinstance(value, list) else [value]
    return tuple(_int(where, v, 1) for v in items)


#: The largest integer a config may give: what the results store (SQLite INTEGER) holds.
MAX_INT = 2**63 - 1


def _int(where: str, value: Any, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise _fail(where, f"expected an integer >= {low}, got {value!r}")
    if value > MAX_INT:
        raise _fail(where, f"expected an integer from {low} to 2^63-1, got {value}")
    return value


def _figures(where: str, table: Any, numeric_only: bool = False) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise _fail(where, f"expected a table such as {{ mean = 4.48, max = 5 }}, got {table!r}")
    unknown = [k for k in table if figure_kind(k) is None]
    if unknown:
        raise _fail(
            where,
            f"unknown figure {unknown[0]!r}; figures: {choices(FIGURES)} "
            "(lostK: games lost with K strikes, e.g. lost6)",
        )
    for key, value in table.items():
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and not (numeric_only and value < 0)
        if numeric_only and isinstance(value, str) and _percent(value) is not None:
            continue
        if not ok and (numeric_only or not (isinstance(value, str) and _range(value))):
            expected = (
                "a number >= 0 or a percentage like '5%'" if numeric_only else "a number or a range like '7.32-7.38'"
            )
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


def parse_config(data: dict, path: str = "<config>", allow_import: bool = False) -> Config:
    """Check a parsed TOML document and expand it into cells; every error names its key.

    Only the syntax of game and agent specs is checked here, so a stored config is read as
    data without importing or building anything (`load_config` builds the agents).
    """
    _check_top_keys(data, path)
    pay = _payoff_key(data, path)
    seed = _int(f"{path}: seed", data.get("seed", 0))
    strikes = _strike_list(f"{path}: strikes", data.get("strikes", []))
    repeat = _int(f"{path}: repeat", data.get("repeat", 1), 1)
    timeout = _timeout(f"{path}: task_timeout", data["task_timeout"]) if "task_timeout" in data else None
    defaults = _defaults(data, path)
    rows = data.get("rows", [])
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise _fail(path, "rows must be an array of tables ([[rows]])")
    for key, entries in defaults.items():
        if rows and len(entries) > 1:
            raise _fail(
                path,
                f"a list of {key}s makes a grid, and [[rows]] replace the grid: give one "
                f"{key} as the rows' default, or name it in each row",
            )
    if rows:
        cells = [_row_cell(f"{path}: rows[{i}]", row, defaults, repeat, seed, strikes) for i, row in enumerate(rows)]
        _check_labels(cells, path)
    else:
        cells = _grid_cells(defaults, path, repeat, seed, strikes)
    for cell in cells:
        for kind, spec in (("game", cell.game), ("chooser", cell.chooser), ("guesser", cell.guesser)):
            _check_syntax(path, kind, spec)
    if pay is not None:
        _check_losses_counted(payoff(pay).cost.strikes, cells, path)
    return Config(
        str(data.get("title", Path(path).stem)),
        cells,
        path,
        _int(f"{path}: block", data.get("block", 5), 1),
        task_timeout=timeout,
        allow_import=allow_import,
        payoff=pay,
    )


def _check_top_keys(data: dict, path: str) -> None:
    """No unknown top-level key, and a singular key (`game`) never given a list."""
    unknown = set(data) - TOP_KEYS
    if unknown:
        raise _unknown_key(path, sorted(unknown), TOP_KEYS)
    for single, plural in SINGULAR.items():
        if isinstance(data.get(single), list):
            raise _fail(path, f"{single} takes one spec; for a list write {plural} = [...]")


def _payoff_key(data: dict, path: str) -> str | None:
    """The config's `payoff` (a name arena.core.costs.payoff knows), or None."""
    pay = data.get("payoff")
    if pay is not None:
        if not isinstance(pay, str):
            raise _fail(f"{path}: payoff", f'expected a string such as "misses", got {pay!r}')
        try:
            payoff(pay)
        except ArenaError as e:
            raise _fail(f"{path}: payoff", str(e)) from None
    return pay


def _defaults(data: dict, path: str) -> dict[str, list[tuple[str, str]]]:
    """The top level's games, guessers and choosers (`game` or `games`, ...): each a list of
    (spec, label); the chooser defaults to the uniform one."""
    defaults = {}
    for single, plural in (("game", "games"), ("guesser", "guessers"), ("chooser", "choosers")):
        if single in data and plural in data:
            raise _fail(path, f"give {single} or {plural}, not both")
        if single in data or plural in data:
            key = single if single in data else plural
            defaults[single] = _entries(f"{path}: {key}", data[key])
    defaults.setdefault("chooser", [("uniform", "uniform")])
    return defaults


def _grid_cells(defaults: dict, path: str, repeat: int, seed: int, strikes: tuple[int, ...]) -> list[Cell]:
    """Without [[rows]]: a cell for every game x chooser x guesser."""
    for key in ("game", "guesser"):
        if key not in defaults:
            raise _fail(path, f"no rows and no {key}s: name {key}s (or {key}) or add [[rows]]")
    return [
        Cell(ql, g, q, c, repeat, seed, strikes=strikes)
        for (g, _), (c, _), (q, ql) in itertools.product(defaults["game"], defaults["chooser"], defaults["guesser"])
    ]


def _row_cell(where: str, row: dict, defaults: dict, repeat: int, seed: int, strikes: tuple[int, ...]) -> Cell:
    """One [[rows]] table as a cell: what it leaves out comes from the top level."""
    unknown = set(row) - ROW_KEYS
    if unknown:
        raise _unknown_key(where, sorted(unknown), ROW_KEYS)
    picked = {}
    for key in ("game", "guesser", "chooser"):
        if key in row:
            if not isinstance(row[key], str):
                raise _fail(f"{where}.{key}", f"expected a spec string, got {row[key]!r}")
            picked[key] = row[key]
        elif key in defaults and len(defaults[key]) == 1:
            picked[key] = defaults[key][0][0]
        else:
            raise _fail(where, f'no {key}: give {key} = "..." here or one {key} at the top')
    return Cell(
        str(row.get("label", picked["guesser"])),
        picked["game"],
        picked["guesser"],
        picked["chooser"],
        _int(f"{where}.repeat", row.get("repeat", repeat), 1),
        _int(f"{where}.seed", row.get("seed", seed)),
        _figures(f"{where}.published", row.get("published", {})),
        _figures(f"{where}.tolerance", row.get("tolerance", {}), numeric_only=True),
        str(row.get("note", "")),
        _strike_list(f"{where}.strikes", row["strikes"]) if "strikes" in row else strikes,
    )


def _check_labels(cells: list[Cell], path: str) -> None:
    """A label is a row of its game's tables: one guesser each."""
    named: dict[tuple[str, str], int] = {}
    for i, cell in enumerate(cells):
        j = named.setdefault((cell.game, cell.label), i)
        if cells[j].guesser != cell.guesser:
            raise _fail(
                f"{path}: rows[{i}]",
                f"guessers {cells[j].guesser!r} (rows[{j}]) and {cell.guesser!r} have the same label "
                f"{cell.label!r} on {cell.game}; labels must be unique (give each a label of its own)",
            )


def _check_losses_counted(strikes: int | None, cells: list[Cell], path: str) -> None:
    """A payoff of games lost within `strikes` strikes (None: another payoff) needs a cell that
    counts them: strikes = [K], or a published lostK."""
    limits = {k for cell in cells for k in cell.strikes} | {
        k for cell in cells for k in map(strikes_in, cell.published) if k is not None
    }
    if strikes is not None and strikes not in limits:
        raise _fail(
            f"{path}: payoff",
            f"lost{strikes} counts games lost within {strikes} strikes, but no cell counts them: "
            f"add strikes = [{strikes}]",
        )


def _timeout(where: str, value: Any) -> float:
    """`task_timeout = 30`: seconds, a number > 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 or value == float("inf"):
        raise _fail(where, f"expected a number of seconds > 0, got {value!r}")
    return float(value)


def _check_syntax(path: str, kind: str, spec: str) -> None:
    """A spec's syntax (`name:key=value,...`, or `module:Class[:key=value,...]` for an agent),
    without looking the name up: nothing is imported or built."""

    module = module_path(spec) if kind != "game" and isinstance(spec, str) else None
    try:
        if module:
            parse_spec("x:" + module[1])  # module:Class[:params]: only the parameters have a syntax
        else:
            parse_spec(spec)
    except ArenaError as e:
        reason = str(e).split("': ", 1)[-1] if str(e).startswith("spec ") else str(e)
        raise _fail(path, f"{kind} {spec!r}: {reason}") from None


def load_config(path: str | Path | dict, allow_import: bool | None = None) -> Config:
    """Read and check a TOML config: a syntax error or a wrong key is an ArenaError naming it.

    `path` is a TOML file, or the config's tables as a dict (`{"games": ["mastermind"], ...}`,
    as tomllib reads a file; its text, for the results store, is the dict as sorted JSON). The
    file must be UTF-8 (a byte-order mark is accepted). The files the cells read are hashed
    before any game or agent reads them, and every agent is built (module:Class agents only
    with `allow_import`; None asks the context, `agents.imports_allowed`).
    """
    if allow_import is None:
        allow_import = imports_are_allowed()
    if isinstance(path, dict):
        data, text, path = config_tables(path)
    elif isinstance(path, (str, Path)):
        text = read_config_text(str(path))
        path = str(path)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise ArenaError(f"{path}: not valid TOML: {e}") from None
        except RecursionError:
            raise ArenaError(
                f"{path}: arrays or tables nested too deeply to read (a config nests a few levels)"
            ) from None
    else:
        raise ArenaTypeError(f"load_config takes a TOML file's path or the config as a dict, got {type(path).__name__}")
    config = parse_config(data, path, allow_import=allow_import)
    config.text = text
    config.files = files_read(config.cells)
    _check_specs(config, allow_import=allow_import)
    return config


def config_tables(data: dict) -> tuple[dict, str, str]:
    """(tables, text, name) of a config given as a dict: its text the sorted JSON that keys the
    store; anything JSON cannot write (a set, an object) is one ArenaError."""
    import json

    try:
        text = json.dumps(data, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as e:
        raise ArenaError(
            f"a config given as a dict holds TOML values only (strings, numbers, lists, tables): {e}"
        ) from None
    return json.loads(text), text, "<config dict>"


def read_config_text(path: str) -> str:
    """A config file's text: UTF-8, with or without a byte-order mark; anything else is an ArenaError."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise ArenaError(f"cannot read config {path}: {e.strerror}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ArenaError(
            f"{path}: not UTF-8 text (byte 0x{raw[e.start]:02x} on line {line}); save the config as UTF-8"
        ) from None


def _check_specs(config: Config, allow_import: bool = False) -> None:
    """Build every agent and parse every game spec up front, so a typo stops the run before it
    starts: every mistake at once, in one line (each once, with the first cell it is in)."""
    mistakes: dict[str, list[tuple[int, str]]] = {}
    for i, cell in enumerate(config.cells):
        try:
            chooser = make_agent(cell.chooser, "chooser", allow_import=allow_import)
            guesser = make_agent(cell.guesser, "guesser", allow_import=allow_import)
            game = make_game(cell.game)  # cached: the run reuses it
            for agent in (chooser, guesser):
                if agent.traits.interactive:
                    raise ArenaError(f"{agent.label} plays at the terminal (arena play), not in a tournament")
                agent.check(game)  # a game it can never play: an unknown secret, a missing file
            if config.payoff and not payoff(config.payoff).measured_on(game):
                raise ArenaError(
                    f"payoff {config.payoff!r} needs a game where misses count, and {game.spec} "
                    'has none (payoff = "guesses" measures every game)'
                )
            guesser.openers_for(game)  # checks the openers against the game
        except ArenaError as e:
            mistakes.setdefault(str(e), []).append((i + 1, cell.label))
    if mistakes:
        told = []
        for message, cells in mistakes.items():
            (first, label), more = cells[0], len(cells) - 1
            also = f" (and {more} other cell{'s' * (more != 1)})" if more else ""
            told.append(f"cell {first} ({label}){also}: {message}")
        if len(told) > 1:
            told = [f"{len(told)} mistakes:", *(f"({k}) {text}" for k, text in enumerate(told, 1))]
        raise ArenaError(f"{config.path}: {' '.join(told)}")


def agrees(ours: float, published: Any, tolerance: float | str) -> bool:
    """Does our figure reproduce the published one (a number within tolerance, or inside a range)?
    A tolerance written `5%` is relative to the published figure."""
    span = _checked(_range(published), published) if isinstance(published, str) else None
    slack = (
        tolerance
        if not isinstance(tolerance, str)
        else _checked(_percent(tolerance), tolerance) * abs(published if span is None else span[1])
    )
    if span is not None:
        low, high = span
        return low - slack <= ours <= high + slack
    return abs(ours - published) <= slack + 1e-9


def _checked(value: T | None, text: str) -> T:
    """A range or a tolerance read again from text that parse_config has checked already."""
    if value is None:
        raise ArenaError(f"{text!r} is neither a range (7.32-7.38) nor a tolerance (5%)")
    return value


if __name__ == "__main__":  # python -m arena.study.config > docs/reference/config.md
    print(reference())
