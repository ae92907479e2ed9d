"""A weighted node's scores in compiled code (numba): every guess's weighted slot bound and its
tie-break in two passes over the (candidates x pool) block of the table, where the numpy path
(ordering.Scoring.slot_scores) takes a bincount of the class sizes, another of the class masses
and a pass over the whole (pool x replies) arrays for each depth of the bound. The numbers are
the numpy path's (the same bound, summed reply by reply; tests/test_weighted_kernels.py compares
them), so a search takes the same guesses in the same order.

Imported by weighted searches on games of at least ordering.WEIGHTED_CELLS table cells, whose
tables are held in memory (numba's start-up, about half a second, is then paid by searches that take longer).
"""

from __future__ import annotations

import numpy as np

from ...core.compiled import njit
from .closures import MID_SET
from .tree_cache import capacity

#: A small set's weighted scores are counted reply-major (_grid_scores) while replies x guesses
#: is at most this many cells (a byte and a float each, cleared at every set searched).
GRID_CELLS = 1 << 18


@njit(cache=True)
def _classes(table, g, S, w, hit, count, mass, seen):  # pragma: no cover - compiled
    # the classes of S under g but the hit: sizes and masses by reply, the replies met (unsorted)
    kinds = 0
    for k in range(len(S)):
        s = S[k]
        r = table[g, s]
        if r == hit:
            continue
        if count[r] == 0:
            seen[kinds] = r
            kinds += 1
        count[r] += 1
        mass[r] += w[s]
    return kinds


@njit(cache=True)
def slot_depths_for(n, b):  # pragma: no cover - compiled
    """bounds.slot_depths: the depth of the k-th slot, k < n, for classes of at most b guesses'
    non-hit classes (1, then b slots at 2, b^2 at 3, ...)."""
    depths = np.empty(max(n, 1), np.float64)
    filled, depth, width = 0, 1, 1
    while filled < n:
        take = min(width, n - filled)
        for k in range(filled, filled + take):
            depths[k] = depth
        filled += take
        depth += 1
        width = width * b if b > 1 else 1
    return depths


@njit(cache=True)
def heaviest_order(S, w):  # pragma: no cover - compiled
    """(S heaviest first, ties in S's order, as np.argsort(-w[S], kind="stable"); their weights;
    w(S) summed in that order)."""
    x = np.empty(len(S), np.float64)
    for k in range(len(S)):
        x[k] = -w[S[k]]
    H = S[np.argsort(x, kind="mergesort")]
    weights = np.empty(len(H), np.float64)
    total = 0.0
    for k in range(len(H)):
        weights[k] = w[H[k]]
        total += weights[k]
    return H, weights, total


@njit(cache=True)
def weighted_scores(table, S, pool, w, hit, n_codes):  # pragma: no cover - compiled
    """(bound, spread, largest, b) of every guess of `pool` on the candidates S with weights w:
    bounds.ranked_bounds's w(S) + sum_r sorted_weight_bound(S_r), each class's weights heaviest
    first in its slots (inf for a guess that leaves S in one class), the sum of squared class
    sizes, the largest non-hit class, and b, the most non-hit classes of a useful guess. b is
    known only once every guess is counted, so the table is read twice: the sizes, then the
    candidates heaviest first, each taking the slot after its class's heavier ones."""
    n, m = len(S), len(pool)
    count = np.zeros(n_codes, dtype=np.int64)
    mass = np.zeros(n_codes, dtype=np.float64)
    seen = np.zeros(n_codes, dtype=np.int64)
    largest = np.zeros(m, dtype=np.int64)
    spread = np.zeros(m, dtype=np.float64)
    b = 1
    for i in range(m):  # first the sizes: b is the most classes of any useful guess
        kinds = _classes(table, pool[i], S, w, hit, count, mass, seen)
        top, squares = 0, 0.0
        for j in range(kinds):
            r = seen[j]
            top = max(top, count[r])
            squares += float(count[r]) * float(count[r])
            count[r] = 0
            mass[r] = 0.0
        largest[i], spread[i] = top, squares
        if top < n:
            b = max(b, kinds)
    H, x, w_sum = heaviest_order(S, w)
    depths = slot_depths_for(n, b)
    bound = np.full(m, np.inf)
    for i in range(m):
        if largest[i] >= n:
            continue  # learns nothing
        row = table[pool[i]]
        for k in range(n):
            r = row[H[k]]
            if r != hit:
                count[r] += 1
        total = w_sum
        for k in range(n - 1, -1, -1):  # lightest first: a class's count falls to each one's place
            r = row[H[k]]
            if r != hit:
                count[r] -= 1
                total += x[k] * depths[count[r]]
        bound[i] = total
    return bound, spread, largest, b


@njit(cache=True)
def greedy_scores(table, S, pool, w, hit, n_codes):  # pragma: no cover - compiled
    """The weighted greedy tree's score of every guess of `pool` at the candidates S
    (arena.equilibrium.response): sum over the classes C of S under the guess, the hit left
    out, of w(C) log2(1 + |C|); inf where one class holds all of S. One pass over the (S x
    pool) block, where the numpy path sorts or counts a table of every reply."""
    n, m = len(S), len(pool)
    count = np.zeros(n_codes, dtype=np.int64)
    mass = np.zeros(n_codes, dtype=np.float64)
    seen = np.zeros(n_codes, dtype=np.int64)
    score = np.empty(m)
    for i in range(m):
        kinds = _classes(table, pool[i], S, w, hit, count, mass, seen)
        total, top = 0.0, 0
        for j in range(kinds):
            r = seen[j]
            top = max(top, count[r])
            total += mass[r] * np.log2(1.0 + count[r])
            count[r] = 0
            mass[r] = 0.0
        score[i] = np.inf if top >= n else total
    return score


@njit(cache=True)
def weighted_classes(table, g, S, w, hit, n_codes, depths, b, room):  # pragma: no cover - compiled
    """hits.HitValues.classes_of and each class's Scoring.class_bound in one call: the classes
    of S under g but the hit, smallest first (ties in reply order, each class in S's order), as
    (member, ends, codes, bounds), class j being member[ends[j]:ends[j + 1]]; a class's bound is
    inf past `room` secrets (the slots its guesses left hold), 2 w(C) - max w on at most b + 1
    secrets (one may be hit first, the others need two guesses), else its weights heaviest
    first in the slots of `depths`."""
    replies = np.empty(len(S), table.dtype)
    row = table[g]
    for k in range(len(S)):
        replies[k] = row[S[k]]
    return classes_by_replies(replies, S, w, hit, n_codes, depths, b, room)


@njit(cache=True)
def classes_by_replies(replies, S, w, hit, n_codes, depths, b, room):  # pragma: no cover - compiled
    """weighted_classes with the guess's replies to S given (replies[k] to S[k])."""
    count = np.zeros(n_codes, dtype=np.int64)
    for k in range(len(S)):
        r = replies[k]
        if r != hit:
            count[r] += 1
    codes = np.zeros(n_codes, dtype=np.int64)
    kinds = 0
    for r in range(n_codes):  # present replies by (size, reply): an insertion sort, stable
        c = count[r]
        if c == 0:
            continue
        j = kinds
        while j > 0 and count[codes[j - 1]] > c:
            codes[j] = codes[j - 1]
            j -= 1
        codes[j] = r
        kinds += 1
    codes = codes[:kinds]
    ends = np.zeros(kinds + 1, dtype=np.int64)
    at = np.zeros(n_codes, dtype=np.int64)
    for j in range(kinds):
        ends[j + 1] = ends[j] + count[codes[j]]
        at[codes[j]] = ends[j]
    member = np.zeros(ends[kinds], dtype=S.dtype)
    for k in range(len(S)):
        r = replies[k]
        if r != hit:
            member[at[r]] = S[k]
            at[r] += 1
    bounds = np.zeros(kinds, dtype=np.float64)
    for j in range(kinds):
        size = ends[j + 1] - ends[j]
        if size > room:
            bounds[j] = np.inf
            continue
        weights = np.empty(size, dtype=np.float64)
        for k in range(size):
            weights[k] = w[member[ends[j] + k]]
        if size <= b + 1:
            bounds[j] = 2.0 * weights.sum() - weights.max()
        else:
            weights.sort()
            total = 0.0
            for k in range(size):
                total += weights[size - 1 - k] * depths[k]
            bounds[j] = total
    return member, ends, codes, bounds


@njit(cache=True)
def weighted_candidates(table, named, S, w, depths, hit, n_codes):  # pragma: no cover - compiled
    """closures.Closures.weighted_candidates_in_python in compiled code: (the least candidate
    bound w(S) + sum over each non-hit class of its weights in its slots, heaviest first; that
    candidate's place in S; its largest non-hit class), for S heaviest first."""
    n = len(S)
    base = 0.0
    for k in range(n):
        base += w[k]
    rank = np.zeros(n_codes, dtype=np.int64)
    best, best_value, best_largest = -1, np.inf, 0
    for i in range(n):
        g = named[i]
        total, largest = base, 0
        for k in range(n):
            r = table[g, S[k]]
            if r == hit:
                continue
            total += w[k] * depths[rank[r]]
            rank[r] += 1
            largest = max(largest, rank[r])
        for k in range(n):  # cleared along the same row
            rank[table[g, S[k]]] = 0
        if total < best_value:
            best, best_value, best_largest = i, total, largest
    return best_value, best, best_largest


@njit(cache=True)
def pair_value(S, w, secret_guess):  # pragma: no cover - compiled
    """(the cost of two secrets, the guess to make): the heavier first (the first on a tie),
    then the other, w1 + 2 w2; 3 with equal weights."""
    heavy = 0 if w[S[0]] >= w[S[1]] else 1
    return w[S[0]] + w[S[1]] + w[S[1 - heavy]], secret_guess[S[heavy]]


@njit(cache=True)
def heaviest_first(S, w):  # pragma: no cover - compiled
    """S in decreasing weight, ties in S's order (np.argsort(-w[S], kind="stable")): an
    insertion sort, for sets of at most MID_SET secrets."""
    out = S.copy()
    for i in range(1, len(out)):
        s, x, j = out[i], w[out[i]], i
        while j > 0 and w[out[j - 1]] < x:
            out[j] = out[j - 1]
            j -= 1
        out[j] = s
    return out


@njit(cache=True)
def weighted_close(S, left, parts, table, secret_guess, w, depths, hit, n_codes):  # pragma: no cover - compiled
    """closures.Closures.close_by_weighted_candidates for a set of 3 to MID_SET secrets, every
    one a guess, with `depths` the slot depths for `parts` classes: (the value, its guess) where
    a candidate's bound is its exact cost and no other guess can do better, else (a lower
    bound, -1); (0, -3) past MID_SET secrets, where nothing is known."""
    n = len(S)
    if n > MID_SET:
        return 0.0, -3
    H = heaviest_first(S, w)
    x = np.empty(n, np.float64)
    named = np.empty(n, np.int64)
    for k in range(n):
        x[k] = w[H[k]]
        named[k] = secret_guess[H[k]]
    p = min(n, parts)
    base, deep = 0.0, 0.0
    for k in range(n):
        base += x[k]
        deep += x[k] * depths[k // p]
    others = base + deep  # a guess that is no candidate: p classes, the heaviest shallowest
    value, best, largest = weighted_candidates(table, named, H, x, depths, hit, n_codes)
    if value <= others and (largest == 1 or (largest == 2 and left >= 3)):
        return value, named[best]
    return min(value, others), -1


@njit(cache=True)
def small_weighted_scores(by_secret, table, S, pool, m, w, hit, n_codes, left):  # pragma: no cover - compiled
    """weighted_scores for the compiled search's small sets (fewer than 256 secrets), the depth
    limit applied (inf where a class cannot fit in the slots `left` - 1 guesses hold): in the
    reply-major layout of _grid_scores where its grids fit GRID_CELLS (Mastermind, Jotto), else
    (Wordle's 243 replies x 12,972 guesses: 25 MB of masses to clear a set) weighted_scores."""
    if n_codes * m > GRID_CELLS:
        bound, spread, largest, b = weighted_scores(table, S, pool[:m], w, hit, n_codes)
        room = capacity(b, left - 1)
        for i in range(m):
            if largest[i] > room:
                bound[i] = np.inf
        return bound, spread, b
    return _grid_scores(by_secret, S, pool, m, w, hit, n_codes, left)


@njit(cache=True)
def grid_tallies(grid, m, hit):  # pragma: no cover - compiled
    """(the largest class, the number of classes, the sum of squared class sizes) of each of m
    guesses, the hit left out, from its counts reply-major (grid[r, i]: the secrets giving reply
    r to guess i), a reply row at a time: the loops run along the guesses without branches."""
    largest = np.zeros(m, np.int64)
    parts = np.zeros(m, np.int64)
    squares = np.zeros(m, np.int64)
    for r in range(grid.shape[0]):
        if r == hit:
            continue
        line = grid[r]
        for i in range(m):
            c = np.int64(line[i])
            parts[i] += c > 0
            squares[i] += c * c
            largest[i] = max(largest[i], c)
    return largest, parts, squares


@njit(cache=True)
def _grid_scores(by_secret, S, pool, m, w, hit, n_codes, left):  # pragma: no cover - compiled
    # small_weighted_scores with the counts reply-major, a row of guesses per reply code, filled
    # a secret at a time along its row of replies (tree_kernels._scores' layout: 7-10x faster
    # than weighted_scores on 4x7's sets of 8 to 40 secrets); then, b known, the secrets lightest
    # first take the counts back down, each one's count its place in its class (ranked_bounds),
    # which leaves the grid cleared
    n = len(S)
    H, x, w_sum = heaviest_order(S, w)
    grid = np.zeros((n_codes, m), np.uint8)
    for k in range(n):
        replies = by_secret[H[k]]
        for i in range(m):
            grid[replies[pool[i]], i] += 1
    largest, parts, squares = grid_tallies(grid, m, hit)
    b = n * 0 + 1
    for i in range(m):
        if largest[i] < n and parts[i] > b:
            b = parts[i]
    depths = slot_depths_for(n, b)
    room = capacity(b, left - 1)
    bound = np.full(m, w_sum)
    spread = np.empty(m, np.float64)
    for k in range(n - 1, -1, -1):
        replies, weight = by_secret[H[k]], x[k]
        for i in range(m):
            r = replies[pool[i]]
            grid[r, i] -= 1
            if r != hit:
                bound[i] += weight * depths[grid[r, i]]
    for i in range(m):
        spread[i] = squares[i]
        if largest[i] >= n or largest[i] > room:
            bound[i] = np.inf
    return bound, spread, b
