"""Two guessers compared secret by secret.

Every guesser plays every secret, so a comparison of two is paired: for each secret s, the
difference d_s = cost_B(s) - cost_A(s) (a random guesser's cost averaged over its
repetitions). Over the game's secrets:

- the mean difference, mean_s d_s: exact when both guessers are deterministic (it is the
  difference of their totals over the list, divided by its size), an estimate otherwise;
- how many secrets B needs fewer, as many, and more than A;
- the sign test: the probability, were B and A equally good, of a split of the secrets that
  differ at least as uneven as the one seen (two-sided binomial, p = 1/2), which reads the list
  as a sample of the secrets such a game could have;
- Student's t interval of the mean difference at 95%, with the same reading
  (mean -/+ t_{0.975, n-1} sd(d) / sqrt(n)).

    compare(evaluate(game, knuth), evaluate(game, entropy)).line()
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...core.costs import Cost, Guesses
from ...core.errors import ArenaError
from ...play.evaluate import Evaluation

GUESSES = Guesses()  # the default cost: every guess counts


@dataclass(frozen=True)
class Paired:
    """B against A, secret by secret, on one cost (`unit`: guesses, or misses; a cost that is
    no sum over the game, such as lost games, is compared on what it counts, the misses)."""

    first: str  # A
    second: str  # B
    unit: str
    secrets: int
    difference: float  # mean over secrets of cost_B - cost_A: below 0, B is better
    fewer: int  # secrets where B needs fewer than A
    same: int
    more: int
    p_sign: float  # the two-sided sign test's p-value (1 where no secret differs)
    low: float  # 95% t interval of the mean difference, the secrets read as a sample
    high: float
    exact: bool  # both deterministic: `difference` is exact over these secrets

    def line(self) -> str:
        """`entropy - knuth: -0.061 guesses a game (exact); fewer on 412 secrets, ...`."""
        how = "exact over these secrets" if self.exact else "estimated from the repetitions"
        return (
            f"{self.second} - {self.first}: {self.difference:+.4f} {self.unit} a game ({how}); "
            f"fewer on {self.fewer:,} secrets, as many on {self.same:,}, more on {self.more:,}; "
            f"sign test p = {self.p_sign:.2g}; 95% interval [{self.low:+.4f}, {self.high:+.4f}]"
        )


def per_secret(result: Evaluation, cost: Cost = GUESSES) -> np.ndarray:
    """A guesser's mean cost per secret over its repetitions: `cost.counted` of its totals per
    secret (a sum over repetitions of a cost that adds up), divided by the repetitions."""
    guesses, misses = result.column_totals, result.column_misses
    if guesses is None:
        raise ArenaError(f"{result.guesser} on {result.game}: no per-secret results kept")
    totals = cost.counted.of_rows(guesses, misses if misses is not None else np.zeros_like(guesses))
    return totals.astype(np.float64) / result.shape[0]


def compare(a: Evaluation, b: Evaluation, cost: Cost = GUESSES, deterministic: bool = False) -> Paired:
    """B (`b`) against A (`a`) on the same game's secrets and `cost` (arena.core.costs.cost_for(game)
    for the game's own), as the module's docstring says; `deterministic`: both guessers are
    (their traits say so), so that the difference is exact (a random guesser played once is not)."""
    if a.game != b.game or a.shape[1] != b.shape[1]:
        raise ArenaError(f"a paired comparison needs one game: {a.game} ({a.shape[1]}) and {b.game} ({b.shape[1]})")
    exact = deterministic and a.shape[0] == 1 and b.shape[0] == 1
    return paired(a.guesser, per_secret(a, cost), b.guesser, per_secret(b, cost), cost.counted.unit, exact)


def paired(first: str, a: np.ndarray, second: str, b: np.ndarray, unit: str, exact: bool) -> Paired:
    """B against A from their mean costs per secret (`a[s]`, `b[s]`: the same secrets in one
    order), as the module's docstring says; `exact`: both deterministic."""
    from scipy.stats import binomtest, t  # lazy: heavy

    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    n = len(d)
    fewer, more = int(np.count_nonzero(d < 0)), int(np.count_nonzero(d > 0))
    p = binomtest(fewer, fewer + more, 0.5).pvalue if fewer + more else 1.0
    mean = float(d.mean())
    half = float(t.ppf(0.975, n - 1)) * float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Paired(
        first=first,
        second=second,
        unit=unit,
        secrets=n,
        difference=mean,
        fewer=fewer,
        same=n - fewer - more,
        more=more,
        p_sign=float(p),
        low=mean - half,
        high=mean + half,
        exact=exact,
    )


def stored_pair(report, game: str, first: str, second: str, chooser: str = "uniform") -> Paired:
    """Guesser `second` against `first` (labels) on `game` against `chooser` in a tournament's
    Report, secret by secret, from its stored per-secret records, on the game's payoff (lost games
    on what they count, the misses); an ArenaError where either cell did not play every secret
    or was stored without the records."""
    counted = report.payoff_for(game).cost.counted  # guesses, or misses (lost games count them)
    rows = []
    for label in (first, second):
        found = [r for r in report.results if (r.cell.game, r.cell.chooser, r.cell.label) == (game, chooser, label)]
        if not found or not found[0].measured:
            raise ArenaError(f"no measured cell of {label!r} against {chooser!r} on {game}")
        r = found[0]
        totals = r.per_secret[0 if counted.pays_every_guess else 1]  # (guesses, misses)
        if totals is None or len(totals) < 2:
            raise ArenaError(
                f"{label!r} against {chooser!r} on {game} has no per-secret records (a chooser that does not "
                "play every secret, or a store written before they were kept: run it again with --force)"
            )
        repetitions = sum((r.histogram or {}).values()) / len(totals)  # each secret once in each
        rows.append((repetitions, r, np.asarray(totals, dtype=np.float64) / max(repetitions, 1)))
    (reps_a, ra, a), (reps_b, rb, b) = rows
    if len(a) != len(b):
        raise ArenaError(
            f"{first!r} and {second!r} on {game} have per-secret records of {len(a)} and {len(b)} secrets: "
            "one was stored before every secret's record was kept; run it again with --force"
        )
    # deterministic for certain only where the cell asked for repetitions and one was played (the
    # run plays a deterministic guesser once); a cell of one repetition may be a random guesser's
    exact = all(reps == 1 and r.cell.repeat > 1 for reps, r in ((reps_a, ra), (reps_b, rb)))
    return paired(first, a, second, b, counted.unit, exact)
