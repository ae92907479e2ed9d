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

from typing import cast

import numpy as np

from ..core.errors import RuleBreak, agent_name
from ..core.game import Game, Indexes
from .metrics import fused_tables
from .tree import Node, Tree

#: Level growth applies to games with at most this many guesses.
FEW_GUESSES = 64
_NEVER = np.iinfo(np.int64).max  # the key of a guess that cannot be chosen


def can_grow_by_levels(game: Game, guesser) -> bool:
    """Is `guesser` a scoring guesser with an exact key, on a game whose guesses are never secrets?"""
    return bool(
        guesser.level_key() is not None
        and not game.rules.hits
        and len(game.guesses) <= FEW_GUESSES
        and (game.same_secret < 0).all()
    )


def grow_by_levels(game: Game, guesser, secrets: Indexes):
    """The Tree of a scoring guesser, grown level by level (see the module docstring)."""
    runs_key = guesser.level_key()
    openers = guesser.openers_for(game)
    n_codes = game.n_codes
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
        choice = _choose(game, order, node_of, sizes, level, openers, runs_key)
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
            child = Node(-1, order[start : start + size], parent.replies + (k % n_codes,), opening=parent.opening)
            parent.children[k % n_codes] = child
            new_parents.append(child)
        keep_idx = np.repeat(keep, sizes_all)
        order = order[keep_idx]
        starts = np.cumsum(np.append(0, sizes_all[keep]))[:-1]
        parents = new_parents
        if level > 200:
            raise RuleBreak(f"guesser {agent_name(guesser)} makes no progress after 200 guesses")
    for _, part in game.openings(secrets):
        if len(part) == 1:
            guesses[part] = 0
    return Tree(game, guesser.spec, roots, guesses, misses, covered=np.sort(secrets))


def _choose(game, order, node_of, sizes, level, openers, runs_key) -> np.ndarray:
    """The guess of every node at this level: an opener, or the best key (ties: lowest index)."""
    n_nodes, n_guesses, n_codes = len(sizes), len(game.guesses), game.n_codes
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


# --- a greedy guesser on a big table: each level's nodes chosen by one compiled call ----------

#: Nodes with at least this many cells (candidates x guesses) ask the guesser itself, whose
#: symmetric pool (arena.trees.greedy.symmetric_pool) shrinks the pool of the few big nodes near the
#: root; below it the compiled call scores every guess, without a Python call per node.
PYTHON_CELLS = 1 << 24
#: Nodes of at most this many candidates are scored a guess at a time (kernels._small_node_keys:
#: a guess stops as soon as it is worse than the best so far), bigger ones a block of guesses at
#: a time (kernels._block_keys: the counts of a block of guesses in the cache).
SMALL_NODE = 4
#: Game methods whose defaults the compiled growth assumes (no game overriding one is grown so).
_DEFAULTS = (
    "determined",
    "openings",
    "allowed_guesses",
    "refusal",
    "candidate_guesses",
    "guesses_naming",
    "finished",
    "is_miss",
)


def can_grow_compiled(game: Game, guesser) -> bool:
    """Is `guesser` a greedy guesser (its `greedy_rule`) with a compiled reduction, on a game
    whose dense table the compiled loops read (`Game.uses_kernels`, not on the fly), with every
    secret also a guess and the default rules (every guess allowed, a hit ends the game)?"""
    rule = guesser.greedy_rule()
    return bool(
        rule is not None
        and rule.compiled_how() is not None
        and game.uses_kernels
        and not game.on_the_fly
        and game.rules.hits
        and (game.secret_guess >= 0).all()
        and all(getattr(type(game), name) is getattr(Game, name) for name in _DEFAULTS)
    )


def grow_compiled(game: Game, guesser, secrets: Indexes) -> Tree:
    """The Tree of a greedy guesser, grown a level at a time: the guess of every node of a level
    by one compiled call (arena.core.kernels.choose_nodes), the nodes split by their replies with a
    sort. Node for node the same tree as `grow_tree` asking the guesser at each node (the test
    checks it): the compiled call is Greedy.choose over the whole pool, whose choice is the
    symmetric pool's; the biggest nodes still ask the guesser (PYTHON_CELLS)."""
    from ..core import kernels  # numba: only on tables big enough to pay for it (Game.uses_kernels)
    from ..core.state import State

    rule = guesser.greedy_rule()
    how = rule.compiled_how()
    numbers = np.array(rule.compiled_numbers() + (SMALL_NODE,), dtype=np.int64)
    openers = guesser.openers_for(game)
    by_secret, n_codes = game.by_secret, game.n_codes
    guesses = np.zeros(len(game.secrets), dtype=np.int64)
    misses = np.zeros(len(game.secrets), dtype=np.int64)
    whole = len(secrets) == len(game.secrets)

    roots: list[Node] = []
    parents: list[Node] = []
    histories: list[tuple | None] = []
    for label, part in game.openings(secrets):
        node = Node(-1, np.asarray(part), (), opening=label)
        roots.append(node)
        parents.append(node)
        histories.append(())
    order = np.concatenate([p.candidates for p in parents]).astype(np.intp)
    sizes = np.array([len(p.candidates) for p in parents], dtype=np.intp)
    level = 0
    while parents:
        starts = np.cumsum(sizes) - sizes
        if level < len(openers):
            choice = np.full(len(parents), openers[level], dtype=np.intp)
        else:
            choice = np.full(len(parents), -1, dtype=np.intp)
            big = sizes * len(game.guesses) >= PYTHON_CELLS
            for j in np.flatnonzero(big).tolist():  # the guesser itself, with its symmetric pool
                choice[j] = guesser.guess(game, State(parents[j].candidates, cast(tuple, histories[j]), whole))
            small = np.flatnonzero(~big)
            if len(small):
                terms_all, terms_at, fixed = _reduction_tables(how, sizes[small])
                choice[small] = kernels.choose_nodes(
                    by_secret,
                    game.secret_guess,
                    game.same_secret,
                    order,
                    starts[small],
                    sizes[small],
                    numbers,
                    how,
                    terms_all,
                    terms_at,
                    fixed,
                    n_codes,
                )
        node_of = np.repeat(np.arange(len(parents)), sizes)
        replies = by_secret[order, choice[node_of]].astype(np.int64)
        misses[order] += replies == game.miss
        level += 1
        done = replies == game.hit
        guesses[order[done]] = level
        # split every node by its reply: sort (node, reply) keeping the candidates' order
        keep = ~done
        key = node_of[keep].astype(np.int64) * n_codes + replies[keep]
        perm = np.argsort(key, kind="stable")
        order, key = order[keep][perm], key[perm]
        starts_all = np.flatnonzero(np.diff(key, prepend=-1))
        sizes = np.diff(np.append(starts_all, len(order)))
        for parent, guess in zip(parents, choice.tolist()):
            parent.guess = guess
        new_parents: list[Node] = []
        new_histories: list[tuple | None] = []  # only the nodes the guesser is asked about need one
        big_from = -(-PYTHON_CELLS // len(game.guesses))  # the least size of such a node
        first = key[starts_all]
        for start, size, at, reply in zip(
            starts_all.tolist(), sizes.tolist(), (first // n_codes).tolist(), (first % n_codes).tolist()
        ):
            parent = parents[at]
            child = Node(-1, order[start : start + size], parent.replies + (reply,), {}, parent.opening)
            parent.children[reply] = child
            new_parents.append(child)
            history = histories[at]
            new_histories.append(
                history + ((parent.guess, reply),) if size >= big_from and history is not None else None
            )
        parents, histories = new_parents, new_histories
        if level > MAX_LEVELS:
            raise RuleBreak(f"guesser {agent_name(guesser)} makes no progress after {MAX_LEVELS} guesses")
    return Tree(game, guesser.spec, roots, guesses, misses, covered=np.sort(secrets))


#: A greedy guesser on a game whose secrets are guesses always finishes within this many.
MAX_LEVELS = 200


def _reduction_tables(how: str, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the compiled reductions read for nodes of these sizes (arena.trees.metrics.fused_tables):
    float entropy's p log2 p per class size of each node, one after another (`terms_at`: where
    each node's start), and c log2 c in fixed point up to the biggest node."""
    top = int(sizes.max(initial=1))
    fixed = fused_tables(top, False)[1]
    if how != "float-entropy":
        return np.zeros(1), np.zeros(len(sizes), dtype=np.intp), fixed
    distinct, where = np.unique(sizes, return_inverse=True)
    tables = [fused_tables(int(n), True)[0] for n in distinct.tolist()]
    at = np.cumsum([0] + [len(t) for t in tables])[:-1]
    return np.concatenate(tables), at[where.ravel()].astype(np.intp), fixed
