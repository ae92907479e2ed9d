"""Caches of what is computed for a game, keyed by the game's spec and holding no game, so a
game is freed when its last user lets go of it (tests/test_agent_contract.py checks every
agent). One agent's caches are `agents.base.Agent.per_game`; what all share is here."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

T = TypeVar("T")


def shared_by_game_spec(maxsize: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """`functools.lru_cache(maxsize)` for a function of (game, *hashable args) whose value holds
    no game, keyed by (game.spec, *args) instead of the game: what every agent of a process may
    share (a solved equilibrium, a secret lookup) without keeping a game alive."""

    def decorate(compute: Callable[..., T]) -> Callable[..., T]:
        cache: OrderedDict[tuple, T] = OrderedDict()
        lock = threading.Lock()  # a tournament's watcher thread must not see a half-moved entry

        @wraps(compute)
        def cached(game: Any, *args: Any) -> T:  # a Game: only its spec is read here
            key = (game.spec, *args)
            with lock:
                if key in cache:
                    cache.move_to_end(key)
                    return cache[key]
            value = compute(game, *args)  # outside the lock: a solve may take minutes
            with lock:
                cache[key] = value
                while len(cache) > maxsize:
                    cache.popitem(last=False)
            return value

        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        return cached

    return decorate
