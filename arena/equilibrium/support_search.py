"""Hangman's exact best response on a chooser's support: the search of one opening (plain Python).

The search is a depth-first branch and bound over candidate sets, each a Python int (bit i: the
i-th word of the support), with every set's exact value (or a lower bound it was proven above)
kept in a table: orders of letters meet at the same set. For a set C,

    misses:  M(C) = min over letters l splitting C of  w(miss class) + sum over classes M(class)
    lost:    L(C, k) = min over l of  L(miss class, k - 1) + sum over the hit classes L(class, k)

with M = L = 0 once at most one word is left, and L(C, k) = w(C) when no strike is left (k <= 0:
lost, even if determined, as arena.core.costs.Lost counts it). A letter that splits nothing is
never played (a sure hit tells nothing, a sure miss costs a strike). A letter's bound is what its
miss class pays at once (misses), or the weight of that class when it takes the last strike (lost),
plus each class's floor: the sum of the closed forms of the pure families inside it
(`family_floor`: _ell's words cost at least what they cost alone). Two rules cut the tree: a set
that is one pure family is answered in closed form (`LetterSearch.family`), and a letter every
word of the set holds is played at once, alone (no miss, and any tree is no worse after it).

letters.py runs it (support_response) and completes its tree on the other words;
compiled_letters.py runs the same recursion compiled, for big supports.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..core.game import Game
from ..optimal.search import STOP


class Stopped(Exception):
    """The search passed its deadline."""


def pure_families(words: list[str]) -> np.ndarray:
    """kin[p, i]: an id shared by the words alike but for position p (_ell: bell, cell, dell),
    counting only words whose letter at p stands nowhere else in them (-1 otherwise, and at a
    shown character). Such a family is *pure*: each letter that splits it finds one word and
    misses the rest, so its value has a closed form (LetterSearch.family), and a set holding
    several disjoint ones costs at least the sum of theirs (`family_floor`)."""
    length = max(map(len, words), default=0)
    kin = np.full((length, len(words)), -1, dtype=np.int64)
    for p in range(length):
        ids: dict[str, int] = {}
        for i, word in enumerate(words):
            if p < len(word) and "a" <= word[p] <= "z":
                key = word[:p] + "_" + word[p + 1 :]
                if word[p] not in key:
                    kin[p, i] = ids.setdefault(key, len(ids))
    return kin


def family_floor(
    kin: np.ndarray, inverse: np.ndarray, w: np.ndarray, left: np.ndarray | None, count: int
) -> np.ndarray:
    """A lower bound on each class's cost from the pure families inside it (`pure_families`):
    a tree's misses on a family's words are at least those of the family played alone (the
    other words only make it later to tell them apart), so a class costs at least the sum of
    its families' closed forms, at the position p that gives most. kin[p, i]: word i's family
    at p; inverse[l, i]: its class under letter l; w[i]: its weight; left[c]: class c's strikes
    left (lost games: the words past the first `left` of a family, heaviest first, are lost),
    None under misses (the r-th heaviest of a family pays r misses, counting from 0)."""
    best = np.zeros(count)
    classes = inverse.ravel()
    weights = np.tile(w, inverse.shape[0])
    heaviest_first = np.argsort(-weights, kind="stable")
    for row in kin:
        members = row[row >= 0]
        if len(members) == len(np.unique(members)):
            continue  # no family with two words here: every word is first of its own
        keys = np.tile(row, inverse.shape[0])
        group = classes.astype(np.int64) * (int(keys.max()) + 1) + keys
        order = heaviest_first[np.argsort(group[heaviest_first], kind="stable")]
        order = order[keys[order] >= 0]
        g = group[order]
        starts = np.flatnonzero(np.concatenate(([True], g[1:] != g[:-1])))
        rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.append(starts, len(order))))
        c, paid = classes[order], weights[order]
        paid = paid * rank if left is None else np.where(rank >= left[c], paid, 0.0)
        best = np.maximum(best, np.bincount(c, weights=paid, minlength=count))
    return best


@dataclass
class Opening:
    """One opening's support (the words of one length) as bit sets, and the search's tables."""

    words: np.ndarray  # the support's secrets, global indexes
    w: np.ndarray  # their weights
    letters: list[list[int]]  # per letter: the bit set of each reply it gets, the miss first
    by_reply: list[dict[int, int]]  # per letter: reply -> its bit set
    presence: np.ndarray  # presence[l, i]: word i holds letter l
    codes: np.ndarray  # codes[l, i]: the reply to letter l of word i
    offsets: np.ndarray  # offsets[l]: l * width, so that codes + offsets tells the letters apart
    width: int
    nbytes: int
    miss: int  # the miss's reply
    kin: np.ndarray  # kin[p, i]: word i's family when its letter at p is left out (pure_families), -1: none
    exact: dict = field(default_factory=dict)  # key -> (value, letter)
    lower: dict = field(default_factory=dict)  # key -> proven lower bound
    weights: dict = field(default_factory=dict)

    @classmethod
    def of(cls, game: Game, words: np.ndarray, w: np.ndarray) -> Opening:
        table, miss = game.table[:, words], int(game.miss)
        letters, by_reply = [], []
        for row in table:
            sets = {}
            for code in [miss] + sorted(set(np.unique(row).tolist()) - {miss}):
                bits = np.packbits(row == code, bitorder="little").tobytes()
                sets[code] = int.from_bytes(bits, "little")
            letters.append(list(sets.values()))
            by_reply.append(sets)
        width = int(table.max(initial=0)) + 1
        codes = table.astype(np.int64)
        offsets = (np.arange(26, dtype=np.int64) * width)[:, None]
        presence = (table != miss).astype(np.float64)
        kin = pure_families([game.secrets[int(s)] for s in words])
        return cls(words, w, letters, by_reply, presence, codes, offsets, width, (len(words) + 7) // 8, miss, kin)

    def members(self, C: int) -> np.ndarray:
        raw = np.frombuffer(C.to_bytes(self.nbytes, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little", count=len(self.words)).astype(bool)

    def weight(self, C: int) -> float:
        got = self.weights.get(C)
        if got is None:
            got = self.weights[C] = float(self.w[self.members(C)].sum())
        return got


class LetterSearch:
    """The exact search of one opening's support under misses or lost games (the module's
    recursion), with a deadline (`Stopped`)."""

    def __init__(self, opening: Opening, strikes: int | None, deadline: float | None, rank: np.ndarray | None = None):
        self.o, self.strikes, self.deadline = opening, strikes, deadline
        self.rank = rank  # which of a family's equally heavy words to try first (`ranks`)
        self.nodes = 0
        self.finished = False  # the search of the whole opening ended in time

    def children(self, C: int, k: int) -> list[tuple[float, int, list[tuple[int, int, float]]]]:
        """(bound, letter, classes) for the letters splitting C, least bound first (ties:
        alphabetical); each class is (set, strikes left, lower bound). Under misses a letter's
        bound is what its miss class pays at once plus its classes' bounds, each the least miss
        weight of the class's best first letter (`first_misses`); under lost games, the weight of
        the miss class where it takes the last strike."""
        o = self.o
        idx = np.flatnonzero(o.members(C))
        codes = o.codes[:, idx]
        keys = (codes + o.offsets).ravel()
        uniq, inverse = np.unique(keys, return_inverse=True)
        letter_of = uniq // o.width
        splitting = np.bincount(letter_of, minlength=26) >= 2
        weights = np.tile(o.w[idx], 26)
        mass = np.bincount(inverse, weights=weights, minlength=len(uniq))
        miss_code = uniq % o.width == o.miss
        inverse = inverse.reshape(26, -1)
        if self.strikes is None:
            floor = self.first_misses(idx, codes, inverse, mass)
            floor = np.maximum(floor, family_floor(o.kin[:, idx], inverse, o.w[idx], None, len(uniq)))
        else:
            strikes_left = np.where(miss_code, k - 1, k)
            floor = family_floor(o.kin[:, idx], inverse, o.w[idx], strikes_left, len(uniq))
        out = []
        for j0 in np.flatnonzero(np.diff(np.concatenate(([-1], letter_of))) != 0).tolist():
            letter = int(letter_of[j0])
            if not splitting[letter]:
                continue
            j1 = j0
            classes = []
            paid = 0.0
            sets = o.by_reply[letter]
            while j1 < len(uniq) and letter_of[j1] == letter:
                miss = bool(miss_code[j1])
                left = k - 1 if miss and self.strikes is not None else k
                c = C & sets[int(uniq[j1] % o.width)]
                lb = float(floor[j1])
                got = o.exact.get((c, left))
                if got is not None:
                    lb = got[0]
                else:
                    lb = max(lb, o.lower.get((c, left), 0.0))
                    if self.strikes is not None and left <= 0:
                        lb = float(mass[j1])
                if miss and self.strikes is None:
                    paid = float(mass[j1])
                classes.append((c, left, lb))
                j1 += 1
            out.append((paid + sum(lb for _, _, lb in classes), letter, classes))
        out.sort(key=lambda t: (t[0], t[1]))
        return out

    def first_misses(self, idx: np.ndarray, codes: np.ndarray, inverse: np.ndarray, mass: np.ndarray) -> np.ndarray:
        """For every class of every letter at a node (inverse[l, i]: word idx[i]'s class under
        letter l), w(class) - the most weight any letter splitting the class holds: the misses
        its best first letter pays at least (0 for a determined class)."""
        o = self.o
        m, K = len(idx), len(mass)
        member = np.zeros((m, K))
        member[np.arange(m)[None, :].repeat(26, axis=0), inverse] = 1.0
        r = codes.astype(np.float64)
        size = member.sum(axis=0)
        first, second = r @ member, (r * r) @ member
        splits = size * second - first * first > 0.5
        held = (o.presence[:, idx] * o.w[idx]) @ member
        best = np.where(splits, held, -1.0).max(axis=0)
        return np.where(best >= 0, mass - best, 0.0)

    def solve(self, C: int, k: int, limit: float) -> float:
        """The least cost of set C with k strikes left (misses: k is not counted), if below
        `limit`; else a lower bound >= limit."""
        if C & (C - 1) == 0:  # at most one word: determined
            return self.o.weight(C) if self.strikes is not None and k <= 0 else 0.0
        if self.strikes is not None and k <= 0:
            return self.o.weight(C)
        key = (C, k)
        o = self.o
        got = o.exact.get(key)
        if got is not None:
            return got[0]
        known = o.lower.get(key, 0.0)
        if known >= limit:
            return known
        self.nodes += 1
        if not self.nodes & 255 and (STOP.asked or self.deadline is not None and time.perf_counter() > self.deadline):
            raise Stopped
        children = self.children(C, k)
        closed = self.family(C, k, children)
        if closed is not None:
            o.exact[key] = closed
            return closed[0]
        free = [child for child in children if not C & o.by_reply[child[1]].get(o.miss, 0)]
        if free:
            # a letter every word holds costs no miss and only tells them apart: played first,
            # it never makes a word's misses more (the rest of any tree follows), so it is the
            # only letter to try
            children = free[:1]
        best, choice, floor = limit, -1, np.inf
        for bound, letter, classes in children:
            if bound >= best:
                floor = min(floor, bound)
                break
            total = self.value(classes, bound, best)
            if total < best:
                best, choice = total, letter
            else:
                floor = min(floor, total)
        if choice >= 0:
            o.exact[key] = (best, choice)
            return best
        proven = max(known, min(floor, limit) if floor < np.inf else limit)
        o.lower[key] = proven
        return proven

    def family(self, C: int, k: int, children: list) -> tuple[float, int] | None:
        """A family's value in closed form, or None: where every letter splitting C finds one
        word and misses all the others (_ound: b, f, h, m, p, r, s, w), the best order tries the
        heaviest word's letter first (an exchange of two neighbours in the order never gains), so
        the i-th heaviest of n pays i - 1 misses, the last n - 1 (determined after the others
        missed); lost games count those whose misses reach the strikes left. Without this, the
        table holds the family's 2^n subsets (17 words: 130,000 sets and a minute)."""
        found: dict[int, int] = {}  # each word found alone, by the first letter that finds it
        n = C.bit_count()
        for _, letter, classes in children:
            miss = C & self.o.by_reply[letter].get(self.o.miss, 0)
            hits = [c for c, _, _ in classes if c and c != miss]
            if len(hits) != 1 or hits[0].bit_count() != 1 or miss.bit_count() != n - 1:
                return None
            found.setdefault(hits[0], letter)
        words = [(-self.o.weight(word), letter) for word, letter in found.items()]
        if len(words) < n - 1:
            return None
        words.sort()
        misses = [min(i, n - 1) for i in range(len(words))] + [n - 1] * (n - len(words))
        weights = [-w for w, _ in words] + [0.0] * (n - len(words))
        if len(words) == n - 1:  # the word no letter finds alone: determined last
            weights[-1] = self.o.weight(C) - sum(weights[:-1])
        if self.strikes is None:
            value = sum(w * m for w, m in zip(weights, misses))
        else:
            value = sum(w for w, m in zip(weights, misses) if m >= k)
        first, rank = words[0][1], self.rank
        if rank is not None:
            # of the words as heavy as the heaviest (to the LP's round-off), the least rank
            # first: trees of different ranks try a family in different orders, which the
            # guesser's mix spreads over its words (the value is the sorted order's, the least)
            heavy = [letter for w, letter in words if -w >= weights[0] * (1 - 1e-9)]
            first = min(heavy, key=lambda letter: int(rank[letter]))
        return value, first

    def value(self, classes: list[tuple[int, int, float]], bound: float, limit: float) -> float:
        """What a letter costs: its bound, raised class by class (the smallest first) to the
        class's value, if below `limit`, else a lower bound >= limit."""
        total = bound
        for c, left, lb in sorted(classes, key=lambda p: p[0].bit_count()):
            if c & (c - 1) == 0 and (self.strikes is None or left > 0):
                continue  # determined: costs nothing more (its bound is 0)
            budget = limit - (total - lb)
            got = self.solve(c, left, budget)
            if got >= budget:  # the class failed high: so does the letter (whatever the rounding)
                return max(total - lb + got, limit)
            total += got - lb
        return total

    def choice(self, C: int, k: int) -> int | None:
        """The letter the search chose at set C (None where nothing was chosen)."""
        got = self.o.exact.get((C, k))
        return None if got is None else got[1]

    def known_lower(self, C: int, k: int) -> float:
        """The lower bound set C with k strikes left was proven above (0: none)."""
        return self.o.lower.get((C, k), 0.0)
