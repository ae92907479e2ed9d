"""The bounded cache of the search: each candidate set's exact value and best guess, or the
best lower bound proven so far, under a byte budget (past it the older half is forgotten).
"""

from __future__ import annotations

from itertools import islice

import numpy as np

from ...core.game import Indexes
from .allowed import Allowed
from .shared import NO_LIMIT, SearchState

#: Bytes a cache entry takes besides its key: the bytes object's header, the entry tuple and
#: its floats, and the dict's slot (measured with sys.getsizeof, rounded up).
ENTRY_BYTES = 200
#: The share of the memory limit the caches may take (the game's tables need the rest).
CACHE_SHARE = 0.5
#: The best guess of a cache entry whose bound is close_small's (known_class_bounds): none yet.
CLOSED = -2


def key_bytes(key) -> int:
    """The bytes a cache entry takes, about: its key's bytes and the fixed overhead."""
    if isinstance(key, bytes):
        return ENTRY_BYTES + len(key)
    return ENTRY_BYTES + 64 + sum(len(part) for part in key if isinstance(part, bytes))


class Caches(SearchState):
    """The cache keys of the nodes, and the caches kept within their byte budget."""

    def set_bytes(self, S: Indexes) -> bytes:
        """A candidate set as a cache key: two bytes a secret where indexes fit, else the full width."""
        return S.astype(np.uint16).tobytes() if len(self.game.secrets) <= 65536 else S.tobytes()

    def key(self, S: Indexes, left: int, allowed: Allowed | None = None):
        """The cache key of a node: its candidates, and where they matter the guesses left
        (under a depth limit) and the guesses allowed (hard mode)."""
        code = self.set_bytes(S)
        if allowed is not None:
            return (code, left, allowed.key)
        return code if self.limit == NO_LIMIT else (code, left)

    def remember(self, cache: dict, key, entry) -> None:
        """cache[key] = entry, within the byte budget: past it, the older half of this cache is
        forgotten (dicts keep insertion order, so those are the first keys)."""
        if key not in cache:
            self.cache_bytes += key_bytes(key)
            if self.cache_bytes > self.cache_budget:
                self.forget_older_half(cache)
        cache[key] = entry

    def forget_older_half(self, cache: dict) -> None:
        """Drop the first half of `cache`'s entries and recount the bytes both caches hold."""
        for key in list(islice(cache, len(cache) // 2 + 1)):
            del cache[key]
            self.forgotten += 1
        self.cache_bytes = sum(key_bytes(k) for c in (self.cache, self.fit_cache) for k in c)
