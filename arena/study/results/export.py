"""Matrix games exported to the tools of the field, and read back.

Every matrix game the project builds is a two-player zero-sum game in normal form: the chooser
(rows) receives `payoff[i, j]` from the guesser (columns), in guesses (or Hangman's misses or
lost games). Three of them are exported here as a `MatrixGame`:

- an equilibrium's game (`arena equilibrium GAME`): secrets, or Mastermind's code types, against
  the trees the solution was found among (every undominated tree with `--method enumerate`,
  the double oracle's restricted game otherwise); payoffs kept exact, as fractions;
- a tournament's meta-game (`arena report DIR`): the choosers against the guessers it entered.

Two formats, chosen by the file name:

- `.nfg`: Gambit's strategic game, outcome version (strategies named; player 1 the chooser,
  player 2 the guesser, whose payoff is the chooser's negated); both of Gambit's versions, the
  payoff version too, are read back;
- `.csv`: the plain payoff matrix, to the chooser: a header of guesser names (its first cell
  `chooser \\ guesser`), then one row per chooser strategy, its name first.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from ...core.errors import ArenaError
from ...core.outfile import file_format

#: The formats a game is written in, by file name.
FORMATS = ("nfg", "csv")
CORNER = "chooser \\ guesser"


@dataclass(frozen=True)
class MatrixGame:
    """A two-player zero-sum game: `payoff[i, j]` is what the chooser (row `rows[i]`) receives
    from the guesser (column `columns[j]`). `exact` holds the same payoffs as fractions where
    they are known exactly (an equilibrium's game; a file that wrote them so)."""

    title: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    payoff: np.ndarray
    exact: tuple[tuple[Fraction, ...], ...] | None = None

    def __post_init__(self) -> None:
        payoff = np.array(self.payoff, dtype=np.float64)
        if payoff.shape != (len(self.rows), len(self.columns)) or payoff.size == 0:
            raise ArenaError(
                f"a matrix game needs a payoff for each of {len(self.rows)} x {len(self.columns)} "
                f"strategies, got shape {payoff.shape}"
            )
        bad = np.argwhere(~np.isfinite(payoff))
        if len(bad):
            i, j = bad[0].tolist()
            raise ArenaError(
                f"{self.title}: the payoff of {self.rows[i]!r} against {self.columns[j]!r} is "
                f"{float(payoff[i, j])!r}; payoffs are finite numbers"
            )
        payoff.setflags(write=False)
        object.__setattr__(self, "payoff", payoff)

    def value(self) -> float:
        """The game's value to the chooser (linprog, arena.equilibrium.solve_matrix_game)."""
        from ...equilibrium import solve_matrix_game

        return solve_matrix_game(self.payoff).value

    def entry(self, i: int, j: int) -> Fraction | float:
        return self.exact[i][j] if self.exact is not None else float(self.payoff[i, j])

    def save(self, path: str | Path) -> Path:
        """Write the game as `.nfg` (Gambit) or `.csv` (the payoff matrix), by the file name."""
        path = Path(path)
        text = to_nfg(self) if export_format(path) == "nfg" else to_csv(self)
        path.write_text(text, encoding="utf-8")
        return path


def export_format(path: str | Path) -> str:
    """`nfg` or `csv`, from the file name; any other is one line naming both."""
    return file_format(path, FORMATS, f"cannot export a game as {Path(path).name!r}: name a .nfg (Gambit) or .csv file")


def read_matrix_game(path: str | Path) -> MatrixGame:
    """A game written by `MatrixGame.save` (or by Gambit: a two-player zero-sum .nfg)."""
    path = Path(path)
    kind = export_format(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ArenaError(f"{path}: cannot read ({e})") from None
    return from_nfg(text, str(path)) if kind == "nfg" else from_csv(text, str(path))


# --- the games the project builds ---------------------------------------------------------


def equilibrium_game(eq) -> MatrixGame:
    """The matrix game an Equilibrium was solved on: its symmetry's rows (secrets, or code
    types with each code of a type equally likely) against its trees, payoffs exact."""
    from ...equilibrium.payoff_matrix import PayoffMatrix
    from ...equilibrium.plans import first_guesses

    matrix = PayoffMatrix.of(np.array([eq.tree_costs(t) for t in eq.trees]), eq.symmetry)
    exact = tuple(tuple(Fraction(int(t), int(n)) for t in row) for row, n in zip(matrix.totals, matrix.sizes))
    columns = tuple(f"tree {k}: {first_guesses(t)}" for k, t in enumerate(eq.trees, 1))
    rows = tuple(f"{label} ({n} secrets)" if n > 1 else label for label, n in zip(eq.symmetry.labels, matrix.sizes))
    return MatrixGame(
        f"{eq.game.spec}: chooser x guesser, payoff {eq.unit} ({eq.method})", rows, columns, matrix.A, exact
    )


def meta_game(
    game: str,
    choosers: list[str],
    guessers: list[str],
    cells: dict,
    key: str = "mean",
    title: str = "mean guesses per game",
) -> MatrixGame:
    """A tournament's chooser x guesser grid (Report.grids) as a game: payoff the cells' `key`
    (mean guesses, or mean misses). Every cell must have been measured."""
    missing = [
        f"{g} vs {c}" for c in choosers for g in guessers if cells.get((c, g)) is None or not cells[c, g].measured
    ]
    if missing:
        raise ArenaError(
            f"{game}: the meta-game has cells without figures ({', '.join(missing[:3])}"
            f"{' ...' if len(missing) > 3 else ''}): it cannot be exported"
        )
    payoff = np.array([[cells[c, g].ours[key] for g in guessers] for c in choosers], dtype=np.float64)
    return MatrixGame(f"{game}: meta-game, {title}", tuple(choosers), tuple(guessers), payoff)


def meta_games(report) -> dict[str, MatrixGame]:
    """Each game's meta-game of a Report whose cells all ran, on the payoff its meta-game line
    solves (`Report.payoff_for`): the exported game's value is the value the report prints."""
    out = {}
    for game, (choosers, guessers, cells) in report.grids().items():
        pay = report.payoff_for(game)
        if any(
            cells.get((c, g)) is None or not cells[c, g].measured or pay.figure not in cells[c, g].ours
            for c in choosers
            for g in guessers
        ):
            continue
        out[game] = meta_game(game, choosers, guessers, cells, pay.figure, pay.title)
    return out


# --- Gambit's .nfg --------------------------------------------------------------------------


def to_nfg(game: MatrixGame) -> str:
    """Gambit's strategic game, outcome version: one outcome per cell, player 1's strategy
    changing fastest in the outcome list (Gambit's order)."""
    m, n = game.payoff.shape
    lines = [
        f"NFG 1 R {_quote(game.title)} {{ {_quote('chooser')} {_quote('guesser')} }}",
        "",
        "{",
        "{ " + " ".join(map(_quote, game.rows)) + " }",
        "{ " + " ".join(map(_quote, game.columns)) + " }",
        "}",
        "",
        "{",
    ]
    for j in range(n):
        for i in range(m):
            x = game.entry(i, j)
            lines.append(f'{{ "" {_number(x)}, {_number(-x)} }}')
    lines += ["}", " ".join(str(k) for k in range(1, m * n + 1)), ""]
    return "\n".join(lines)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _number(x: Fraction | float) -> str:
    if isinstance(x, Fraction):
        return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
    return repr(float(x)) if x != int(x) else str(int(x))


TOKEN = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([{},])|([^\s{},"]+))', re.S)


def _tokens(text: str, where: str) -> list[tuple[str, str]]:
    """(kind, text) with kind "str", "{", "}" or "word"; commas dropped (Gambit's separators)."""
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ArenaError(f"{where}: not a Gambit .nfg file (cannot read at character {pos})")
        pos = m.end()
        if m.group(1) is not None:
            out.append(("str", re.sub(r"\\(.)", r"\1", m.group(1))))
        elif m.group(2):
            if m.group(2) != ",":
                out.append((m.group(2), m.group(2)))
        elif m.group(3):
            out.append(("word", m.group(3)))
    return out


class _Reader:
    def __init__(self, tokens: list[tuple[str, str]], where: str):
        self.tokens, self.at, self.where = tokens, 0, where

    def peek(self) -> str | None:
        return self.tokens[self.at][0] if self.at < len(self.tokens) else None

    def take(self, kind: str) -> str:
        if self.peek() != kind:
            got = self.tokens[self.at][1] if self.at < len(self.tokens) else "the end of the file"
            raise ArenaError(f"{self.where}: not a Gambit .nfg file (expected {kind!r}, found {got!r})")
        self.at += 1
        return self.tokens[self.at - 1][1]

    def strings(self) -> list[str]:
        self.take("{")
        out = []
        while self.peek() == "str":
            out.append(self.take("str"))
        self.take("}")
        return out

    def number(self) -> Fraction:
        return exact_number(self.take("word"), self.where)

    def count(self, what: str) -> int:
        """A non-negative whole number (a number of strategies, an outcome's index)."""
        x = self.number()
        if x.denominator != 1 or x < 0:
            raise ArenaError(f"{self.where}: {what} is {x}, not a whole number >= 0")
        return int(x)

    def left(self) -> int:
        return len(self.tokens) - self.at


#: A number as Gambit writes it: an integer, a decimal with an exponent, or p/q.
NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?(?:/[0-9]+)?")
#: The most payoffs a game read back may have (a float64 matrix of 80 MB), checked before it is built.
MAX_CELLS = 10_000_000


def exact_number(word: str, where: str) -> Fraction:
    """`word` as an exact finite number, or an ArenaError: the form is checked and the exponent
    and length bounded first, as Fraction("1e999999999") would compute 10**999999999."""
    m = NUMBER.fullmatch(word)
    if not m or len(word) > 1000:
        raise ArenaError(f"{where}: {_short(word)!r} is not a number")
    if m.group(1) is not None and abs(int(m.group(1))) > 400:
        raise ArenaError(
            f"{where}: {_short(word)!r} is out of range: the numbers of a game are finite, their exponents at most 400"
        )
    try:
        x = Fraction(word)
        if not math.isfinite(float(x)):
            raise OverflowError
    except (ZeroDivisionError, ValueError):
        raise ArenaError(f"{where}: {_short(word)!r} is not a number") from None
    except OverflowError:
        raise ArenaError(
            f"{where}: {_short(word)!r} is out of range: the numbers of a game are finite, their exponents at most 400"
        ) from None
    return x


def _short(word: str) -> str:
    return word if len(word) <= 40 else word[:37] + "..."


def from_nfg(text: str, where: str = "the game") -> MatrixGame:
    """A two-player zero-sum game from Gambit's .nfg text (outcome or payoff version)."""
    r = _Reader(_tokens(text, where), where)
    if r.take("word") != "NFG" or r.take("word") != "1":
        raise ArenaError(f"{where}: not a Gambit .nfg file (it starts with NFG 1 R)")
    r.take("word")
    title = r.take("str")
    players = r.strings()
    if len(players) != 2:
        raise ArenaError(f"{where}: a game of {len(players)} players; a matrix game has two")
    r.take("{")
    if r.peek() == "{":  # outcome version: the strategies' names, the outcomes, then the table
        rows, columns = r.strings(), r.strings()
        r.take("}")
        if r.peek() == "str":
            r.take("str")  # the comment
        outcomes = _outcomes(r)
        _fits(len(rows), len(columns), r.left(), 1, where)
        cells = [r.count("an outcome's index") for _ in range(len(rows) * len(columns))]
        if any(not 0 <= k <= len(outcomes) for k in cells):
            raise ArenaError(f"{where}: the table names an outcome it does not define")
        payoffs = [outcomes[k - 1] if k else (Fraction(0), Fraction(0)) for k in cells]
    else:  # payoff version: the numbers of strategies, then every profile's payoffs
        m, n = r.count("the number of strategies"), r.count("the number of strategies")
        r.take("}")
        if r.peek() == "str":
            r.take("str")
        _fits(m, n, r.left(), 2, where)
        rows, columns = [str(i) for i in range(1, m + 1)], [str(j) for j in range(1, n + 1)]
        payoffs = [(r.number(), r.number()) for _ in range(m * n)]
    if r.peek() is not None:
        raise ArenaError(f"{where}: not a Gambit .nfg file (text after the payoffs)")
    m = len(rows)
    if any(a != -b for a, b in payoffs):
        raise ArenaError(f"{where}: not a zero-sum game (player 2's payoff is not player 1's negated)")
    exact = tuple(tuple(payoffs[j * m + i][0] for j in range(len(columns))) for i in range(m))
    return MatrixGame(title, tuple(rows), tuple(columns), np.array(exact, dtype=np.float64), exact)


def _fits(m: int, n: int, left: int, per_cell: int, where: str) -> None:
    """Refuse, before anything is built, a game bigger than MAX_CELLS or than the file holds."""
    if m * n > MAX_CELLS:
        raise ArenaError(f"{where}: a game of {m:,} x {n:,} strategies, more than the {MAX_CELLS:,} payoffs read back")
    if m * n * per_cell > left:
        raise ArenaError(f"{where}: a game of {m:,} x {n:,} strategies, but the file holds only {left:,} more numbers")


def _outcomes(r: _Reader) -> list[tuple[Fraction, Fraction]]:
    r.take("{")
    out = []
    while r.peek() == "{":
        r.take("{")
        r.take("str")
        out.append((r.number(), r.number()))
        r.take("}")
    r.take("}")
    return out


# --- the plain CSV ----------------------------------------------------------------------------


def to_csv(game: MatrixGame) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([CORNER, *game.columns])
    for i, row in enumerate(game.rows):
        w.writerow([row, *(_number(float(x)) for x in game.payoff[i])])
    return out.getvalue()


def from_csv(text: str, where: str = "the game") -> MatrixGame:
    table = [row for row in csv.reader(io.StringIO(text)) if row]
    if len(table) < 2 or len(table[0]) < 2:
        raise ArenaError(f"{where}: a payoff matrix needs a header of guessers and a row per chooser strategy")
    width = len(table[0])
    rows, values = [], []
    for k, row in enumerate(table[1:], 2):
        if len(row) != width:
            raise ArenaError(f"{where}, line {k}: {len(row)} fields, the header has {width}")
        rows.append(row[0])
        try:
            values.append([float(x) for x in row[1:]])
        except ValueError:
            raise ArenaError(f"{where}, line {k}: a payoff is not a number") from None
        if not all(math.isfinite(x) for x in values[-1]):
            raise ArenaError(f"{where}, line {k}: a payoff is not a finite number (nan, inf or beyond 1e308)")
    return MatrixGame(Path(where).stem, tuple(rows), tuple(table[0][1:]), np.array(values))
