"""The scoring guessers: pick the guess whose partition of the candidates scores best.

A metric maps partition counts (one row per guess, one column per reply; row sum n) to a
key where lower is better, and to the value people read. With c_r the class sizes:

    minimax        max_r c_r                          the largest class (Knuth 1977)
    expected       sum_r c_r^2 / n                    the expected size of the class we land in
    entropy        H = log2 n - sum_r c_r log2 c_r / n  bits learned (maximised)
    most-parts     #{r : c_r > 0}                     the number of classes (maximised)
    max-frequency  1 - c_miss / n                     chance the reply is not the all-miss one

Ties are exact: every key is an integer (entropy's c log2 c terms in 32-bit fixed point), so
permuted partitions tie and the tie rule, not floating-point rounding, decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from arena.game import Game, Index
from arena.spec import Param

from .base import Guesser, State, only_candidate

Counts = np.ndarray  # (guesses, replies) partition counts


_XLOGX = np.zeros(1)
_FIXED = 2.0**32  # c log2 c in fixed point: sums are exact integers, so permuted partitions tie


def _xlog2x(counts: Counts) -> np.ndarray:
    """c log2 c for each count (0 for 0), from a table grown on demand."""
    global _XLOGX
    top = int(counts.max(initial=0))
    if top >= len(_XLOGX):
        c = np.arange(max(top + 1, 2 * len(_XLOGX)), dtype=np.float64)
        _XLOGX = c * np.log2(np.maximum(c, 1))
    return _XLOGX[counts]


_XLOGX_FIXED = np.zeros(1, dtype=np.int64)


def _entropy_key(counts: Counts) -> np.ndarray:
    """sum_r c_r log2 c_r in fixed point (lower is more entropy, for a fixed n)."""
    global _XLOGX_FIXED
    if counts.max(initial=0) >= len(_XLOGX_FIXED):
        _xlog2x(counts)  # grows the float table to cover these counts
        _XLOGX_FIXED = np.rint(_XLOGX * _FIXED).astype(np.int64)
    return _XLOGX_FIXED[counts].sum(axis=1)


@dataclass(frozen=True)
class Metric:
    """A way to score partitions: `key` (lower is better, exact ties) and `value` (for people)."""

    name: str
    key: Callable[[Counts], np.ndarray]
    value: Callable[[Counts], np.ndarray]
    better: str  # "min" or "max": which way `value` improves
    summary: str


def _n(counts: Counts) -> np.ndarray:
    return counts.sum(axis=1)


METRICS: dict[str, Metric] = {m.name: m for m in [
    Metric("minimax", lambda c: c.max(axis=1), lambda c: c.max(axis=1), "min",
           "smallest largest class (Knuth)"),
    Metric("expected", lambda c: (c.astype(np.int64) ** 2).sum(axis=1),
           lambda c: (c.astype(np.float64) ** 2).sum(axis=1) / _n(c), "min",
           "smallest expected class size"),
    Metric("entropy", _entropy_key,
           lambda c: np.log2(_n(c)) - _xlog2x(c).sum(axis=1) / _n(c), "max",
           "largest entropy of the reply, in bits"),
    Metric("most-parts", lambda c: -np.count_nonzero(c, axis=1), lambda c: np.count_nonzero(c, axis=1), "max",
           "most non-empty classes"),
    Metric("max-frequency", lambda c: c[:, 0], lambda c: 1 - c[:, 0] / _n(c), "max",
           "largest chance that the reply is not the all-miss reply"),
]}


class Scoring(Guesser):
    """Guess the best-scoring guess of the pool by one metric of the partition counts.

    The pool is every guess (`pool=all`) or only the guesses that may be the secret
    (`pool=consistent`, and always once `small` or fewer candidates remain). A guess outside
    the candidates that does not split them is never chosen: it would learn nothing.
    Ties go to a guess that may be the secret, then the lowest index (`tiebreak=consistent`),
    or simply to the lowest index (`tiebreak=first`).
    """

    metric: Metric
    params = {
        "pool": Param("pool", ("all", "consistent"), "all", "the guesses considered"),
        "small": Param("small", int, 0, "with this many candidates or fewer, consider only consistent guesses"),
        "tiebreak": Param("tiebreak", ("consistent", "first"), "consistent",
                          "prefer a possible secret then the lowest index, or just the lowest index"),
    }

    def choose(self, game: Game, state: State) -> Index:
        last = only_candidate(game, state)
        if last is not None:
            return last
        pool = self.pool(game, state)
        counts = game.partition_counts(pool, state.candidates)
        return self.best(game, state, pool, counts)

    def pool(self, game: Game, state: State) -> np.ndarray | None:
        """The guesses considered (None: every guess)."""
        everything = self.values["pool"] == "all" and len(state.candidates) > self.values["small"]
        return None if everything else game.guesses_naming(state.candidates)

    def best(self, game: Game, state: State, pool: np.ndarray | None, counts: Counts) -> Index:
        indexes = game.all_guesses if pool is None else pool
        possible = game.is_candidate(state.candidates)[indexes]
        key = self.metric.key(counts)
        tied = np.flatnonzero(key == key.min())
        useless = (counts[tied].max(axis=1) == len(state.candidates)) & ~possible[tied]
        if useless.any():  # rare: the best score is a guess that cannot split the candidates
            key = key.astype(np.float64)
            key[(counts.max(axis=1) == len(state.candidates)) & ~possible] = np.inf
            tied = np.flatnonzero(key == key.min())
        if self.values["tiebreak"] == "consistent" and possible[tied].any():
            tied = tied[possible[tied]]
        return int(indexes[tied[0]])


def scoring_class(metric: Metric) -> type[Scoring]:
    """The Scoring subclass for one metric, registered under the metric's name."""
    return type(metric.name.title().replace("-", "") + "Guesser", (Scoring,),
                {"name": metric.name, "metric": metric, "summary": metric.summary,
                 "__doc__": f"Scoring guesser: {metric.summary}."})


SCORING = [scoring_class(m) for m in METRICS.values()]
