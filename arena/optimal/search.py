"""Depth-first branch and bound for the strategy tree of least expected cost.

The problem. A node is a set S of secrets still possible (with weights w). Its cost C(S) is the
total weight-times-guesses its subtree spends: one guess paid by every secret of S, plus the
cost of every class the guess leaves (the hit class, the guess itself, is finished):

    C(S) = min over guesses g of  [ w(S) + sum over non-hit replies r of C(S_r(g)) ]
    C({s}) = w_s,   C(empty) = 0.

A guess that leaves all of S in one non-hit class learns nothing and is never taken. With a limit
of K guesses, C_K(S) is the same recursion with K - 1 for the classes and C_0(S) = inf for S
non-empty.

The search. `solve(S, budget)` returns C(S) exactly when it is below `budget`, and otherwise
some proven lower bound that is at least `budget` (the classic fail-high of alpha-beta). Per node:

0. before S's pool is scored, a set of up to MID_SET secrets is closed or bounded from its
   candidates alone (close_small; the candidates' bound of bounds.py): a set whose bound
   reaches the budget fails high without a scan;
1. the partition counts of S under every guess of the pool (with few reply codes, as one
   row per reply, so that each reduction runs along the guesses: `code_counts`);
2. for every guess, a lower bound w(S) + sum_r LB(S_r) from the slot bound (bounds.py), with b
   the largest number of non-hit classes any guess makes on S (it bounds every class below);
3. guesses in order of that bound, ties to fewer expected candidates (sum of squared class
   sizes: a cheap heuristic, so the first tree found is already good), sorted only as far as
   the node gets (sorted_lazily); a guess is skipped once its bound reaches the best total
   found so far, which starts at the budget passed down; a guess whose replies coincide on
   every candidate with a guess already searched at the node has the same classes, hence the
   same cost, and is skipped (checked only for the guesses actually searched: most nodes
   search one or two of their hundreds);
4. inside a guess, before any class is searched, every class's bound is raised to what the
   cache has proven for it (an exact value or a failed search) or, for a class met for the
   first time, to its closed value or its candidates' bound (known_class_bounds), and the
   guess is dropped as soon as the total reaches the best; then the classes in increasing
   size, each solved with what is left of the budget once the others' lower bounds are
   reserved: small classes are cheap (often closed forms below) and their exact values
   tighten the budget of the big ones; the guess is dropped as soon as its running total
   (exact values so far + bounds for the rest) reaches the best.

Exactness: a guess is only skipped or dropped when a lower bound on its cost reaches a cost
already achieved (or the budget), so the value returned below the budget is the minimum.

A cache maps each candidate set (and guesses left, under a depth limit) to its exact value and
best guess, or to the best lower bound proven so far. The cache is bounded: its bytes are
counted as entries go in (a fixed overhead plus the key), and past its budget (half the memory
limit of arena.resources) the older half of the entries is forgotten. Only speed depends on
the cache: a forgotten set is searched again when it is met again. Symmetries (the game's, e.g.
arena/games/mastermind_symmetry.py, through `stabilizer`) restrict the pool to one guess per
class of equivalent guesses: the stabilizer of the guesses made so far, and at a node, given
its candidates, the permutations of the colours none of them has. Small sets are closed
without a search:

- one secret costs its weight, two cost w1 + 2 w2 (guess the heavier first);
- n <= b + 1 secrets of equal weight cost at least 2n - 1 (the slot bound), attained when some
  candidate splits the other n - 1 into singletons; without such a candidate every guess costs
  at least 2n (a candidate leaves a class of two or more, which costs one more than singletons;
  a non-candidate makes at most n classes, n + sum(2 n_r - 1) >= 2n), attained by a candidate
  that leaves one pair (if a third guess is allowed);
- with weights, n <= b + 1 secrets cost at least 2 w(S) - w_max, attained when a heaviest
  secret's guess splits the others into singletons;
- otherwise (equal weights, up to MID_SET secrets, all of them guesses) the candidates' bound
  of bounds.py: min(3n - 1 - the most distinct replies of a candidate, 3n - min(n, b)) while
  n <= b + 1, and with the slot table beyond.

The misses cost (game.rules.cost == "misses", Hangman). A guess costs nothing, a miss costs one:
a set the game calls determined (one word left) is a leaf of cost 0, and otherwise

    M(S) = min over guesses g splitting S of  sum over replies r of [ [r is a miss] w(S_r) + M(S_r) ]

(no class is finished by a hit). The same branch and bound runs with the bound of a guess its
miss class's weight (every class costs at least 0 more: bounds.py), classes searched with the
misses they have left, and ties to the first guess of the pool (the alphabetically first
letter), so the tree is the one the exact Hangman guesser always played. Counting lost games
(`lost`, with K = `max_guesses` strikes) is the same recursion with nothing paid for a miss and
a class of weight w(S_r) that has no strike left costing w(S_r) (lost, even if determined).
The worst case under misses is `worst_case` (no slot bound: a class may need no miss at all).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import islice

import numpy as np

from ..costs import Cost, Lost, Misses, cost_for
from ..errors import ArenaError
from ..game import _MANY_CODES as MANY_CODES
from ..game import Game, Index, Indexes
from ..resources import memory_limit
from .bounds import INF, determine_table, min_depth, slot_capacity, slot_depths, slot_table, sorted_weight_bound, weighted_bound

NO_LIMIT = 1 << 20
#: Misses cost: a guess whose cost is within this of the best is a tie (costs are sums of weights).
TIE = 1e-9  # "guesses left" when there is no depth limit
#: Bytes a cache entry takes besides its key: the bytes object's header, the entry tuple and
#: its floats, and the dict's slot (measured with sys.getsizeof, rounded up).
ENTRY_BYTES = 200
#: The share of the memory limit the caches may take (the game's tables need the rest).
CACHE_SHARE = 0.5
#: Misses cost: classes are bounded by their first letter's misses (first_misses) at nodes of at
#: least this many candidates; below, the bound costs more time than it saves.
FIRST_MISSES = 32
#: Misses cost: nodes of at least this many candidates are bounded two letters deep (next_misses).
TWO_LEVELS = 40
#: Guesses at nodes of at least this many candidates have their classes bounded one level deep
#: (level_bounds) before any is searched: the root of Wordle (2,315), Jotto, Mastermind (1,296).
LEVEL_SIZE = 1000
#: Cells of the (candidates x guesses) block that uniform_scores counts at once, and the most
#: that code_counts counts itself (about 2 MB of intp keys: the temporaries stay in cache and
#: need no fresh pages from the system).
SCORE_BLOCK = 1 << 18
#: Sets of at most this many secrets, all of them guesses, are closed or bounded (close_small)
#: in plain Python lists rather than numpy arrays, which cost more to set up than to count.
TINY_SET = 12
#: Sets of at most this many secrets, all of them guesses, are bounded by their candidates'
#: classes before their pool is scored (close_small, close_by_candidates).
MID_SET = 64
#: Classes of sets of at most this many secrets are grouped in plain Python (classes_of).
SMALL_SPLIT = 32
#: The best guess of a cache entry whose bound is close_small's (known_class_bounds): none yet.
CLOSED = -2
#: The progress callback is offered the search every this many nodes (a power of two, minus one).
REPORT_MASK = 63


def key_bytes(key) -> int:
    """The bytes a cache entry takes, about: its key's bytes and the fixed overhead."""
    if isinstance(key, bytes):
        return ENTRY_BYTES + len(key)
    return ENTRY_BYTES + 64 + sum(len(part) for part in key if isinstance(part, bytes))


def stabilizer(game: Game, invariant: np.ndarray | None = None):
    """The game's symmetry fixing the empty history, restricted to the elements that keep
    `invariant` (weights, -1 for secrets not covered; None: all codes alike), or None when the
    game has no symmetry or only the identity keeps the invariant."""
    symmetry = game.symmetry()
    return None if symmetry is None else symmetry.stabilizer(invariant)


def sorted_lazily(tried: Indexes, first: np.ndarray, second: Callable[[Indexes], np.ndarray], head: int = 16):
    """`tried` in increasing order of (first, second), as np.lexsort orders them, but sorting
    only the guesses up to the head-th least `first` (ties included, so the order is the same)
    until the caller asks for more: most nodes search one or two guesses of their thousands.
    `second(positions)` is the tie-break of those positions."""
    if len(tried) <= 4 * head:
        yield from tried[np.lexsort((second(tried), first[tried]))].tolist()
        return
    keys = first[tried]
    threshold = np.partition(keys, head - 1)[head - 1]
    near = keys <= threshold
    for part in (tried[near], tried[~near]):
        yield from part[np.lexsort((second(part), first[part]))].tolist()


class Timeout(Exception):
    """The time limit passed during the search."""


class Allowed:
    """The guesses the rules still allow on a path (Wordle's hard mode: `game.rules.restricted`),
    as a mask over all guesses; `key` (the packed mask) names the set in the cache keys, and
    `guesses` lists it. Every rule so far narrows the guesses move by move, so the set after a
    path is the intersection of what each of its moves allows (Game.allowed_guesses)."""

    __slots__ = ("mask", "key", "_guesses")

    def __init__(self, mask: np.ndarray):
        self.mask = mask
        self.key = np.packbits(mask).tobytes()
        self._guesses: Indexes | None = None

    @property
    def guesses(self) -> Indexes:
        if self._guesses is None:
            self._guesses = np.flatnonzero(self.mask)
        return self._guesses


@dataclass
class Stats:
    nodes: int = 0  # candidate sets whose guesses were scored
    guesses: int = 0  # guesses whose classes were searched
    hits: int = 0  # cache answers
    started: float = field(default_factory=time.perf_counter)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


class Search:
    """The branch and bound over one game, pool, weighting and depth limit.

    `weights` is a float64 array over all secrets of the game; `symmetry` (or None) maps a
    history of guesses to the guesses worth trying (`stabilizer`)."""

    def __init__(self, game: Game, weights: np.ndarray, pool: str = "all", max_guesses: int | None = None,
                 symmetry=None, deadline: float | None = None, cache_budget: int | None = None,
                 lost: bool = False, cost: str | Cost | None = None):
        #: what is paid (arena.costs): guesses or, on games without hits (Hangman), misses
        #: (the game's own cost unless `cost` says otherwise); lost games are the misses counted
        #: within `max_guesses` strikes (default: the cost's own), as `lost=True` asks
        paid = cost_for(game, cost)
        if lost:
            if paid != Misses() or max_guesses is None:
                raise ArenaError(f"{game.spec}: counting lost games needs the misses cost and a number of strikes")
            paid = Lost(max_guesses)
        max_guesses = paid.default_limit() if max_guesses is None else max_guesses
        #: the cost counted on the way down (lost games: the misses)
        self.cost = paid.counted
        #: the game ends when the candidates are determined, not by a hit: see "The misses cost"
        self.misses = not game.rules.hits
        #: a secret costs its weight once its misses reach `max_guesses` (the strikes: a lost
        #: game), and nothing otherwise
        self.lost = paid is not self.cost
        #: every guess is paid (guesses until determined), not only the misses
        self.every_guess = self.misses and paid.pays_every_guess
        self.game = game
        self.w = np.asarray(weights, dtype=np.float64)
        self.uniform = bool(np.all(self.w == 1.0))
        self.consistent_pool = pool == "consistent"
        #: the allowed guesses depend on the path (hard mode): the pool at a node is what its
        #: moves allow (the consistent pool needs no check: a candidate is always allowed)
        self.restricted = bool(game.rules.restricted) and not self.consistent_pool and not self.misses
        #: many reply codes, each with its column in the counts (Wordle's 243): uniform_scores
        #: counts them itself; with few codes (Jotto, Mastermind) the game's own counting, one
        #: comparison per code, is faster (measured at 200 candidates: Wordle 54 ms against
        #: 220 ms; Jotto 22 ms against 13 ms, Mastermind 8.8 against 6.1)
        self.wide = MANY_CODES < game.n_codes <= game.dense_codes
        self.limit = NO_LIMIT if max_guesses is None else int(max_guesses)
        self.symmetry = symmetry
        self.deadline = deadline
        self.hit = -1 if self.misses else int(game.hit)  # -1: no reply finishes a class
        self.b_max = len(game.codes) - (1 if self.hit in set(game.codes.tolist()) else 0)
        #: every secret is also a guess (close_small's candidates), and (`same_index`) secret i is guess i
        self.all_named = bool(game.secret_guess.min(initial=0) >= 0)
        self.same_index = bool(np.array_equal(game.secret_guess, np.arange(len(game.secrets))))
        self.node_limit: int | None = None  # stop (Timeout) after this many nodes in all
        self.cache: dict = {}
        self.fit_cache: dict = {}
        #: bytes the caches may hold (about), and what they hold now
        self.cache_budget = int(memory_limit() * CACHE_SHARE) if cache_budget is None else int(cache_budget)
        self.cache_bytes = 0
        self.forgotten = 0  # entries dropped to stay within the budget
        self.root_key = None
        self.progress: tuple[float, Index] = (INF, -1)  # the best root guess found so far
        self.incumbent = INF  # the cost of a tree known before the search (its starting budget)
        self.root_lower = 0.0  # a lower bound on the root's cost proven so far (see search_node)
        self.report: Callable[[Search], None] | None = None  # offered the search now and then
        self.timed_out = False  # set when a Timeout stopped the search at the root
        self._tables: dict = {}
        self._letters: tuple | None = None  # every letter's replies on the node last bounded (class_misses)
        self.stats = Stats()

    # --- small helpers ---------------------------------------------------------------------
    def table(self, b: int) -> np.ndarray:
        """The slot bound for every class size, for nodes whose guesses make at most b classes."""
        if b not in self._tables:
            self._tables[b] = slot_table(len(self.game.secrets), b)
        return self._tables[b]

    def table_list(self, b: int) -> list[float]:
        """table(b) as a Python list (faster to index one class at a time)."""
        if ("list", b) not in self._tables:
            self._tables[("list", b)] = self.table(b).tolist()
        return self._tables[("list", b)]

    def depths(self, b: int) -> np.ndarray:
        """The depth of each slot, shallowest first, for nodes of at most b non-hit classes."""
        if -b not in self._tables:
            self._tables[-b] = slot_depths(len(self.game.secrets), b)
        return self._tables[-b]

    def set_bytes(self, S: Indexes) -> bytes:
        """A candidate set as a cache key: two bytes a secret where indexes fit, else the full width."""
        return S.astype(np.uint16).tobytes() if len(self.game.secrets) <= 65536 else S.tobytes()

    def key(self, S: Indexes, left: int, allowed: Allowed | None = None):
        """The cache key of a node: its candidates, and where they matter the guesses left
        (under a depth limit) and the guesses allowed (hard mode)."""
        code = self.set_bytes(S)
        if allowed is not None:
            return (code, left, allowed.key)
        return code if self.limit == NO_LIMIT else (code, left)

    def after(self, allowed: Allowed | None, guess: Index, reply) -> Allowed | None:
        """The guesses allowed once `guess` got `reply` on a path that allowed `allowed` (None:
        every guess): the same None where the rules allow every guess whatever the history."""
        if not self.restricted:
            return None
        step = self.game.allowed_guesses([(int(guess), reply)])
        if step is None:
            return allowed
        mask = np.zeros(len(self.game.guesses), dtype=bool)
        mask[step] = True
        if allowed is not None:
            mask &= allowed.mask
        return Allowed(mask)

    def class_allowed(self, allowed: Allowed | None, guess: Index, reply, C: Indexes) -> Allowed | None:
        """What a class searched after `guess`, `reply` may guess. A class of at most two
        secrets that are both guesses is closed without its pool (close_small: one secret,
        or w1 + 2 w2 by guessing them, always allowed), so it keeps its parent's set, which
        saves building one for most classes."""
        if not self.restricted or (len(C) <= 2 and self.game.secret_guess[C].min() >= 0):
            return allowed
        return self.after(allowed, guess, reply)

    def remember(self, cache: dict, key, entry) -> None:
        """cache[key] = entry, within the byte budget: past it, the older half of this cache is
        forgotten (dicts keep insertion order, so those are the first keys)."""
        if key not in cache:
            self.cache_bytes += key_bytes(key)
            if self.cache_bytes > self.cache_budget:
                self.forget_older_half(cache)
        cache[key] = entry

    def forget_older_half(self, cache: dict) -> None:
        """Drop the first half of `cache`'s entries and recount the bytes both caches hold."""
        for key in list(islice(cache, len(cache) // 2 + 1)):
            del cache[key]
            self.forgotten += 1
        self.cache_bytes = sum(key_bytes(k) for c in (self.cache, self.fit_cache) for k in c)

    def weight(self, S: Indexes) -> float:
        return float(len(S)) if self.uniform else float(self.w[S].sum())

    def class_bound(self, S: Indexes, b: int, left: int) -> float:
        """A lower bound on C(S) before S is searched: the slot bound (inf if S cannot fit)."""
        if len(S) > slot_capacity(b, left):
            return INF
        if self.uniform:
            return float(self.table(b)[len(S)])
        w = self.w[S]
        if len(S) <= b + 1:  # most classes: one secret may be hit first, the rest need two guesses
            return float(2 * w.sum() - w.max())
        return sorted_weight_bound(w, self.depths(b))

    def pool(self, S: Indexes, sym, allowed: Allowed | None = None) -> Indexes:
        """The guesses tried at S: every guess (that the path allows) or the candidates, one
        per symmetry class."""
        if self.consistent_pool:
            base = self.game.candidate_guesses(S)
        else:
            base = self.game.all_guesses if allowed is None else allowed.guesses
        return base if sym is None else sym.representatives(base, S)

    # --- the search --------------------------------------------------------------------------
    def solve(self, S: Indexes, budget: float = INF, left: int | None = None, sym=None,
              allowed: Allowed | None = None, parts: int | None = None, key=None) -> float:
        """C(S) if it is below `budget`, else a lower bound >= budget (see the module docstring);
        `allowed`: the guesses the path allows (hard mode; None: every guess); `parts`: the
        most non-hit classes a guess makes on a superset of S (a node's b; None: any number);
        `key`: S's cache key, if the caller has it."""
        left = self.limit if left is None else left
        n = len(S)
        if self.misses:
            if self.lost and left <= 0:  # the strikes ran out, even on a determined word
                return self.weight(S)
            if left < 0:  # past a limit on the cost (objective worst, or max=K)
                return INF
            if self.game.determined(S):
                return 0.0
        elif n == 1:
            return float(self.w[S[0]]) if left >= 1 else INF
        elif left <= 1:
            return INF
        elif n == 2 and self.uniform and self.all_named:
            return 3.0  # one of the two, then the other (best_guess: the first); no cache entry
        if key is None:
            key = self.key(S, left, allowed)
        entry = self.cache.get(key)
        known = 0.0
        if entry is not None:
            self.stats.hits += 1
            known, value, _ = entry
            if value == known or known >= budget:
                return known
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout
        asked = entry is not None and entry[2] == CLOSED  # close_small's bound is the entry's
        closed = None if self.misses or asked else self.close_small(S, left, self.b_max if parts is None else parts)
        if closed is not None:
            value, guess = closed
            if guess >= 0:
                self.remember(self.cache, key, (value, value, guess))
                return value
            if value > known:  # a proven bound: a node that cannot beat the budget is not searched
                known = value
                if known >= budget:
                    self.remember(self.cache, key, (known, INF, -1))
                    return known
        return self.search_node(S, budget, left, sym, key, known, allowed)

    def close_small(self, S: Indexes, left: int, parts: int) -> tuple[float, Index] | None:
        """The exact value of a set too small to need a search and its best guess, or (guess
        -1) a lower bound on its value read off its candidates, or None (`left` >= 2 guesses
        are allowed; no guess makes more than `parts` non-hit classes on S).

        The bound, equal weights: every class of c secrets costs at least 2c - 1 (one may be
        hit first, the others need two guesses at least), so a candidate whose replies take d
        distinct values on S (the hit among them) costs at least

            n + sum over its d - 1 other classes of (2 c - 1) = 3n - 1 - d,

        and a guess that is no candidate, making p <= min(n, parts) classes, at least 3n - p:

            C(S) >= min(3n - 1 - max over candidates of d, 3n - min(n, parts)).

        (bounds.py, "The candidates' bound"; close_by_candidates for sets beyond TINY_SET.)
        It needs only the n x n block of the candidates' replies, against a pass over every
        guess of the pool for the node's own bound; when it reaches the budget the node fails
        high without one (4x6: 1,816 sets searched without the bound, 1,618 with it)."""
        n = len(S)
        if self.uniform and self.all_named and n <= TINY_SET:  # the same, in plain Python
            if n == 2:
                return 3.0, int(self.game.secret_guess[S[0]])
            named = S if self.same_index else self.game.secret_guess[S]
            rows = self.game.table[named[:, None], S].tolist()
            distinct = [len(set(row)) for row in rows]
            most = max(distinct)
            if most == n or (most == n - 1 and left >= 3):
                return float(3 * n - 1 - most), int(named[distinct.index(most)])
            return float(min(3 * n - 1 - most, 3 * n - min(n, parts))), -1
        if self.uniform and self.all_named and n <= MID_SET:
            return self.close_by_candidates(S, left, parts)
        named = self.game.secret_guess[S]
        if n == 2 and named.min() >= 0:  # guess the heavier: w1 + 2 w2
            heavy = 0 if self.w[S[0]] >= self.w[S[1]] else 1
            return float(self.w[S].sum() + self.w[S[1 - heavy]]), int(named[heavy])
        if n <= self.b_max + 1 and named.min() >= 0:
            block = np.sort(self.game.table[named[:, None], S], axis=1)
            distinct = 1 + (block[:, 1:] != block[:, :-1]).sum(axis=1)
            if self.uniform:
                best = int(distinct.argmax())
                if distinct[best] == n or (distinct[best] == n - 1 and left >= 3):
                    # all singletons: 2n - 1; one pair: 2n, which is the bound without a perfect candidate
                    return float(2 * n - 1 + (n - distinct[best])), int(named[best])
                return float(min(3 * n - 1 - distinct[best], 3 * n - min(n, parts))), -1
            else:
                # every secret but the one hit first needs two guesses: 2 w(S) - w_max at least,
                # attained when a heaviest secret's guess splits the others into singletons
                w = self.w[S]
                perfect = np.flatnonzero((distinct == n) & (w == w.max()))
                if len(perfect):
                    return float(2 * w.sum() - w.max()), int(named[perfect[0]])
        return None

    def close_by_candidates(self, S: Indexes, left: int, parts: int) -> tuple[float, Index]:
        """close_small for a set of up to MID_SET secrets, equal weights, all of them guesses:
        the closures, or else a lower bound from the candidates' classes alone. With T the slot
        table for `parts` classes (bounds.py; it bounds every class below), a candidate costs
        at least n + sum over its classes of T(c), and a guess that is no candidate, whose
        p <= min(n, parts) classes hold all n secrets, at least n + the least sum of T over p
        classes, which (T being convex with T(0) = 0) is that of the most even split. For
        n <= parts + 1 (T(c) = 2c - 1) this is close_small's bound; beyond, it is tighter."""
        n, codes = len(S), self.game.n_codes
        named = self.game.secret_guess[S]
        keys = self.game.table[named[:, None], S].astype(np.intp)
        keys += np.arange(0, n * codes, codes, dtype=np.intp)[:, None]
        counts = np.bincount(keys.ravel(), minlength=n * codes).reshape(n, codes)
        distinct = np.count_nonzero(counts, axis=1)  # the hit class among them
        best = int(distinct.argmax())
        most = int(distinct[best])
        if most == n or (most == n - 1 and left >= 3):
            return float(3 * n - 1 - most), int(named[best])
        counts[:, self.hit] = 0
        table = self.table(parts)
        candidates = n + table[counts].sum(axis=1).min()
        p = min(n, parts)
        q, r = divmod(n, p)
        others = n + r * table[q + 1] + (p - r) * table[q]
        return float(min(candidates, others)), -1

    def score_guesses(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, np.ndarray, int]:
        """For every guess of the pool, the lower bound w(S) + sum_r LB(S_r), and a tie-break
        heuristic (expected share of candidates left: the sum of squared class sizes); also b,
        the most non-hit classes."""
        bound, spread_of, b = self.node_scores(S, pool, left)
        return bound, spread_of(np.arange(len(pool))), b

    def node_scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, Callable, int]:
        """score_guesses with the tie-break as a function of the guesses' positions in the pool:
        a node orders only the few guesses it may search (sorted_lazily), and with few reply
        codes their spread is summed for those alone."""
        n = len(S)
        if self.uniform and not self.misses:
            if not self.wide:
                return self.few_code_scores(S, pool, left)
            bound, spread, b = self.uniform_scores(S, pool, left)
            return bound, spread.__getitem__, b
        counts, codes = self.hit_free_counts(pool, S)
        largest = counts.max(axis=1)
        useful = largest < n  # a guess that leaves all of S in one class learns nothing
        parts = np.count_nonzero(counts, axis=1)
        b = int(parts[useful].max(initial=1))
        if self.misses:
            bound = self.miss_bound(S, pool, counts, codes)
        elif self.uniform:
            bound = n + self.table(b)[counts].sum(axis=1)
        else:
            mass = self.class_masses(S, pool, codes)
            mass[counts == 0] = 0.0  # the hit class, zeroed in counts
            w = self.w[S]
            bound = w.sum() + weighted_bound(mass, counts, float(w.max()), float(w.min()), b).sum(axis=1)
        bound[~useful] = INF
        if left < NO_LIMIT and not self.misses:
            bound[largest > slot_capacity(b, left - 1)] = INF
        spread = (counts.astype(np.float64) ** 2).sum(axis=1)
        return bound, spread.__getitem__, b

    def code_counts(self, S: Indexes, pool: Indexes) -> np.ndarray:
        """counts[r, i] = how many candidates of S give reply r to guess pool[i], the hit row
        zeroed: the partition counts transposed, one row per reply code, so that every
        reduction over a guess's classes runs along the long axis (a whole row of guesses per
        numpy operation, instead of one short row of codes per guess). A big game's compiled loop
        (arena.kernels, through the game) counts in this layout; else small blocks are counted
        here, by one bincount of code * len(pool) + column, and big ones by the game's counting."""
        m = len(pool)
        compiled = self.game.reply_major_counts(pool, S)
        if compiled is not None:  # big games (arena.kernels): one byte read per cell, in this layout
            counts = compiled
        elif len(S) * m <= SCORE_BLOCK:
            keys = np.take(self.game.by_secret[S], pool, axis=1).astype(np.intp)
            keys *= m
            keys += np.arange(m, dtype=np.intp)
            counts = np.bincount(keys.ravel(), minlength=m * self.game.n_codes).reshape(self.game.n_codes, m)
        else:
            counts = np.ascontiguousarray(self.game.reply_counts(pool, S).counts.T)
        if self.hit >= 0:
            counts[self.hit] = 0
        return counts

    def few_code_scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, Callable, int]:
        """node_scores with equal weights on a game with few reply codes (Jotto, Mastermind), on
        the transposed counts (code_counts), as bytes while classes fit (8 times less memory
        for every pass below). As in uniform_scores, every class of k <= b + 1 secrets has slot
        bound 2k - 1, so a guess whose largest non-hit class has at most b + 1 secrets has the
        bound

            n + sum_r (2 n_r - 1) = n + 2 (n - [the guess is a candidate]) - parts,

        and only guesses with a larger class are read off the slot table."""
        n = len(S)
        counts = self.code_counts(S, pool)
        if n < 256:
            counts = counts.astype(np.uint8)
        largest = counts.max(axis=0)
        parts = (counts != 0).view(np.uint8).sum(axis=0, dtype=np.int32)
        useful = largest < n  # a guess that leaves all of S in one class learns nothing
        b = int(parts[useful].max(initial=1))
        member = np.zeros(len(self.game.secrets) + 1, dtype=np.int32)  # the last slot: guesses naming no secret
        member[S] = 2
        bound = (3 * n - member[self.game.same_secret[pool]] - parts).astype(np.float64)
        big = np.flatnonzero(largest > b + 1)
        if len(big):
            bound[big] = n + self.table(b)[counts[:, big]].sum(axis=0)
        bound[~useful] = INF
        if left < NO_LIMIT:
            bound[largest > slot_capacity(b, left - 1)] = INF

        def spread_of(chosen: Indexes) -> np.ndarray:
            part = counts[:, chosen].astype(np.int64)
            return np.einsum("ij,ij->j", part, part).astype(np.float64)

        return bound, spread_of, b

    def uniform_scores(self, S: Indexes, pool: Indexes, left: int) -> tuple[np.ndarray, np.ndarray, int]:
        """score_guesses with equal weights on a game with many reply codes, each with its column
        in the counts (Wordle's 243), without the (pool x codes) arrays of the general path: the guesses are
        counted a block at a time (SCORE_BLOCK, so the temporaries stay in cache) and reduced
        at once to what the bound needs. Every class of k <= b + 1 secrets has slot bound
        2k - 1, so a guess whose largest non-hit class fits costs at least

            n + sum_r (2 n_r - 1) = n + 2 (n - hit) - parts

        (hit: 1 if the guess is a candidate); only guesses with a larger class (few: b is the
        most parts of any guess) are counted again and read off the slot table."""
        n, codes = len(S), self.game.n_codes
        block = self.game.by_secret[S] if len(pool) == len(self.game.guesses) else self.game.by_secret[S[:, None], pool]
        m = len(pool)
        largest = np.empty(m, dtype=np.int32)
        parts = np.empty(m, dtype=np.int32)
        spread = np.empty(m, dtype=np.float64)
        step = max(1, SCORE_BLOCK // max(n, codes))
        offsets = np.arange(step, dtype=np.intp) * codes
        for a in range(0, m, step):
            part = block[:, a:a + step]
            width = part.shape[1]
            keys = part.astype(np.intp)
            keys += offsets[:width]
            # int32 halves the bytes the reductions read (a class has at most n < 2^31 secrets)
            counts = np.bincount(keys.ravel(), minlength=width * codes).reshape(width, codes).astype(np.int32)
            if self.hit >= 0:
                counts[:, self.hit] = 0
            largest[a:a + width] = counts.max(axis=1)
            parts[a:a + width] = (counts != 0).view(np.uint8).sum(axis=1, dtype=np.int32)
            spread[a:a + width] = np.einsum("ij,ij->i", counts, counts)  # <= n^2: fits int32
        member = np.zeros(len(self.game.secrets) + 1, dtype=bool)  # the last slot: guesses naming no secret
        member[S] = True
        found = n - member[self.game.same_secret[pool]].astype(np.int64)  # candidates not hit
        useful = largest < n
        b = int(parts[useful].max(initial=1))
        bound = (n + 2 * found - parts).astype(np.float64)
        big = np.flatnonzero(useful & (largest > b + 1))
        if len(big):  # classes beyond b + 1 secrets: the slot table
            counts, _ = self.hit_free_counts(pool[big], S)
            bound[big] = n + self.table(b)[counts].sum(axis=1)
        bound[~useful] = INF
        if left < NO_LIMIT:
            bound[largest > slot_capacity(b, left - 1)] = INF
        return bound, spread, b

    def miss_bound(self, S: Indexes, pool: Indexes, counts: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Misses cost: for every guess, the weight of its miss class (each of those secrets pays
        this miss; every class costs at least 0 more, bounds.py), or 0 when counting lost games."""
        if self.every_guess:  # every secret pays this guess, and every class of two or more another
            return self.weight(S) + self.determine_bounds(S, pool, counts, codes)
        column = [i for i, code in enumerate(codes.tolist()) if self.game.is_miss(code)]
        if self.lost or not column:
            return np.zeros(len(pool), dtype=np.float64)
        paid = counts[:, column[0]].astype(np.float64) if self.uniform else self.class_masses(S, pool, codes)[:, column[0]]
        return paid + self.next_misses(S, pool) if len(S) >= TWO_LEVELS else paid

    def first_misses(self, S: Indexes, classes: list[Indexes]) -> np.ndarray:
        """Misses cost: for each class C of a partition of S, the least miss weight of a first
        guess at C, a lower bound on M(C) (bounds.py, "two levels"; `class_misses`)."""
        label = np.empty(len(S), dtype=np.intp)
        for j, C in enumerate(classes):
            label[np.searchsorted(S, C)] = j
        member = np.zeros((len(S), len(classes)))
        member[np.arange(len(S)), label] = 1.0
        return self.class_misses(S, member)

    def next_misses(self, S: Indexes, pool: Indexes) -> np.ndarray:
        """For every guess g of the pool, the sum over its classes C of the least miss weight of
        the next guess at C (`class_misses`): all classes of all guesses in one matrix."""
        replies = self.game.by_secret[S[:, None], pool]  # replies[i, k]: to guess pool[k], of S[i]
        owner, members = [], []
        for k in range(len(pool)):
            _, inverse = np.unique(replies[:, k], return_inverse=True)
            members.append(inverse.ravel() + len(owner))
            owner.extend([k] * (int(inverse.max()) + 1))
        member = np.zeros((len(S), len(owner)))
        for column in members:
            member[np.arange(len(S)), column] = 1.0
        return np.bincount(np.asarray(owner), weights=self.class_misses(S, member), minlength=len(pool))

    def class_misses(self, S: Indexes, member: np.ndarray) -> np.ndarray:
        """Misses cost: for each class C of candidates of S (member[i, j] = 1 when S[i] is in
        class j), the bound of bounds.py's "two levels":

            M(C) >= w(C) - max over letters h splitting C of w(words of C containing h)

        (0 for a determined class). Every letter's replies on S (kept for the node) times the
        one-hot classes give each class's weight containing each letter, and whether the letter
        splits it (its replies on C are not all equal: |C| sum r^2 > (sum r)^2)."""
        if self._letters is None or self._letters[0] is not S:
            replies = self.game.table[:, S].astype(np.float64)  # every letter, not only the pool's
            self._letters = (S, replies, (replies > 0) * self.w[S])
        _, replies, present = self._letters
        size = member.sum(axis=0)
        first, second = replies @ member, (replies * replies) @ member
        splits = size * second - first * first > 0.5
        best = np.where(splits, present @ member, -1.0).max(axis=0)
        return np.where(best >= 0, self.w[S] @ member - best, 0.0)

    def determine_table(self, b: int) -> np.ndarray:
        """table[n]: the fewest guesses that determine n equally likely secrets (guesses
        until determined, classes of at most b replies): bounds.determine_table."""
        if ("determine", b) not in self._tables:
            self._tables[("determine", b)] = determine_table(len(self.game.secrets), b)
        return self._tables[("determine", b)]

    def determine_bounds(self, S: Indexes, pool: Indexes, counts: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Guesses until determined: for every guess, a lower bound on what its classes cost
        after it (bounds.py): the leaf-depth bound of each class with equal weights, and with
        weights the mass of the classes not yet determined (each pays one more guess at least)."""
        useful = counts.max(axis=1) < len(S)
        b = int(np.count_nonzero(counts, axis=1)[useful].max(initial=1))
        if self.uniform:
            return self.determine_table(b)[counts].sum(axis=1)
        mass = self.class_masses(S, pool, codes)
        return np.where(counts >= 2, mass, 0.0).sum(axis=1)

    def determine_bound(self, C: Indexes) -> float:
        """A lower bound on what a class costs before it is searched: 0 under misses (bounds.py),
        and under guesses until determined one guess for each secret of an undetermined class."""
        return self.weight(C) if self.every_guess and not self.game.determined(C) else 0.0

    def hit_free_counts(self, pool: Indexes, S: Indexes) -> tuple[np.ndarray, np.ndarray]:
        """The partition counts of the pool on S and the reply code of each column, with the
        hit class zeroed: a secret guessed is finished and costs nothing more."""
        counted = self.game.reply_counts(pool, S)
        column = counted.column(self.hit) if self.hit >= 0 else None
        if column is not None:
            counted.counts[:, column] = 0
        return counted.counts, counted.codes

    def class_masses(self, S: Indexes, pool: Indexes, codes: np.ndarray) -> np.ndarray:
        """mass[i, j] = the weight of the candidates giving reply codes[j] to guess pool[i]
        (one bincount; the columns of hit_free_counts)."""
        block = self.game.by_secret[S[:, None], pool]
        if len(codes) != self.game.n_codes:  # a sparse reply alphabet: the counts' own columns
            block = np.searchsorted(codes, block)
        width, codes = len(pool), len(codes)
        keys = block.astype(np.intp) + np.arange(width, dtype=np.intp) * codes
        weights = np.broadcast_to(self.w[S][:, None], block.shape)
        return np.bincount(keys.ravel(), weights=weights.ravel(), minlength=width * codes).reshape(width, codes)

    def search_node(self, S: Indexes, budget: float, left: int, sym, key, known: float,
                    allowed: Allowed | None = None) -> float:
        self.stats.nodes += 1
        if self.node_limit is not None and self.stats.nodes > self.node_limit:
            raise Timeout  # an effort limit: unlike a deadline, the same on every machine
        if self.report is not None and not self.stats.nodes & REPORT_MASK:
            self.report(self)
        at_root = key == self.root_key
        pool = self.pool(S, sym, allowed)
        bound, spread_of, b = self.node_scores(S, pool, left)
        tried = np.flatnonzero(bound < budget)
        floor = float(bound[bound >= budget].min(initial=INF))  # least bound among untried guesses
        if len(tried) == 0:
            self.remember(self.cache, key, (max(known, floor), INF, -1))
            return max(known, floor)
        # misses: ties go to the first guess of the pool (the alphabetically first letter), so
        # guesses are taken in pool order within a bound and one tying a later best is searched
        tie = TIE if self.misses else 0.0
        order = sorted_lazily(tried, bound, (lambda chosen: chosen) if tie else spread_of)
        best, best_guess = budget, -1
        seen: set[bytes] = set()  # the reply vectors of the guesses searched here
        for i in order:
            guess = int(pool[i])
            earlier = tie and 0 <= guess < best_guess  # may win a tie
            if bound[i] >= best + (tie if earlier else 0.0):
                floor = min(floor, float(bound[i]))
                if tie and bound[i] < best + tie:
                    continue  # a later guess in pool order: ties do not move the best
                break
            replies = self.game.table[guess, S].tobytes()
            if replies in seen:
                continue  # the same classes as a guess searched here: the same cost
            seen.add(replies)
            if at_root:  # the guesses left are bounded by bound[i] at least (sorted), the others by floor
                self.root_lower = max(self.root_lower, known, min(best, floor, float(bound[i])))
            value = self.guess_value(guess, S, best + (tie if earlier else 0.0), left, b, sym, allowed)
            if value < best - (tie if best_guess >= 0 else 0.0) or (earlier and value < best + tie):
                best, best_guess = min(best, value), guess
                if at_root:
                    self.progress = (best, best_guess)
            else:
                floor = min(floor, value)
        if best_guess >= 0:
            self.remember(self.cache, key, (best, best, best_guess))
            return best
        proven = max(known, floor)
        self.remember(self.cache, key, (proven, INF, -1))
        return proven

    def guess_value(self, guess: Index, S: Indexes, limit: float, left: int, b: int, sym,
                    allowed: Allowed | None = None) -> float:
        """w(S) + sum of the classes' costs if below `limit`, else a lower bound >= limit."""
        self.stats.guesses += 1
        if self.misses:
            parts = self.game.partition(guess, S)
            return self.misses_value(S, parts, limit, left, None if sym is None else sym.after(guess))
        classes = self.classes_of(guess, S)
        if self.uniform:  # the slot table read directly (class_bound), inf past the depth limit
            table, room = self.table_list(b), slot_capacity(b, left - 1)
            bounds = [table[len(c)] if len(c) <= room else INF for _, c in classes]
        else:
            bounds = [self.class_bound(c, b, left - 1) for _, c in classes]
        total = self.weight(S) + sum(bounds)
        if total >= limit:
            return total
        keys: list = [None] * len(classes)
        if not self.restricted:
            total = self.known_class_bounds(classes, bounds, keys, total, limit, left - 1, b)
            if total >= limit:
                return total
        below = None if sym is None else sym.after(guess)
        if len(S) >= LEVEL_SIZE:
            total = self.level_bounds(guess, classes, bounds, total, limit, left - 1, below, allowed)
            if total >= limit:
                return total
        for (r, c), lb, key in zip(classes, bounds, keys):
            value = self.solve(c, limit - (total - lb), left - 1, below, self.class_allowed(allowed, guess, r, c), b,
                               key)
            total += value - lb
            if total >= limit:
                return total
        return total

    def classes_of(self, guess: Index, S: Indexes) -> list[tuple[int, Indexes]]:
        """The classes of S under `guess` but the hit, as (reply, candidates), smallest first
        (ties in reply order; each class in S's order): game.partition, in plain Python on
        small sets and without the dict on big ones."""
        replies = self.game.table[guess, S]
        if len(S) <= SMALL_SPLIT:
            grouped: dict[int, list[int]] = {}
            for secret, reply in zip(S.tolist(), replies.tolist()):
                grouped.setdefault(reply, []).append(secret)
            grouped.pop(self.hit, None)
            classes = [(r, np.array(grouped[r], dtype=S.dtype)) for r in sorted(grouped)]
            classes.sort(key=lambda rc: len(rc[1]))
            return classes
        ordered = S[np.argsort(replies, kind="stable")]
        sizes = np.bincount(replies, minlength=self.game.n_codes)
        ends = np.cumsum(sizes).tolist()
        if self.hit >= 0:
            sizes[self.hit] = 0
        present = np.flatnonzero(sizes)
        present = present[np.argsort(sizes[present], kind="stable")]
        counts = sizes.tolist()
        return [(r, ordered[ends[r] - counts[r]:ends[r]]) for r in present.tolist()]

    def known_class_bounds(self, classes: list, bounds: list, keys: list, total: float, limit: float, left: int,
                           b: int) -> float:
        """Before any class of a guess is searched: each class's bound raised to what the cache
        has proven for it (an exact value, or the bound of a search that failed high) or, for a
        class met for the first time, to close_small's (its closed value, or its candidates'
        bound), which is cached for the class's own search (marked CLOSED: close_small is not
        asked again), until the total reaches `limit` (the guess is dropped). `bounds` and
        `keys` (the classes' cache keys, for their searches) are filled in place; returns the
        new total."""
        for j, (_, c) in enumerate(classes):  # smallest first: their bounds cost least
            if len(c) <= 2:
                continue  # closed by its class bound already
            key = keys[j] = self.key(c, left)
            entry = self.cache.get(key)
            if entry is None:
                closed = self.close_small(c, left, b)
                if closed is None:
                    continue
                value, guess = closed
                entry = (value, value, guess) if guess >= 0 else (value, INF, CLOSED)
                self.remember(self.cache, key, entry)
            if entry[0] > bounds[j]:
                total += entry[0] - bounds[j]
                bounds[j] = entry[0]
                if total >= limit:
                    break  # the guess is dropped
        return total

    def level_bounds(self, guess: Index, classes: list, bounds: list, total: float, limit: float, left: int,
                     sym, allowed: Allowed | None) -> float:
        """At a big node: raise the bounds of the guess's classes, biggest first, to one level
        of search, until the guess's total bound reaches `limit` (it is then dropped without
        searching a class). One level: a class C costs at least

            min over guesses h of  w(C) + sum over h's classes of their slot bound

        which is what search_node computes first at C; here it is the whole cost of proving
        that a first guess cannot beat the incumbent, for most first guesses (measured on
        Wordle: the slot bound of SALET is 6,883, this 7,812, the optimum 7,920). Each bound
        is cached as proven for C, so C's own search starts from it. `bounds` is updated in
        place; returns the new total."""
        for j in sorted(range(len(classes)), key=lambda j: -len(classes[j][1])):
            r, C = classes[j]
            if len(C) <= 2:
                break  # the rest are closed exactly by their class bound already
            below = self.class_allowed(allowed, guess, r, C)
            key = self.key(C, left, below)
            entry = self.cache.get(key)
            if entry is not None:
                level = entry[0]
            else:
                scored, _, _ = self.score_guesses(C, self.pool(C, sym, below), left)
                level = float(scored.min(initial=INF))
                self.remember(self.cache, key, (level, INF, -1))
            if level > bounds[j]:
                total += level - bounds[j]
                bounds[j] = level
            if total >= limit:
                break
        return total

    def misses_value(self, S: Indexes, parts: dict, limit: float, left: int, below) -> float:
        """Misses cost: the weight of the miss class (each of its secrets pays this miss; none
        when counting lost games) + the classes' costs, each with the misses it has left, if
        below `limit`, else a lower bound >= limit. Before it is searched, a class is bounded
        below by the miss weight of its best first letter (`first_misses`), by one guess a
        secret when every guess is paid, and by its weight when it has lost (no strikes left)."""
        classes = sorted(((c, left - self.step(r)) for r, c in parts.items()), key=lambda cl: len(cl[0]))
        paid = 0.0 if self.lost else sum(self.weight(c) for r, c in parts.items() if self.step(r))
        if paid >= limit:
            return paid
        if self.lost or self.every_guess:
            bounds = [self.weight(c) if self.lost and k <= 0 else self.determine_bound(c) for c, k in classes]
        elif len(S) >= FIRST_MISSES:
            bounds = self.first_misses(S, [c for c, _ in classes]).tolist()
        else:
            bounds = [0.0] * len(classes)
        total = paid + sum(bounds)
        if total >= limit:
            return total
        for (c, k), lb in zip(classes, bounds):
            value = self.solve(c, limit - (total - lb), k, below)
            total += value - lb
            if total >= limit:
                return total
        return total

    # --- depth limits and bounds at the root -------------------------------------------------
    def step(self, reply) -> int:
        """What one reply costs the guesser: a guess, or (cost "misses") 1 for a miss, else 0."""
        return self.cost.step(self.game, reply) if self.misses else 1

    def fits(self, S: Indexes, left: int, sym=None, allowed: Allowed | None = None) -> bool:
        """Can every secret of S be found within `left` guesses (misses: be determined, the
        game's `determined`, within `left` misses)? Depth-first, guesses whose largest class
        is smallest first; with guesses, a class too big for its slots is refused at once."""
        n = len(S)
        if self.misses:
            if self.game.determined(S) or left < 0:
                return left >= 0
        elif n <= 1:
            return left >= n
        elif left <= 1 or n > slot_capacity(self.b_max, left):
            return False
        key = (self.set_bytes(S), left) if allowed is None else (self.set_bytes(S), left, allowed.key)
        if key in self.fit_cache:
            return self.fit_cache[key]
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Timeout
        pool = self.pool(S, sym, allowed)
        counts, _ = self.hit_free_counts(pool, S)
        largest = counts.max(axis=1)
        b = int(np.count_nonzero(counts, axis=1)[largest < n].max(initial=1))
        room = n if self.misses else slot_capacity(b, left - 1)  # misses: no slot bound (bounds.py)
        fitting = np.flatnonzero((largest < n) & (largest <= room))
        ok = False
        for i in fitting[np.argsort(largest[fitting], kind="stable")]:
            guess = int(pool[i])
            below = None if sym is None else sym.after(guess)
            classes = sorted(((c, left - self.step(r), r) for r, c in self.game.partition(guess, S).items()
                              if r != self.hit), key=lambda cl: len(cl[0]), reverse=True)
            if all(self.fits(c, k, below, self.class_allowed(allowed, guess, r, c)) for c, k, r in classes):
                ok = True
                break
        self.remember(self.fit_cache, key, ok)
        return ok

    def worst_case(self, S: Indexes, sym=None) -> int:
        """W(S): the fewest guesses (misses) that find every secret of S in the worst case,
        the least depth that `fits`, counted up from the proven bound: min_depth (bounds.py)
        for guesses, 0 for misses."""
        depth = 0 if self.misses else min_depth(len(S), self.b_max)
        while not self.fits(S, depth, sym):
            depth += 1
            if depth > len(S) + 1:  # every useful guess shrinks the classes: no guess splits S
                raise ArenaError(f"{self.game.spec}: no guess tells apart "
                                 f"{', '.join(self.game.secrets[s] for s in S[:3])}")
        return depth

    def root_bound(self, S: Indexes, sym=None, left: int | None = None, allowed: Allowed | None = None) -> float:
        """A lower bound on C(S) from what the search has proven so far: for every guess,
        what the guess itself costs (w(S), or under misses its miss class) plus, over its
        classes, the best bound known (exact value, cached bound, or the class bound),
        minimised over guesses; never below a bound cached for S itself. In hard mode the
        classes are bounded by their class bound only (their cache keys would need every
        guess's allowed set)."""
        left = self.limit if left is None else left
        pool = self.pool(S, sym, allowed)
        counts, _ = self.hit_free_counts(pool, S)
        useful = counts.max(axis=1) < len(S)
        b = int(np.count_nonzero(counts, axis=1)[useful].max(initial=1))
        best = INF
        for i in np.flatnonzero(useful):
            total = 0.0 if self.misses else self.weight(S)
            for r, c in self.game.partition(int(pool[i]), S).items():
                if r == self.hit:
                    continue
                if self.misses and self.step(r) and not self.lost:
                    total += self.weight(c)  # each secret of the class pays this reply
                total += self.known_bound(c, b, left - self.step(r), cached=not self.restricted)
                if total >= best:
                    break
            best = min(best, total)
        entry = self.cache.get(self.key(S, left, allowed))
        return max(best, entry[0]) if entry else best

    def known_bound(self, S: Indexes, b: int, left: int, cached: bool = True) -> float:
        """The best lower bound on C(S) known without searching: cache (if `cached`) or class bound."""
        if self.misses:
            if self.lost and left <= 0:
                return self.weight(S)
            if left < 0:
                return INF
            if self.game.determined(S):
                return 0.0
            slot = self.determine_bound(S)
        elif len(S) == 1:
            return float(self.w[S[0]]) if left >= 1 else INF
        else:
            slot = self.class_bound(S, b, left)
        entry = self.cache.get(self.key(S, left)) if cached else None
        return slot if entry is None else max(slot, entry[0])

    # --- reading the answer ------------------------------------------------------------------
    def best_guess(self, S: Indexes, left: int, allowed: Allowed | None = None) -> Index:
        """The best guess at S: from the cache, or (for a class that a closed-form value covered
        without searching it, like the pair left by a 2n closure) from a search now."""
        if self.misses and (self.game.determined(S) or (self.lost and left <= 0)):
            return -1  # nothing left to decide: the word is known, or the game is lost
        if len(S) == 1 or (len(S) == 2 and self.uniform and self.all_named):
            return int(self.game.secret_guess[S[0]])
        key = self.key(S, left, allowed)
        entry = self.cache.get(key)
        if entry is None or entry[0] != entry[1]:
            self.solve(S, INF, left, None, allowed)
            entry = self.cache[key]
        return entry[2]
