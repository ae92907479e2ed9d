"""What every part of the search shares: the limits, the time-out, the counters, the
attributes and methods one part of the search (a mixin of `Search`) reads of the others, and
what the search asks of the cost it minimises (CostBounds, one subclass per cost).
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ...core.costs import Cost
from ...core.errors import ArenaError
from ...core.game import Game, Index, Indexes

#: "Guesses left" when there is no depth limit.
NO_LIMIT = 1 << 20


def class_searched(total: float, lb: float, value: float, budget: float, limit: float) -> float:
    """A guess's total bound once one of its classes, bounded by `lb`, has been searched with
    `budget` = limit - (total - lb) and returned `value`: the class's value in place of its bound,
    and at least `limit` when the class failed high (value >= budget). Why not total - lb +
    value alone: with a chooser's weights the sum can round to an ulp below the limit, and the
    bound a class failed high with would pass for the guess's exact cost (jotto:first=30 under
    a mix: a tree 0.011 worse than the optimum, the search's value an ulp below it)."""
    total += value - lb
    return max(total, limit) if value >= budget else total


class Timeout(Exception):
    """The time limit passed during the search (or Ctrl-C stopped it: STOP)."""


class Stop:
    """Ctrl-C, under a time limit, asks every search to stop as at its deadline (`asked`):
    the command then prints what was reached, its bounds and best tree (`ctrl_c_stops`)."""

    def __init__(self) -> None:
        self.asked = False


STOP = Stop()


@contextlib.contextmanager
def ctrl_c_stops(time_limited: bool) -> Iterator[Stop]:
    """Within, on the main thread and under a time limit: the first Ctrl-C (SIGINT) stops the
    searches as their deadline would (STOP.asked; the compiled search sees it within a chunk),
    a second one interrupts at once. What it yields says, once left, whether Ctrl-C was
    pressed: the command prints what was reached, then ends with KeyboardInterrupt (`arena
    ...: interrupted`, status 130). Outside, Ctrl-C interrupts as usual; without a time limit
    too, as a search may have no tree yet to give."""
    seen = Stop()
    if not time_limited or threading.current_thread() is not threading.main_thread():
        yield seen
        return

    def ask(signum, frame) -> None:
        if STOP.asked:
            raise KeyboardInterrupt
        STOP.asked = True

    previous = signal.signal(signal.SIGINT, ask)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGINT, previous)
        seen.asked, STOP.asked = STOP.asked, False


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
    #: the cost counted on the way down (arena.core.costs; lost games: the misses)
    cost: Cost
    #: what the search asks of the cost it minimises (CostBounds below)
    bounds: CostBounds
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
    compiled_below: int
    compile_weighted: bool
    _weighted: Any

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

        def slot_scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, Callable, int]: ...

        def table_list(self, b: int) -> list[float]: ...

        def small_trees(self) -> Any: ...

        def weighted_compiled(self) -> Any: ...

        def check_deadline(self) -> None: ...

        def count_compiled(self, small: Any, before: int) -> None: ...

        def close_small(self, S: Indexes, left: int, parts: int) -> tuple[float, Index] | None: ...

        def classes_of(self, guess: Index, S: Indexes) -> list[tuple[int, Indexes]]: ...

        def slot_value(
            self, guess: Index, S: Indexes, limit: float, left: int, b: int, sym: Any, allowed: Any = None
        ) -> float: ...

        def first_misses(self, S: Indexes, classes: list[Indexes]) -> np.ndarray: ...

        def next_misses(self, S: Indexes, pool: Indexes) -> np.ndarray: ...

        def determine_bounds(self, S: Indexes, pool: Indexes, counts: np.ndarray, codes: np.ndarray) -> np.ndarray: ...

        def step(self, reply: Any) -> int: ...

        def class_allowed(self, allowed: Any, guess: Index, reply: Any, C: Indexes) -> Any: ...

        def after(self, allowed: Any, guess: Index, reply: Any) -> Any: ...


class CostBounds(ABC):
    """What the branch and bound asks of the cost it minimises. The search knows no cost: it
    holds one CostBounds, `search.bounds`, chosen by the cost it is given (arena.core.costs) and by
    how the game ends (a guess that hits the secret, or the secret determined), and every
    place where the costs differ asks it:

        leaf, decided        a set that needs no search: its value, and the guess there
        scores               every guess's lower bound at a node, and the tie-break among them
        guess_value          the value of one guess: what it pays, then its classes searched
        tie                  how near two values tie (the earlier guess of the pool wins)
        closes_small         whether small sets are closed from their candidates (closures.py)
        scores_below_known   whether a guess's score is at most its classes' known bounds
        follows_hard_mode    whether the classes are searched with the guesses a path allows
        finishing_reply      the reply that finishes a class (the hit), or -1
        ends_at              whether the game is over at a set, before any guess
        fit_leaf, room, least_depth          the depth limits (depth.py)
        paid_by_guess, pays, class_bound     a guess's bound from its classes (depth.py)

    hits.py has the bounds of guesses on games a hit ends (the slot bound); determined.py those of
    the three costs counted until the secret is determined (Hangman). A new cost is one
    subclass: declaring its `cost` (and `ends_on_hit`) registers it (`CostBounds.of`).
    `search` is the Search served, whose state and counting the operations read."""

    #: the cost of arena.core.costs these are the bounds of
    cost: ClassVar[type[Cost]]
    #: the game ends when a guess hits the secret (Jotto, Mastermind, Wordle), not when the
    #: secret is determined (Hangman)
    ends_on_hit: ClassVar[bool]
    #: a guess whose value is within this of the best ties with it, and the earlier guess of
    #: the pool is kept (0: the first guess found at the best value is kept)
    tie: ClassVar[float] = 0.0
    #: small sets are closed, or bounded from their candidates, before their pool is scored
    closes_small: ClassVar[bool] = False
    #: classes are searched with the guesses the path allows (hard mode: game.rules.restricted)
    follows_hard_mode: ClassVar[bool] = False
    #: a guess's score (`scores`) is at most what it pays plus its classes' known bounds
    #: (depth.root_bound may then leave the guesses scored above the best found)
    scores_below_known: ClassVar[bool] = False
    #: every registered class of bounds, by (cost, ends_on_hit)
    registered: ClassVar[dict[tuple[type[Cost], bool], type[CostBounds]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "cost" in cls.__dict__:
            CostBounds.registered[(cls.cost, cls.ends_on_hit)] = cls

    @classmethod
    def of(cls, search: SearchState, game: Game, paid: Cost) -> CostBounds:
        """The bounds of the cost `paid` on `game`, for `search` (by the registered classes)."""
        kind = CostBounds.registered.get((type(paid), bool(game.rules.hits)))
        if kind is None:
            raise ArenaError(f"{game.spec}: the exact search has no bounds for the cost {paid.name!r}")
        return kind(search)

    def __init__(self, search: SearchState):
        self.search = search

    def finishing_reply(self, game: Game) -> int:
        """The reply that finishes a class (its secret is named), or -1: none does."""
        return -1

    def ends_at(self, S: Indexes) -> bool:
        """Is the game over at S before any guess (the secret determined, on a game that ends
        so)? A game that a hit ends goes on until a guess names the secret."""
        return False

    @abstractmethod
    def leaf(self, S: Indexes, left: int) -> float | None:
        """The value of S with `left` to spend, when it needs no search, or None."""
        raise NotImplementedError

    @abstractmethod
    def decided(self, S: Indexes, left: int) -> Index | None:
        """The best guess at S when it needs no search (-1: nothing to decide), or None."""
        raise NotImplementedError

    @abstractmethod
    def scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, Callable[[Indexes], np.ndarray], int]:
        """For every guess of the pool a lower bound on its value (inf for a guess that cannot
        help), the tie-break of those positions among equal bounds, and b (the most classes
        but the hit that a useful guess makes)."""
        raise NotImplementedError

    @abstractmethod
    def guess_value(self, guess: Index, S: Indexes, limit: float, left: int, b: int, sym: Any, allowed: Any) -> float:
        """The value of `guess` at S if below `limit`, else a lower bound >= limit."""
        raise NotImplementedError

    @abstractmethod
    def fit_leaf(self, S: Indexes, left: int) -> bool | None:
        """Whether S can be finished within `left`, when that needs no search, or None."""
        raise NotImplementedError

    def room(self, n: int, b: int, left: int) -> int:
        """The largest class a guess at a set of n secrets may leave, with `left` to spend at
        the set and at most b classes a guess, and still finish within it."""
        return n

    def least_depth(self, n: int) -> int:
        """A lower bound on the worst case of n secrets, from their number alone."""
        return 0

    def paid_by_guess(self, S: Indexes) -> float:
        """What a guess at S costs its secrets whatever the reply (besides `pays`)."""
        return 0.0

    def pays(self, reply: Any) -> bool:
        """Does each secret of the class this reply leaves pay for the reply?"""
        return False

    @abstractmethod
    def class_bound(self, S: Indexes, b: int, left: int) -> float:
        """A lower bound on the value of S (not a leaf) before it is searched (at most b
        classes a guess), without a partition."""
        raise NotImplementedError
