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
limit of arena.core.resources) the older half of the entries is forgotten. Only speed depends on
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

The misses cost (Hangman's: a game that ends when the secret is determined). A guess costs
nothing, a miss costs one: a set the game calls determined (one word left) is a leaf of cost 0,
and otherwise

    M(S) = min over guesses g splitting S of  sum over replies r of [ [r is a miss] w(S_r) + M(S_r) ]

(no class is finished by a hit). The same branch and bound runs with the bound of a guess its
miss class's weight (every class costs at least 0 more: bounds.py), classes searched with the
misses they have left, and ties to the first guess of the pool (the alphabetically first
letter), so the tree is the one the exact Hangman guesser always played. Counting lost games
(the cost `lost`, with K = `max_guesses` strikes) is the same recursion with nothing paid for a
miss and a class of weight w(S_r) that has no strike left costing w(S_r) (lost, even if
determined). The worst case under misses is `worst_case` (no slot bound: a class may need no
miss at all).

The search knows none of these costs by name. Where they differ (a leaf's value, a guess's
bound and tie-break, what a guess pays, whether small sets close and hard mode applies, the
depth bounds) it asks the one object it holds, `bounds`: a CostBounds (shared.py) chosen by the
cost and by how the game ends, UntilHit (hits.py) for C above, UntilDetermined, LostGames and
GuessesUntilDetermined (determined.py) for the costs of games without hits. A new cost is one
class of arena.core.costs and one subclass of CostBounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol, cast

import numpy as np

from ...core.costs import Cost, cost_for
from ...core.errors import ArenaError
from ...core.game import MANY_CODES, Game, Index, Indexes
from ...core.resources import memory_limit
from ..bounds import INF
from ..params import Pool
from .allowed import Allowed, HardMode
from .cache import CACHE_SHARE, CLOSED, Caches
from .closures import Closures
from .depth import DepthLimits
from .determined import MissBounds
from .hits import HitValues, UntilHit
from .ordering import Scoring, sorted_lazily, sorted_parts
from .shared import NO_LIMIT, STOP, CostBounds, Stats, Timeout
from .small_trees import COMPILED_CELLS, SMALL_TREE, SmallTrees

#: The progress callback is offered the search every this many nodes (a power of two, minus one).
REPORT_MASK = 63


def stabilizer(game: Game, invariant: np.ndarray | None = None):
    """The game's symmetry fixing the empty history, restricted to the elements that keep
    `invariant` (weights, -1 for secrets not covered; None: all codes alike), or None when the
    game has no symmetry or only the identity keeps the invariant."""
    symmetry = game.symmetry()
    return None if symmetry is None else symmetry.stabilizer(invariant)


def as_int64(guesses: Indexes) -> np.ndarray:
    """Guesses as the compiled loops take them."""
    return np.ascontiguousarray(guesses, dtype=np.int64)


class Posed(Protocol):
    """What `Search.of` reads of a problem (arena.optimal.problem.Problem, which imports this
    module: named by what it holds, not imported)."""

    @property
    def game(self) -> Game: ...
    @property
    def weights(self) -> np.ndarray: ...
    @property
    def pool(self) -> Pool: ...
    @property
    def cost(self) -> Cost: ...
    @property
    def max_guesses(self) -> int | None: ...
    def symmetry(self) -> Any: ...


class Search(Caches, HardMode, Scoring, Closures, HitValues, MissBounds, DepthLimits):
    """The branch and bound over one game, pool, weighting and depth limit.

    `weights` is a float64 array over all secrets of the game; `symmetry` (or None) maps a
    history of guesses to the guesses worth trying (`stabilizer`); `cost` (arena.core.costs: a name
    or a Cost; None: the game's own) is what is minimised, within `max_guesses` of what it
    counts (None: the cost's own limit, the strikes for lost games, else none)."""

    #: a node's guesses that their opened bounds cut are gone through in one compiled call
    #: (hits.search_guesses_compiled) where small sets are searched in compiled code; False:
    #: one call a guess (the tests compare the two)
    opens_in_batches = True

    def __init__(
        self,
        game: Game,
        weights: np.ndarray,
        pool: Pool = Pool.ALL,
        max_guesses: int | None = None,
        symmetry=None,
        deadline: float | None = None,
        cache_budget: int | None = None,
        cost: str | Cost | None = None,
    ):
        #: what is paid (arena.core.costs): guesses or, on games without hits (Hangman), misses or
        #: lost games (the game's own cost unless `cost` says otherwise); `max_guesses` limits
        #: what is counted (lost games: the strikes, by default the cost's own)
        paid = cost_for(game, cost)
        max_guesses = paid.default_limit() if max_guesses is None else max_guesses
        if paid.limits_itself and max_guesses is None:
            raise ArenaError(f"{game.spec}: the cost {paid.name!r} is counted within a limit: give one")
        #: the cost counted on the way down (lost games: the misses)
        self.cost = paid.counted
        #: what the search asks of the cost it minimises (state.CostBounds): leaves, bounds,
        #: the value of a guess
        self.bounds = CostBounds.of(self, game, paid)
        self.game = game
        self.w = np.asarray(weights, dtype=np.float64)
        self.uniform = bool(np.all(self.w == 1.0))
        self.consistent_pool = pool == Pool.CONSISTENT
        #: the allowed guesses depend on the path (hard mode): the pool at a node is what its
        #: moves allow (the consistent pool needs no check: a candidate is always allowed)
        self.restricted = bool(game.rules.restricted) and not self.consistent_pool and self.bounds.follows_hard_mode
        #: many reply codes, each with its column in the counts (Wordle's 243): uniform_scores
        #: counts them itself; with few codes (Jotto, Mastermind) the game's own counting, one
        #: comparison per code, is faster (measured at 200 candidates: Wordle 54 ms against
        #: 220 ms; Jotto 22 ms against 13 ms, Mastermind 8.8 against 6.1)
        self.wide = MANY_CODES < game.n_codes <= game.dense_codes
        self.limit = NO_LIMIT if max_guesses is None else int(max_guesses)
        self.symmetry = symmetry
        self.deadline = deadline
        self.hit = self.bounds.finishing_reply(game)  # -1: no reply finishes a class
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
        #: sets of at most this many secrets have their whole subtree searched in compiled code
        #: (small_trees.py) where the search allows it (`small_trees`); 0: never
        self.compiled_below = SMALL_TREE if len(game.guesses) * len(game.secrets) >= COMPILED_CELLS else 0
        self._small: SmallTrees | None | bool = False  # False: not asked yet
        #: weighted nodes scored in compiled code whatever the game's size (the tests set it)
        self.compile_weighted = False
        self._weighted: Any = False  # weighted_compiled's module or None; False: not asked yet

    @classmethod
    def of(cls, problem: Posed, **settings: Any) -> Search:
        """The search of `problem` (optimal/problem.py: its game, weights, pool and cost), the
        way the solvers build one; `settings` are the guess limit, symmetry, deadline and
        cache_budget (default: the problem's limit and symmetry, no deadline)."""
        settings.setdefault("max_guesses", problem.max_guesses)
        if "symmetry" not in settings:  # computed only when not given: it may cost a stabilizer
            settings["symmetry"] = problem.symmetry()
        return cls(problem.game, problem.weights, problem.pool, cost=problem.cost, **settings)

    def small_trees(self) -> SmallTrees | None:
        """The compiled search of small subtrees (small_trees.py), made at its first use, or
        None where it does not apply: it knows guesses until a hit with equal weights (or a
        chooser's, where weighted nodes are scored in compiled code: `weighted_compiled`), every
        secret a guess, no hard mode, on a feedback table held in memory."""
        if self._small is False:
            game = self.game
            fits = (
                type(self.bounds) is UntilHit
                and (self.uniform or self.weighted_compiled() is not None)
                and self.all_named
                and not self.restricted
                and isinstance(game.table, np.ndarray)
            )
            keyed = self.limit != NO_LIMIT
            self._small = SmallTrees(game, self.consistent_pool, keyed, self.hit, self.b_max, self.w) if fits else None
            if self._small is not None:  # a long compiled search stops at the deadline and the node limit too
                self._small.between = self.between_chunks
                self._small.stop_at = self.compiled_stop
        return self._small if isinstance(self._small, SmallTrees) else None

    def solve_small(
        self, S: Indexes, budget: float, left: int, parts: int, key, known: float, asked: bool, roots=None
    ) -> float:
        """solve() for a small set, its whole subtree in compiled code; the answer is cached
        here as search_node caches it, and the sets searched are counted. `roots`: the guesses
        tried at S (a flag per guess: the history's orbit representatives; None: every guess)."""
        small = cast(SmallTrees, self._small)
        before = small.nodes
        value, guess = small.solve_set(S, budget, left, parts, known, asked, roots)
        if guess >= 0:
            self.remember(self.cache, key, (value, value, guess))
        else:
            self.remember(self.cache, key, (max(known, value), INF, -1))
        self.count_compiled(small, before)
        return value

    def check_deadline(self) -> None:
        """Timeout once the deadline has passed, or Ctrl-C asked a search with one to stop."""
        if self.deadline is not None and (STOP.asked or time.perf_counter() > self.deadline):
            raise Timeout

    def past_node_limit(self) -> bool:
        """Has the search counted more sets than its node limit (an effort limit, unlike the
        deadline the same on every machine)? A Timeout is the one or the other: this tells them apart."""
        return self.node_limit is not None and self.stats.nodes > self.node_limit

    def between_chunks(self) -> None:
        """Between the chunks of a compiled call: the deadline, and the node limit, counting
        the sets the call has searched so far (count_compiled is not reached when this raises:
        a search stopped in a long call had reported none of its sets, `searched` 1 on Jotto)."""
        small = cast(SmallTrees, self._small)
        try:
            self.check_deadline()
        except Timeout:
            self.stats.nodes += small.nodes - small.entered
            raise
        if self.node_limit is not None and self.stats.nodes + small.nodes - small.entered > self.node_limit:
            self.stats.nodes += small.nodes - small.entered
            raise Timeout

    def compiled_stop(self) -> int | None:
        """The compiled search's count of sets at which the node limit is reached (None: no limit)."""
        if self.node_limit is None:
            return None
        small = cast(SmallTrees, self._small)
        return small.entered + self.node_limit - self.stats.nodes

    def count_compiled(self, small: SmallTrees, before: int) -> None:
        """Count the sets the compiled search searched since it had searched `before`, offer
        the progress callback the search as search_node does (every REPORT_MASK + 1 sets), and
        stop at the node limit (counted after the subtree: the same on every machine)."""
        after = small.nodes
        self.stats.nodes += after - before
        if self.report is not None and (after | REPORT_MASK) != (before | REPORT_MASK):
            self.report(self)
        if self.past_node_limit():
            raise Timeout

    def weight(self, S: Indexes) -> float:
        return float(len(S)) if self.uniform else float(self.w[S].sum())

    def pool(self, S: Indexes, sym, allowed: Allowed | None = None) -> Indexes:
        """The guesses tried at S: every guess (that the path allows) or the candidates, one
        per symmetry class."""
        if self.consistent_pool:
            base = self.game.candidate_guesses(S)
        else:
            base = self.game.all_guesses if allowed is None else allowed.guesses
        return base if sym is None else sym.representatives(base, S)

    def solve(
        self,
        S: Indexes,
        budget: float = INF,
        left: int | None = None,
        sym=None,
        allowed: Allowed | None = None,
        parts: int | None = None,
        key=None,
    ) -> float:
        """C(S) if it is below `budget`, else a lower bound >= budget (see the module docstring);
        `allowed`: the guesses the path allows (hard mode; None: every guess); `parts`: the
        most non-hit classes a guess makes on a superset of S (a node's b; None: any number);
        `key`: S's cache key, if the caller has it."""
        left = self.limit if left is None else left
        leaf = self.bounds.leaf(S, left)
        if leaf is not None:
            return leaf
        if key is None:
            key = self.key(S, left, allowed)
        entry = self.cache.get(key)
        known = 0.0
        if entry is not None:
            self.stats.hits += 1
            known, value, _ = entry
            if value == known or known >= budget:
                return known
        self.check_deadline()
        asked = entry is not None and entry[2] == CLOSED  # close_small's bound is the entry's
        if len(S) <= self.compiled_below and self.small_trees() is not None:
            roots = None if sym is None else sym.mask()  # one guess per orbit, as search_node's pool
            return self.solve_small(S, budget, left, self.b_max if parts is None else parts, key, known, asked, roots)
        closed = (
            None
            if asked or not self.bounds.closes_small
            else self.close_small(S, left, self.b_max if parts is None else parts)
        )
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

    def search_node(
        self, S: Indexes, budget: float, left: int, sym, key, known: float, allowed: Allowed | None = None
    ) -> float:
        self.stats.nodes += 1
        if self.node_limit is not None and self.stats.nodes > self.node_limit:  # past_node_limit, inline: the hot path
            raise Timeout
        if self.report is not None and not self.stats.nodes & REPORT_MASK:
            self.report(self)
        at_root = key == self.root_key
        pool = self.pool(S, sym, allowed)
        bound, tie_break, b = self.node_scores(S, pool, left)
        tried = np.flatnonzero(bound < budget)
        floor = float(bound[bound >= budget].min(initial=INF))  # least bound among untried guesses
        if len(tried) == 0:
            self.remember(self.cache, key, (max(known, floor), INF, -1))
            return max(known, floor)
        # with a tie (the misses costs), ties go to the first guess of the pool (the first
        # letter): the cost's tie-break is the pool order, and one tying a later best is searched
        tie = self.bounds.tie
        batched = self.compiled_below and self.opens_in_batches and not (at_root or tie)
        if batched and self.small_trees() is not None:  # the guesses cut by their opened bounds: one compiled call
            parts = ((as_int64(pool[part]), bound[part]) for part in sorted_parts(tried, bound, tie_break))
            best, best_guess, cut = self.search_guesses_compiled(S, parts, budget, left, b, sym)
            return self.node_searched(key, known, best, best_guess, min(floor, cut))
        order = sorted_lazily(tried, bound, tie_break)
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
        return self.node_searched(key, known, best, best_guess, floor)

    def node_searched(self, key, known: float, best: float, best_guess: Index, floor: float) -> float:
        """search_node's answer, cached: its best value (exact) where a guess beat the budget,
        else the least bound proven (at least `known`)."""
        if best_guess >= 0:
            self.remember(self.cache, key, (best, best, best_guess))
            return best
        proven = max(known, floor)
        self.remember(self.cache, key, (proven, INF, -1))
        return proven

    def guess_value(
        self, guess: Index, S: Indexes, limit: float, left: int, b: int, sym, allowed: Allowed | None = None
    ) -> float:
        """The value of `guess` at S if below `limit`, else a lower bound >= limit: what the
        guess pays and its classes searched, as the cost counts them (`bounds.guess_value`:
        hits.py, determined.py)."""
        self.stats.guesses += 1
        return self.bounds.guess_value(guess, S, limit, left, b, sym, allowed)

    def best_guess(self, S: Indexes, left: int | None = None, allowed: Allowed | None = None) -> Index:
        """The best guess at S with `left` to spend (None: the search's limit), -1 if there is
        nothing to decide: from the cost (a set that needs no search), from the cache, or (for a
        class that a closed-form value covered without searching it, like the pair left by a 2n
        closure) from a search now."""
        left = self.limit if left is None else left
        decided = self.bounds.decided(S, left)
        if decided is not None:
            return decided
        key = self.key(S, left, allowed)
        entry = self.cache.get(key)
        if entry is None or entry[0] != entry[1]:
            guess = self.compiled_guess(S, left, allowed)
            if guess is not None:
                return guess
            self.solve(S, INF, left, None, allowed)
            entry = self.cache[key]
        return entry[2]

    def compiled_guess(self, S: Indexes, left: int, allowed: Allowed | None) -> Index | None:
        """The best guess at a small set that the compiled search solved, from its cache, or
        None: the guess solve() would return from there (its kernel answers an exact entry
        first), without loading that kernel."""
        small = self._small if isinstance(self._small, SmallTrees) else None
        if small is None or allowed is not None or not 2 < len(S) <= self.compiled_below or left <= 1:
            return None
        return small.exact_guess(S, left)
