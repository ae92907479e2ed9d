"""Hangman's exact best response, searched on the chooser's support only.

Against a chooser's mix q, a guesser tree's expected cost depends only on how it plays the
words q weighs: the least expected cost over all trees is the least over trees of the game
restricted to the support of q (any such tree extends to the whole list, costing the same on
the support). So the search runs on the support alone, often a few dozen words of thousands,
and its optimum is an exact lower bound on the game's value (q is a mix the chooser may play).
The tree is then *completed* on every other word by a quick rule (`greedy_letter`: the letter
most of the candidates hold), so that it is a column of the whole game for the LP.

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
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..core.costs import Cost, Lost, Misses, cost_for
from ..core.errors import ArenaError
from ..core.game import Game, Indexes
from ..optimal.solved import SolvedTree
from ..trees.tree import Tree
from .plans import plan_tree

#: Weights below this share of the largest count as outside the chooser's support (the LP's
#: mixes carry round-off dust); the mix searched is the rest, renormalised, itself a mix the
#: chooser may play, so its optimum is still a proven lower bound.
DUST = 1e-12

#: The solver named in the double oracle's method line.
SOLVER = "arena.equilibrium.letters, on the chooser's support"
#: Hangman's best responses searched on the chooser's support (this module); False: over every
#: word by arena.optimal (the tests and the timings compare both).
SUPPORT = True
#: Lists with an opening of more words than this are solved by the double oracle over growing
#: rows (growing.py), which never searches every word against the uniform chooser.
UNIFORM_WORDS = 200


class Stopped(Exception):
    """The search passed its deadline."""


def fits(game: Game, cost: Cost) -> bool:
    """Does this search apply: a game that ends when the secret is determined and is paid in
    misses (its declared rules: Hangman's letters), under misses or lost games?"""
    return not game.rules.hits and isinstance(cost_for(game), Misses) and isinstance(cost, (Misses, Lost))


def searchable(game: Game) -> bool:
    """Is every opening short enough (UNIFORM_WORDS) to search against the uniform chooser?"""
    return all(len(part) <= UNIFORM_WORDS for _, part in game.openings(game.all_secrets))


def greedy_tree(game: Game, rank: np.ndarray | None = None) -> Tree:
    """The completion rule alone (`greedy_letter` everywhere, ties by `rank`): the first columns
    of the double oracle on long lists."""
    plan: dict[tuple, int] = {}
    for label, part in game.openings(game.all_secrets):
        search = LetterSearch(_Opening.of(game, part[:0], np.zeros(0)), None, None)
        _complete(game, plan, (label,), part, search, 0, 0, rank)
    return plan_tree(game, plan, "greedy-letters")


def mass_tree(game: Game, weights: np.ndarray, rank: np.ndarray | None = None) -> Tree:
    """A quick tree aimed at a chooser's mix: at every set, of the letters that split it, the
    one its words hold the most weight of (the least weight missed at once), ties to the least
    `rank`; every word weighs at least 1e-9 of the heaviest, so the tree plays the rest well too.
    The flows' steps (flows.py) add it against their duals' mix: new states for the next step."""
    w = np.asarray(weights, dtype=np.float64)
    w = w + 1e-9 * max(float(w.max()), 1e-300)
    plan: dict[tuple, int] = {}
    for label, part in game.openings(game.all_secrets):
        todo: list[tuple[tuple, Indexes]] = [((label,), part)]
        while todo:
            key, F = todo.pop()
            if game.determined(F):
                continue
            letter = greedy_letter(game, F, set(), rank=rank, weights=w)
            plan[key] = letter
            replies = game.table[letter, F]
            todo.extend((key + (r,), F[replies == r]) for r in np.unique(replies).tolist())
    return plan_tree(game, plan, "mass-letters")


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


def support_mix(weights: np.ndarray) -> np.ndarray:
    """The mix the search answers: `weights` without their dust (DUST), summing to 1."""
    w = np.asarray(weights, dtype=np.float64)
    kept = np.where(w > DUST * w.max(), w, 0.0)
    return kept / kept.sum()


@dataclass
class _Opening:
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
    def of(cls, game: Game, words: np.ndarray, w: np.ndarray) -> _Opening:
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

    def __init__(self, opening: _Opening, strikes: int | None, deadline: float | None, rank: np.ndarray | None = None):
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
        if self.deadline is not None and not self.nodes & 255 and time.perf_counter() > self.deadline:
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


def greedy_letter(
    game: Game,
    F: Indexes,
    played: set[int],
    word: int | None = None,
    rank: np.ndarray | None = None,
    weights: np.ndarray | None = None,
) -> int:
    """The completion's letter at candidates F: of those splitting F (and held by `word`, when
    the chooser's mix leaves only that word: no miss for it), the one most of F hold (fewest
    misses at once; with `weights`, one per word of the game, the most weight held), ties
    (within a relative 1e-12 for weights) to the least `rank` (None: alphabetical). The rank decides the order
    in which a family's letters are tried (_ight: e, f, l, m, n, r, s, t), so trees of different
    ranks spread a family's misses over its words (`ranks`)."""
    block = game.table[:, F]
    splits = (block != block[:, :1]).any(axis=1)
    if word is not None:
        splits &= game.table[:, word] != game.miss
    hits = block != game.miss
    held = (hits @ weights[F]) if weights is not None else np.count_nonzero(hits, axis=1).astype(np.float64)
    held[~splits] = -1.0
    for g in played:
        held[g] = -1.0
    best = held.max()
    top = np.flatnonzero(held >= best - 1e-12 * abs(best))
    return int(top[0] if rank is None else top[np.argmin(rank[top])])


def ranks(count: int) -> list[np.ndarray]:
    """`count` tie-breaking ranks of the letters: the cyclic shifts of the alphabet, spread
    (shift 26 k / count), so that every letter of a family comes first in some tree."""
    return [(np.arange(26) - (26 * k) // count) % 26 for k in range(count)]


@dataclass
class Response:
    """A best response: the tree (completed on the whole list), the proven least expected cost
    against the mix searched (`bound`: the tree's own cost there when `exact`), the mix, and
    the search's size."""

    tree: Tree
    bound: float
    exact: bool
    mix: np.ndarray
    nodes: int


def support_response(
    game: Game, weights: np.ndarray, cost: Cost, time_limit: float | None = None, rank: np.ndarray | None = None
) -> Response:
    """The exact best response to the chooser's mix `weights` (one per secret of `game`),
    searched on its support (module docstring), completed on the other words by `greedy_letter`.
    Past `time_limit` seconds the search stops: the tree is the greedy one on the support's
    unsolved sets and `bound` is the letters' one-step bound at each opening (still proven)."""
    if not fits(game, cost):
        raise ArenaError(f"{game.spec}: the support search plays Hangman under misses or lost games")
    mix = support_mix(weights)
    strikes = cost.strikes if isinstance(cost, Lost) else None
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    plan: dict[tuple, int] = {}
    bound, exact, nodes = 0.0, True, 0
    for label, part in game.openings(game.all_secrets):
        words = part[mix[part] > 0]
        opening = _Opening.of(game, words, mix[words])
        search = LetterSearch(opening, strikes, deadline, rank)
        everything = (1 << len(words)) - 1
        k = strikes if strikes is not None else 0
        try:
            bound += search.solve(everything, k, np.inf) if len(words) else 0.0
            search.finished, search.deadline = True, None
        except Stopped:
            exact = False
            bound += _root_bound(search, everything, k) if len(words) > 1 else 0.0
        nodes += search.nodes
        _complete(game, plan, (label,), part, search, everything if len(words) else 0, k, rank)
    tree = plan_tree(game, plan, "support-response")
    if exact:
        bound = min(bound, float(mix @ cost.of(tree)))
    return Response(tree, bound, exact, mix, nodes)


def solved(
    game: Game, weights: np.ndarray, cost: Cost, time_limit: float | None, rank: np.ndarray | None = None
) -> tuple[SolvedTree, float]:
    """`support_response` as arena.equilibrium.response.bounded_best_response answers: a
    SolvedTree (`stopped` where the time limit stopped the search) and the proven bound, for the
    mix searched (weights without their dust)."""
    start = time.perf_counter()
    found = support_response(game, weights, cost, time_limit, rank)
    t = found.tree
    value = float(found.mix @ cost.of(t))
    tree = SolvedTree(
        game,
        "support-response",
        t.roots,
        t.guesses,
        t.misses,
        covered=t.covered,
        value=value,
        lower_bound=found.bound,
        seconds=time.perf_counter() - start,
        searched=found.nodes,
        time_limit=time_limit,
        stopped=not found.exact,
        cost=cost.name,
        weighted=True,
    )
    return tree, found.bound


def _root_bound(search: LetterSearch, C: int, k: int) -> float:
    """A proven bound at an opening whose search stopped: its table's bound, or the least
    letter bound (misses: the least miss weight; lost: 0)."""
    o = search.o
    known = o.lower.get((C, k), 0.0)
    if search.strikes is not None:
        return known
    children = search.children(C, k)
    return max(known, children[0][0] if children else 0.0)


def _complete(
    game: Game, plan: dict, key: tuple, F: Indexes, search: LetterSearch, C: int, k: int, rank: np.ndarray | None
) -> None:
    """The plan at candidates F (C: those of the support, k strikes left): the search's letter
    while it chose one, else greedy_letter (ties by `rank`), down to every determined word."""
    todo: list[tuple[tuple, Indexes, int, int, set]] = [(key, F, C, k, set())]
    o = search.o
    while todo:
        key, F, C, k, played = todo.pop()
        if game.determined(F):
            continue
        if C and not C & (C - 1):  # one word of the support left: its own letters, all hits
            letter = greedy_letter(game, F, played, int(o.words[C.bit_length() - 1]), rank)
        else:
            chosen = search.choice(C, k) if C else None
            if chosen is None and C and search.finished and (search.strikes is None or k > 0):
                # a family's closed form chose only its first letter (LetterSearch.family): the
                # rest of it, each set closed again at once
                search.solve(C, k, np.inf)
                chosen = search.choice(C, k)
            letter = greedy_letter(game, F, played, None, rank) if chosen is None else chosen
        plan[key] = letter
        replies = game.table[letter, F]
        sets = o.by_reply[letter]
        now = played | {letter}
        for reply in np.unique(replies).tolist():
            left = k - 1 if game.is_miss(reply) and search.strikes is not None else k
            todo.append((key + (reply,), F[replies == reply], C & sets.get(reply, 0), left, now))
