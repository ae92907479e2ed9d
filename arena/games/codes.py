"""Codes as rows of symbols: words as rows of letters, and how often each symbol stands in a row.

The word games hand their words to numpy as letter codes (`letter_codes`); the multiset games
(Mastermind's colours, Jotto's letters) read replies off symbol tallies (`symbol_tallies`):
the compiled loops of arena.core.kernels, Mastermind's code types (mastermind_symmetry) and Wordle's
hard-mode checks all count them here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: A `hit` code meaning: no code has a hit reply of its own (arena.games.multisets.Multisets; Jotto
#: without anagrams, where a full match is the hit anyway).
NO_HIT = -1


def letter_codes(words: Sequence[str]) -> np.ndarray:
    """codes[i, p] = the letter at position p of words[i], 0..25 (words of one length, a-z)."""
    return np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).reshape(len(words), -1) - ord("a")


def symbol_tallies(symbols: np.ndarray, alphabet: int) -> np.ndarray:
    """tallies[i, c] = how often symbol c (a colour, a letter) stands in row i of `symbols`."""
    tallies = np.zeros((len(symbols), alphabet), dtype=np.uint8)
    rows = np.arange(len(symbols))
    for column in np.asarray(symbols).T:
        np.add.at(tallies, (rows, column), 1)
    return tallies


def unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """np.unique(rows, axis=0, return_index=True, return_inverse=True) for rows of small
    non-negative integers (tallies): each row read as one number in base max + 1, digits in
    column order, so that the numbers sort as the rows do, and np.unique of those (a tenth of
    the time of numpy's sort of rows as bytes). Where the numbers would not fit, rows of bytes
    are sorted as one string each (their order is the rows' order: 0.15 s for 90,000 tallies of
    300 colours, 6.8 s by numpy's rows); numpy's own for the rest."""
    rows = np.asarray(rows)
    width = rows.shape[1] if rows.ndim == 2 else 0
    base = int(rows.max(initial=0)) + 1 if rows.size else 1
    wide = rows.ndim == 2 and rows.size > 0 and width * np.log2(base) >= 62
    if wide and rows.dtype.itemsize == 1 and rows.dtype.kind == "u":
        strings = np.ascontiguousarray(rows).view(np.dtype((np.void, width))).ravel()
        _, first, inverse = np.unique(strings, return_index=True, return_inverse=True)
        return rows[first], first, inverse.ravel()
    if rows.ndim != 2 or rows.size == 0 or rows.min() < 0 or wide:
        found, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
        return found, first, inverse.ravel()
    keys = rows.astype(np.int64) @ (base ** np.arange(width - 1, -1, -1, dtype=np.int64))
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return rows[first], first, inverse.ravel()
