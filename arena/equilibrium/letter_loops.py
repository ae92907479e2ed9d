"""Hangman's support search (support_search.LetterSearch) in compiled code (numba), for big supports.

The same recursion, bounds and cuts as support_search.LetterSearch (its docstring states them): a set
of candidates is a bit set of the support's words (uint64 words), its exact value or the lower
bound it was proven above kept in an open-addressing table keyed by (set, strikes left). A set
costs 20-35 microseconds here on benchmarks/bench_support_search.py's mixes, where the plain
search's numpy on small arrays costs about half a millisecond.

The search never grows its table nor watches the clock: it *aborts* (state[ABORT]) when its
table is 70% full or when state[HALT] is set (by its caller's thread: the deadline, Ctrl-C; the
search runs without the GIL), unwinding without storing anything for the sets on its path, as
support_search.Stopped does. On FULL the caller (compiled_letters.CompiledSearch) grows the table
(`grown`) and searches again from the top, where every set already solved is read back.
Only a rare restart (compiled_letters.FIRST_SLOTS, GROWTH): the order of the letters at a set
depends on what the table holds, so a search restarted takes another path and redoes work
(restarted every fifth of a second, as arena/optimal's compiled search is, 9x the sets on 60
Hangman words; grown from 65,536 slots by doubling, 4x on 80).

Tables: keys[s] (the set's words), ks[s] (its strikes left; EMPTY: a free slot), val[s] (its
exact value where letter[s] >= 0, else a proven lower bound). state: NODES searched, HALT (set
by the caller: stop now), ABORT (0 none, HALTED, FULL) and COUNT (the table's entries).
"""

from __future__ import annotations

import numpy as np

from ..core.compiled import njit
from ..core.kernels import popcount

EMPTY = -(2**62)
NODES, HALT, ABORT, COUNT = 0, 1, 2, 3
HALTED, FULL = 1, 2
#: The table's share of slots in use past which the search aborts to be grown.
LOAD = 0.7


@njit(cache=True)
def _hash(bits, k):  # pragma: no cover - compiled
    h = np.uint64(k + 0x632BE59BD9B4E019) * np.uint64(0x9E3779B97F4A7C15)
    for x in bits:
        h = (h ^ x) * np.uint64(0xBF58476D1CE4E5B9)
        h = h ^ (h >> np.uint64(31))
    return h


@njit(cache=True)
def find(keys, ks, bits, k):  # pragma: no cover - compiled
    """The slot of (bits, k) and whether it is there (else the free slot it would take)."""
    mask = len(ks) - 1
    s = np.int64(_hash(bits, k) & np.uint64(mask))
    while True:
        if ks[s] == EMPTY:
            return s, False
        if ks[s] == k:
            same = True
            for t in range(len(bits)):
                if keys[s, t] != bits[t]:
                    same = False
                    break
            if same:
                return s, True
        s = (s + 1) & mask


@njit(cache=True)
def _store(table, bits, k, value, letter):  # pragma: no cover - compiled
    """Record (bits, k) as exact (letter >= 0) or as proven above `value`; False (and the search
    aborts FULL) where a new entry would fill the table past LOAD."""
    keys, ks, val, letter_of, state = table
    s, there = find(keys, ks, bits, k)
    if not there:
        if state[COUNT] + 1 > LOAD * len(ks):
            state[ABORT] = FULL
            return False
        state[COUNT] += 1
        ks[s] = k
        keys[s, :] = bits
    val[s] = value
    letter_of[s] = letter
    return True


@njit(cache=True)
def grown(keys, ks, val, letter_of, cap):  # pragma: no cover - compiled
    """The table's entries moved into one of `cap` slots (a power of two)."""
    nkeys = np.zeros((cap, keys.shape[1]), dtype=np.uint64)
    nks = np.full(cap, EMPTY, dtype=np.int64)
    nval = np.zeros(cap)
    nletter = np.full(cap, -1, dtype=np.int64)
    for s in range(len(ks)):
        if ks[s] != EMPTY:
            t, _ = find(nkeys, nks, keys[s], ks[s])
            nks[t] = ks[s]
            nkeys[t, :] = keys[s]
            nval[t] = val[s]
            nletter[t] = letter_of[s]
    return nkeys, nks, nval, nletter


@njit(cache=True)
def _insert(order, n, item, key):  # pragma: no cover - compiled
    """order[:n] sorted by key (stable) with `item` put in after the items of its key; n + 1."""
    q = n
    while q > 0 and key[order[q - 1]] > key[item]:
        order[q] = order[q - 1]
        q -= 1
    order[q] = item
    return n + 1


@njit(cache=True)
def _weight(bits, w):  # pragma: no cover - compiled
    total = 0.0
    for i in range(len(w)):
        if (bits[i >> 6] >> np.uint64(i & 63)) & np.uint64(1):
            total += w[i]
    return total


@njit(cache=True, nogil=True)
def solve(C, k, limit, game, rules, table):  # pragma: no cover - compiled
    """The least cost of set C (bit set) with k strikes left (misses: lost is False and k is
    not counted), if below `limit`; else a lower bound >= limit (support_search.LetterSearch.solve).
    On an abort (state[ABORT]) the value is meaningless and nothing on the path is stored.
    game: the support's arrays (codes[l, i]: word i's reply to letter l; w; held_letters[i]: its
    letters, then -1; kin[p, i]: its pure family at p, -1: none; by_weight: the words heaviest
    first; rank: the letters' tie-breaking rank; scratch (width entries, -1) and famcount (zeros):
    work arrays, left as found); rules: (lost games?, rank given?, the miss's reply); table:
    (keys, ks, val, letter_of, state), the module docstring's."""
    codes, w, held_letters, kin, by_weight, rank, scratch, famcount = game
    lost, has_rank, miss = rules
    keys, ks, val, letter_of, state = table
    count = 0
    for x in C:
        count += int(popcount(x))
    if count <= 1:
        return _weight(C, w) if lost and k <= 0 else 0.0
    if lost and k <= 0:
        return _weight(C, w)
    s, there = find(keys, ks, C, k)
    known = 0.0
    if there:
        if letter_of[s] >= 0:
            return val[s]
        known = val[s]
        if known >= limit:
            return known
    state[NODES] += 1
    if state[HALT] != 0:
        state[ABORT] = HALTED
        return 0.0
    m = count
    mem, cl_code, cl_size, cl_mass, cl_bits, start, flat, cl_start = _partition(C, m, codes, w, by_weight, scratch)
    n_cls = start[26]
    # each splitting letter's bound: its miss class at once (misses) plus its classes' floors
    cl_left = np.empty(n_cls, dtype=np.int64)
    cl_lb = np.zeros(n_cls)
    bound = np.full(26, np.inf)
    free = np.zeros(26, dtype=np.bool_)
    kin_here = _kin_here(mem, kin, famcount)
    work = (
        np.zeros(26),
        np.zeros(26, dtype=np.int64),
        np.zeros(26, dtype=np.int64),
        np.zeros(26, dtype=np.bool_),
        np.empty(26, dtype=np.int64),
    )
    for letter in range(26):
        a, b = start[letter], start[letter + 1]
        if b - a < 2:
            continue
        paid = 0.0
        free[letter] = True
        for j in range(a, b):
            is_miss = cl_code[j] == miss
            if is_miss:
                free[letter] = False
            left = k - 1 if is_miss and lost else k
            cl_left[j] = left
            if is_miss and not lost:
                paid = cl_mass[j]
            if lost and left <= 0:
                cl_lb[j] = cl_mass[j]
                continue
            if cl_size[j] <= 1:
                cl_lb[j] = 0.0
                continue
            members = flat[cl_start[j] : cl_start[j] + cl_size[j]]
            floor = _floor(members, cl_mass[j], left, lost, codes, w, held_letters, kin, kin_here, famcount, work)
            s2, there2 = find(keys, ks, cl_bits[j], left)
            if there2 and letter_of[s2] >= 0:
                floor = val[s2]
            elif there2 and val[s2] > floor:
                floor = val[s2]
            cl_lb[j] = floor
        total = paid
        for j in range(a, b):
            total += cl_lb[j]
        bound[letter] = total
    # the splitting letters, least bound first (ties: alphabetical)
    order = np.empty(26, dtype=np.int64)
    n_ch = 0
    for letter in range(26):
        if bound[letter] < np.inf:
            n_ch = _insert(order, n_ch, letter, bound)
    value, first = _closed_form(C, k, m, order[:n_ch], start, cl_code, cl_size, cl_start, flat, w, rules, rank)
    if first >= 0:
        _store(table, C, k, value, first)
        return value
    # a letter every word holds costs no miss and only tells them apart: the only one tried
    for q in range(n_ch):
        if free[order[q]]:
            order[0] = order[q]
            n_ch = 1
            break
    best = limit
    choice = -1
    floor_all = np.inf
    by_size = np.empty(len(cl_size), dtype=np.int64)
    for q in range(n_ch):
        letter = order[q]
        if bound[letter] >= best:
            floor_all = min(floor_all, bound[letter])
            break
        a, b = start[letter], start[letter + 1]
        nb = 0
        for j in range(a, b):  # the classes, the smallest first
            nb = _insert(by_size, nb, j, cl_size)
        total = bound[letter]
        for r in range(nb):
            j = by_size[r]
            if cl_size[j] <= 1 and (not lost or cl_left[j] > 0):
                continue
            lb = cl_lb[j]
            budget = best - (total - lb)
            got = solve(cl_bits[j], cl_left[j], budget, game, rules, table)
            if state[ABORT] != 0:
                return 0.0
            if got >= budget:
                total = max(total - lb + got, best)
                break
            total += got - lb
        if total < best:
            best = total
            choice = letter
        else:
            floor_all = min(floor_all, total)
    if choice >= 0:
        _store(table, C, k, best, choice)
        return best
    proven = limit
    if floor_all < np.inf:
        proven = min(floor_all, limit)
    proven = max(known, proven)
    _store(table, C, k, proven, -1)
    return proven


@njit(cache=True)
def _partition(C, m, codes, w, by_weight, scratch):  # pragma: no cover - compiled
    """The m members of set C, heaviest first (ties: the lower index, as
    support_search.family_floor orders them), and the classes of every letter, each letter's in
    the order of their replies: class j's reply, size, weight and bit set; start[l] its letter's
    first class (start[26]: the count); its members, heaviest first,
    flat[cl_start[j]:cl_start[j] + size[j]]."""
    width = len(scratch)
    mem = np.empty(m, dtype=np.int64)
    t = 0
    for i in by_weight:
        if (C[i >> 6] >> np.uint64(i & 63)) & np.uint64(1):
            mem[t] = i
            t += 1
    top = 26 * min(m, width)
    cl_code = np.empty(top, dtype=np.int64)
    cl_size = np.zeros(top, dtype=np.int64)
    cl_mass = np.zeros(top)
    cl_bits = np.zeros((top, len(C)), dtype=np.uint64)
    start = np.empty(27, dtype=np.int64)
    cls = np.empty((26, m), dtype=np.int64)
    n_cls = 0
    for letter in range(26):
        start[letter] = n_cls
        for t in range(m):
            scratch[codes[letter, mem[t]]] = -2
        for code in range(width):
            if scratch[code] == -2:
                scratch[code] = n_cls
                cl_code[n_cls] = code
                n_cls += 1
        for t in range(m):
            i = mem[t]
            j = scratch[codes[letter, i]]
            cls[letter, t] = j
            cl_size[j] += 1
            cl_mass[j] += w[i]
            cl_bits[j, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
        for t in range(m):
            scratch[codes[letter, mem[t]]] = -1
    start[26] = n_cls
    cl_start = np.empty(n_cls, dtype=np.int64)
    fill = np.empty(n_cls, dtype=np.int64)
    acc = 0
    for j in range(n_cls):
        cl_start[j] = acc
        fill[j] = acc
        acc += cl_size[j]
    flat = np.empty(acc, dtype=np.int64)
    for letter in range(26):
        for t in range(m):
            j = cls[letter, t]
            flat[fill[j]] = mem[t]
            fill[j] += 1
    return mem, cl_code[:n_cls], cl_size[:n_cls], cl_mass[:n_cls], cl_bits[:n_cls], start, flat, cl_start


@njit(cache=True)
def _kin_here(mem, kin, famcount):  # pragma: no cover - compiled
    """The positions where two members are of one family (elsewhere no class has a floor)."""
    here = np.zeros(kin.shape[0], dtype=np.bool_)
    for p in range(kin.shape[0]):
        for i in mem:
            f = kin[p, i]
            if f >= 0:
                if famcount[f] > 0:
                    here[p] = True
                famcount[f] += 1
        for i in mem:
            f = kin[p, i]
            if f >= 0:
                famcount[f] = 0
    return here


@njit(cache=True)
def _floor(members, mass, left, lost, codes, w, held_letters, kin, kin_here, famcount, work):  # pragma: no cover
    """A class's floor: under misses, the least miss weight of its best first letter
    (first_misses: a letter splits the class where some but not all members hold it, or all
    hold it in different places); the larger of that and its pure families' closed forms at the
    position that gives most (family_floor; lost games: the members past the first `left` of a
    family, heaviest first). work: five arrays of 26, the first four zero and left zero."""
    held, holders, first_code, differ, touched = work
    floor = 0.0
    if not lost:
        n_touched = 0
        for i in members:
            for other in held_letters[i]:
                if other < 0:
                    break
                if holders[other] == 0:
                    first_code[other] = codes[other, i]
                    touched[n_touched] = other
                    n_touched += 1
                elif codes[other, i] != first_code[other]:
                    differ[other] = True
                holders[other] += 1
                held[other] += w[i]
        most = -1.0
        size = len(members)
        for u in range(n_touched):
            other = touched[u]
            if (holders[other] < size or differ[other]) and held[other] > most:
                most = held[other]
            held[other] = 0.0
            holders[other] = 0
            differ[other] = False
        if most >= 0.0:
            floor = mass - most
    for p in range(kin.shape[0]):
        if not kin_here[p]:
            continue
        got = 0.0
        for i in members:
            f = kin[p, i]
            if f >= 0:
                r = famcount[f]
                famcount[f] = r + 1
                if lost:
                    if r >= left:
                        got += w[i]
                else:
                    got += w[i] * r
        for i in members:
            f = kin[p, i]
            if f >= 0:
                famcount[f] = 0
        if got > floor:
            floor = got
    return floor


@njit(cache=True)
def _closed_form(C, k, m, order, start, cl_code, cl_size, cl_start, flat, w, rules, rank):  # pragma: no cover
    """(value, first letter) of set C where it is one pure family (LetterSearch.family: every
    letter of `order`, the splitting ones least bound first, finds one word and misses the
    rest), else (0.0, -1)."""
    lost, has_rank, miss = rules
    if len(order) == 0:
        return 0.0, -1
    f_word = np.empty(m, dtype=np.int64)
    f_letter = np.empty(m, dtype=np.int64)
    nf = 0
    for letter in order:
        a, b = start[letter], start[letter + 1]
        if b - a != 2:
            return 0.0, -1
        hit = -1
        ok = False
        for j in range(a, b):
            if cl_code[j] == miss:
                ok = cl_size[j] == m - 1
            else:
                hit = j
        if not ok or hit < 0 or cl_size[hit] != 1:
            return 0.0, -1
        word = flat[cl_start[hit]]
        seen = False
        for r in range(nf):
            if f_word[r] == word:
                seen = True
        if not seen:
            f_word[nf] = word
            f_letter[nf] = letter
            nf += 1
    if nf < m - 1:
        return 0.0, -1
    # heaviest first, ties to the letter
    for q in range(1, nf):
        wq, lq = f_word[q], f_letter[q]
        r = q
        while r > 0 and (w[f_word[r - 1]] < w[wq] or (w[f_word[r - 1]] == w[wq] and f_letter[r - 1] > lq)):
            f_word[r] = f_word[r - 1]
            f_letter[r] = f_letter[r - 1]
            r -= 1
        f_word[r] = wq
        f_letter[r] = lq
    value = 0.0
    found_mass = 0.0
    for q in range(nf):
        found_mass += w[f_word[q]]
    for q in range(m):
        misses = min(q, m - 1)
        if q < nf:
            wq = w[f_word[q]]
        elif nf == m - 1 and q == m - 1:
            wq = _weight(C, w) - found_mass
        else:
            wq = 0.0
        if lost:
            if misses >= k:
                value += wq
        else:
            value += wq * misses
    first = f_letter[0]
    if has_rank:
        heavy = w[f_word[0]] * (1 - 1e-9)
        for q in range(nf):
            if w[f_word[q]] >= heavy and rank[f_letter[q]] < rank[first]:
                first = f_letter[q]
    return value, first
