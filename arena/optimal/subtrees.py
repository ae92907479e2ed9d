"""A piece's subtree, as the split journals it and puts the best tree together from: the
guesses of the tree the search's cache holds for a class, in pre-order (`subtree`), grown back
into nodes and each secret's costs (`grow_subtree`), from which split.split_tree puts the
whole tree together without a search; a journal's reader, which needs only what each secret
costs, replays the guesses without growing nodes (`subtree_guesses`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ..core.game import Index, Indexes
from ..trees.grow import Spot, splits_nothing
from ..trees.replay import preorder_depths, replays
from ..trees.tree import Node
from .growing import grow_by
from .search import NO_LIMIT, Search

__all__ = ["closed_value", "grow_subtree", "subtree", "subtree_guesses"]


def closed_value(search: Search, C: Indexes, left: int) -> float | None:
    """The class's value when it is known without a search: one secret, two named ones (equal
    weights), or a set the closed forms solved while the classes were bounded; else None."""
    if len(C) == 1:
        return float(search.w[C[0]])
    if len(C) == 2 and search.uniform and search.all_named:
        return 3.0
    if search.restricted:
        return None
    entry = search.cache.get(search.key(C, left))
    return float(entry[0]) if entry is not None and entry[0] == entry[1] else None


def subtree(search: Search, C: Indexes, left: int, allowed=None) -> list[Index]:
    """The best subtree the search's cache holds for C (solved exactly), as its guesses in
    pre-order: a node's guess, then the subtree of each of its non-hit classes in reply order
    (the order game.partition gives). The classes follow from the guesses, so this is the
    whole tree (`grow_subtree` reads it back)."""
    game, out = search.game, []
    deadline, search.deadline = search.deadline, None  # a closed-form class may still need its (tiny) search

    def walk(part: Indexes, left: int, allowed) -> None:
        guess = search.best_guess(part, left, allowed)
        out.append(int(guess))
        for reply, cls in game.partition(guess, part).items():
            if not game.finished(reply):
                walk(cls, left - 1, search.class_allowed(allowed, guess, reply, cls))

    try:
        walk(C, left, allowed)
    finally:
        search.deadline = deadline
    return out


def grow_subtree(
    search: Search, C: Indexes, guesses: Sequence[Index], replies: tuple = (), opening: str = ""
) -> tuple[Node, np.ndarray]:
    """The tree whose guesses in pre-order are `guesses` (`subtree`), from the set C met after
    `replies`, and each secret's (guesses, misses) counted from the game's start. A list that
    is not such a tree (too short or too long, a guess that splits nothing, or one that is no
    guess) is a ValueError."""
    game = search.game
    given: Iterator[Index] = iter(guesses)

    def choose(spot: Spot) -> Index:
        guess = next(given, None)
        if guess is None:
            raise ValueError("the tree stops before every secret is found")
        if not 0 <= guess < len(game.guesses):
            raise ValueError(f"{guess!r} is no guess")
        return guess

    def check(spot: Spot, guess: Index, parts: dict) -> None:  # the split the grower made anyway
        if splits_nothing(game, parts):
            raise ValueError(f"{game.guesses[guess]} splits nothing where it is played")

    try:
        root, costs = grow_by(search, Spot(C, replies, left=NO_LIMIT), choose, opening, check=check)
    except RecursionError:
        raise ValueError("the tree is deeper than any tree worth keeping") from None
    if next(given, None) is not None:
        raise ValueError("the tree has guesses left over once every secret is found")
    assert root is not None
    return root, costs


def subtree_guesses(search: Search, C: Indexes, guesses: Sequence[Index]) -> np.ndarray:
    """Each secret's guesses, counted from C (0 outside C), under the subtree whose guesses in
    pre-order are `guesses`: grow_subtree's first row, by the compiled replay of
    arena.trees.replay where the game allows it (the same answers and the same ValueErrors)."""
    if replays(search.game):
        return preorder_depths(search.game, C, guesses)
    return grow_subtree(search, C, guesses)[1][0]
