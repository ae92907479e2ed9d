"""The guesser's exact best response to a chooser's mix: the tree of least expected guesses.

Against a chooser who draws secret s with probability w_s, a guesser tree costs
sum_s w_s * guesses(s). The least cost over trees satisfies, for the set S of secrets still
possible (W(S) = sum of their weights, every one of which pays for the next guess),

    cost(S) = W(S) + min over guesses g of  sum over the classes C of S under g, except the hit,  cost(C),

with cost({s}) = w_s: the weighted average objective of the project's one exact search,
`arena.optimal.optimal_tree` (branch and bound over candidate sets, arena/optimal/search/).
Where the game ends once the secret is determined (Hangman), the same search minimises the
weighted misses (or letters, or lost games: arena.core.costs) instead. Given `OnTheSplit`, the
search is the split's (arena.optimal.split: the same optimum, by N worker processes), its
proofs journaled one file a mix, so that a best response a time limit stopped goes on in a
later run against the same mix (the double oracle's first response after resuming a state).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.costs import Cost
from ..core.errors import ArenaError
from ..optimal import SolvedTree, optimal_tree
from ..optimal.problem import Problem
from ..optimal.search.ordering import weighted_kernels_for
from ..trees.tree import Tree
from . import letters

#: The solver named in the double oracle's method line.
SOLVER = "arena.optimal.optimal_tree"


#: The share of the uniform mix blended into a chooser's mix that a greedy tree aims at (the
#: double oracle's greedy columns, a support response's completion): enough to aim its guesses
#: where the mix puts nothing, too little to move them where it puts something.
EPSILON = 1e-9


def with_uniform(mix: np.ndarray) -> np.ndarray:
    """`mix` (over every secret) with EPSILON of the uniform mix blended in."""
    return (1 - EPSILON) * mix + EPSILON * (1.0 / len(mix))


#: Guesses scored at once by weighted_greedy_tree (a block of guesses x candidates of intp).
GREEDY_BLOCK = 1 << 22
#: Scores closer than this (relative) are ties in weighted_greedy_tree.
TIE = 1e-12
#: Games with more replies than this score a set by sorting its replies (_sorted_scores), not by
#: a table of every reply (_dense_scores): Wordle's 243 replies made the table most of the work.
SORTED_CODES = 32


def weighted_greedy_tree(game, weights: np.ndarray, known: Mapping[tuple, int] | None = None) -> Tree:
    """A quick response to the chooser's mix `weights` for games too big to search: at each set
    S of candidates, the guess whose classes C (the hit finished) need the least estimated mass
    of further guesses, sum over C of w(C) log2(1 + |C|) (a singleton one more guess, a class of
    n about log2 n more), ties to a candidate, then to the first guess. Games with a hit only
    (Jotto, Mastermind, Wordle). The double oracle offers it to each time-limited best response
    as a starting tree: a column aimed at the secrets the chooser's mix weighs, which a search
    stopped after seconds on thousands of secrets rarely finds itself. `known`: a plan (keys
    as plans.tree_plan gives them) whose guesses are played where it has one and splits the
    set, the greedy guess elsewhere (a tree of some secrets completed on the others)."""
    from .plans import plan_tree

    w = np.asarray(weights, dtype=np.float64)
    plan: dict[tuple, int] = {}
    todo: list[tuple[tuple, np.ndarray]] = [((opening,), part) for opening, part in game.openings(game.all_secrets)]
    while todo:
        key, S = todo.pop()
        guess = known.get(key, -1) if known and len(S) > 1 else -1
        replies = game.table[guess, S] if guess >= 0 else None
        if replies is None or (replies == replies[0]).all() and replies[0] != game.hit:  # learns nothing here
            guess = int(game.secret_guess[S[0]]) if len(S) == 1 else _greedy_guess(game, S, w)
            replies = game.table[guess, S]
        plan[key] = guess
        for reply in np.unique(replies).tolist():
            if reply != game.hit:
                todo.append((key + (reply,), S[replies == reply]))
    return plan_tree(game, plan, "weighted-greedy")


def _greedy_guess(game, S: np.ndarray, w: np.ndarray) -> int:
    """weighted_greedy_tree's guess at S (at least two candidates): the least score, ties (within
    TIE: one partition sums its classes in another order at another guess) to a candidate, then
    to the first guess."""
    weights, guesses = w[S], len(game.guesses)
    if len(S) == 2:  # a candidate scores the other's weight, any other guess both: the heavier first
        light, heavy = sorted(weights)
        pair = game.secret_guess[S]
        return int(pair.min() if heavy - light <= TIE * max(1.0, light) else pair[int(np.argmax(weights))])
    kernels = _compiled(game)
    if kernels is not None:  # one pass in compiled code (Wordle: 6 s a tree by numpy)
        scores = kernels.greedy_scores(game.table, S, np.arange(guesses), w, game.hit, game.n_codes)
    else:
        score_block = _sorted_scores if game.n_codes > SORTED_CODES else _dense_scores
        step = max(1, GREEDY_BLOCK // len(S))
        scores = np.concatenate(
            [score_block(game, np.arange(a, min(a + step, guesses)), S, weights) for a in range(0, guesses, step)]
        )
    least = float(scores.min())
    tied = np.flatnonzero(scores <= least + TIE * max(1.0, abs(least)))
    named = np.isin(tied, game.secret_guess[S])
    return int(tied[named][0] if named.any() else tied[0])


#: arena.optimal.search.weighted_kernels where a game's greedy scores are computed in compiled
#: code, as its weighted search decides (below, numba's start-up would be most of a small
#: game's tree); else None. A name of its own, so that a benchmark can take the numpy path.
_compiled = weighted_kernels_for


def _dense_scores(game, pool: np.ndarray, S: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """sum over the classes C of S under each guess of `pool` (the hit left out) of
    w(C) log2(1 + |C|), from a table of guesses x replies; inf where one class holds all of S."""
    codes = game.n_codes
    keys = game.table[pool][:, S].astype(np.intp) + (np.arange(len(pool), dtype=np.intp) * codes)[:, None]
    counts = np.bincount(keys.ravel(), minlength=len(pool) * codes).reshape(len(pool), codes)
    mass = np.bincount(
        keys.ravel(), weights=np.broadcast_to(weights, keys.shape).ravel(), minlength=len(pool) * codes
    ).reshape(len(pool), codes)
    if game.rules.hits:  # the hit class is finished: it needs no further guess
        counts[:, game.hit] = 0
        mass[:, game.hit] = 0.0
    score = (mass * np.log2(1.0 + counts)).sum(axis=1)
    score[counts.max(axis=1) == len(S)] = np.inf  # one class holding all of S: learns nothing
    return score


def _sorted_scores(game, pool: np.ndarray, S: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """_dense_scores by sorting each guess's replies: the classes are the runs of equal replies,
    so the work follows |S|, not the number of replies (Wordle: 243, most of them empty)."""
    n = len(S)
    replies = game.table[pool][:, S]
    order = np.argsort(replies, axis=1, kind="stable")
    ranked = np.take_along_axis(replies, order, axis=1)
    begins = np.ones(ranked.shape, dtype=bool)
    begins[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
    starts = np.flatnonzero(begins.ravel())
    counts = np.diff(np.append(starts, ranked.size))
    mass = np.add.reduceat(weights[order].ravel(), starts)
    if game.rules.hits:  # the hit class is finished: it needs no further guess
        hit = ranked.ravel()[starts] == game.hit
        counts, mass = np.where(hit, 0, counts), np.where(hit, 0.0, mass)
    guess = starts // n
    score = np.bincount(guess, weights=mass * np.log2(1.0 + counts), minlength=len(pool))
    score[np.bincount(guess, minlength=len(pool)) == 1] = np.inf  # one class holding all of S
    return score


def mix_problem(game, weights: np.ndarray, cost: str | Cost | None = None) -> Problem:
    """The best response's problem: every secret of `game` weighted by the chooser's mix
    `weights` (one per secret, summing to 1), under `cost` (arena.core.costs; default the
    game's own: Hangman's misses)."""
    return Problem.of(game, weights=np.asarray(weights, dtype=np.float64), cost=cost)


def whole(problem: Problem) -> bool:
    """Does the problem ask for the whole game's best response (every secret, the average,
    no limit, no openers, every guess allowed)?"""
    from ..optimal.problem import Objective, Pool

    return (
        len(problem.secrets) == len(problem.game.secrets)
        and problem.max_guesses is None
        and problem.objective == Objective.AVERAGE
        and not problem.openers
        and problem.pool == Pool.ALL
    )


@dataclass(frozen=True)
class OnTheSplit:
    """Best responses searched by the split: `workers` processes, and where `journals` (a
    folder) is given each response's proofs in a journal of its own there, named by the mix
    (a run against another mix starts another; one against the same mix goes on from it)."""

    workers: int
    journals: str | Path | None = None

    def journal(self, problem: Problem) -> Path | None:
        """The journal of `problem`'s mix: the game and the digest of its weights, in `journals`."""
        if self.journals is None:
            return None
        key = problem.key()
        name = f"{key['game']}-{str(key['weights'])[:16]}".replace(":", "-").replace(",", "-").replace("=", "-")
        return Path(self.journals) / f"{name}.jsonl"


def split_response(
    problem: Problem, time_limit: float | None, incumbent: Tree | None, split: OnTheSplit
) -> tuple[SolvedTree, float]:
    """bounded_best_response on the split: its tree (the best greedy tree, or `incumbent`, when
    no first guess beat them in time) and its proven lower bound."""
    from ..optimal.split import SplitRun, split_root, split_tree

    journal = split.journal(problem)
    if journal is not None:
        journal.parent.mkdir(parents=True, exist_ok=True)
    run = SplitRun(workers=split.workers, time_limit=time_limit, journal=journal, start_tree=incumbent)
    tree = split_tree(split_root(problem, run), time_limit)
    paid = float(problem.given_weights @ tree.costs)
    return tree, min(float(tree.lower_bound), paid)


def best_response(problem: Problem) -> Tree:
    """An exact best response to the chooser's mix that weighs the problem's secrets
    (`mix_problem`)."""
    tree, _ = bounded_best_response(problem)
    return tree


def bounded_best_response(
    problem: Problem,
    time_limit: float | None = None,
    progress=None,
    incumbent: Tree | None = None,
    split: OnTheSplit | None = None,
) -> tuple[SolvedTree, float]:
    """A best response to the chooser's mix that weighs the problem's secrets (`mix_problem`)
    found within `time_limit` seconds (None: no limit), and a proven lower bound on the least
    expected cost of any tree against that mix.

    Without a limit, or when the search finishes in time, the tree is exact and the bound is
    its own cost. When the limit stops the search, the tree is the best found (at worst a
    greedy tree) and the bound is what the search proved: still a valid lower bound on the
    game's value, since the mix is one the chooser may play. `progress` (a ProgressLine)
    follows the search. `incumbent` (a tree already known, e.g. the best one found in an
    earlier round) gives the search its starting budget: the same answer, sooner. `split`:
    searched by the split's workers where the split can (arena.optimal.split.refusal), journaled
    (OnTheSplit)."""
    weights = problem.given_weights
    if weights is None:
        raise ArenaError("a best response is to a chooser's mix: give the problem weights (mix_problem)")
    if letters.SUPPORT and letters.fits(problem.game, problem.cost) and whole(problem):
        return letters.solved(problem.game, weights, problem.cost, time_limit)
    support = np.flatnonzero(weights > 0)
    if problem.game.rules.hits and whole(problem) and len(support) < len(weights) and split is None:
        # (the split searches every secret: given it, the zeros are carried)
        return on_support(problem, support, time_limit, progress, incumbent)
    if split is not None:
        from ..optimal.split import refusal  # the split's own test of what it can search

        if refusal(problem) is None:
            return split_response(problem, time_limit, incumbent, split)
    tree = optimal_tree(problem, time_limit, progress, incumbent)
    paid = float(weights @ tree.costs)
    return tree, min(float(tree.lower_bound), paid)


def on_support(
    problem: Problem,
    support: np.ndarray,
    time_limit: float | None = None,
    progress=None,
    incumbent: Tree | None = None,
) -> tuple[SolvedTree, float]:
    """bounded_best_response where the chooser's mix leaves secrets out (a game with a hit):
    searched on the `support` alone, then completed on every other secret. A tree's cost
    against the mix depends only on how it plays the secrets the mix weighs, and a tree of the
    support extends to the whole game at the same cost there, so the least cost over the
    support's trees is the least over the game's: the same optimum and the same proven bound,
    on a problem of |support| secrets (Wordle's LP mixes: a few hundred of 2,315) where the
    search over every secret carried the others in each set. The completion plays the search's
    guess wherever the support's replies lead and weighted_greedy_tree's (aimed at the mix
    `with_uniform`, so also off the support) elsewhere: a column of the whole game for the LP.
    Not on the split, which searches every secret (given it, the zeros are carried)."""
    weights = problem.given_weights
    assert weights is not None  # bounded_best_response's caller gave them
    tree, bound = bounded_best_response(
        Problem.of(problem.game, support, weights[support], cost=problem.cost), time_limit, progress, incumbent
    )
    from .plans import tree_plan

    whole_tree = weighted_greedy_tree(problem.game, with_uniform(weights), tree_plan(tree))
    solved = SolvedTree(
        problem.game,
        tree.guesser,
        whole_tree.roots,
        whole_tree.guesses,
        whole_tree.misses,
        covered=whole_tree.covered,
        value=float(weights @ problem.cost.of(whole_tree)),
        lower_bound=tree.lower_bound,
        seconds=tree.seconds,
        searched=tree.searched,
        time_limit=time_limit,
        stopped=tree.stopped,
        cost=tree.cost,
        weighted=True,
    )
    return solved, bound
