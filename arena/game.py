"""A game instance: secrets, guesses and the feedback table `F[g, s]` between them.

Everything in the project is an index into `game.secrets` or `game.guesses`. The table is
built once, with vectorised numpy, by the game's constructor; the primitives that agents and
solvers use (`consistent`, `partition`, `partition_counts`) read it and never recompute a reply.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from .errors import ArenaError

Index = int
Indexes = np.ndarray  # a sorted 1-d array of secret (or guess) indexes
Reply = int  # a feedback code, a small non-negative integer

#: Above this many codes a reply alphabet is sparse (Hangman's position masks): codes are
#: re-indexed densely per block before counting.
_MANY_CODES = 64
#: Counting by one comparison per code beats np.bincount for blocks this big with this few codes.
_FEW_CODES = 8
_BIG_BLOCK = 100_000
_TINY = 8  # partitions of this many candidates or fewer are grouped in plain Python


def _codes_in(table: np.ndarray) -> np.ndarray:
    """The distinct values of a table (bincount is much faster than sorting for small ints)."""
    if table.dtype.itemsize <= 2:
        return np.flatnonzero(np.bincount(table.ravel()))
    return np.unique(table)


class Game:
    """A finite guessing game given by its feedback table.

    table[g, s] is the reply (a small integer code) to guess g when the secret is s.
    `hit` is the reply that means "you guessed the secret" (None where no guess is a secret),
    and `same_secret[g]` is the secret that guess g names, or -1.
    """

    name: str = "game"
    strikes: int | None = None  # misses that lose the game (Hangman), None where misses don't count

    def __init__(self, spec: str, secrets: Sequence[str], guesses: Sequence[str], table: np.ndarray,
                 hit: Reply | None, same_secret: np.ndarray):
        self.spec = spec
        self.secrets = tuple(secrets)
        self.guesses = tuple(guesses)
        self.table = np.ascontiguousarray(table)
        self.by_secret = np.ascontiguousarray(table.T)  # row per secret: fast to gather candidates
        self.hit = hit
        self.same_secret = np.asarray(same_secret, dtype=np.intp)
        self.secret_guess = np.full(len(self.secrets), -1, dtype=np.intp)  # the inverse map
        named = self.same_secret >= 0
        self.secret_guess[self.same_secret[named]] = np.flatnonzero(named)
        self.codes = _codes_in(self.table)  # the replies that occur
        self.n_codes = int(self.codes[-1]) + 1
        self.all_secrets: Indexes = np.arange(len(self.secrets))
        self.all_guesses: Indexes = np.arange(len(self.guesses))
        self._guess_index = {label: i for i, label in enumerate(self.guesses)}
        self.table.setflags(write=False)
        self.by_secret.setflags(write=False)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}: {len(self.secrets)} secrets, {len(self.guesses)} guesses>"

    # --- labels -------------------------------------------------------------------------
    def guess_index(self, label: str) -> Index:
        """The index of the guess written `label`, or an ArenaError saying what a guess looks like."""
        key = self.normalise_guess(label)
        if key not in self._guess_index:
            raise ArenaError(f"{label!r} is not a guess of {self.spec}: {self.describe_guesses()}")
        return self._guess_index[key]

    def normalise_guess(self, label: str) -> str:
        return label.strip()

    def describe_guesses(self) -> str:
        return f"{len(self.guesses)} guesses such as {', '.join(self.guesses[:3])}"

    def reply_label(self, reply: Reply) -> str:
        """How a reply is written for people (and in saved trees)."""
        return str(reply)

    def parse_reply(self, text: str) -> Reply:
        """The reply code written `text` (the inverse of `reply_label`)."""
        try:
            code = int(text)
        except ValueError:
            raise ArenaError(f"reply {text!r} is not a reply of {self.spec}") from None
        if code not in set(self.codes.tolist()):
            raise ArenaError(f"reply {text!r} never occurs in {self.spec}")
        return code

    def history_label(self, replies: Sequence[Reply]) -> str:
        """The replies so far as one short string (the History column of strategy tables)."""
        return "".join("|" + self.reply_label(r) for r in replies)

    # --- the primitives -----------------------------------------------------------------
    def reply(self, guess: Index, secret: Index) -> Reply:
        return int(self.table[guess, secret])

    def consistent(self, candidates: Indexes, guess: Index, reply: Reply) -> Indexes:
        """The candidates that would have given `reply` to `guess`."""
        return candidates[self.table[guess, candidates] == reply]

    def partition(self, guess: Index, candidates: Indexes) -> dict[Reply, Indexes]:
        """The candidates split by their reply to `guess`, in reply order (each class keeps
        the candidates' order)."""
        if len(candidates) <= _TINY:  # most nodes of a tree are this small: plain Python is faster
            classes: dict[Reply, list[Index]] = {}
            for secret, reply in zip(candidates.tolist(), self.table[guess, candidates].tolist()):
                classes.setdefault(reply, []).append(secret)
            return {r: np.array(classes[r], dtype=candidates.dtype) for r in sorted(classes)}
        replies = self.table[guess, candidates]
        sizes = np.bincount(replies, minlength=self.n_codes)
        ends = np.cumsum(sizes)
        ordered = candidates[np.argsort(replies, kind="stable")]
        return {int(r): ordered[ends[r] - sizes[r]:ends[r]] for r in np.flatnonzero(sizes)}

    def partition_counts(self, pool: Indexes | None, candidates: Indexes) -> np.ndarray:
        """counts[i, r] = how many candidates give reply r to guess pool[i] (pool None: every guess).

        One array operation for the whole pool: the (candidates x pool) block of the table is
        gathered once, then counted per reply: by one comparison per code for big blocks of a
        game with few codes (it streams through memory), else by a single np.bincount of the
        replies offset by i * n_codes. With a sparse reply alphabet (more than 64 codes) the
        columns are the codes that occur in the block, in code order, with the miss (code 0)
        always first: metrics only need the class sizes, and max-frequency the miss column.
        """
        block = self.by_secret[candidates] if pool is None else self.by_secret[candidates[:, None], pool]
        width = block.shape[1]
        if self.n_codes > _MANY_CODES:
            local, dense = np.unique(np.concatenate(([0], block.ravel())), return_inverse=True)
            block, codes = dense[1:].reshape(block.shape), len(local)
            keys = block.astype(np.intp) + np.arange(width, dtype=np.intp) * codes
            return np.bincount(keys.ravel(), minlength=width * codes).reshape(width, codes)
        if len(self.codes) <= _FEW_CODES and block.size > _BIG_BLOCK:
            counts = np.zeros((width, self.n_codes), dtype=np.int64)
            for code in self.codes:
                counts[:, code] = (block == code).sum(axis=0, dtype=np.int32)  # int32: 2x faster
            return counts
        keys = block.astype(np.intp)
        keys += np.arange(width, dtype=np.intp) * self.n_codes
        return np.bincount(keys.ravel(), minlength=width * self.n_codes).reshape(width, self.n_codes)

    def finished(self, reply: Reply) -> bool:
        """Does this reply end the game? (In Jotto and Mastermind: the guess was the secret.)"""
        return reply == self.hit

    def determined(self, candidates: Indexes) -> bool:
        """Is the game over without another guess? (Hangman: one word left. Jotto: never, the
        secret must still be guessed.)"""
        return False

    def openings(self, secrets: Indexes) -> list[tuple[str, Indexes]]:
        """What the guesser is told before the first guess, as (label, secrets) classes: nothing
        here; Hangman tells the word's length."""
        return [("", secrets)]

    def is_miss(self, reply: Reply) -> bool:
        """Was this reply a miss, the all-blank reply (a strike in Hangman)?"""
        return reply == 0

    def candidate_guesses(self, candidates: Indexes) -> Indexes:
        """The consistent pool: guesses that may be the secret (Hangman: letters that may be in it)."""
        return self.guesses_naming(candidates)

    def guesses_naming(self, candidates: Indexes) -> Indexes:
        """The guesses that may be the secret: the consistent pool."""
        named = self.secret_guess[candidates]
        return named[named >= 0]

    def is_candidate(self, candidates: Indexes) -> np.ndarray:
        """A boolean per guess: may this guess be the secret, given the candidates?"""
        mask = np.zeros(len(self.secrets) + 1, dtype=bool)  # the extra slot catches same_secret == -1
        mask[candidates] = True
        return mask[self.same_secret]
