"""Every bound the project proves on a game's value, folded into one interval.

A double oracle stopped early brackets the value between what its own chooser mix proves and
what its own guesser mix concedes. Other proofs may say more, and each goes in:

- **the uniform chooser**: a chooser playing every secret alike is one of the chooser's
  strategies, so the value is at least the least expected cost of any tree against it, the
  exact optimum of `arena optimal GAME` divided by the number of secrets. Proven by this run's
  first best response where it finished; else searched here (within a time limit: a stopped
  search still proves the bound it reached), with its level bound beside it in a game of
  guesses that hit the secret (`level_bound`: LB_3 deepened best first from LB_2; Jotto's
  LB_2 17,035/2,845, where the search's first level proves 16,623); or read from a split's journal (`arena optimal
  GAME --workers W --journal FILE`, its records checked as `arena optimal --standing` checks
  them), which is how whole Wordle's 7,920/2,315 goes in (35 minutes of search, not minutes):
  named by --bounds-from, or found among the project's own journals (`witness_journals`: a
  checkout's experiments/data, or ARENA_WITNESSES), whose first lines say which game each proves;
- **saved equilibria** (`--bounds-from FILE`, files of `arena equilibrium --save`): the
  exact best response to their chooser mix, searched again (a lower end), and their guesser
  mix's worst secret, replayed (an upper end): verified.verified_value, never the file's figures;
- **a chooser mix saved for another game** (`--bounds-from FILE`, where every secret the mix
  weighs is one of this game's: a Hangman list's core of a few dozen words, solved as a list of
  its own): its exact best response searched again in this game (verified.borrowed_bound), a
  lower end; nothing else of that file is read;
- **this run's guesser mix**, replayed: its exact worst secret (`mix_worst`), not the LP's float.

The interval printed is the best lower end and the best upper end, each named with where it
comes from (verified.fold). The bounds go into the file `--save` writes ("bounds", what each
rests on), and `arena evaluate --value-from FILE` proves each again (verified.reproven): the
uniform chooser by a search and its level bound, a journal read and checked again, a saved equilibrium verified
again; nothing read from the file is taken as proven.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..core.costs import Guesses, cost_for
from ..core.errors import ArenaError
from ..core.game import Game
from .solution import SETTLED, Equilibrium
from .symmetry import Symmetry


@dataclass(frozen=True)
class KnownBound:
    """One proven end of the value's interval: `side` "lower" or "upper", its value (and exact
    fraction where known), where it comes from in words (`how`), and what it rests on
    (`rests_on`, JSON: what `arena evaluate --value-from` proves it again from)."""

    side: str
    value: float
    exact: Fraction | None
    how: str
    rests_on: dict

    def line(self) -> str:
        """`lower 3.421166 = 7920/2315, the exact optimum against the uniform chooser (...)`."""
        # a fraction of float probabilities says nothing a reader can use: shown where it is short
        shown = self.exact is not None and 1 < self.exact.denominator <= 10**6
        exact = f" = {self.exact}" if shown else ""
        return f"{self.side} {self.value:.6f}{exact}, {self.how}"

    def to_json(self) -> dict:
        return {
            "side": self.side,
            "value": self.value,
            "exact": str(self.exact) if self.exact is not None else None,
            "how": self.how,
            "rests_on": self.rests_on,
        }


def _total(total: float, n: int) -> Fraction:
    """A proven lower bound on a total of whole costs, as a fraction of `n` secrets: the least
    whole number it admits (the search adds floats: a hair below a whole number is that number)."""
    return Fraction(math.ceil(total - 1e-6), n)


def uniform_bound(game: Game, cost: str, time_limit: float | None, level_limit: float | None = None) -> KnownBound:
    """The least expected cost of any tree against the uniform chooser, proven by the exact
    search within `time_limit` seconds (None: to the end): the optimum where it finishes, else
    the higher of the bound it reached and, in a game of guesses that hit the secret,
    `level_bound` for `level_limit` seconds more (None: as long again)."""
    from ..optimal import optimal_tree

    n = len(game.secrets)
    tree = optimal_tree(game, cost=cost, time_limit=time_limit)
    costs = cost_for(game, cost).of(tree)
    if not tree.stopped and float(costs.sum()) == tree.value and tree.exact:
        exact = Fraction(int(costs.sum()), n)
        how = f"the exact optimum against the uniform chooser (searched in {tree.seconds:.2g} s)"
        return KnownBound("lower", float(exact), exact, how, {"uniform": "search", "exact": True})
    stopped = f"a search stopped at its time limit ({time_limit:g} s)"
    if not isinstance(cost_for(game, cost), Guesses):
        how = f"proven against the uniform chooser by {stopped}"
        return KnownBound("lower", tree.lower_bound / n, None, how, {"uniform": "search", "exact": False})
    searched = KnownBound(
        "lower",
        float(_total(tree.lower_bound, n)),
        None,
        f"proven against the uniform chooser by {stopped}",
        {"uniform": "search", "exact": False},
    )
    level = None if time_limit is None else level_bound(game, cost, time_limit if level_limit is None else level_limit)
    return level if level is not None and level.value > searched.value else searched


def level_bound(game: Game, cost: str, time_limit: float, levels: int = 3) -> KnownBound | None:
    """The uniform chooser's optimum is at least the level bound LB_levels (lookahead.py: each
    first guess's classes bounded by their own best guesses, `levels` deep; guesses that hit
    the secret, equal weights), computed best first and deepening for `time_limit` seconds
    (stopped, still a bound: the least on its heap, never below the LB_2 it completed first);
    None in a game whose cost is not guesses until a hit. Jotto: 16,623 by the search's first
    level, LB_2 17,038 after 235 s, LB_3 then about 80 s a first guess (one shared core).
    `arena evaluate --value-from` proves it again as it proves a stopped search's bound
    (`uniform_bound`)."""
    from ..optimal.lookahead import uniform_level_bound

    if not (game.rules.hits and isinstance(cost_for(game, cost), Guesses)):
        return None

    started = time.perf_counter()
    total = uniform_level_bound(game, levels, started + time_limit)
    seconds = time.perf_counter() - started
    how = (
        f"proven against the uniform chooser by its level bound LB_{levels}, best first and deepening ({seconds:.3g} s)"
    )
    return KnownBound(
        "lower", float(_total(total, len(game.secrets))), None, how, {"uniform": "search", "exact": False}
    )


def journal_bound(game: Game, path: str | Path, cost: str) -> KnownBound:
    """The lower bound a split's journal proves (`arena optimal GAME --journal FILE`, no guess
    limit), its records checked as `arena optimal --standing` checks them; nothing is searched.
    A journal of equal weights bounds the uniform chooser's optimum; one of given weights (which
    its first line carries: journal.journal_weights) bounds the optimum against the chooser mix
    they make, w / sum(w), and so the value too (the chooser may play that mix)."""
    from ..optimal.journal import ADVICE, journal_header, journal_weights
    from ..optimal.problem import Problem
    from ..optimal.split import SplitRun, split_root

    if not isinstance(cost_for(game, cost), Guesses) or not game.rules.hits:
        raise ArenaError(f"{path}: a split's journal bounds the guesses of a game whose guesses hit the secret")
    stored = journal_header(path)
    weights = None if stored is None else journal_weights(stored, path)
    if weights is not None and len(weights) != len(game.secrets):
        raise ArenaError(
            f"{path}: its weights are for {len(weights):,} secrets, {game.spec} has {len(game.secrets):,} "
            "(give --bounds-from a journal of this game)"
        )
    try:
        result = split_root(Problem.of(game, weights=weights), SplitRun(journal=path, standing=True, workers=1))
    except ArenaError as e:
        message = str(e)
        for advice in ADVICE:  # `arena optimal`'s: this journal is only read
            message = message.replace(advice, "")
        if message == str(e):
            raise
        raise ArenaError(f"{message} (give --bounds-from a journal of this game)") from None
    by = f", written by arena {result.written_by}" if result.written_by else ""
    checked = f"its records checked as `arena optimal --standing` checks them{by}"
    if weights is None:
        bound, against = _total(result.lower_bound, len(game.secrets)), "the uniform chooser"
    else:
        bound = Fraction(result.lower_bound) / Fraction(float(weights.sum()))
        against = f"the chooser mix its weights make ({np.count_nonzero(weights):,} secrets weighed)"
    if result.exact:
        how = f"the exact optimum against {against}, read from the journal {path} ({checked})"
    else:  # the bound records say how far the run that wrote them got: nothing here searched it again
        how = f"a bound against {against}, read from the journal {path}'s bound records, not searched again here ({checked})"
    rests_on = {"journal": str(path)} | ({} if weights is None else {"weighted": True})
    return KnownBound("lower", float(bound), bound if result.exact else None, how, rests_on)


#: Where the project's own proofs lie: the directories of `ARENA_WITNESSES` (separated as PATH
#: is; empty: none), else a checkout's experiments/data, where its committed journals are.
WITNESSES_ENV = "ARENA_WITNESSES"


def witness_dirs() -> list[Path]:
    """The directories searched for journals that prove a game's uniform optimum (WITNESSES_ENV)."""
    given = os.environ.get(WITNESSES_ENV)
    if given is not None:
        return [Path(d) for d in given.split(os.pathsep) if d]
    checkout = Path(__file__).resolve().parents[2] / "experiments" / "data"
    return [checkout] if checkout.is_dir() else []


def witness_journals(game: Game, cost: str) -> list[Path]:
    """The split journals in the witness directories whose problem is this game's against the
    uniform chooser (equal weights, every guess, no limit; any version of arena), largest
    first: what `journal_bound` folds in without --bounds-from naming them. Only their first
    lines are read here."""
    from ..optimal.journal import journal_header, journal_key, same_problem
    from ..optimal.problem import Problem

    if not isinstance(cost_for(game, cost), Guesses) or not game.rules.hits:
        return []
    key = None
    found = []
    for folder in witness_dirs():
        for path in sorted(folder.glob("*.jsonl*")):
            if not path.name.endswith((".jsonl", ".jsonl.gz")) or not path.is_file():
                continue
            stored = journal_header(path)
            key = key or journal_key(Problem.of(game))
            if stored is not None and same_problem(stored, key):
                found.append(path)
    return sorted(found, key=lambda p: -p.stat().st_size)


def mix_worst(
    probabilities: Sequence[float | Fraction], costs: Sequence[np.ndarray], symmetry: Symmetry
) -> tuple[Fraction, int]:
    """(the largest expected cost over secrets, that secret) of the mix playing tree k (costs[k]
    per secret) with probability proportional to probabilities[k] (floats or fractions), each
    carried by a uniformly random element of `symmetry`'s group: exact, from the probabilities as given.

    With the weights over one denominator D (their numerators N_k whole), an orbit O of |O|
    secrets expects sum_k N_k totals[k, O] / (D |O|): the sums are whole numbers, taken exactly
    by integer matrix products over the N_k's digits (a Wordle mix of 500 trees: 0.1 s, where a
    fraction at a time took 30 s)."""
    weights = [Fraction(p) for p in probabilities]
    total = sum(weights)
    playing = [(w, c) for w, c in zip(weights, costs) if w]
    sizes = [int(k) for k in symmetry.sizes]
    if not playing:  # every row expects 0: the first
        return Fraction(0) / total, int(np.flatnonzero(symmetry.orbit == 0)[0])
    D = math.lcm(*(w.denominator for w, _ in playing))
    numerators = [w.numerator * (D // w.denominator) for w, _ in playing]
    totals = symmetry.totals(np.array([np.asarray(c) for _, c in playing]))
    sums = _exact_products(numerators, totals)
    row = max(range(len(sizes)), key=lambda r: Fraction(sums[r], sizes[r]))
    return Fraction(sums[row], D * sizes[row]) / total, int(np.flatnonzero(symmetry.orbit == row)[0])


def _exact_products(numerators: list[int], totals: np.ndarray) -> list[int]:
    """sum_k numerators[k] * totals[k, r] for each column r, exactly (Python integers): the
    numerators cut into digits small enough that a digit's int64 product over every k cannot
    overflow, one matrix product a digit; term by term where a number is negative."""
    top = max(1, int(totals.max(initial=0)))
    bits = 62 - (len(numerators) * top).bit_length()
    if bits < 1 or min(numerators) < 0 or int(totals.min(initial=0)) < 0:
        return [sum(n * int(t) for n, t in zip(numerators, column)) for column in totals.T.tolist()]
    mask, left, shift = (1 << bits) - 1, list(numerators), 0
    sums = [0] * totals.shape[1]
    while any(left):
        digit = np.array([n & mask for n in left], dtype=np.int64)
        for r, part in enumerate((digit @ totals).tolist()):
            sums[r] += part << shift
        left, shift = [n >> bits for n in left], shift + bits
    return sums


def own_bounds(eq: Equilibrium) -> list[KnownBound]:
    """What the run itself proves: its best lower bound (against the chooser mix it keeps), its
    uniform chooser's optimum where its first best response finished, and its guesser mix's
    exact worst secret."""
    n = len(eq.game.secrets)
    paid = cost_for(eq.game, eq.cost)
    out = [KnownBound("lower", eq.lower, None, "the best response to this run's chooser mix", {"chooser": "own"})]
    if eq.uniform is not None:
        exact = Fraction(round(eq.uniform * n), n) if isinstance(paid, Guesses) else None
        how = "the exact optimum against the uniform chooser (this run's first best response)"
        out.append(KnownBound("lower", eq.uniform, exact, how, {"uniform": "search", "exact": True}))
    if len(eq.trees):
        worst, secret = mix_worst([float(p) for p in eq.guesser], [paid.of(t) for t in eq.trees], eq.symmetry)
        trees = f"{len(eq.trees)} tree{'s' if len(eq.trees) != 1 else ''}"
        how = f"this run's guesser mix of {trees}, replayed: its worst secret {eq.game.secrets[secret]}"
        out.append(KnownBound("upper", float(worst), worst, how, {"guesser": "own"}))
    return out


def uniform_journal(bound: KnownBound) -> bool:
    """Is `bound` read from a split's journal of equal weights (the uniform chooser's; a weighted
    journal bounds another mix, which may prove more)?"""
    return "journal" in bound.rests_on and not bound.rests_on.get("weighted")


def uniform_optimum(bound: KnownBound) -> bool:
    """Is `bound` the exact optimum against the uniform chooser (searched, or read from a journal)?"""
    return bound.exact is not None and bool(bound.rests_on.get("uniform") or uniform_journal(bound))


def best(bounds: Sequence[KnownBound]) -> tuple[KnownBound, KnownBound]:
    """The highest lower end and the lowest upper end; of ends equal but for float rounding
    (SLACK), an exact one, then the first named (a run's own float mix that reaches a saved
    equilibrium's fraction to the last bits must not hide the fraction)."""
    lowers = [b for b in bounds if b.side == "lower"]
    uppers = [b for b in bounds if b.side == "upper"]
    top = max(b.value for b in lowers)
    bottom = min(b.value for b in uppers)
    # exact ends compared as fractions: a saved 219/68 beats the float mix that reaches it
    lower = max(
        (b for b in lowers if not _above(top, b.value)),
        key=lambda b: (b.exact is not None, b.value if b.exact is None else b.exact),
    )
    upper = min(
        (b for b in uppers if not _above(b.value, bottom)),
        key=lambda b: (b.exact is None, b.value if b.exact is None else b.exact),
    )
    return lower, upper


#: How far a lower end may lie above an upper end, or a bound read from a file above the
#: optimum proven here, by float rounding alone (the ends are sums of float probabilities).
SLACK = 1e-9


def _above(low: float, high: float) -> bool:
    """Is `low` above `high` by more than float rounding?"""
    return low > high + SLACK * max(1.0, abs(high))


def consistent(bounds: Sequence[KnownBound]) -> tuple[KnownBound, KnownBound]:
    """The best lower and upper end of `bounds` (best), once checked that they can all be right:
    no bound read from a file above the uniform chooser's optimum searched here, and no lower
    end above an upper end (float rounding aside); either is one ArenaError naming both sources."""
    searched = [b for b in bounds if b.rests_on.get("uniform") == "search" and b.rests_on.get("exact")]
    for b in bounds:
        if searched and b.side == "lower" and uniform_journal(b) and _above(b.value, searched[0].value):
            raise ArenaError(
                f"the lower end {b.value:.6f} ({b.how}) is above the optimum against the uniform chooser, "
                f"{searched[0].value:.6f} ({searched[0].how}): they cannot both be right: a damaged or forged file"
            )
    lower, upper = best(bounds)
    if _above(lower.value, upper.value):
        raise ArenaError(
            f"the lower end {lower.value:.6f} ({lower.how}) and the upper end {upper.value:.6f} ({upper.how}) "
            "cannot both be right: a damaged or forged file"
        )
    return lower, upper


def folded(eq: Equilibrium, bounds: Sequence[KnownBound]) -> Equilibrium:
    """`eq` narrowed to the best of `bounds` (its value the midpoint, or the upper end where they
    meet); bounds that cannot all be right are one ArenaError (consistent)."""
    lower, upper = consistent(bounds)
    if eq.settled and eq.exact is not None and lower.value <= eq.lower and upper.value >= eq.upper:
        return eq  # nothing beats the exact value proven
    low = min(lower.value, upper.value)  # float rounding only (consistent): the value lies in between
    settled = upper.value - low <= SETTLED
    value = upper.value if settled else (low + upper.value) / 2
    uniform = [b for b in bounds if uniform_optimum(b)]
    notes = eq.notes
    if settled and not eq.settled:
        notes += ("settled by the bounds folded in",)
    if not uniform and eq.uniform is None and not settled:
        searched = [b for b in bounds if b.rests_on.get("uniform")]
        reached = f" (a search proved {searched[0].value:.6f} only)" if searched else ""
        split = eq.game.rules.hits and isinstance(cost_for(eq.game, eq.cost), Guesses)  # what the split searches
        how = (
            f": `arena optimal {eq.game.spec} --workers N --journal FILE` proves it, and `--bounds-from FILE` folds it in"
            if split
            else " (`--uniform-limit S` gives its search S seconds)"
        )
        notes += (f"the optimum against the uniform chooser is not proven here{reached}{how}",)
    return replace(
        eq,
        lower=low,
        upper=upper.value,
        value=value,
        uniform=eq.uniform if eq.uniform is not None or not uniform else uniform[0].value,
        bounds=(lower, upper),
        notes=notes,
    )
