"""Mastermind and its relatives: any number of pegs and colours, with or without repeats.

The reply to a guess is (black, white): black pegs for the right colour in the right place,
white pegs for the other colours in common (counted with multiplicity). It is coded as
black * (pegs + 1) + white, so all pegs black, the hit, is pegs * (pegs + 1). Without repeats
and with ten colours this is Bulls and Cows (bulls = black, cows = white).

Codes are enumerated in numerical order (1111, 1112, ..., 6666), which is the order that
"lowest" means; they are written with the digits 1..colours, or 0..9 for ten colours, or in
any `alphabet` given (e.g. RYGBOP).
"""

from __future__ import annotations

import itertools
import math
import re

import numpy as np

from ..core.errors import ArenaError
from ..core.feedback import COMPILED_CELLS, OnTheFly, check_on_the_fly_memory
from ..core.game import Game, GameType
from ..core.resources import fits_in_memory
from ..core.spec import Param
from .mastermind_symmetry import MastermindSymmetry, type_firsts

PARAMS = {
    "pegs": Param("pegs", int, 4, "positions in a code"),
    "colors": Param("colors", int, 6, "colours to choose from"),
    "repeats": Param("repeats", bool, True, "may a colour repeat (false: Bulls and Cows codes)"),
    "alphabet": Param("alphabet", str, "", "symbols for the colours, e.g. RYGBOP (default digits)"),
}

_DIGITS = "123456789"
_WIDE = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def code_count(pegs: int, colors: int, repeats: bool) -> int:
    """How many codes there are, in exact integer arithmetic (nothing is enumerated)."""
    return colors**pegs if repeats else math.perm(colors, pegs)


def colour_dtype(colors: int) -> np.dtype:
    """The narrowest unsigned dtype for colour indexes 0..colors-1 (uint8 overflows above 256)."""
    return np.min_scalar_type(colors - 1)


def all_codes(pegs: int, colors: int, repeats: bool) -> np.ndarray:
    """Every code as a row of colour indexes (0-based), in numerical order."""
    dtype = colour_dtype(colors)
    if repeats:  # the digits of 0..colors**pegs - 1 in base `colors`, most significant first
        index = np.arange(colors**pegs, dtype=np.int64)
        places = colors ** np.arange(pegs - 1, -1, -1, dtype=np.int64)
        return (index[:, None] // places % colors).astype(dtype)
    rows = itertools.permutations(range(colors), pegs)
    return np.array(list(rows), dtype=dtype).reshape(-1, pegs)


def by_colour_counts(colors: int, pegs: int) -> bool:
    """Count common colours by colour counts (`colors` per pair) or by comparing pegs (pegs**2)?"""
    return colors <= pegs * pegs


#: Cells of the table built in one block of guess rows: the block's few working arrays of
#: uint8 stay in the processor's cache (4x7's table: 0.03 s, against 0.04 s in blocks of 2**22).
BLOCK_CELLS = 2**18


def build_bytes(n: int, pegs: int, colors: int) -> int:
    """The bytes black_white and the labels need besides the table: the codes, the colour counts
    (when counting by colour, with their one-hot step), the secrets' pegs by position, the
    working arrays of one block of rows, and the labels as Python strings."""
    counts = n * colors * (pegs + 2) if by_colour_counts(colors, pegs) else 0
    block = 5 * min(BLOCK_CELLS + n, n * n)
    return n * pegs * 9 + counts + block + n * (60 + 4 * pegs)


def colour_counts(codes: np.ndarray, colors: int) -> np.ndarray:
    """counts[c, k]: how many pegs of code c have colour k."""
    return np.eye(colors, dtype=np.uint8)[codes].sum(axis=1, dtype=np.uint8)


def _black(guesses: np.ndarray, pegs_of_secrets: np.ndarray) -> np.ndarray:
    """black[g, s]: the positions where guess g and secret s have the same colour, a position
    at a time (`pegs_of_secrets[i]`: every secret's colour at position i)."""
    black = np.zeros((len(guesses), pegs_of_secrets.shape[1]), dtype=np.uint8)
    same = np.empty(black.shape, dtype=bool)
    for i, colour_of_secret in enumerate(pegs_of_secrets):
        black += np.equal(guesses[:, i, None], colour_of_secret, out=same)
    return black


def _common_by_counts(counts_of_guesses: np.ndarray, counts_of_secrets: np.ndarray) -> np.ndarray:
    """common[g, s] = the sum over colours k of min(k's count in g, k's count in s), a colour
    at a time (`counts_of_secrets[k]`: colour k's count in every secret)."""
    common = np.zeros((len(counts_of_guesses), counts_of_secrets.shape[1]), dtype=np.uint8)
    least = np.empty(common.shape, dtype=np.uint8)
    for k, in_secret in enumerate(counts_of_secrets):
        common += np.minimum(counts_of_guesses[:, k, None], in_secret, out=least)
    return common


def _common_by_pegs(guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """common[g, s] = colours in common with multiplicity, comparing pegs (for many colours):
    the sum over each colour's first peg in g of min(its count in g, its count in s)."""
    pegs = guesses.shape[1]
    same_colour = guesses[:, :, None] == guesses[:, None, :]  # [g, i, j]: pegs i and j of g match
    in_guess = same_colour.sum(axis=2, dtype=np.uint8)
    first = ~np.tril(same_colour, -1).any(axis=2)  # peg i is its colour's first occurrence in g
    pegs_of_secrets = np.ascontiguousarray(secrets.T)
    common = np.zeros((len(guesses), len(secrets)), dtype=np.uint8)
    for i in range(pegs):
        in_secret = _black(np.repeat(guesses[:, i, None], pegs, axis=1), pegs_of_secrets)  # g's colour i in s
        common += np.minimum(in_secret, in_guess[:, i, None], out=in_secret) * first[:, i, None]
    return common


def black_white(guesses: np.ndarray, secrets: np.ndarray, colors: int) -> np.ndarray:
    """F[g, s] = black * (pegs + 1) + white = pegs * black + common, in blocks of guess rows.

    Each step is one pass over a block's uint8 cells, a position or a colour at a time: summing
    along a short third axis instead (a block of n x n x pegs) is numpy's slow case, 40-75x
    slower here (benchmarks/README.md, the start-up section: 4x6 in 0.26 s against 0.004 s)."""
    pegs = guesses.shape[1]
    by_counts = by_colour_counts(colors, pegs)
    pegs_of_secrets = np.ascontiguousarray(secrets.T)
    if by_counts:
        counts_of_guesses = colour_counts(guesses, colors)
        counts_of_secrets = np.ascontiguousarray(colour_counts(secrets, colors).T)
    table = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    step = max(1, BLOCK_CELLS // max(1, len(secrets)))
    for a in range(0, len(guesses), step):
        g = slice(a, a + step)
        if by_counts:
            common = _common_by_counts(counts_of_guesses[g], counts_of_secrets)
        else:
            common = _common_by_pegs(guesses[g], secrets)
        np.multiply(_black(guesses[g], pegs_of_secrets), pegs, out=table[g])
        table[g] += common
    return table


def code_labels(codes: np.ndarray, alphabet: str) -> list[str]:
    """The label of each code (a row of symbol indexes): its symbols of `alphabet` side by side,
    read as one byte string per row where the alphabet is ASCII (a tenth of the time of a join
    per code: 0.003 s against 0.027 s for 4x11's 14,641 codes)."""
    if not alphabet.isascii() or "\0" in alphabet or codes.shape[1] == 0:  # bytes strings drop NULs
        return ["".join(alphabet[c] for c in row) for row in codes]
    width = codes.shape[1]
    symbols = np.frombuffer(alphabet.encode("ascii"), dtype=np.uint8)
    return symbols[codes].view(f"S{width}").ravel().astype(f"U{width}").tolist()


def replies_in(rows: np.ndarray) -> np.ndarray:
    """np.unique(rows) for reply codes (small non-negative integers), by counting them: a first
    np.unique imports numpy.ma (30 ms, a tenth of a small solve's start-up)."""
    return np.flatnonzero(np.bincount(rows.ravel())).astype(rows.dtype)


class Mastermind(Game):
    """Mastermind with `pegs` positions and `colors` colours; guesses and secrets are the codes."""

    name = "mastermind"

    def __init__(self, spec: str, pegs: int = 4, colors: int = 6, repeats: bool = True, alphabet: str = ""):
        if pegs < 1 or colors < 1:
            raise ArenaError(f"{spec}: pegs and colors must be positive")
        if not repeats and colors < pegs:
            raise ArenaError(f"{spec}: without repeats colors must be at least pegs ({pegs})")
        if pegs * (pegs + 1) > 255:  # replies are uint8 codes; checked first, so the count below stays small
            raise ArenaError(f"{spec}: at most 14 pegs, got {pegs:,}")
        n = code_count(pegs, colors, repeats)
        dense = fits_in_memory(n * n + build_bytes(n, pegs, colors))  # one table: it is symmetric
        if not dense:  # on the fly: the codes, their tallies and labels, and one node's counts
            check_on_the_fly_memory(spec, n, 21 * pegs + colors + 64 + 8 * (pegs + 1) ** 2)
        alphabet = alphabet or (_DIGITS if colors <= 9 else _WIDE)
        if len(alphabet) < colors or len(set(alphabet[:colors])) < colors:
            raise ArenaError(
                f"{spec}: alphabet {alphabet[:40]!r}{'...' if len(alphabet) > 40 else ''} needs "
                f"{colors:,} distinct symbols (the default digits and letters give at most {len(_WIDE)})"
            )
        self.pegs, self.colors, self.alphabet = pegs, colors, alphabet[:colors]
        self.codes_array = all_codes(pegs, colors, repeats)
        labels = code_labels(self.codes_array, self.alphabet)
        table, codes = self.reply_table(dense)
        super().__init__(
            spec, labels, labels, table, pegs * (pegs + 1), np.arange(len(labels)), symmetric=True, codes=codes
        )

    def reply_table(self, dense: bool) -> tuple[np.ndarray | OnTheFly, np.ndarray]:
        """The table F[g, s] = black * (pegs + 1) + white and the replies that occur: numpy for
        small games, the compiled loop of arena.core.kernels for big ones (pegs * black + common:
        the same codes), or, when the table would not fit the memory budget, the same replies
        computed on the fly.

        The replies that occur are read off the rows of one code per pattern (aabc, ...): a
        colour and position permutation maps the row of a code onto the row of any code of its
        pattern, so those rows see them all (4x6: 5 rows, not the table's 1.7M cells)."""
        n, pegs = len(self.codes_array), self.pegs
        if dense and n * n < COMPILED_CELLS:
            table = black_white(self.codes_array, self.codes_array, self.colors)
            return table, replies_in(table[type_firsts(colour_counts(self.codes_array, self.colors))])
        from .multisets import Multisets  # numba: only for the big instances that pay for it

        codes = Multisets(self.codes_array, self.colors, place=pegs)
        first = type_firsts(codes.tallies)
        if dense:
            table = codes.table()
            return table, replies_in(table[first])
        seen = np.flatnonzero(codes.counts(first, np.arange(n), (pegs + 1) ** 2).sum(axis=0))
        return OnTheFly(codes, (n, n), seen), seen

    def symmetry(self) -> MastermindSymmetry:
        """The colour and position permutations, which keep every reply (mastermind_symmetry.py)."""
        return MastermindSymmetry(self)

    def describe_guesses(self) -> str:
        return f"codes of {self.pegs} symbols from {self.alphabet}"

    def normalise_guess(self, label: str) -> str:
        label = label.strip().replace(" ", "")
        return label.upper() if self.alphabet.isupper() else label

    def black_white(self, reply: int) -> tuple[int, int]:
        return divmod(reply, self.pegs + 1)

    def reply_label(self, reply: int) -> str:
        return "{},{}".format(*self.black_white(reply))

    def reply_help(self) -> str:
        return "black,white (like 1,2; or pegs like RWW; - for none)"

    def told(self, replies: np.ndarray) -> np.ndarray:
        """The pegs: black + white."""
        return replies // (self.pegs + 1) + replies % (self.pegs + 1)

    def history_label(self, replies) -> str:
        """The Mastermind study's notation: `|` then R per black and W per white for each reply."""
        return "".join("|" + "R" * b + "W" * w for b, w in map(self.black_white, replies))

    def parse_reply(self, text: str) -> int:
        """Accepts `b,w`, `b,w,grey` (the Guess puzzle form), `RRW`-style pegs and `-` for no
        pegs. An empty reply is refused (it is no reply), as is anything left over."""
        t = text.strip().upper()
        pegs_only = t.replace(" ", "")
        if t == "-":
            black, white = 0, 0
        elif pegs_only and re.fullmatch(r"[RW]+|[BW]+", pegs_only):
            black, white = pegs_only.count("R") + pegs_only.count("B"), pegs_only.count("W")
        else:
            parts = [p for p in re.split(r"[,\s/]+", t) if p]
            if len(parts) not in (2, 3) or not all(re.fullmatch(r"[0-9]+", p) for p in parts):
                raise ArenaError(
                    f"reply {text!r}: write black,white (e.g. 1,1), black,white,grey, pegs like RW, or - for none"
                )
            black, white = int(parts[0]), int(parts[1])
            if len(parts) == 3 and black + white + int(parts[2]) != self.pegs:
                raise ArenaError(f"reply {text!r}: black + white + grey must be {self.pegs}")
        code = black * (self.pegs + 1) + white
        if black + white > self.pegs or code not in self._occurring:  # e.g. 0,0 in Bulls and Cows 3x5
            raise ArenaError(f"reply {text!r} never occurs in {self.spec}")
        return code


GAME = GameType(
    "mastermind",
    Mastermind,
    PARAMS,
    "codes of pegs x colours; reply = black and white pegs (Bulls and Cows: repeats=false)",
)
