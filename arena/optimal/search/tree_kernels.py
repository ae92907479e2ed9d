"""The compiled loops of small_trees.py (numba): the exact search of a small set's whole
subtree, with equal weights or a chooser's (then weighted_kernels.py's closures, scores and class
bounds), and its closures and scores; its cache is tree_cache.py's. Imported only when a search
first meets a small set (numba's start-up is paid by searches alone).
"""

from __future__ import annotations

import numpy as np

from ...core.compiled import njit
from .closures import MID_SET, TINY_SET
from .met_replies import meet, met_before, met_room, new_met, reply_hash
from .tree_cache import NODES, STOP_AT, STOPPED, capacity, find_entry, remember_entry
from .weighted_kernels import classes_by_replies, grid_tallies, pair_value, small_weighted_scores, weighted_close

# params[]: the game and the search (weighted: the secrets' weights are not all 1)
_HIT, _CODES, _CONSISTENT, _KEYED, _BMAX, _WEIGHTED = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def _close_small(S, n, left, parts, game, work):  # pragma: no cover - compiled
    # closures.close_small, every secret a guess: (value, guess), guess -1 for a bound, -3 when
    # nothing is known; with weights, close_by_weighted_candidates (weighted_kernels.py)
    by_secret, table, secret_guess, same_secret, T, params, w, D = game
    hit = params[_HIT]
    if params[_WEIGHTED] == 1:
        return weighted_close(S, left, parts, table, secret_guess, w, D[parts], hit, params[_CODES])
    if n > MID_SET and n > params[_BMAX] + 1:
        return 0.0, -3
    most, best = -1, 0
    counts = work  # n_codes counters, left zeroed
    for i in range(n):
        row = table[secret_guess[S[i]]]
        d = 0
        for k in range(n):
            r = row[S[k]]
            if counts[r] == 0:
                d += 1
            counts[r] += 1
        for k in range(n):
            counts[row[S[k]]] = 0
        if d > most:
            most, best = d, i
    if n <= TINY_SET:
        if most == n or (most == n - 1 and left >= 3):
            return float(3 * n - 1 - most), secret_guess[S[best]]
        return float(min(3 * n - 1 - most, 3 * n - min(n, parts))), -1
    if n <= MID_SET:
        if most == n or (most == n - 1 and left >= 3):
            return float(3 * n - 1 - most), secret_guess[S[best]]
        Tp = T[parts]
        least = np.inf
        for i in range(n):
            row = table[secret_guess[S[i]]]
            for k in range(n):
                counts[row[S[k]]] += 1
            total = 0.0
            for k in range(n):
                r = row[S[k]]
                if counts[r] > 0:
                    if r != hit:
                        total += Tp[counts[r]]
                    counts[r] = 0
            if total < least:
                least = total
        p = min(n, parts)
        q, rest = n // p, n % p
        others = n + rest * Tp[q + 1] + (p - rest) * Tp[q]
        return float(min(n + least, others)), -1
    # beyond MID_SET, n <= b_max + 1
    if most == n or (most == n - 1 and left >= 3):
        return float(2 * n - 1 + (n - most)), secret_guess[S[best]]
    return float(min(3 * n - 1 - most, 3 * n - min(n, parts))), -1


@njit(cache=True)
def _scores(S, n, pool, m, left, game, mark, work):  # pragma: no cover
    # scoring.few_code_scores / uniform_scores: every guess's slot bound, its spread, and b
    by_secret, table, secret_guess, same_secret, T, params, w, D = game
    hit = params[_HIT]
    spread = np.empty(m, np.float64)
    counts = work
    rows = np.empty(n, np.int64)
    for k in range(n):
        rows[k] = S[k]
        mark[S[k]] = 1
    # the counts reply-major, a row of guesses per reply code (a byte a count: n <= SMALL_TREE <
    # 256, tests/test_small_trees.py), filled a secret at a time along its row of replies, then
    # reduced a reply row at a time: both loops run along the guesses without branches (1.8-2.6x
    # faster than counting each guess's classes in turn, on 4x8 without repeats' small sets)
    n_codes = params[_CODES]
    grid = np.zeros((n_codes, m), np.uint8)
    for k in range(n):
        replies = by_secret[rows[k]]
        for i in range(m):
            grid[replies[pool[i]], i] += 1
    largest, parts, squares = grid_tallies(grid, m, hit)
    for i in range(m):
        spread[i] = squares[i]
    b = n * 0 + 1  # a variable, not a literal: see solve_set's `none`
    for i in range(m):
        if largest[i] < n and parts[i] > b:
            b = parts[i]
    room = capacity(b, left - 1)
    Tb = T[b]
    bound = np.empty(m, np.float64)
    for i in range(m):
        if largest[i] >= n or largest[i] > room:
            bound[i] = np.inf
            continue
        g = pool[i]
        s = same_secret[g]
        named = 1 if s >= 0 and mark[s] == 1 else 0
        if largest[i] <= b + 1:
            bound[i] = 3 * n - 2 * named - parts[i]
        else:  # a class beyond b + 1 secrets: the slot table
            for k in range(n):
                counts[by_secret[rows[k], g]] += 1
            total = 0.0
            for k in range(n):
                r = by_secret[rows[k], g]
                c = counts[r]
                if c > 0:
                    if r != hit:
                        total += Tb[c]
                    counts[r] = 0
            bound[i] = n + total
    for k in range(n):
        mark[S[k]] = 0
    return bound, spread, b


@njit(cache=True)
def _order(keys):  # pragma: no cover - compiled
    # np.argsort(keys, kind="mergesort") (stable: ties in their order), as a bottom-up merge
    # sort. Why not numba's argsort: its generic sorts (and the shape-checked error messages of
    # an array assigned to a slice) cost seconds of a first run's compile; this, a fraction of one
    n = len(keys)
    a = np.empty(n, np.int64)
    for i in range(n):
        a[i] = i
    b = np.empty(n, np.int64)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j = lo, mid
            for k in range(lo, hi):
                if i < mid and (j >= hi or not keys[a[j]] < keys[a[i]]):
                    b[k] = a[i]
                    i += 1
                else:
                    b[k] = a[j]
                    j += 1
        a, b = b, a
        width *= 2
    return a


@njit(cache=True)
def _classes(replies, S, n, hit, sizes, starts, codes):  # pragma: no cover - compiled
    # hits.classes_of: the non-hit classes of S under the replies, smallest first (ties in
    # reply order), each in S's order: their secrets one after another, and where each ends
    n_classes = 0
    for k in range(n):
        r = replies[k]
        if r != hit:
            if sizes[r] == 0:
                codes[n_classes] = r
                n_classes += 1
            sizes[r] += 1
    cls = codes[:n_classes].copy()
    by_size = np.empty(n_classes, np.float64)  # exact: far below 2^53
    for j in range(n_classes):
        by_size[j] = sizes[cls[j]] * (len(sizes) + 1) + cls[j]
    cls = cls[_order(by_size)]  # by size, then reply (the keys are distinct)
    ends = np.empty(n_classes + 1, np.int64)
    ends[0] = 0
    for j in range(n_classes):
        starts[cls[j]] = ends[j]
        ends[j + 1] = ends[j] + sizes[cls[j]]
        sizes[cls[j]] = 0
    member = np.empty(ends[n_classes], np.int64)
    for k in range(n):
        r = replies[k]
        if r != hit:
            member[starts[r]] = S[k]
            starts[r] += 1
    return member, ends, cls


@njit(cache=True)
def _paid(S, game):  # pragma: no cover - compiled
    # w(S), what one more guess costs S, summed in S's order as slot_value sums it (n when
    # unweighted): once a node, for each guess _opened opens there
    w, params = game[6], game[5]
    if params[_WEIGHTED] != 1:
        return float(len(S))
    paid = 0.0
    for k in range(len(S)):
        paid += w[S[k]]
    return paid


@njit(cache=True)
def _opened(guess, replies, S, paid, b, left, game, sizes, starts, codes):  # pragma: no cover - compiled
    # hits.slot_value before its classes are bounded from the cache: the classes of S under the
    # guess (`replies` its reply to each secret) but the hit, smallest first (ties in reply
    # order), each in S's order; their class bounds (inf past the slots `left` - 1 guesses
    # hold); and the guess's bound, `paid` (_paid: w(S)) + the classes' bounds, summed as
    # slot_value sums them
    by_secret, table, secret_guess, same_secret, T, params, w, D = game
    n, hit = len(S), params[_HIT]
    room = capacity(b, left - 1)
    if params[_WEIGHTED] == 1:
        member, ends, cls, lbs = classes_by_replies(replies, S, w, hit, params[_CODES], D[b], b, room)
    else:
        member, ends, cls = _classes(replies, S, n, hit, sizes, starts, codes)
        lbs = np.empty(len(ends) - 1, np.float64)
        Tb = T[b]
        for j in range(len(lbs)):
            c = ends[j + 1] - ends[j]
            lbs[j] = Tb[c] if c <= room else np.inf
    bounded = 0.0
    for j in range(len(lbs)):
        bounded += lbs[j]
    return member, ends, cls, lbs, paid + bounded


@njit(cache=True)
def _class_searched(total, lb, value, budget, limit):  # pragma: no cover - compiled
    # shared.class_searched in compiled code: the class's value in place of its bound, and at
    # least the limit when it failed high (value >= budget), whatever the rounding
    total += value - lb
    return max(total, limit) if value >= budget else total


@njit(cache=True)
def _known_bounds(member, ends, lbs, total, limit, left, b, largest, game, cache, work):  # pragma: no cover - compiled
    # hits.known_class_bounds for the classes of at most `largest` secrets (the first ones:
    # smallest first): each bound raised to the cache's or close_small's (cached as CLOSED,
    # -2), until the total reaches the limit; returns the total and the classes gone through
    by_secret, table, secret_guess, same_secret, T, params, w, D = game
    slots, keys, values, store, counters = cache
    keyed = params[_KEYED] == 1
    closed = left * 0 - 2  # a variable, not a literal: see solve_set's `none`
    n_classes = len(ends) - 1
    for j in range(n_classes):
        c = ends[j + 1] - ends[j]
        if c > largest:
            return total, j
        if c <= 2:
            continue
        C = member[ends[j] : ends[j + 1]]
        e, _ = find_entry(C, c, left, keyed, cache)
        if e >= 0:
            proven = values[e, 0]
        else:
            value, guess = _close_small(C, c, left, b, game, work)
            if guess == -3:
                continue
            if guess >= 0:
                remember_entry(C, c, left, value, value, guess, keyed, cache)
            else:
                remember_entry(C, c, left, value, np.inf, closed, keyed, cache)
            proven = value
        if proven > lbs[j]:
            total += proven - lbs[j]
            lbs[j] = proven
            if total >= limit:
                return total, j + 1
    return total, n_classes


@njit(cache=True)
def _open(guess, replies, S, paid, limit, left, b, largest, game, cache, work, scratch):  # pragma: no cover - compiled
    # hits.slot_value before any class is searched: _opened, then, below the limit,
    # known_class_bounds for the classes of at most `largest` secrets; `scratch`: _classes'
    # arrays (sizes and starts by reply, zero; codes); (member, ends, codes, lbs, total, the
    # classes gone through)
    sizes, starts, codes = scratch
    member, ends, cls, lbs, total = _opened(guess, replies, S, paid, b, left, game, sizes, starts, codes)
    reached = 0
    if total < limit:
        total, reached = _known_bounds(member, ends, lbs, total, limit, left - 1, b, largest, game, cache, work)
    return member, ends, cls, lbs, total, reached


@njit(cache=True)
def _scratch(n, game):  # pragma: no cover - compiled
    # _open's scratch arrays for a node of n secrets
    n_codes = game[5][_CODES]
    return np.zeros(n_codes, np.int64), np.zeros(n_codes, np.int64), np.empty(n, np.int64)


@njit(cache=True)
def solve_set(S, budget, left, parts, known, asked, game, cache, mark, work, roots):  # pragma: no cover - compiled
    # branch.Search.solve and search_node, hits.slot_value and known_class_bounds: (value, guess);
    # `roots`: S's own pool, a flag per guess (the orbit representatives of the history's
    # symmetry, small_trees.roots_of), or empty for every guess; the sets below try every guess
    by_secret, table, secret_guess, same_secret, T, params, w, D = game
    slots, keys, values, store, counters = cache
    n = len(S)
    keyed = params[_KEYED] == 1
    # no guess, as a variable: a literal argument is a signature of its own, which numba
    # compiles again (half a second of a first run each)
    none = n * 0 - 1
    if n == 1:
        return (w[S[0]], secret_guess[S[0]]) if left >= 1 else (np.inf, -1)
    if left <= 1:
        return np.inf, -1
    if n == 2:
        return pair_value(S, w, secret_guess)
    e, _ = find_entry(S, n, left, keyed, cache)
    if e >= 0:
        if values[e, 0] == values[e, 1]:
            return values[e, 0], keys[e, 4]
        known = max(known, values[e, 0])
        asked = asked or keys[e, 4] == -2
        if known >= budget:
            return known, -1
    if not asked:
        value, guess = _close_small(S, n, left, parts, game, work)
        if guess >= 0:
            remember_entry(S, n, left, value, value, guess, keyed, cache)
            return value, guess
        if guess == -1 and value > known:
            known = value
            if known >= budget:
                remember_entry(S, n, left, known, np.inf, none, keyed, cache)
                return known, -1
    # search_node
    if counters[NODES] >= counters[STOP_AT]:  # back to Python: its deadline and signals
        counters[STOPPED] = 1
        return np.nan, -4
    counters[NODES] += 1
    # the classes' searches start from nothing known; as variables, not literals, so that the
    # recursive call has the outer call's exact signature (a cached recursive function whose
    # inner call casts its arguments crashes when loaded: numba issue 6713)
    nothing, not_asked = float(n) * 0.0, n < 0
    every = roots[:0].copy()  # every guess below: an empty flag array of `roots`' exact type
    hit = params[_HIT]
    some = len(roots) > 0
    if params[_CONSISTENT] == 1:
        pool = np.empty(n, np.int64)
        m = 0
        for k in range(n):
            g = secret_guess[S[k]]
            if g >= 0 and (not some or roots[g]):
                pool[m] = g
                m += 1
    else:
        pool = np.empty(table.shape[0], np.int64)
        m = 0
        for i in range(table.shape[0]):
            if not some or roots[i]:
                pool[m] = i
                m += 1
    if params[_WEIGHTED] == 1:  # ordering.slot_scores with weights, the depth limit applied
        bound, spread, b = small_weighted_scores(by_secret, table, S, pool, m, w, hit, params[_CODES], left)
    else:
        bound, spread, b = _scores(S, n, pool, m, left, game, mark, work)
    floor = np.inf
    n_tried = 0
    for i in range(m):
        if bound[i] < budget:
            n_tried += 1
        elif bound[i] < floor:
            floor = bound[i]
    if n_tried == 0:
        proven = max(known, floor)
        remember_entry(S, n, left, proven, np.inf, none, keyed, cache)
        return proven, -1
    tried = np.empty(n_tried, np.int64)
    j = 0
    for i in range(m):
        if bound[i] < budget:
            tried[j] = i
            j += 1
    order = np.empty(0, np.int64)
    taken = np.zeros(n_tried, np.bool_)
    best, best_guess = budget, none
    met = new_met(8)
    replies = np.empty(n, table.dtype)
    scratch = _scratch(n, game)
    paid = _paid(S, game)
    for step in range(n_tried):
        if step < 8:  # most nodes search one or two guesses: pick the least, no sort
            at = -1
            for j in range(n_tried):
                if taken[j]:
                    continue
                if at < 0:
                    at = j
                    continue
                i, a = tried[j], tried[at]
                if bound[i] < bound[a] or (bound[i] == bound[a] and spread[i] < spread[a]):
                    at = j
            taken[at] = True
            i = tried[at]
        else:
            if step == 8:
                rest = np.empty(n_tried - 8, np.int64)
                r = 0
                for j in range(n_tried):
                    if not taken[j]:
                        rest[r] = tried[j]
                        r += 1
                # by bound, then spread, then place in the pool: two stable sorts, the last key
                # first (one key bound * (the largest spread + 1) + spread orders integer bounds
                # alone: a chooser's weights make bounds that differ by far less than 1)
                order = rest[_order(spread[rest])]
                order = order[_order(bound[order])]
            i = order[step - 8]
        if bound[i] >= best:
            floor = min(floor, bound[i])
            break
        guess = pool[i]
        row = table[guess]
        for k in range(n):
            replies[k] = row[S[k]]
        h = reply_hash(replies)
        met = met_room(met)
        slot = met_before(replies, h, S, table, met)
        if slot < 0:  # the classes of a guess tried before
            continue
        meet(met, slot, h, guess)
        # slot_value: the classes, smallest first (ties in reply order), each in S's order
        limit = best
        member, ends, _, lbs, total, _ = _open(guess, replies, S, paid, limit, left, b, n, game, cache, work, scratch)
        n_classes = len(ends) - 1
        if total < limit:
            for j in range(n_classes):
                C = member[ends[j] : ends[j + 1]].copy()
                budget_j = limit - (total - lbs[j])
                value, _ = solve_set(C, budget_j, left - 1, b, nothing, not_asked, game, cache, mark, work, every)
                if counters[STOPPED] == 1:
                    return np.nan, -4
                total = _class_searched(total, lbs[j], value, budget_j, limit)
                if total >= limit:
                    break
        value = total
        if value < best:
            best, best_guess = value, guess
        else:
            floor = min(floor, value)
    if best_guess >= 0:
        remember_entry(S, n, left, best, best, best_guess, keyed, cache)
        return best, best_guess
    proven = max(known, floor)
    remember_entry(S, n, left, proven, np.inf, none, keyed, cache)
    return proven, -1


@njit(cache=True)
def open_guess(guess, S, limit, left, b, largest, game, cache, work):  # pragma: no cover - compiled
    # hits.slot_value before any class is searched, at a node of the Python search: the
    # classes, their slot bounds, and known_class_bounds for those of at most `largest`
    table = game[1]
    n = len(S)
    replies = np.empty(n, table.dtype)
    row = table[guess]
    for k in range(n):
        replies[k] = row[S[k]]
    scratch = _scratch(n, game)
    opened = _open(guess, replies, S, _paid(S, game), limit, left, b, largest, game, cache, work, scratch)
    member, ends, codes, lbs, total, reached = opened
    return total, member, ends, codes, lbs, reached


@njit(cache=True)
def solve_classes(
    member, ends, lbs, total, limit, left, b, largest, game, cache, mark, work, roots
):  # pragma: no cover - compiled
    # hits.slot_value's searches of the classes of at most `largest` secrets (the first ones),
    # until the total reaches the limit; returns the total and the classes searched (stopped:
    # the total before the class it stopped in, and that class's index); `roots`: each class's
    # own pool, as solve_set takes it
    counters = cache[4]
    nothing, not_asked = total * 0.0, total < 0
    n_classes = len(ends) - 1
    for j in range(n_classes):
        if ends[j + 1] - ends[j] > largest:
            return total, j
        C = member[ends[j] : ends[j + 1]].copy()
        budget = limit - (total - lbs[j])
        value, _ = solve_set(C, budget, left, b, nothing, not_asked, game, cache, mark, work, roots)
        if counters[STOPPED] == 1:
            return total, j
        total = _class_searched(total, lbs[j], value, budget, limit)
        if total >= limit:
            return total, j + 1
    return total, n_classes


@njit(cache=True)
def open_first(guesses, bounds, S, limit, left, b, largest, game, cache, work, met):  # pragma: no cover - compiled
    # branch.search_node's loop over a node's guesses in order (`bounds`: their node bounds)
    # as far as the first whose open_guess total is below the limit, in one call: (where it
    # stopped, why, the least total of the guesses opened and cut, how many were opened, and
    # open_guess's tuple for that guess); why: 0 every guess gone through, 1 a guess whose node
    # bound reaches the limit (it and the rest are not opened), 2 a guess opened below the
    # limit. A guess with the replies of one met before at the node is skipped, as search_node
    # skips it; `met`: the reply vectors met, kept across calls (an open-addressing table of
    # their hashes: slots, a power of two at least twice the guesses, filled with -1; hashes;
    # guesses; [count]).
    table = game[1]
    n = len(S)
    replies = np.empty(n, table.dtype)
    scratch = _scratch(n, game)
    paid = _paid(S, game)
    floor, opened = np.inf, 0
    for i in range(len(guesses)):
        if bounds[i] >= limit:
            return i, 1, floor, opened, 0.0, S[:0].copy(), S[:0].copy(), S[:0].copy(), bounds[:0].copy(), 0
        guess = guesses[i]
        row = table[guess]
        for k in range(n):
            replies[k] = row[S[k]]
        h = reply_hash(replies)
        slot = met_before(replies, h, S, table, met)
        if slot < 0:
            continue
        meet(met, slot, h, guess)
        opened += 1
        member, ends, cls, lbs, total, reached = _open(
            guess, replies, S, paid, limit, left, b, largest, game, cache, work, scratch
        )
        if total < limit:
            return i, 2, floor, opened, total, member, ends, cls, lbs, reached
        floor = min(floor, total)
    return len(guesses), 0, floor, opened, 0.0, S[:0].copy(), S[:0].copy(), S[:0].copy(), bounds[:0].copy(), 0
