"""The compiled search's cache and slot capacities (numba), shared by tree_kernels.py (the search of
small subtrees) and weighted_kernels.py (a weighted node's scores and classes).

The cache is open addressing over the sets (their secrets in a flat array `store`), each entry
with its proven bound and exact value (`values`) and its hash, place in the store, size, guesses
left and best guess (`keys`); keyed by the guesses left only under a depth limit. When full it
is cleared: only speed depends on it. `counters` holds what the search keeps between calls.
"""

from __future__ import annotations

from ...core.compiled import njit

#: Past the most slots any game fills: capacities are compared with set sizes only.
BIG = 1 << 40
#: The cache's hashes keep 31 bits (their products then fit 63).
HASH_MASK = (1 << 31) - 1

# counters[]: what the compiled search keeps between calls; a call stops (STOPPED set, nothing
# half-searched cached) before searching a set past STOP_AT sets searched in all
ENTRIES, USED, NODES, CLEARED, STOP_AT, STOPPED = 0, 1, 2, 3, 4, 5


@njit(cache=True)
def capacity(b, depth):  # pragma: no cover - compiled
    """bounds.slot_capacity: 1 + b + ... + b^(depth-1) secrets within `depth` guesses, capped at BIG."""
    if depth <= 0:
        return 0
    if b <= 1:
        return depth if b == 1 else 1
    total, width = 1, 1
    for _ in range(depth - 1):
        width *= b
        total += width
        if total >= BIG:
            return BIG
    return total


@njit(cache=True)
def set_hash(S, n, left, keyed):  # pragma: no cover - compiled
    """FNV-1a over the secrets (and the guesses left), kept to 31 bits so that no product
    overflows: the same hashes compiled and in plain Python (small_trees.SmallTrees.exact_guess
    reads the cache with its py_func; the tests run both)."""
    h = 2166136261 & HASH_MASK
    for k in range(n):
        h = ((h ^ S[k]) * 16777619) & HASH_MASK
    if keyed:
        h = ((h ^ (left + 1000003)) * 16777619) & HASH_MASK
    return h


@njit(cache=True)
def find_entry(S, n, left, keyed, cache):  # pragma: no cover - compiled
    """The entry of (S, left), or -1; and the slot where it is or would go."""
    slots, keys, values, store, counters = cache
    mask = len(slots) - 1
    h = set_hash(S, n, left, keyed)
    at = h & mask
    while True:
        e = slots[at]
        if e < 0:
            return -1, at
        if keys[e, 0] == h and keys[e, 2] == n and (not keyed or keys[e, 3] == left):
            off = keys[e, 1]
            same = True
            for k in range(n):
                if store[off + k] != S[k]:
                    same = False
                    break
            if same:
                return e, at
        at = (at + 1) & mask


@njit(cache=True)
def remember_entry(S, n, left, known, value, guess, keyed, cache):  # pragma: no cover - compiled
    """Cache (S, left)'s proven bound `known`, its exact value (inf: not known) and best guess."""
    slots, keys, values, store, counters = cache
    e, at = find_entry(S, n, left, keyed, cache)
    if e < 0:
        if counters[ENTRIES] >= len(keys) or counters[USED] + n > len(store):
            slots[:] = -1  # full: forget everything (only speed depends on the cache)
            counters[ENTRIES] = 0
            counters[USED] = 0
            counters[CLEARED] += 1
            e, at = find_entry(S, n, left, keyed, cache)
        e = counters[ENTRIES]
        counters[ENTRIES] += 1
        off = counters[USED]
        for k in range(n):  # a loop, not a slice: see tree_kernels._order
            store[off + k] = S[k]
        counters[USED] += n
        keys[e, 0] = set_hash(S, n, left, keyed)
        keys[e, 1] = off
        keys[e, 2] = n
        keys[e, 3] = left
        slots[at] = e
    values[e, 0] = known
    values[e, 1] = value
    keys[e, 4] = guess
