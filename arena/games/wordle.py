"""Wordle: the reply colours each letter of the guess green, yellow or grey.

Secrets are the 2,315 answers of the original Wordle (2022), guesses the 12,972 words it
accepts (the answers among them), both shipped as package data (`wordle-answers`,
`wordle-guesses`; `wordle` names either). The reply gives each position of the guess

    green   the secret has this letter here
    yellow  the secret has this letter elsewhere, in a copy not already accounted for
    grey    neither

with the official rule for repeated letters: greens first, then yellows left to right, each
using up one unmatched copy of the letter in the secret (guess `etude` on `poems`: the first
`e` yellow, the second grey; `speed` on `abide`: `..Y.Y`). Equivalently, a non-green letter c
at position p is yellow iff the secret's copies of c outnumber the copies of c the guess has
before p plus its green copies after p: that is how the table is built, for all pairs at
once, one position at a time (`wordle_table`).

A reply is coded as a base-3 number, the first position most significant, grey 0, yellow 1,
green 2: 3**length codes (243, uint8), the all-grey miss 0, the all-green hit 3**length - 1.
It is written `G.Y..` (G green, Y yellow, `.` grey) and read from that, from lower case, from
`-` or `_` for grey, or from the coloured squares people paste (🟩 🟨 ⬛ ⬜).

Absurdle (`arena play wordle --chooser evil`) keeps the largest bucket. Its ties, as qntm's
Absurdle breaks them (the rule given in the comments of qntm.org/absurdle and reimplemented by
the published solvers, e.g. m1el/absurdle-solver and CarlosNZ/absurdle-solver): the reply with
fewest greens, then fewest yellows, then the lowest reply comparing positions left to right
with grey < yellow < green (the clues as far right as possible). `told` says the first two
(greens * (length + 1) + yellows); the evil chooser's last tie rule, the lowest code, is the
third, because of how replies are coded.

Hard mode (`hard=true`): every guess must keep each green letter in its place and use each
green or yellow letter at least as many times as a reply showed it (the rule of the published
hard-mode solvers). `allowed_guesses(history)` gives the guesses allowed after the moves so
far and `refusal` says why one is not; a guess that may be the secret is always allowed.

Options: `answers=`, `guesses=` (shipped lists or files, one word a line), `length=` (other
lists), `first=N` (the first N answers, and, unless `guesses=` is given, guesses among them
only: the small instances the exact solvers and equilibria take).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ..core.errors import ArenaError
from ..core.feedback import CHUNK, check_table_memory, code_dtype
from ..core.game import Game, GameType, Index, Indexes, Reply, Rules
from ..core.spec import Param
from ..core.words import Dropped, read_words
from .codes import letter_codes, symbol_tallies

PARAMS = {
    "answers": Param("answers", str, "wordle", "the secrets: shipped list (wordle) or a file, one word a line"),
    "guesses": Param(
        "guesses",
        str,
        "",
        "the guesses: shipped list (wordle) or a file; default wordle, or with first=N the answers kept",
    ),
    "length": Param("length", int, 5, "word length"),
    "hard": Param("hard", bool, False, "hard mode: keep the greens in place and use every yellow"),
    "first": Param("first", int, 0, "keep only the first N answers (0: all), for small instances"),
}

#: The shipped lists `wordle` names, for the answers and for the guesses.
_SHIPPED = {"answers": "wordle-answers", "guesses": "wordle-guesses"}
_WORD = re.compile(r"[a-z]+")
GREY, YELLOW, GREEN = 0, 1, 2
#: How each mark may be typed or pasted (the emoji variation selector is dropped first).
_MARKS = {
    "G": GREEN,
    "g": GREEN,
    "🟩": GREEN,
    "Y": YELLOW,
    "y": YELLOW,
    "🟨": YELLOW,
    ".": GREY,
    "-": GREY,
    "_": GREY,
    "⬛": GREY,
    "⬜": GREY,
}
_LABEL = {GREY: ".", YELLOW: "Y", GREEN: "G"}


def wordle_words(words: Sequence[str], length: int, dropped: Dropped | None = None) -> list[str]:
    """The playable words in list order: lower-cased, a-z only, of the given length, each once.
    `dropped` counts the others, by reason."""
    dropped = Dropped() if dropped is None else dropped
    kept: dict[str, None] = {}
    for w in (w.lower() for w in words):
        if len(w) != length:
            dropped.add(f"not of {length} letters", w)
        elif not _WORD.fullmatch(w):
            dropped.add("with characters outside a-z", w)
        elif w in kept:
            dropped.add("listed twice", w)
        else:
            kept[w] = None
    return list(kept)


def playable_list(spec: str, name: str, length: int) -> list[str]:
    """The playable words of a list (a shipped one or a file), a user's file told about the
    words its filters left out."""
    listed, dropped = read_words(name), Dropped()
    words = wordle_words(listed, length, dropped)
    if words:
        dropped.tell(spec, name, len(listed))
    return words


def build_bytes(n_guesses: int, n_secrets: int, length: int) -> int:
    """The bytes `wordle_table` needs besides the table: the secrets' letter counts and one block
    of rows with its temporaries (about length + 8 bytes a cell)."""
    block = min(max(CHUNK, n_secrets), n_guesses * n_secrets)
    return 26 * n_secrets + (n_guesses + n_secrets) * length + block * (length + 8)


def wordle_table(guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """F[g, s]: the reply to guess g (letter codes, a row per word) when the secret is s.

    Vectorised over every pair, looping over positions only, in blocks of guess rows: green at
    p where the letters agree; a non-green letter c at p is yellow iff
    count_s(c) > #{q < p: g_q = c} + #{q > p: g_q = c and green at q}
    (the copies of c spent on earlier letters of the guess and on later greens). The code is
    the marks as a base-3 number, the first position most significant.
    """
    n_guesses, length = guesses.shape
    n_secrets = len(secrets)
    counts = np.zeros((26, n_secrets), dtype=np.uint8)  # counts[c, s]: copies of c in s
    for p in range(length):
        np.add.at(counts, (secrets[:, p], np.arange(n_secrets)), 1)
    same = guesses[:, :, None] == guesses[:, None, :]  # same[g, p, q]: g has one letter at p and q
    before = np.tril(same, -1).sum(axis=2, dtype=np.uint8)  # copies of g_p before p
    table = np.empty((n_guesses, n_secrets), dtype=code_dtype(3**length))
    step = max(1, CHUNK // max(1, n_secrets))
    for a in range(0, n_guesses, step):
        g = guesses[a : a + step]
        green = [g[:, p, None] == secrets[None, :, p] for p in range(length)]
        code = np.zeros((len(g), n_secrets), dtype=table.dtype)
        for p in range(length):
            spent = np.broadcast_to(before[a : a + step, p, None], code.shape).copy()
            for q in range(p + 1, length):  # later greens of the same letter
                repeats = same[a : a + step, p, q]
                if repeats.any():
                    spent += green[q] & repeats[:, None]
            yellow = ~green[p] & (counts[g[:, p]] > spent)
            code *= 3
            code += green[p]  # a green adds 2: two bool adds keep the narrow dtype
            code += green[p]
            code += yellow
        table[a : a + step] = code
    return table


def marks(code: int, length: int) -> list[int]:
    """The marks (GREY, YELLOW, GREEN) of a reply code, first position first."""
    out = []
    for _ in range(length):
        code, mark = divmod(code, 3)
        out.append(mark)
    return out[::-1]


class Wordle(Game):
    """Wordle over an answer list (the secrets) and a guess list that contains it."""

    name = "wordle"
    rules = Rules(hits=True, strikes=False, cost="guesses")
    secret_noun = "word"
    #: 243 codes, nearly all of which occur: count partitions with a column per code.
    dense_codes = 3**5

    def __init__(
        self, spec: str, answers: str = "wordle", guesses: str = "", length: int = 5, hard: bool = False, first: int = 0
    ):
        if length < 1 or length > 10:
            raise ArenaError(f"{spec}: length must be between 1 and 10, got {length}")
        if first < 0:
            raise ArenaError(f"{spec}: first must be 0 (all) or a positive count, got {first}")
        secrets = playable_list(spec, _SHIPPED["answers"] if answers == "wordle" else answers, length)
        if first:
            secrets = secrets[:first]
        if not secrets:
            raise ArenaError(
                f"{spec}: the answers {answers!r} have no words of {length} letters"
                + ("; the shipped lists have five-letter words only" if answers == "wordle" else "")
            )
        if guesses:
            accepted = playable_list(spec, _SHIPPED["guesses"] if guesses == "wordle" else guesses, length)
        else:
            accepted = wordle_words(read_words(_SHIPPED["guesses"]), length) if not first else []
        known = set(accepted)
        words = accepted + [w for w in secrets if w not in known]  # every answer may be guessed
        check_table_memory(
            spec,
            len(words),
            len(secrets),
            code_dtype(3**length).itemsize,
            build_bytes(len(words), len(secrets), length),
        )
        self.length, self.hard = length, hard
        self.rules = Rules(hits=True, strikes=False, cost="guesses", restricted=hard)
        self.dense_codes = 3**length
        self.letters = letter_codes(words)
        self.letter_counts = symbol_tallies(self.letters, 26)
        index = {w: i for i, w in enumerate(secrets)}
        same_secret = np.array([index.get(w, -1) for w in words], dtype=np.intp)
        table = wordle_table(self.letters, letter_codes(secrets))
        super().__init__(spec, secrets, words, table, 3**length - 1, same_secret)

    # --- how replies are written and read ----------------------------------------------------
    def reply_label(self, reply: Reply) -> str:
        """`G.Y..`: G green, Y yellow, `.` grey, one mark a letter."""
        return "".join(_LABEL[m] for m in marks(int(reply), self.length))

    def reply_help(self) -> str:
        return f"{self.length} marks, G green, Y yellow, . grey (like {'G.Y..'[: self.length]}), or the squares 🟩🟨⬛"

    def parse_reply(self, text: str) -> Reply:
        """The code of `G.Y..` (also g/y, `-` or `_` for grey, or pasted 🟩🟨⬛⬜), or one line
        naming what is wrong."""
        typed = re.sub(r"[\s\ufe0f]", "", text)
        wrong = [c for c in typed if c not in _MARKS]
        if wrong:
            raise ArenaError(
                f"reply {text!r}: {wrong[0]!r} is not a mark; write {self.length} marks, "
                f"G green, Y yellow, . grey (or 🟩🟨⬛)"
            )
        if len(typed) != self.length:
            raise ArenaError(
                f"reply {text!r} has {len(typed)} marks, not {self.length}: one per letter, G green, Y yellow, . grey"
            )
        code = 0
        for c in typed:
            code = code * 3 + _MARKS[c]
        if code not in self._occurring:
            raise ArenaError(f"reply {text!r} never occurs in {self.spec}")
        return code

    def told(self, replies: np.ndarray) -> np.ndarray:
        """Greens, then yellows: greens * (length + 1) + yellows (Absurdle's tie rule; see the
        module docstring)."""
        replies = np.asarray(replies, dtype=np.int64)
        greens = np.zeros_like(replies)
        yellows = np.zeros_like(replies)
        rest = replies.copy()
        for _ in range(self.length):
            rest, mark = np.divmod(rest, 3)
            greens += mark == GREEN
            yellows += mark == YELLOW
        return greens * (self.length + 1) + yellows

    def describe_guesses(self) -> str:
        return f"{len(self.guesses):,} words of {self.length} letters such as {', '.join(self.guesses[:3])}"

    def normalise_guess(self, label: str) -> str:
        return label.strip().lower()

    # --- hard mode -----------------------------------------------------------------------------
    def _demands(self, guess: Index, reply: Reply) -> tuple[list[tuple[int, int]], np.ndarray]:
        """What a move asks of later guesses in hard mode: (position, letter) of its greens, and
        for each letter the copies a guess must have (its greens and yellows)."""
        shown = marks(int(reply), self.length)
        letters = self.letters[guess]
        greens = [(p, int(letters[p])) for p in range(self.length) if shown[p] == GREEN]
        need = np.bincount([int(letters[p]) for p in range(self.length) if shown[p] != GREY], minlength=26)
        return greens, need

    def allowed_guesses(self, history: Sequence[tuple[Index, Reply]]) -> Indexes | None:
        """In hard mode, the guesses that keep every green in place and use every green or
        yellow letter as often as shown (None: every guess, as in normal play)."""
        if not self.hard or not history:
            return None
        ok = np.ones(len(self.guesses), dtype=bool)
        for guess, reply in history:
            greens, need = self._demands(guess, reply)
            for p, letter in greens:
                ok &= self.letters[:, p] == letter
            wanted = np.flatnonzero(need)
            if len(wanted):
                ok &= (self.letter_counts[:, wanted] >= need[wanted]).all(axis=1)
        return np.flatnonzero(ok)

    def refusal(self, guess: Index, history: Sequence[tuple[Index, Reply]]) -> str | None:
        """Why hard mode forbids `guess` after `history`, in one line, or None."""
        if not self.hard:
            return None
        for number, (earlier, reply) in enumerate(history, 1):
            greens, need = self._demands(earlier, reply)
            shown = f"guess {number}, {self.guesses[earlier]} {self.reply_label(reply)}"
            for p, letter in greens:
                if self.letters[guess, p] != letter:
                    return f"hard mode: letter {p + 1} must be {chr(ord('A') + letter)} (green in {shown})"
            for needed in np.flatnonzero(need):
                if self.letter_counts[guess, needed] < need[needed]:
                    times = "" if need[needed] == 1 else f" {need[needed]} times"
                    return f"hard mode: the guess must use {chr(ord('A') + int(needed))}{times} (shown in {shown})"
        return None


GAME = GameType(
    "wordle",
    Wordle,
    PARAMS,
    "the 2,315 answers, 12,972 guesses; reply = green/yellow/grey per letter (hard=true: hard mode)",
)
