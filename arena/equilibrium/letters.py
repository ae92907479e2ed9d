"""Hangman's exact best response, searched on the chooser's support only.

Against a chooser's mix q, a guesser tree's expected cost depends only on how it plays the
words q weighs: the least expected cost over all trees is the least over trees of the game
restricted to the support of q (any such tree extends to the whole list, costing the same on
the support). So the search runs on the support alone, often a few dozen words of thousands,
and its optimum is an exact lower bound on the game's value (q is a mix the chooser may play).
The tree is then *completed* on every other word by a quick rule (`greedy_letter`: the letter
most of the candidates hold), so that it is a column of the whole game for the LP.

The search itself, a branch and bound over the support's candidate sets with its bounds and
cuts, is support_search.py (plain Python); compiled_letters.py runs the same recursion compiled,
for supports of COMPILED_WORDS words or more (`letter_search` chooses).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..core.costs import Cost, Lost, Misses, cost_for
from ..core.errors import ArenaError
from ..core.game import Game, Indexes
from ..optimal.solved import SolvedTree
from ..trees.tree import Tree
from .plans import plan_tree
from .support_search import LetterSearch, Opening, Stopped

#: Weights below this share of the largest count as outside the chooser's support (the LP's
#: mixes carry round-off dust); the mix searched is the rest, renormalised, itself a mix the
#: chooser may play, so its optimum is still a proven lower bound.
DUST = 1e-12

#: The solver named in the double oracle's method line.
SOLVER = "arena.equilibrium.letters, on the chooser's support"
#: Hangman's best responses searched on the chooser's support (this module); False: over every
#: word by arena.optimal (the tests and the timings compare both).
SUPPORT = True
#: Supports of at least this many words are searched by the compiled recursion
#: (compiled_letters.py: the same optimum, about 16x faster on hard mixes of 60-80 words:
#: benchmarks/bench_support_search.py); smaller ones by the plain search, where loading
#: numba would cost more than it saves.
COMPILED_WORDS = 48
#: Lists with an opening of more words than this are solved by the double oracle over growing
#: rows (growing.py), which never searches every word against the uniform chooser.
UNIFORM_WORDS = 200


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
        search = LetterSearch(Opening.of(game, part[:0], np.zeros(0)), None, None)
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


def support_mix(weights: np.ndarray) -> np.ndarray:
    """The mix the search answers: `weights` without their dust (DUST), summing to 1."""
    w = np.asarray(weights, dtype=np.float64)
    kept = np.where(w > DUST * w.max(), w, 0.0)
    return kept / kept.sum()


def letter_search(
    opening: Opening, strikes: int | None, deadline: float | None, rank: np.ndarray | None = None
) -> LetterSearch:
    """The search of an opening's support: compiled from COMPILED_WORDS words (LetterSearch
    either way: the same optimum)."""
    if len(opening.words) < COMPILED_WORDS:
        return LetterSearch(opening, strikes, deadline, rank)
    from .compiled_letters import CompiledSearch  # lazy: numba, and it builds on this module

    return CompiledSearch(opening, strikes, deadline, rank)


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
        opening = Opening.of(game, words, mix[words])
        search = letter_search(opening, strikes, deadline, rank)
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
    known = search.known_lower(C, k)
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
