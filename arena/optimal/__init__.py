"""Exact optimal guessers: the strategy tree of least expected guesses, by branch and bound.

    from arena.optimal import optimal_tree
    tree = optimal_tree(make_game("mastermind"))          # 5,625 guesses over 1,296 codes
    tree.value, tree.lower_bound, tree.guesses.max()      # 5625.0 5625.0 6

Modules: bounds (the slot lower bounds and their derivation), search (the one branch and
bound, under guesses or misses: also the exact Hangman guesser's and the equilibrium's),
solve (the public `optimal_tree`),
lookahead (rollout trees and exact subtree repair for instances too big to solve).
"""

from .solve import OBJECTIVES, POOLS, SolvedTree, optimal_tree

__all__ = ["optimal_tree", "SolvedTree", "POOLS", "OBJECTIVES"]
