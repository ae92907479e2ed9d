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
import re

import numpy as np

from ..errors import ArenaError
from ..game import Game
from ..spec import Param

PARAMS = {
    "pegs": Param("pegs", int, 4, "positions in a code"),
    "colors": Param("colors", int, 6, "colours to choose from"),
    "repeats": Param("repeats", bool, True, "may a colour repeat (false: Bulls and Cows codes)"),
    "alphabet": Param("alphabet", str, "", "symbols for the colours, e.g. RYGBOP (default digits)"),
}

_DIGITS = "123456789"
_WIDE = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def all_codes(pegs: int, colors: int, repeats: bool) -> np.ndarray:
    """Every code as a row of colour indexes (0-based), in numerical order."""
    rows = itertools.product(range(colors), repeat=pegs) if repeats else itertools.permutations(range(colors), pegs)
    return np.array(list(rows), dtype=np.uint8).reshape(-1, pegs)


def black_white(guesses: np.ndarray, secrets: np.ndarray, colors: int) -> np.ndarray:
    """F[g, s] = black * (pegs + 1) + white, in blocks of guess rows to bound memory."""
    pegs = guesses.shape[1]
    onehot = np.eye(colors, dtype=np.uint8)
    count_g = onehot[guesses].sum(axis=1, dtype=np.uint8)  # colour counts per code
    count_s = onehot[secrets].sum(axis=1, dtype=np.uint8)
    table = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    step = max(1, 2**24 // (max(pegs, colors) * len(secrets)))
    for a in range(0, len(guesses), step):
        g = slice(a, a + step)
        black = (guesses[g, None, :] == secrets[None, :, :]).sum(axis=2, dtype=np.uint8)
        common = np.minimum(count_g[g, None, :], count_s[None, :, :]).sum(axis=2, dtype=np.uint8)
        table[g] = black * (pegs + 1) + (common - black)
    return table


class Mastermind(Game):
    """Mastermind with `pegs` positions and `colors` colours; guesses and secrets are the codes."""

    name = "mastermind"

    def __init__(self, spec: str, pegs: int = 4, colors: int = 6, repeats: bool = True, alphabet: str = ""):
        if pegs < 1 or colors < 1:
            raise ArenaError(f"{spec}: pegs and colors must be positive")
        if not repeats and colors < pegs:
            raise ArenaError(f"{spec}: without repeats colors must be at least pegs ({pegs})")
        size = colors**pegs if repeats else np.prod(range(colors - pegs + 1, colors + 1), dtype=float)
        if size > 20_000:
            raise ArenaError(f"{spec}: {int(size):,} codes is too many for a full feedback table (at most 20,000)")
        if pegs * (pegs + 1) > 255:
            raise ArenaError(f"{spec}: at most 14 pegs")
        alphabet = alphabet or (_DIGITS if colors <= 9 else _WIDE)
        if len(alphabet) < colors or len(set(alphabet[:colors])) < colors:
            raise ArenaError(f"{spec}: alphabet {alphabet!r} needs {colors} distinct symbols")
        self.pegs, self.colors, self.alphabet = pegs, colors, alphabet[:colors]
        self.codes_array = all_codes(pegs, colors, repeats)
        labels = ["".join(self.alphabet[c] for c in row) for row in self.codes_array]
        table = black_white(self.codes_array, self.codes_array, colors)
        super().__init__(spec, labels, labels, table, pegs * (pegs + 1), np.arange(len(labels)))

    def describe_guesses(self) -> str:
        return f"codes of {self.pegs} symbols from {self.alphabet}"

    def normalise_guess(self, label: str) -> str:
        label = label.strip().replace(" ", "")
        return label.upper() if self.alphabet.isupper() else label

    def black_white(self, reply: int) -> tuple[int, int]:
        return divmod(reply, self.pegs + 1)

    def reply_label(self, reply: int) -> str:
        return "%d,%d" % self.black_white(reply)

    def history_label(self, replies) -> str:
        """The Mastermind study's notation: `|` then R per black and W per white for each reply."""
        return "".join("|" + "R" * b + "W" * w for b, w in map(self.black_white, replies))

    def parse_reply(self, text: str) -> int:
        """Accepts `b,w`, `b,w,grey` (the Guess puzzle form) and `RRW`-style pegs."""
        t = text.strip().upper()
        if re.fullmatch(r"[RW]*|[BW]*", t.replace(" ", "")) and not re.search(r"\d", t):
            black, white = t.count("R") + t.count("B"), t.count("W")
        else:
            parts = [p for p in re.split(r"[,\s/]+", t) if p]
            if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
                raise ArenaError(f"reply {text!r}: write black,white (e.g. 1,1), black,white,grey or pegs like RW")
            black, white = int(parts[0]), int(parts[1])
            if len(parts) == 3 and black + white + int(parts[2]) != self.pegs:
                raise ArenaError(f"reply {text!r}: black + white + grey must be {self.pegs}")
        if black + white > self.pegs or (black == self.pegs - 1 and white == 1):
            raise ArenaError(f"reply {text!r} is impossible with {self.pegs} pegs")
        return black * (self.pegs + 1) + white
