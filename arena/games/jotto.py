"""Jotto: the reply to a guess is the number of letters it has in common with the secret.

The default list is Norvig's: the five-letter words of the Stanford GraphBase with five distinct
letters, one word per letter set (`{frozenset(w): w for w in words}`: the set's first position,
its last word), 2,845 words. With `repeats=true` words may repeat letters and the reply counts
common letters with multiplicity; a correct guess then gets its own reply, `hit`, because an
anagram of the secret also has every letter in common.

With `positions=true` the reply has two numbers, Jotto's Mastermind-like variant: (letters in
the right position, letters in common), written `2,3` and coded as in_place * (length + 1) +
common, so the hit is (length, length) and the miss (0, 0) is 0. Only the secret itself has
every letter in place, so no anagram needs a reply of its own, with or without repeats.
"""

from __future__ import annotations

import re
from typing import cast

import numpy as np

from ..core.errors import ArenaError
from ..core.feedback import CHUNK, COMPILED_CELLS, OnTheFly, check_on_the_fly_memory
from ..core.game import Game, GameType
from ..core.resources import fits_in_memory
from ..core.spec import Param
from ..core.words import Dropped, read_words
from .codes import NO_HIT, letter_codes, symbol_tallies

PARAMS = {
    "words": Param("words", str, "sgb", "shipped list (sgb, web2) or a file, one word a line"),
    "length": Param("length", int, 5, "word length"),
    "repeats": Param("repeats", bool, False, "allow repeated letters (reply counts with multiplicity)"),
    "first": Param("first", int, 0, "keep only the first N words (0: all), for small instances"),
    "positions": Param("positions", bool, False, "two numbers: letters in the right position, letters in common"),
}

_WORD = re.compile(r"[a-z]+")


def jotto_words(words: tuple[str, ...], length: int, repeats: bool, dropped: Dropped | None = None) -> list[str]:
    """The playable words, in list order: lowercase a-z of the given length; without repeats,
    distinct letters only and one word per letter set (first position, last word). `dropped`
    counts the others, by reason."""
    dropped = Dropped() if dropped is None else dropped
    seen: dict = {}
    for w in words:
        w = w.lower()
        if len(w) != length:
            dropped.add(f"not of {length} letters", w)
        elif not _WORD.fullmatch(w):
            dropped.add("with characters outside a-z", w)
        elif repeats:
            if w in seen:
                dropped.add("listed twice", w)
            seen.setdefault(w, w)
        elif len(set(w)) != length:
            dropped.add("with a repeated letter", w)
        else:
            key = frozenset(w)
            if key in seen:
                dropped.add("listed twice" if seen[key] == w else "an anagram of a later word", seen[key])
            seen[key] = w
    return list(seen.values())


def letter_counts(words: list[str]) -> np.ndarray:
    """counts[i, c] = how many times letter c stands in words[i]."""
    return symbol_tallies(letter_codes(words), 26)


def build_bytes(n: int, length: int) -> int:
    """The bytes `common_letters` needs besides the table: the letter counts (and their one-hot
    temporary) and one block of rows (`2**24` cells of 26 letters, or one row)."""
    return n * length * 26 + n * 26 * 2 + min(max(2**24, 26 * n), 26 * n * n) * 2 + min(CHUNK, n * n) * 8


def common_letters(words: list[str], repeats: bool) -> np.ndarray:
    """F[g, s] = letters in common: the popcount of the 26-bit letter masks' AND, or with repeats
    the sum over letters of the smaller count (in row blocks, to bound memory)."""
    counts = letter_counts(words)
    n = len(words)
    table = np.empty((n, n), dtype=np.uint8)
    if not repeats:
        masks = (counts.astype(np.uint32) << np.arange(26, dtype=np.uint32)).sum(axis=1, dtype=np.uint32)
        step = max(1, CHUNK // n)
        for start in range(0, n, step):
            table[start : start + step] = np.bitwise_count(masks[start : start + step, None] & masks[None, :])
        return table
    step = max(1, 2**24 // (26 * n))
    for start in range(0, n, step):
        block = np.minimum(counts[start : start + step, None, :], counts[None, :, :])
        table[start : start + step] = block.sum(axis=2, dtype=np.uint8)
    return table


def letters_in_place(words: list[str]) -> np.ndarray:
    """F[g, s] = how many positions g and s have the same letter (in row blocks, a position
    at a time, to bound memory)."""
    codes = letter_codes(words)
    n, length = codes.shape
    table = np.empty((n, n), dtype=np.uint8)
    step = max(1, CHUNK // n)
    for start in range(0, n, step):
        block = np.zeros((len(codes[start : start + step]), n), dtype=np.uint8)
        for p in range(length):
            block += codes[start : start + step, p, None] == codes[None, :, p]
        table[start : start + step] = block
    return table


def has_anagrams(words: list[str]) -> bool:
    """Do two words have the same letters (so a full match is not a hit)? The same letter counts."""
    return len(np.unique(letter_counts(words), axis=0)) < len(words)


class Jotto(Game):
    """Jotto over a word list; guesses and secrets are the same words."""

    name = "jotto"

    def __init__(
        self,
        spec: str,
        words: str = "sgb",
        length: int = 5,
        repeats: bool = False,
        first: int = 0,
        positions: bool = False,
    ):
        if length < 1 or length > 26:
            raise ArenaError(f"{spec}: length must be between 1 and 26, got {length}")
        if positions and length > 14:  # in_place * (length + 1) + common must fit in a byte
            raise ArenaError(f"{spec}: with positions=true length must be at most 14, got {length}")
        if first < 0:
            raise ArenaError(f"{spec}: first must be 0 (all) or a positive count, got {first}")
        listed, dropped = read_words(words), Dropped()
        playable = jotto_words(listed, length, repeats, dropped)
        if first:
            playable = playable[:first]
        if not playable:
            raise ArenaError(
                f"{spec}: the list {words!r} has no playable words of length {length}"
                + ("" if words != "sgb" else "; sgb has five-letter words only, try words=web2")
                + (f" ({dropped.summary(words, len(listed))})" if dropped.count else "")
            )
        dropped.tell(spec, words, len(listed))
        n = len(playable)
        self.length, self.positions = length, positions
        # (in place, in common) as one code: only the secret has every letter in place; without
        # positions, where two words are anagrams a full match is not a hit, so the hit has its code
        anagrams = not positions and has_anagrams(playable)
        hit = length * (length + 1) + length if positions else length + anagrams
        table: np.ndarray | OnTheFly
        if fits_in_memory(n * n + build_bytes(n, length)):  # one table: it is symmetric
            table = self.dense_table(playable, repeats, hit if anagrams else NO_HIT)
        else:  # on the fly: the words' letters and tallies, and one node's counts
            check_on_the_fly_memory(spec, n, 3 * length + 26 + 64 + 8 * (length + 2) ** 2)
            table = self.computed_table(playable, hit if anagrams else NO_HIT)
        super().__init__(spec, playable, playable, table, hit, np.arange(len(playable)), symmetric=True)

    def dense_table(self, playable: list[str], repeats: bool, hit: int) -> np.ndarray:
        """F[g, s]: numpy for small lists, the compiled loop of arena.core.kernels for big ones."""
        n, length = len(playable), self.length
        if n * n >= COMPILED_CELLS:
            return self.letters(playable, hit).table()
        table = common_letters(playable, repeats)
        if self.positions:
            table += letters_in_place(playable) * np.uint8(length + 1)
        if hit != NO_HIT:
            np.fill_diagonal(table, hit)
        return table

    def letters(self, playable: list[str], hit: int = NO_HIT):
        """The words as arena.core.kernels reads them: letters, tallies, and what a letter in place adds."""
        from .multisets import Multisets  # numba: only for the big instances that pay for it

        return Multisets(letter_codes(playable), 26, place=self.length + 1 if self.positions else 0, hit=hit)

    def computed_table(self, playable: list[str], hit: int) -> OnTheFly:
        """The table computed when read. The replies that occur are found by counting whole
        rows until every reply the rules allow has been seen (usually a few rows), else all."""
        words = self.letters(playable, hit)
        n, length = len(playable), self.length
        if self.positions:
            possible = {p * (length + 1) + c for c in range(length + 1) for p in range(c + 1)}
        else:
            possible = set(range(length + 1)) | ({hit} if hit != NO_HIT else set())
        width = max(possible) + 1
        seen = np.zeros(width, dtype=bool)
        step = max(1, (1 << 24) // n)
        for start in range(0, n, step):
            seen |= words.counts(np.arange(start, min(n, start + step)), np.arange(n), width).any(axis=0)
            if set(np.flatnonzero(seen).tolist()) >= possible:
                break
        return OnTheFly(words, (n, n), np.flatnonzero(seen))

    def normalise_guess(self, label: str) -> str:
        return label.strip().lower()

    def describe_guesses(self) -> str:
        return f"the {len(self.guesses)} words of the list, such as {', '.join(self.guesses[:3])}"

    def place_common(self, reply: int) -> tuple[int, int]:
        """With positions=true: (letters in the right position, letters in common)."""
        return divmod(int(reply), self.length + 1)

    def reply_label(self, reply: int) -> str:
        if self.positions:
            return "{},{}".format(*self.place_common(reply))
        return "hit" if reply == self.hit and self.hit > self.length else str(reply)

    def reply_help(self) -> str:
        if self.positions:
            return "in place,in common (like 1,3)"
        return "the number of letters in common"

    def told(self, replies: np.ndarray) -> np.ndarray:
        """Letters in common (then, with positions=true, letters in place): the evil chooser's
        "reveals least" tie rule."""
        if not self.positions:
            return replies.copy()
        place, common = np.divmod(replies, self.length + 1)
        return common * (self.length + 1) + place

    def parse_reply(self, text: str) -> int:
        if not self.positions:
            return cast(int, self.hit) if text.strip() == "hit" else super().parse_reply(text)
        parts = [p for p in re.split(r"[,\s/]+", text.strip()) if p]
        if len(parts) != 2 or not all(re.fullmatch(r"[0-9]+", p) for p in parts):
            raise ArenaError(f"reply {text!r}: write letters in place,letters in common, like 1,3")
        place, common = int(parts[0]), int(parts[1])
        if common > self.length:
            raise ArenaError(f"reply {text!r}: at most {self.length} letters in common, got {common}")
        if place > common:
            raise ArenaError(f"reply {text!r}: more letters in place ({place}) than in common ({common})")
        code = place * (self.length + 1) + common
        if code not in self._occurring:
            raise ArenaError(f"reply {text!r} never occurs in {self.spec}")
        return code


GAME = GameType("jotto", Jotto, PARAMS, "words; reply = letters in common (positions=true: in place,in common)")
