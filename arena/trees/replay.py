"""A tree written as its guesses in pre-order, replayed to each secret's guesses (compiled), without
building its nodes: what a journal's reader needs of the millions of subtrees it checks.

A subtree is stored as the guess at its root, then the subtree of each class that the guess
leaves and does not end, in reply order (arena.optimal.subtrees.subtree writes it so; the classes
follow from the guesses). Reading one back into nodes (subtrees.grow_subtree, through the one
grower of grow.py) costs a Node, a Spot and a partition dict a node: on Wordle's whole split
journal, 3.3 million nodes and most of the two minutes its check took. A check needs only each
secret's guesses, so here the same walk runs in one compiled loop over an explicit stack: a
node pops its secrets, takes the next guess, sorts them by reply (a counting sort over the replies
met) and pushes its classes in reverse reply order, so that the smallest reply is walked first
and whole, as the recursion walks it. The answers, and the faults refused, are grow_subtree's.

For games whose guesses can hit the secret, with their table in memory (`replays`); the others
(Hangman's determined words, tables computed on the fly) are read back by grow_subtree.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from ..core.game import Game, Index, Indexes
from .tree import Node

#: What the compiled walk reports, then where (the guesses used).
_DONE, _SHORT, _STALLS, _LEFT_OVER = 0, 1, 2, 3


def replays(game: Game) -> bool:
    """Can `preorder_depths` replay this game's trees? (Guesses that hit, the table in memory.)"""
    return bool(game.rules.hits) and not game.on_the_fly and type(game).determined is Game.determined


def preorder(node: Node) -> list[Index]:
    """A tree's guesses in pre-order: the node's guess, then each child's, in reply order (the
    form preorder_depths replays and a journal stores)."""
    out = [node.guess]
    for reply in sorted(node.children):
        out += preorder(node.children[reply])
    return out


def preorder_depths(game: Game, C: Indexes, guesses: Sequence[Index]) -> np.ndarray:
    """guesses[s] for every secret s of C (0 elsewhere) under the tree whose guesses in pre-order
    are `guesses`, counted from C. A list that is no such tree (too short, too long, or a guess
    that leaves its class as it was) is a ValueError, worded as grow_subtree words it."""
    order = np.asarray(guesses, dtype=np.int64)
    if len(order) and not (0 <= order.min() and order.max() < len(game.guesses)):
        bad = next(g for g in order.tolist() if not 0 <= g < len(game.guesses))
        raise ValueError(f"{bad!r} is no guess")
    depths = np.zeros(len(game.secrets), dtype=np.int64)
    status, used = _walk()(game.table, game.hit, game.n_codes, np.asarray(C, dtype=np.int64), order, depths)
    if status == _SHORT:
        raise ValueError("the tree stops before every secret is found")
    if status == _STALLS:
        raise ValueError(f"{game.guesses[int(order[used - 1])]} splits nothing where it is played")
    if status == _LEFT_OVER:
        raise ValueError("the tree has guesses left over once every secret is found")
    return depths


@functools.cache
def _walk():
    """The compiled walk, compiled (or loaded from numba's cache) at its first use: numba is
    imported only where a journal is read."""
    from ..core.compiled import njit  # lazy: numba

    return njit(cache=True)(_walk_py)


def _walk_py(table, hit, n_codes, C, order, depths):  # pragma: no cover - compiled (tests run it plain too)
    n = len(C)
    work = C.copy()
    sorted_ = np.empty(n, dtype=np.int64)
    count = np.zeros(n_codes, dtype=np.int64)
    at = np.zeros(n_codes, dtype=np.int64)
    seen = np.empty(n_codes, dtype=np.int64)
    # the stack of classes still to walk: [start, end) of work, and the guesses before them
    starts = np.empty(n + 1, dtype=np.int64)
    ends = np.empty(n + 1, dtype=np.int64)
    before = np.empty(n + 1, dtype=np.int64)
    top, used = 1, 0
    starts[0], ends[0], before[0] = 0, n, 0
    while top > 0:
        top -= 1
        a, b, d = starts[top], ends[top], before[top]
        if used == len(order):
            return _SHORT, used
        g = order[used]
        used += 1
        kinds = 0
        for k in range(a, b):
            r = table[g, work[k]]
            if count[r] == 0:  # the replies met, kept sorted (few: at most the game's codes)
                j = kinds
                while j > 0 and seen[j - 1] > r:
                    seen[j] = seen[j - 1]
                    j -= 1
                seen[j] = r
                kinds += 1
            count[r] += 1
        if kinds == 1 and seen[0] != hit:
            return _STALLS, used
        start = a
        for j in range(kinds):
            at[seen[j]] = start
            start += count[seen[j]]
        for k in range(a, b):  # stable: each class keeps the candidates' order
            r = table[g, work[k]]
            sorted_[at[r]] = work[k]
            at[r] += 1
        for k in range(a, b):
            work[k] = sorted_[k]
        end = b
        for j in range(kinds - 1, -1, -1):  # pushed last to first: the first reply is walked first
            r = seen[j]
            first = end - count[r]
            if r == hit:
                depths[work[first]] = d + 1
            else:
                starts[top], ends[top], before[top] = first, end, d + 1
                top += 1
            end = first
            count[r] = 0
    if used != len(order):
        return _LEFT_OVER, used
    return _DONE, used
