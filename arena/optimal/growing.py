"""Growing a tree from the exact search: the one tree grower (arena.trees.grow.grow) bound to a
search (`grow_by`), which the optimal tree, a fitting tree read off a depth proof, and a
search's best guesses all use.

    Path              where a search starts (replies seen, what is left of a limit, misses, ...)
    grow_by           the tree of the guesses a `choose(spot)` names, within the search's limit
    tree_from_search  the tree of best guesses the search's cache holds
    fitting_tree      a tree within a depth, read off the proof that one exists (Search.fits)
    first_fitting     the first of some guesses whose classes all keep within a depth
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.game import Game, Index, Indexes
from ..trees.grow import Check, Hooks, Spot, grow, splits_nothing
from ..trees.tree import Node, Tree
from .search import Allowed, Search

#: The guess at a node, from what the node knows.
Choose = Callable[[Spot], Index]


@dataclass
class Path:
    """Where a search starts: the replies already seen (after fixed openers), the guesses or
    misses left, the misses made, the symmetry and the guesses allowed there (hard mode)."""

    replies: tuple = ()
    left: int | None = None  # None: the search's limit
    missed: int = 0
    sym: Any = None  # the symmetry left there (arena.optimal.search.stabilizer)
    allowed: Allowed | None = None


def fitting_tree(search: Search, S: Indexes, depth: int, opening: str, label: str) -> Tree:
    """A tree that finds every secret of S within `depth` guesses (misses), read off the proof
    that one exists (`least_depth`): at each set the first guess of the pool whose classes all
    fit (Search.fits, cached by the proof). The incumbent of a time-limited worst-case search
    when no greedy tree keeps within the depth."""
    game = search.game
    search.deadline = None  # the proof is done: what is left are cache lookups

    def fitting(spot: Spot) -> Index:
        part, allowed = spot.candidates, spot.allowed
        guess = first_fitting(search, part, spot.left, search.pool(part, None, allowed).tolist(), allowed)
        if guess is None:
            raise AssertionError("fits() proved a tree that it cannot find again")  # a bug, not a user's mistake
        return guess

    root, costs = grow_by(search, Spot(S, left=depth), fitting, opening)
    return Tree(game, label, [root] if root is not None else [], costs[0], costs[1])


def first_fitting(
    search: Search, part: Indexes, left: int, guesses: list[Index], allowed: Allowed | None = None
) -> Index | None:
    """The first of `guesses` that splits `part` with every class fitting within what is left
    after it (Search.fits: `left` less the reply's step; `allowed`, hard mode, what the path
    allows), or None."""
    game = search.game
    for guess in guesses:
        parts = game.partition(guess, part)
        if splits_nothing(game, parts):
            continue  # learns nothing
        if all(
            game.finished(r) or search.fits(c, left - search.step(r), None, search.class_allowed(allowed, guess, r, c))
            for r, c in parts.items()
        ):
            return guess
    return None


def fewest_missing(game: Game, part: Indexes, pool: Indexes) -> Index:
    """After a game is lost (counting lost games): the guess of the pool that splits `part` with
    the fewest candidates missing it. Nothing is left to lose, so any splitting guess serves;
    an exact fewest-misses search here could take longer than the whole lost-games search."""
    block = game.table[pool][:, part]
    splits = (block != block[:, :1]).any(axis=1)
    miss = np.array([game.is_miss(code) for code in range(int(block.max()) + 1)], dtype=bool)
    missing = miss[block].sum(axis=1)
    return int(pool[np.flatnonzero(splits)[np.argmin(missing[splits])]])


def tree_from_search(
    search: Search, S: Indexes, opening: str = "", root_guess: Index | None = None, path: Path | None = None
) -> tuple[Node | None, np.ndarray]:
    """The tree of best guesses that the search's cache holds for S (every set on the way was
    solved exactly): its root, and each secret's (guesses, misses) under it, counted from the
    game's start (`path`: the replies, misses and allowed guesses before S). A branch ends with
    a hit or, where the game ends so (Hangman), once the secret is determined; a game already
    lost (counting lost games) goes on with the splitting guess fewest candidates miss."""
    path = path or Path()

    def choose(spot: Spot) -> Index:
        part, allowed = spot.candidates, spot.allowed
        guess = search.best_guess(part, spot.left, allowed)
        # lost already: nothing more to lose (fewest_missing)
        return guess if guess >= 0 else fewest_missing(search.game, part, search.pool(part, None, allowed))

    deadline, search.deadline = search.deadline, None  # a closed-form class may still need its (tiny) search
    try:
        left = search.limit if path.left is None else path.left
        start = Spot(S, path.replies, left=left, missed=path.missed, allowed=path.allowed)
        return grow_by(search, start, choose, opening, root_guess)
    finally:
        search.deadline = deadline


def grow_by(
    search: Search,
    start: Spot,
    choose: Choose,
    opening: str = "",
    root_guess: Index | None = None,
    check: Check | None = None,
) -> tuple[Node | None, np.ndarray]:
    """The tree of the guesses `choose(spot)` names from the spot `start` (its secrets, the
    replies before it, what the search's depth limit leaves there: guesses, or misses,
    Search.step; the misses so far; what the path allows, hard mode: Search.class_allowed),
    `root_guess` first if given, and each secret's (guesses, misses) under it: the one grower
    (arena.trees.grow.grow), `check` looking at each split (Hooks.check)."""
    at_root = len(start.replies)

    def pick(spot: Spot) -> Index:
        return root_guess if root_guess is not None and spot.turn == at_root else choose(spot)

    return grow(
        search.game,
        start,
        pick,
        opening,
        hooks=Hooks(check=check, step=search.step, allow=search.class_allowed),
    )
