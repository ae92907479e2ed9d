"""Guessing games as zero-sum games: the chooser's secrets against the guesser's trees.

The chooser's pure strategies are the secrets, the guesser's the deterministic strategy trees,
and the payoff to the chooser is the number of guesses, or another cost of arena.core.costs (Hangman:
misses until the word is determined, lost games, letters), read off each tree by `cost.of(tree)`.
Modules, one idea each:

    matrix       solve_matrix_game: value and optimal mixes of any zero-sum matrix game (linprog)
    dominance    iterated removal of dominated strategies
    crosscheck   the same game solved independently by nashpy
    rational     exact rational equilibria recovered from the LP's floats, and checked
    enumeration  every guesser tree of a tiny game (and how they are counted)
    response     the guesser's exact best response to a chooser's mix
    letters      Hangman's best response searched on the chooser's support, completed on the rest
    support_search  that search: a branch and bound over the support's candidate sets
    compiled_letters  the same search compiled (letter_loops), in a thread the deadline and Ctrl-C halt
    letter_loops  the compiled search's loops and table (numba)
    warm         that search compiled ahead (`arena warm`)
    symmetry     a game's orbits (Mastermind: code types, from game.symmetry())
    plans        strategies as tables (replies so far -> guess), and the trees they grow
    payoff_matrix  the chooser x tree payoff matrix, kept exact
    restricted   games against named guessers, or against every tree
    oracle       the double oracle: exact values of whole games
    columns      the double oracle's trees so far, their costs and their payoff matrix
    pace         which kind of round a big game's double oracle runs next (searched or greedy)
    warm_lp      a big game's LP kept between rounds, solved again from its last basis (highspy)
    growing      the double oracle over growing rows: Hangman on lists of thousands of words
    flows        the guesser that randomises at every state its trees meet (one LP), and trees drawn from it
    resume       the double oracle's state on disk, written each round and resumed (--state)
    certify      bounds of games too big to solve, each end with its witness on disk
    known        the bounds proven elsewhere (the uniform chooser's optimum), each end named
    verified     saved files' bounds proven again, and every known bound folded in (fold)
    solution     Equilibrium, the result every solver returns
    witness      witness files: an equilibrium's bounds saved, and re-checked when read back
    exploitable  how much a saved mix concedes to the exact best response against it
"""

from .certify import certified_bounds, mix_worst, witness_lower, witness_upper
from .crosscheck import NashpySolution, nashpy_solution
from .dominance import Reduction, reduce_dominated
from .enumeration import TreeEnumeration, count_trees, enumerate_trees
from .matrix import MatrixGameSolution, SolverFailure, exploitability, solve_matrix_game
from .oracle import double_oracle
from .response import OnTheSplit, best_response
from .restricted import solve_enumerated, solve_restricted
from .solution import Equilibrium
from .symmetry import Symmetry, symmetry_of

__all__ = [
    "Equilibrium",
    "MatrixGameSolution",
    "NashpySolution",
    "OnTheSplit",
    "Reduction",
    "SolverFailure",
    "Symmetry",
    "TreeEnumeration",
    "best_response",
    "certified_bounds",
    "count_trees",
    "double_oracle",
    "enumerate_trees",
    "exploitability",
    "mix_worst",
    "nashpy_solution",
    "reduce_dominated",
    "solve_enumerated",
    "solve_matrix_game",
    "solve_restricted",
    "symmetry_of",
    "witness_lower",
    "witness_upper",
]
