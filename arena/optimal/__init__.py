"""Exact optimal guessers: the strategy tree of least expected guesses, by branch and bound.

    from arena.optimal import optimal_tree
    tree = optimal_tree(make_game("mastermind"))          # 5,625 guesses over 1,296 codes
    tree.value, tree.lower_bound, tree.guesses.max()      # 5625.0 5625.0 6

Modules, one idea each:

    bounds     lower bounds on the guesses (or misses) a class of secrets still needs, and
               their derivation
    search/    the one exact search (branch and bound, under any cost of arena.core.costs), also
               behind the equilibrium's best responses, the minimax chooser's look-ahead
               (Search.worst_case) and the exact Hangman guesser (fewest-misses); its own
               __init__ maps its modules (branch, scoring, closures, misses, depth, cache)
    solve      `optimal_tree`, the public entry: takes a Problem (or a game and its settings),
               seeds and runs the search, and returns its result as a SolvedTree (also after
               fixed openers: `openers=`)
    problem    `Problem`: what a search's result depends on (game, secrets, weights, pool,
               objective, cost, guess limit, openers), checked once, with the key that journals
               and witness files record
    seeds      the greedy trees that seed a search (its first incumbent), grown side by side
               in forked processes where they are slow, and a tree's weighted cost
    solved     `SolvedTree`: a tree with its proven bound and the search's effort, and the text
               that reports it (`str()`, `report()`)
    inputs     the search's arguments checked and put in its form: secrets, weights, openers
    params     the `optimal` agent's parameters, declared once (the agent takes them; the
               solver names the agent that replays its trees with them: agent_spec)
    growing    the one tree grower (arena.trees.grow) bound to a search (grow_by): the optimal
               tree, a tree read off a depth proof, a search's best guesses
    split      the split: pieces (a first guess, one of its reply classes) searched by worker
               processes or a Dask cluster with one incumbent, a resumable journal and a
               proven bound at any moment (`arena optimal --workers N`)
    ledger     the split's bookkeeping: the root and every piece that split itself as nodes
               of guesses, bounds up and budgets down, and which task is next
    parallelism  the split's work (sets searched), its critical path and their ratio, and how
               busy each worker was (what `arena optimal --workers N` and --standing report)
    pieces     a piece's work on a worker (forked, or a Dask worker's own search): open a
               guess, or solve one of its classes under a budget (handing it back once it has
               searched past its share), anywhere below the root by its path
    subtrees   a piece's subtree as the journal keeps it (guesses in pre-order), grown back into
               nodes (the split puts its whole tree together from them without a search)
    records    a journal's records (a guess's bound, a class's value or bound, where it is played)
               and the limits their numbers must lie within
    proofs     what a journal's records prove (exact subtrees, bounds), combined and checked
    journal    the split's journal: keyed by the game, its files' contents, the weights and the
               version; every record (a piece's value and subtree, or its bound) checked as
               it is read
    fewest     objective fewest-at-worst: the least worst case, then the fewest secrets that need
               it, then the least total; a branch and bound over the classes that need every
               guess left, the others handed to the search whole
    pilot      the pilot method for that count: a tree with few secrets at the worst depth,
               found in seconds, the branch and bound's first incumbent (not a proof)
    lookahead  rollout trees and exact subtree repair for instances too big to solve
    against    against a deterministic chooser that holds no secret (evil Hangman, Absurdle):
               what a tree concedes to it, and the shortest path that beats it

One exact search, from the command line down: `arena optimal` (arena/cli/optimal.py) ->
arena.api.exact (the request checked, its Problem built, a solver chosen) -> solve.optimal_tree -> solve.search_below -> search.Search.solve (branch.py) -> search_node ->
guess_value -> solve on each class; then growing.tree_from_search reads the tree back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .solve import OBJECTIVES, POOLS, Problem, SolvedTree, optimal_tree

__all__ = ["optimal_tree", "Problem", "SolvedTree", "POOLS", "OBJECTIVES"]


def __getattr__(name: str):
    """The search (solve.py and search/) is imported when first asked for, not with the
    package: the agents' registry reads arena.optimal.params for the `optimal` agent's
    parameters on every command that names an agent (about 0.02 s of start-up)."""
    if name in __all__:
        from . import solve

        return getattr(solve, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
