"""Jotto: the reply to a guess is the number of letters it has in common with the secret.

The default list is Norvig's: the five-letter words of the Stanford GraphBase with five distinct
letters, one word per letter set (`{frozenset(w): w for w in words}`: the set's first position,
its last word), 2,845 words. With `repeats=true` words may repeat letters and the reply counts
common letters with multiplicity; a correct guess then gets its own reply, `hit`, because an
anagram of the secret also has every letter in common.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import ArenaError
from ..game import CHUNK, Game, GameType, check_table_memory
from ..spec import Param
from ..words import read_words

PARAMS = {
    "words": Param("words", str, "sgb", "shipped list (sgb, web2) or a file, one word a line"),
    "length": Param("length", int, 5, "word length"),
    "repeats": Param("repeats", bool, False, "allow repeated letters (reply counts with multiplicity)"),
    "first": Param("first", int, 0, "keep only the first N words (0: all), for small instances"),
}

_WORD = re.compile(r"[a-z]+")


def jotto_words(words: tuple[str, ...], length: int, repeats: bool) -> list[str]:
    """The playable words, in list order: lowercase a-z of the given length; without repeats,
    distinct letters only and one word per letter set (first position, last word)."""
    seen: dict = {}
    for w in words:
        w = w.lower()
        if len(w) != length or not _WORD.fullmatch(w):
            continue
        if repeats:
            seen.setdefault(w, w)
        elif len(set(w)) == length:
            seen[frozenset(w)] = w
    return list(seen.values())


def letter_counts(words: list[str]) -> np.ndarray:
    """counts[i, c] = how many times letter c stands in words[i]."""
    codes = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).reshape(len(words), -1) - ord("a")
    return (codes[:, :, None] == np.arange(26, dtype=np.uint8)).sum(axis=1, dtype=np.uint8)


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
            table[start:start + step] = np.bitwise_count(masks[start:start + step, None] & masks[None, :])
        return table
    step = max(1, 2**24 // (26 * n))
    for start in range(0, n, step):
        block = np.minimum(counts[start:start + step, None, :], counts[None, :, :])
        table[start:start + step] = block.sum(axis=2, dtype=np.uint8)
    return table


def has_anagrams(words: list[str]) -> bool:
    """Do two words have the same letters (so a full match is not a hit)? The same letter counts."""
    return len(np.unique(letter_counts(words), axis=0)) < len(words)


class Jotto(Game):
    """Jotto over a word list; guesses and secrets are the same words."""

    name = "jotto"

    def __init__(self, spec: str, words: str = "sgb", length: int = 5, repeats: bool = False, first: int = 0):
        if length < 1 or length > 26:
            raise ArenaError(f"{spec}: length must be between 1 and 26, got {length}")
        if first < 0:
            raise ArenaError(f"{spec}: first must be 0 (all) or a positive count, got {first}")
        playable = jotto_words(read_words(words), length, repeats)
        if first:
            playable = playable[:first]
        if not playable:
            raise ArenaError(f"{spec}: the list {words!r} has no playable words of length {length}"
                             + ("" if words != "sgb" else "; sgb has five-letter words only, try words=web2"))
        n = len(playable)
        check_table_memory(spec, n, n, 1, build_bytes(n, length))
        table = common_letters(playable, repeats)
        hit = length
        if has_anagrams(playable):  # a full match is not a hit: F[g, s] == length off the diagonal
            hit = length + 1
            np.fill_diagonal(table, hit)
        super().__init__(spec, playable, playable, table, hit, np.arange(len(playable)))
        self.length = length

    def normalise_guess(self, label: str) -> str:
        return label.strip().lower()

    def describe_guesses(self) -> str:
        return f"the {len(self.guesses)} words of the list, such as {', '.join(self.guesses[:3])}"

    def reply_label(self, reply: int) -> str:
        return "hit" if reply == self.hit and self.hit > self.length else str(reply)

    def reply_help(self) -> str:
        return "the number of letters in common"

    def parse_reply(self, text: str) -> int:
        return self.hit if text.strip() == "hit" else super().parse_reply(text)


GAME = GameType("jotto", Jotto, PARAMS, "words; reply = letters in common")
