"""Hangman: the guesser names letters; the reply is where the letter stands in the word.

Secrets are words, guesses are the 26 letters, and the reply to a letter is the set of
positions where it stands, a bitmask (0: a miss, one strike). Masks are sparse (up to 2^24
values) but few occur (2,845 in web2), so the table stores a dense code per mask:
`masks[code]` is the bitmask, and code 0 is always the miss.

Without `length=` the game covers every length and the guesser is told the word's length
before the first letter, as a real player is: each length is its own tree. Scoring follows
the published study: a word costs the misses (and letters) until one candidate is left.

With `other=reveal`, words keep their characters outside a-z (a hyphen, an apostrophe, é), and
those are shown from the start, as on paper: the guesser is told the word's *shape* (its
length and its shown characters, `_-_` for a-b) before the first letter. The shape is the
opening, so every solver, agent, referee and printout sees it from the first move, and words
that differ only in shown characters (a-b, a'b) are told apart by it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

import numpy as np

from ..core.errors import ArenaError
from ..core.feedback import check_table_memory, code_dtype
from ..core.game import Game, GameType, Index, Indexes, Reply, Rules
from ..core.spec import Param
from ..core.words import Dropped, read_words

PARAMS = {
    "words": Param("words", str, "web2", "shipped list (web2, sgb) or a file, one word a line"),
    "length": Param("length", int, 0, "only words of this length (0: every length, the guesser told the length)"),
    "strikes": Param("strikes", int, 6, "misses that lose the game"),
    "other": Param(
        "other",
        ("skip", "refuse", "reveal"),
        "skip",
        "words with characters outside a-z: skip them, refuse the list, or keep them with those shown",
    ),
    "first": Param("first", int, 0, "keep only the first N words (0: all), for small instances"),
}

LETTERS = string.ascii_lowercase


def hangman_words(
    words: tuple[str, ...], other: str, spec: str, dropped: Dropped | None = None
) -> tuple[list[str], list[str]]:
    """The words lowercased and deduplicated in list order, and those set aside for other
    characters (with other=reveal: only those with no letter a-z at all). `dropped` counts the
    words left out, by reason."""
    dropped = Dropped() if dropped is None else dropped
    kept: list[str] = []
    odd: list[str] = []
    seen: set[str] = set()
    for w in (w.lower() for w in words):
        if w in seen:
            dropped.add("listed twice", w)
            continue
        seen.add(w)
        if re.fullmatch(r"[a-z]+", w) or (other == "reveal" and re.search(r"[a-z]", w)):
            kept.append(w)
        else:
            odd.append(w)
    if odd and other == "refuse":
        raise ArenaError(
            f"{spec}: {len(odd)} words have characters outside a-z (such as {', '.join(odd[:3])}); "
            "use other=skip to leave them out or other=reveal to show those characters"
        )
    for w in odd:
        dropped.add("with no letter a-z" if other == "reveal" else "with characters outside a-z", w)
    return kept, odd


def build_bytes(words: list[str]) -> int:
    """The bytes the Hangman table's build needs: the raw position masks, the np.unique that
    codes them densely (sorted copy, inverse and order: about 24 bytes a cell), the table and
    its transposed copy at the widest code dtype, and the characters of one length at a time."""
    cells = 26 * len(words)
    return cells * (4 + 4 + 24) + 2 * cells * 4 + sum(map(len, words)) * 16


def position_masks(words: list[str]) -> np.ndarray:
    """masks[letter, word] = bit i set where the letter stands at position i (vectorised by length).

    Characters are read as code points, so a word kept with `other=reveal` may hold any (é, ',
    -): those never match a letter a..z, so they are shown, never guessed."""
    masks = np.zeros((26, len(words)), dtype=np.uint32)
    lengths = np.array([len(w) for w in words])
    for length in np.unique(lengths):
        index = np.flatnonzero(lengths == length)
        points = np.frombuffer("".join(words[i] for i in index).encode("utf-32-le"), dtype=np.uint32)
        chars = points.reshape(len(index), length).astype(np.int64) - ord("a")
        bits = np.uint32(1) << np.arange(length, dtype=np.uint32)
        for letter in range(26):
            masks[letter, index] = ((chars == letter) * bits).sum(axis=1, dtype=np.uint32)
    return masks


def fits(word: str, length: int, dropped: Dropped) -> bool:
    """Is the word at most 32 letters long (a reply is a 32-bit mask) and of `length` (0: any)?"""
    if len(word) > 32:
        dropped.add("longer than 32 letters", word)
    elif length and len(word) != length:
        dropped.add(f"not of {length} letters", word)
    else:
        return True
    return False


def shape_of(word: str) -> str:
    """`_-_` for a-b: the letters a-z hidden, every other character shown."""
    return re.sub(r"[a-z]", "_", word)


class Hangman(Game):
    """Hangman over a word list: secrets are words, guesses the letters a..z."""

    name = "hangman"
    rules = Rules(hits=False, strikes=True, cost="misses")
    secret_noun = "word"

    def __init__(
        self, spec: str, words: str = "web2", length: int = 0, strikes: int = 6, other: str = "skip", first: int = 0
    ):
        if strikes < 1:
            raise ArenaError(f"{spec}: strikes must be at least 1")
        if length < 0 or first < 0:
            raise ArenaError(f"{spec}: length and first must be 0 (all) or positive")
        if length > 32:
            raise ArenaError(f"{spec}: length must be at most 32")
        listed, dropped = read_words(words), Dropped()
        playable, self.skipped = hangman_words(listed, other, spec, dropped)
        playable = [w for w in playable if fits(w, length, dropped)]
        if first:
            playable = playable[:first]
        if not playable:
            raise ArenaError(
                f"{spec}: the list {words!r} has no words"
                + (f" of length {length}" if length else "")
                + (f" ({dropped.summary(words, len(listed))})" if dropped.count else "")
            )
        dropped.tell(spec, words, len(listed))
        check_table_memory(spec, 26, len(playable), 4, build_bytes(playable))
        raw = position_masks(playable)
        self.masks, dense = np.unique(np.concatenate(([0], raw.ravel())), return_inverse=True)
        # a code per distinct mask: uint16 holds 65,536 of them, a long list of long words has more
        table = dense[1:].reshape(raw.shape).astype(code_dtype(len(self.masks), at_least=np.uint16))
        super().__init__(spec, playable, list(LETTERS), table, None, np.full(26, -1))
        self.strikes = strikes
        self.lengths = np.array([len(w) for w in playable])
        shapes = [shape_of(w) for w in playable]
        #: the shapes in order (by length, the all-hidden shape first), and each word's
        self.shapes = sorted(set(shapes), key=lambda t: (len(t), t.count("_") != len(t), t))
        rank = {t: k for k, t in enumerate(self.shapes)}
        self.shape_ids = np.array([rank[t] for t in shapes], dtype=np.intp)

    def describe_guesses(self) -> str:
        return "the letters a to z"

    def normalise_guess(self, label: str) -> str:
        return label.strip().lower()

    def positions(self, reply: Reply) -> list[int]:
        """The 1-based positions a reply reveals."""
        mask = int(self.masks[reply])
        return [i + 1 for i in range(mask.bit_length()) if mask >> i & 1]

    def reply_label(self, reply: Reply) -> str:
        """`-` for a miss, else the positions joined by dots (`1.4`)."""
        return ".".join(map(str, self.positions(reply))) or "-"

    def parse_reply(self, text: str) -> Reply:
        """`-` (or `miss`, `0`) for a miss, else the 1-based positions, like `1.4`: each once,
        from 1 to the longest word's length (a repeated or impossible position is refused, never
        read as another position)."""
        t = text.strip().lower()
        if t in ("-", "miss", "0"):
            return 0
        parts = [p for p in re.split(r"[.,\s]+", t) if p]
        if not parts or not all(re.fullmatch(r"[0-9]+", p) for p in parts):
            raise ArenaError(f"reply {text!r}: write - for a miss or the positions, like 1.4")
        positions = [int(p) for p in parts]
        longest = int(self.lengths.max())
        if len(set(positions)) < len(positions):
            raise ArenaError(f"reply {text!r}: a position is repeated; give each position once, like 1.4")
        if not all(1 <= p <= longest for p in positions):
            raise ArenaError(f"reply {text!r}: positions run from 1 to {longest} in {self.spec}")
        mask = sum(1 << (p - 1) for p in positions)
        found = np.flatnonzero(self.masks == mask)
        if not len(found):
            raise ArenaError(f"reply {text!r}: no word of {self.spec} has a letter at exactly those positions")
        return int(found[0])

    def parse_reply_to(self, guess: Index, text: str) -> Reply:
        """A reply as `parse_reply` reads it, or the word as the guesser sees it after `guess`
        (`_ u _ _ y`, spaces optional, as `pattern` writes it): the guessed letter's positions."""
        t = text.strip().lower()
        cells = t.split() if " " in t else list(t)
        if t in ("-", "miss", "0") or not ("_" in cells or len(cells) > 1 and all(c.isalpha() for c in cells)):
            return self.parse_reply(text)
        if any(len(c) != 1 for c in cells):
            raise ArenaError(f"reply {text!r}: write the word as it shows, one symbol a position, like _ u _ _ y")
        letter = self.guesses[guess]
        lengths = sorted(set(self.lengths.tolist()))
        if len(cells) not in lengths:
            raise ArenaError(f"reply {text!r}: {len(cells)} positions, where the words of {self.spec} have {lengths}")
        positions = [str(i) for i, c in enumerate(cells, 1) if c == letter]
        return self.parse_reply(".".join(positions) or "-")

    def pattern(self, word: str, revealed: set[str]) -> str:
        """`_ a _ _ _`: the word as the guesser sees it (characters outside a-z are always shown)."""
        return " ".join(c if c in revealed or c not in LETTERS else "_" for c in word)

    def shape(self, candidates: Indexes) -> str:
        """`_-_`: what every candidate shows before the first letter (they share one opening)."""
        return self.shapes[int(self.shape_ids[candidates[0]])]

    def shown(self, history: Sequence[tuple[Index, Reply]], shape: int | str) -> str:
        """`_ a _ _ _`: the positions the hits so far have shown, in a word of `shape` (its
        length, every character hidden, or as shown before the first letter, like `_-_`)."""
        cells = ["_"] * shape if isinstance(shape, int) else list(shape)
        length = len(cells)
        for guess, reply in history:
            for position in self.positions(reply):
                if position <= length:
                    cells[position - 1] = self.guesses[guess]
        return " ".join(cells)

    # --- what the game tells people, and how it ends ------------------------------------------
    def reply_help(self) -> str:
        return "the positions of the letter (like 2.4) or the word as it shows (like _ u _ _ y), or - for a miss"

    def told(self, replies: np.ndarray) -> np.ndarray:
        """The positions shown."""
        return np.array([int(m).bit_count() for m in self.masks[replies]], dtype=np.int64)

    def opening_line(self, label: str, candidates: Indexes, length: int | str) -> str | None:
        shape = self.shape(candidates) if len(candidates) else length
        size = len(shape) if isinstance(shape, str) else shape
        return f"The word has {size} letters: {self.shown([], shape)} ({len(candidates):,} possible)"

    def opening_question(self, labels: list[str]) -> str:
        if any(len(label.split()) > 2 for label in labels):  # shown characters: the shapes by name
            return f"Your word's length and shown characters ({', '.join(labels)})? "
        return f"How many letters has your word ({labels[0].split()[0]}-{labels[-1].split()[0]})? "

    def turn_line(self, number: int, history: Sequence[tuple[Index, Reply]], left: int, length: int | str) -> str:
        """The word as the guesser sees it, and the strikes."""
        guess, reply = history[-1]
        misses = sum(self.is_miss(r) for _, r in history)
        shown = self.shown(history, length) + (" (miss)" if self.is_miss(reply) else "")
        strikes = f"{misses}/{self.strikes}" if self.strikes else str(misses)
        return f"Guess {number}: {self.guesses[guess]}, Reply: {shown}, Strikes: {strikes}, Consistent targets: {left}"

    def finishing_guesses(self, candidates: Indexes, played: set[Index]) -> list[Index]:
        """With one word left, its letters not played yet, in alphabetical order (each is a hit:
        they add guesses, never misses)."""
        if len(candidates) != 1:
            return []
        letters = np.flatnonzero(self.table[:, candidates[0]] != 0)  # reply 0 is the miss
        return [int(g) for g in letters if int(g) not in played]

    def guess_note(self, guess: Index, candidates: Indexes) -> str:
        inside = int(np.count_nonzero(self.table[guess, candidates]))
        return f"it is in {inside:,} of the {len(candidates):,} words still possible"

    def determined(self, candidates: Indexes) -> bool:
        return len(candidates) <= 1

    def openings(self, secrets: Indexes) -> list[tuple[str, Indexes]]:
        """One per shape: the word's length (`5 letters`), and with other=reveal the characters
        shown from the start (`3 letters _-_`)."""
        ids = self.shape_ids[secrets]
        return [(self.shape_label(k), secrets[ids == k]) for k in np.unique(ids).tolist()]

    def shape_label(self, k: int) -> str:
        shape = self.shapes[k]
        label = f"{len(shape)} letter" + ("s" if len(shape) != 1 else "")
        return label if shape.count("_") == len(shape) else f"{label} {shape}"

    def candidate_guesses(self, candidates: Indexes) -> Indexes:
        """The letters that may be in the word and would tell something: not in every candidate
        at the same positions (those are known already, or cannot split)."""
        block = self.table[:, candidates]
        return np.flatnonzero((block != block[:, :1]).any(axis=1))


GAME = GameType(
    "hangman", Hangman, PARAMS, "words, guessed letter by letter; reply = where the letter stands (a miss is a strike)"
)
