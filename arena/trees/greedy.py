"""The greedy (scoring) guesser: at every turn, the guess whose partition of the candidates
scores best by one metric (arena.trees.metrics). The `minimax`, `entropy`, ... agents play it, and
the solvers grow its trees as their starting points (`greedy_tree`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.errors import ArenaError
from ..core.game import Game, Index, Indexes
from ..core.players import GuesserProtocol
from ..core.spec import Param, canonical
from ..core.state import State
from ..core.traits import Traits
from .grow import grow_tree
from .metrics import METRICS, Counts, Metric, fused_tables
from .tree import Tree

PARAMS = {
    "pool": Param("pool", ("all", "consistent"), "all", "the guesses considered"),
    "small": Param("small", int, 0, "with this many candidates or fewer, consider only consistent guesses"),
    "tiebreak": Param(
        "tiebreak",
        ("consistent", "first"),
        "consistent",
        "prefer a possible secret then the lowest index, or just the lowest index",
    ),
}
TIES = Param(
    "ties", ("float", "exact"), "float", "float: rounded as published code does; exact: permuted partitions tie exactly"
)


def greedy_params(metric: Metric) -> dict[str, Param]:
    """The parameters of the greedy guesser of `metric` (entropy also says how it rounds)."""
    return {**PARAMS, "ties": TIES} if metric.float_key else dict(PARAMS)


def only_candidate(game: Game, state: State) -> Index | None:
    """With one secret left and a guess that names it, that guess (every sensible guesser agrees)."""
    if len(state.candidates) == 1:
        named = game.secret_guess[state.candidates[0]]
        if named >= 0:
            return int(named)
    return None


class Greedy(GuesserProtocol):
    """Guess the best-scoring guess of the pool by one metric of the partition counts.

    The pool is every guess (`pool=all`) or only the guesses that may be the secret
    (`pool=consistent`, and always once `small` or fewer candidates remain). A guess outside
    the candidates that does not split them is never chosen: it would learn nothing.
    Ties go to a guess that may be the secret, then the lowest index (`tiebreak=consistent`),
    or simply to the lowest index (`tiebreak=first`).
    """

    traits = Traits()
    deterministic = True
    metric: Metric

    def __init__(self, metric: Metric | str, **values: Any):
        self.metric = METRICS[metric] if isinstance(metric, str) else metric
        declared = greedy_params(self.metric)
        self.values = {k: values.get(k, p.default) for k, p in declared.items()}
        if self.values["small"] < 0:  # a count of candidates: a negative one is a typo, not "never"
            raise ArenaError(f"guesser {self.metric.name}: small must be 0 or more, got {self.values['small']}")
        self.spec = canonical(self.metric.name, declared, self.values)

    def __repr__(self) -> str:
        return f"<Greedy {self.spec}>"

    @property
    def exact(self) -> bool:
        """Are ties exact (integer keys, or entropy in fixed point)?"""
        return self.metric.float_key is None or self.values.get("ties") == "exact"

    def level_key(self):
        """The metric's key from class sizes run by run, if this guesser can be grown a whole
        level at a time (exact integer keys only: float entropy keeps its per-node rounding)."""
        return self.metric.runs_key if self.exact else None

    def openers_for(self, game: Game) -> tuple[Index, ...]:
        return ()

    def greedy_rule(self) -> Greedy:
        """This rule (the hook by which arena.trees.levels grows a greedy guesser's tree compiled)."""
        return self

    def compiled_how(self) -> str | None:
        """The compiled reduction of this rule's key (arena.core.kernels.REDUCTIONS), or None."""
        if self.metric.fused is None:
            return None
        return self.metric.fused[0] if self.exact else self.metric.fused[1]

    def compiled_numbers(self) -> tuple[int, int, int, int]:
        """The rule as arena.core.kernels.choose_nodes reads it: (pool is every guess, small, ties
        prefer a possible secret, integer keys)."""
        return (
            int(self.values["pool"] == "all"),
            int(self.values["small"]),
            int(self.values["tiebreak"] == "consistent"),
            int(self.exact),
        )

    def guess(self, game: Game, state: State) -> Index:
        return self.choose(game, state)

    def choose(self, game: Game, state: State) -> Index:
        last = only_candidate(game, state)
        if last is not None:
            return last
        pool = self.pool(game, state)
        if pool is None:
            pool = symmetric_pool(game, state)
        fused = self.fused_keys(game, pool, state.candidates)
        if fused is not None:
            return self.pick(game, state, pool, *fused)
        counts = game.partition_counts(pool, state.candidates)
        return self.best(game, state, pool, counts)

    def fused_keys(self, game: Game, pool: np.ndarray | None, candidates: Indexes):
        """(keys, largest class) of every guess by the game's compiled loop, or None (numpy)."""
        how = self.compiled_how()
        if how is None:
            return None
        found = game.fused_keys(pool, candidates, how, *fused_tables(len(candidates), how == "float-entropy"))
        if found is None:
            return None
        ikeys, fkeys, largest = found
        return (ikeys if self.exact else fkeys), largest

    def pool(self, game: Game, state: State) -> np.ndarray | None:
        """The guesses considered (None: every guess): those the rules allow after the moves so
        far (`Game.allowed_guesses`: every guess but in Wordle's hard mode), or the consistent
        ones, which the rules always allow."""
        everything = self.values["pool"] == "all" and len(state.candidates) > self.values["small"]
        return game.allowed_guesses(state.history) if everything else game.candidate_guesses(state.candidates)

    def best(self, game: Game, state: State, pool: np.ndarray | None, counts: Counts) -> Index:
        """The guess of best score by the partition counts of the pool (rows in pool order)."""
        float_key = self.metric.float_key
        key = self.metric.key(counts) if self.exact or float_key is None else float_key(counts)
        return self.pick(game, state, pool, key, counts.max(axis=1))

    def pick(self, game: Game, state: State, pool: np.ndarray | None, key: np.ndarray, largest: np.ndarray) -> Index:
        """The guess of least key (`largest`: each guess's largest class), by the tie rule.
        Whether a guess may be the secret is asked only of the guesses that tie (most nodes of
        a big game have a handful), not of the whole pool."""
        n = len(state.candidates)
        indexes = game.all_guesses if pool is None else pool
        consistent = pool is not None and not (self.values["pool"] == "all" and n > self.values["small"])

        def possible(at: np.ndarray) -> np.ndarray:
            if consistent:  # the consistent pool: a guess in it that names a secret names a candidate
                return game.same_secret[indexes[at]] >= 0
            return names_a_candidate(game, state.candidates, indexes[at])

        tied = np.flatnonzero(key == key.min())
        tied_possible = possible(tied)
        if ((largest[tied] == n) & ~tied_possible).any():  # rare: the best guess cannot split the candidates
            every = possible(np.arange(len(key)))
            key = key.astype(np.float64)
            key[(largest == n) & ~every] = np.inf
            tied = np.flatnonzero(key == key.min())
            tied_possible = every[tied]
        if self.values["tiebreak"] == "consistent" and tied_possible.any():
            tied = tied[tied_possible]
        return int(indexes[tied[0]])


def names_a_candidate(game: Game, candidates: Indexes, guesses: Indexes) -> np.ndarray:
    """A boolean per guess: does it name one of the candidates? (By binary search where the
    candidates are in increasing order, as the engine keeps them; else by a set lookup.)"""
    named = game.same_secret[guesses]
    if len(candidates) == 0:
        return np.zeros(len(guesses), dtype=bool)
    if len(candidates) > 1 and not (candidates[1:] > candidates[:-1]).all():
        return (named >= 0) & np.isin(named, candidates)
    at = np.minimum(np.searchsorted(candidates, named), len(candidates) - 1)
    return (named >= 0) & (candidates[at] == named)


def symmetric_pool(game: Game, state: State) -> Indexes | None:
    """One guess per class of guesses equivalent under the game's symmetries that fix every guess
    of the history, and exchange the colours no candidate has (game.symmetry(): Mastermind's
    colour and position permutations; `Stabilizer.representatives` with the candidates), or
    None (every guess) where the game has none or the candidates are not all the history allows.

    Why the greedy choice is unchanged: if sigma fixes every guess of the history and keeps
    every reply, it maps the secrets consistent with the history onto themselves (a colour no
    candidate has is exchanged without moving any), so when the candidates are exactly those
    (`state.whole`), guess g and sigma g split them into classes of the same sizes reply by
    reply: the same key, float keys included, and g is a candidate if and only if sigma g is.
    Every guess of a class therefore ties, and the tie rule's lowest index is the class's least
    guess (the least code in numerical order), its representative (mastermind_symmetry.py).
    The stabilizers are built once per history, each from its parent's."""
    if not state.whole:
        return None
    if "_greedy_symmetry" not in game.__dict__:  # the empty history's, kept with the game
        symmetry = game.symmetry()
        game.__dict__["_greedy_symmetry"] = None if symmetry is None else symmetry.stabilizer()
    stabilizer = game.__dict__["_greedy_symmetry"]
    for guess, _ in state.history:  # each history's stabilizer is kept by the stabilizers themselves
        if stabilizer is None:
            return None
        stabilizer = stabilizer.after(guess)
    return None if stabilizer is None else stabilizer.representatives(game.all_guesses, state.candidates)


def greedy_tree(game: Game, metric: str, pool: str = "all", secrets: Indexes | None = None) -> Tree:
    """The tree of the greedy guesser of `metric` over `pool` against every secret of `secrets`."""
    return grow_tree(game, Greedy(metric, pool=pool), secrets)
