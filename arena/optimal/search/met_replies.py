"""The reply vectors met at a node of the exact search, in compiled code: a guess whose replies
to the node's secrets are a guess's met before splits them into the same classes, so it is
skipped (branch.search_node skips it the same way). An open-addressing table of the vectors'
hashes: slots (a power of two, at least twice the vectors; -1 where free), each vector's hash
and the guess that met it first, and their count; a hash is checked against the replies, never
trusted. tree_kernels' nodes start one small and grow it; small_trees.reply_table makes one for
a Python node's guesses.
"""

from __future__ import annotations

import numpy as np

from ...core.compiled import njit

#: A hash's 31 bits: every product stays below 2^63 (a signed overflow in compiled code is
#: undefined, and LLVM drops a mask it proves needless), so the hash is the same compiled or not.
BITS = (1 << 31) - 1


@njit(cache=True)
def reply_hash(replies):  # pragma: no cover - compiled
    # a polynomial hash of a guess's replies to the node's secrets, modulo 2^31, its bits then
    # mixed (a multiply between xor-shifts) so that the low bits a table's slot reads depend on
    # every reply; a collision is checked, not trusted
    h = 0
    for k in range(len(replies)):
        h = (h * 1000003 + int(replies[k]) + 1) & BITS
    h ^= h >> 15
    h = (h * 0x2C1B3C6D) & BITS
    return h ^ (h >> 12)


@njit(cache=True)
def new_met(most):  # pragma: no cover - compiled
    # small_trees.reply_table in compiled code: an empty table of reply vectors, room for `most`
    size = 2
    while size < 2 * most:
        size *= 2
    return np.full(size, -1, np.int64), np.empty(most, np.int64), np.empty(most, np.int64), np.zeros(1, np.int64)


@njit(cache=True)
def met_room(met):  # pragma: no cover - compiled
    # the table `met` with room for one more vector: itself, or one twice its size holding its
    # vectors (a node of a small set meets a few vectors or, on Wordle's pool, thousands)
    slots, hashes, firsts, count = met
    if count[0] < len(hashes):
        return met
    grown = new_met(2 * len(hashes))
    mask = len(grown[0]) - 1
    for t in range(count[0]):
        at = hashes[t] & mask
        while grown[0][at] >= 0:
            at = (at + 1) & mask
        grown[0][at], grown[1][t], grown[2][t] = t, hashes[t], firsts[t]
    grown[3][0] = count[0]
    return grown


@njit(cache=True)
def meet(met, slot, h, guess):  # pragma: no cover - compiled
    # the guess's replies (hash h) entered in `met` at the slot met_before found for them
    slots, hashes, firsts, count = met
    slots[slot], hashes[count[0]], firsts[count[0]] = count[0], h, guess
    count[0] += 1


@njit(cache=True)
def met_before(replies, h, S, table, met):  # pragma: no cover - compiled
    # whether a guess met before at this node has these replies to S (the same classes); if
    # not, the slot of the open-addressing table `met` (slots, hashes, guesses, [count]) where
    # they go, else -1
    slots, hashes, firsts, count = met
    mask = len(slots) - 1
    at = h & mask
    while slots[at] >= 0:
        t = slots[at]
        if hashes[t] == h:
            row = table[firsts[t]]
            same = True
            for k in range(len(S)):
                if row[S[k]] != replies[k]:
                    same = False
                    break
            if same:
                return -1
        at = (at + 1) & mask
    return at
