"""Hard mode (Wordle's `game.rules.restricted`): the guesses the rules still allow on a path."""

from __future__ import annotations

import numpy as np

from ...core.game import Index, Indexes
from .shared import SearchState


class Allowed:
    """The guesses the rules still allow on a path (Wordle's hard mode: `game.rules.restricted`),
    as a mask over all guesses; `key` (the packed mask) names the set in the cache keys, and
    `guesses` lists it. Every rule so far narrows the guesses move by move, so the set after a
    path is the intersection of what each of its moves allows (Game.allowed_guesses)."""

    __slots__ = ("mask", "key", "_guesses")

    def __init__(self, mask: np.ndarray):
        self.mask = mask
        self.key = np.packbits(mask).tobytes()
        self._guesses: Indexes | None = None

    @property
    def guesses(self) -> Indexes:
        if self._guesses is None:
            self._guesses = np.flatnonzero(self.mask)
        return self._guesses


class HardMode(SearchState):
    """The allowed guesses after a move, for the nodes below it."""

    def after(self, allowed: Allowed | None, guess: Index, reply) -> Allowed | None:
        """The guesses allowed once `guess` got `reply` on a path that allowed `allowed` (None:
        every guess): the same None where the rules allow every guess whatever the history."""
        if not self.restricted:
            return None
        step = self.game.allowed_guesses([(int(guess), reply)])
        if step is None:
            return allowed
        mask = np.zeros(len(self.game.guesses), dtype=bool)
        mask[step] = True
        if allowed is not None:
            mask &= allowed.mask
        return Allowed(mask)

    def class_allowed(self, allowed: Allowed | None, guess: Index, reply, C: Indexes) -> Allowed | None:
        """What a class searched after `guess`, `reply` may guess. A class of at most two
        secrets that are both guesses is closed without its pool (close_small: one secret,
        or w1 + 2 w2 by guessing them, always allowed), so it keeps its parent's set, which
        saves building one for most classes."""
        if not self.restricted or (len(C) <= 2 and self.game.secret_guess[C].min() >= 0):
            return allowed
        return self.after(allowed, guess, reply)
