"""What every part of the search shares: the limits, the time-out, the counters, and the
attributes and methods one part of the search (a mixin of `Search`) reads of the others.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ...costs import Cost
from ...game import Game, Index, Indexes

#: "Guesses left" when there is no depth limit.
NO_LIMIT = 1 << 20


class Timeout(Exception):
    """The time limit passed during the search."""


@dataclass
class Stats:
    nodes: int = 0  # candidate sets whose guesses were scored
    guesses: int = 0  # guesses whose classes were searched
    hits: int = 0  # cache answers
    started: float = field(default_factory=time.perf_counter)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


class SearchState:
    """The attributes `Search.__init__` sets, and the methods one mixin of `Search` calls on
    another, declared once so that each part of the search is type-checked on its own."""

    game: Game
    w: np.ndarray
    uniform: bool
    #: the cost counted on the way down (arena.costs; lost games: the misses)
    cost: Cost
    #: the game ends when the candidates are determined, not by a hit (Hangman)
    misses: bool
    lost: bool
    consistent_pool: bool
    restricted: bool
    wide: bool
    limit: int
    symmetry: Any
    deadline: float | None
    hit: int
    b_max: int
    all_named: bool
    same_index: bool
    node_limit: int | None
    cache: dict
    fit_cache: dict
    cache_budget: int
    cache_bytes: int
    forgotten: int
    root_key: Any
    progress: tuple[float, Index]
    incumbent: float
    root_lower: float
    report: Callable[[Any], None] | None
    timed_out: bool
    _tables: dict
    _letters: tuple | None
    stats: Stats

    if TYPE_CHECKING:

        def solve(
            self,
            S: Indexes,
            budget: float = ...,
            left: int | None = None,
            sym: Any = None,
            allowed: Any = None,
            parts: int | None = None,
            key: Any = None,
        ) -> float: ...

        def weight(self, S: Indexes) -> float: ...

        def pool(self, S: Indexes, sym: Any, allowed: Any = None) -> Indexes: ...

        def key(self, S: Indexes, left: int, allowed: Any = None) -> Any: ...

        def set_bytes(self, S: Indexes) -> bytes: ...

        def remember(self, cache: dict, key: Any, entry: Any) -> None: ...

        def table(self, b: int) -> np.ndarray: ...

        def depths(self, b: int) -> np.ndarray: ...

        def class_bound(self, S: Indexes, b: int, left: int) -> float: ...

        def hit_free_counts(self, pool: Indexes, S: Indexes) -> tuple[np.ndarray, np.ndarray]: ...

        def class_masses(self, S: Indexes, pool: Indexes, codes: np.ndarray) -> np.ndarray: ...

        def score_guesses(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, np.ndarray, int]: ...

        def miss_bound(self, S: Indexes, pool: Indexes, counts: np.ndarray, codes: np.ndarray) -> np.ndarray: ...

        def determine_bound(self, C: Indexes) -> float: ...

        def determined_leaf(self, S: Indexes, left: int) -> float | None: ...

        def nothing_to_decide(self, S: Indexes, left: int) -> bool: ...

        def pays(self, reply: Any) -> bool: ...

        def step(self, reply: Any) -> int: ...

        def class_allowed(self, allowed: Any, guess: Index, reply: Any, C: Indexes) -> Any: ...

        def after(self, allowed: Any, guess: Index, reply: Any) -> Any: ...
