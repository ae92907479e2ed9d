"""Growing a scoring guesser's tree a whole level at a time.

For a game with few guesses and no guess that is a secret (Hangman: 26 letters), a scoring
guesser's choice at a node depends only on the class sizes of each guess's partition of the
node's candidates. So every node of one depth can be scored together: the (node, guess, reply)
key of every (candidate, guess) pair is sorted once, the runs of equal keys are the classes,
and each metric reduces the runs of a (node, guess) segment to its key (`Metric.runs_key`).
The tree comes out node for node the same as `grow_tree` asking the guesser at each node
(a test checks it); a whole dictionary costs a few sorts per level instead of a Python call
per node.
"""

from __future__ import annotations

import numpy as np

from .errors import RuleBreak
from .game import Game, Indexes
from .strategy import Node, Tree

#: Level growth applies to games with at most this many guesses.
FEW_GUESSES = 64
_NEVER = np.iinfo(np.int64).max  # the key of a guess that cannot be chosen


def can_grow_by_levels(game: Game, guesser) -> bool:
    """Is `guesser` a scoring guesser with an exact key, on a game whose guesses are never secrets?"""
    return bool(guesser.level_key() is not None and not game.rules.hits
                and len(game.guesses) <= FEW_GUESSES and (game.same_secret < 0).all())


def grow_by_levels(game: Game, guesser, secrets: Indexes):
    """The Tree of a scoring guesser, grown level by level (see the module docstring)."""
    runs_key = guesser.level_key()
    openers = guesser.openers_for(game)
    n_guesses, n_codes = len(game.guesses), game.n_codes
    guesses = np.zeros(len(game.secrets), dtype=np.int64)
    misses = np.zeros(len(game.secrets), dtype=np.int64)

    roots: list[Node] = []
    order_parts, parents = [], []
    for label, part in game.openings(secrets):
        if len(part) > 1:
            node = Node(-1, part, (), opening=label)
            roots.append(node)
            parents.append(node)
            order_parts.append(part)
    order = np.concatenate(order_parts) if order_parts else np.zeros(0, dtype=np.intp)
    starts = np.cumsum([0] + [len(p) for p in order_parts])[:-1]

    level = 0
    while len(parents):
        sizes = np.diff(np.append(starts, len(order)))
        node_of = np.repeat(np.arange(len(parents)), sizes)
        choice = _choose(game, order, node_of, sizes, level, openers, runs_key, n_guesses, n_codes)
        replies = game.table[choice[node_of], order]
        misses[order] += replies == game.miss
        level += 1
        # split every node by its reply: sort (node, reply) keeping the candidates' order
        key = node_of.astype(np.int64) * n_codes + replies
        perm = np.argsort(key, kind="stable")
        order, key = order[perm], key[perm]
        bounds = np.flatnonzero(np.diff(key)) + 1
        starts_all = np.concatenate(([0], bounds))
        sizes_all = np.diff(np.append(starts_all, len(order)))
        new_parents, keep = [], sizes_all > 1
        for i, parent in enumerate(parents):
            parent.guess = int(choice[i])
        for start, size in zip(starts_all.tolist(), sizes_all.tolist()):
            k = int(key[start])
            parent = parents[k // n_codes]
            if size == 1:
                guesses[order[start]] = level
                continue
            child = Node(-1, order[start:start + size], parent.replies + (k % n_codes,), opening=parent.opening)
            parent.children[k % n_codes] = child
            new_parents.append(child)
        keep_idx = np.repeat(keep, sizes_all)
        order = order[keep_idx]
        starts = np.cumsum(np.append(0, sizes_all[keep]))[:-1]
        parents = new_parents
        if level > 200:
            raise RuleBreak(f"guesser {guesser.spec} makes no progress after 200 guesses")
    for _, part in game.openings(secrets):
        if len(part) == 1:
            guesses[part] = 0
    return Tree(game, guesser.spec, roots, guesses, misses, covered=np.sort(secrets))


def _choose(game, order, node_of, sizes, level, openers, runs_key, n_guesses, n_codes) -> np.ndarray:
    """The guess of every node at this level: an opener, or the best key (ties: lowest index)."""
    n_nodes = len(sizes)
    if level < len(openers):
        return np.full(n_nodes, openers[level], dtype=np.intp)
    replies = game.table[:, order]  # (guesses, active candidates)
    segment = node_of[None, :].astype(np.int64) * n_guesses + np.arange(n_guesses)[:, None]
    keys = np.sort((segment * n_codes + replies).ravel())
    run_starts = np.concatenate(([0], np.flatnonzero(np.diff(keys)) + 1))
    run_sizes = np.diff(np.append(run_starts, len(keys)))
    run_keys = keys[run_starts]
    run_segment, run_reply = run_keys // n_codes, run_keys % n_codes
    seg_starts = np.concatenate(([0], np.flatnonzero(np.diff(run_segment)) + 1))  # every (node, guess) has a run
    miss = np.zeros(n_nodes * n_guesses, dtype=np.int64)
    missed = run_reply == game.miss
    miss[run_segment[missed]] = run_sizes[missed]
    score = runs_key(run_sizes, seg_starts, miss).astype(np.int64).reshape(n_nodes, n_guesses)
    largest = np.maximum.reduceat(run_sizes, seg_starts).reshape(n_nodes, n_guesses)
    score[largest == sizes[:, None]] = _NEVER  # a guess that splits nothing learns nothing
    if (score.min(axis=1) == _NEVER).any():
        stuck = int(np.flatnonzero(score.min(axis=1) == _NEVER)[0])
        words = [game.secrets[s] for s in order[node_of == stuck][:3]]
        raise RuleBreak(f"no guess can tell apart {', '.join(words)}")
    return score.argmin(axis=1)
