"""The exact search: depth-first branch and bound for the strategy tree of least expected cost.

The paper-style account (the recursion, the bounds, why it is exact) is branch.py's docstring.
The modules, from the top:

    branch       Search: the branch and bound (solve, search_node), the pool at a node, and
                 reading the best guess back; `Search.of(problem)`, how the solvers build one;
                 `stabilizer` (the game's symmetry). It knows no cost: it asks its cost's bounds
    hits         guesses on games a hit ends (Jotto, Mastermind, Wordle): the slot bound and
                 the value of a guess, its classes bounded from the cache and a level deep
    determined   the costs of games that end when the secret is determined (Hangman): misses,
                 lost games and guesses until determined, a class each, and their letter bounds
    ordering     a node's partition counts and every guess's slot bound and tie-break
                 (../bounds.py); the lazy order of the guesses
    closures     small sets closed, or bounded from their candidates, without scoring a pool
    depth        depth limits: fits, the worst case, and the bounds proven at the root
    cache        the bounded cache (keys, byte budget, forgetting the older half)
    small_trees  the whole subtree of a small set (<= SMALL_TREE secrets, equal weights or a
                 chooser's, a hit ends the game) searched in compiled code, with its own cache;
                 and a Python node's guess, its classes bounded and its small ones searched, in
                 two calls (big games only: COMPILED_CELLS)
    tree_kernels  its compiled loops (numba, imported at the first small set)
    met_replies  the reply vectors met at a node (a guess with the same classes is skipped):
                 a table of their hashes, in compiled code
    tree_cache   their cache of sets and the slot capacities (numba)
    weighted_kernels  a weighted node's scores, its guess's classes with their bounds and a
                 small set's closures in compiled code (big games: ordering.WEIGHTED_CELLS), the
                 numbers of the numpy path
    warm          `python -m arena.optimal.search.warm`: those loops compiled at set-up, not by
                  a first search (numba caches them)
    allowed      hard mode: the guesses the rules still allow on a path
    shared       what the parts share: NO_LIMIT, Timeout (and STOP: Ctrl-C), Stats, the attributes declared, and
                 CostBounds, what the search asks of a cost (leaves, the bounds of a guess
                 and of a class, the value of a guess, ties): one subclass per cost

`Search` is assembled from the parts (mixins of SearchState) and holds one CostBounds, chosen
by its cost and by how the game ends (`CostBounds.of`); callers import from here.
"""

from .allowed import Allowed
from .branch import REPORT_MASK, Search, stabilizer
from .cache import CACHE_SHARE, CLOSED, ENTRY_BYTES, key_bytes
from .closures import MID_SET, TINY_SET
from .determined import FIRST_MISSES, TIE, TWO_LEVELS, GuessesUntilDetermined, LostGames, UntilDetermined
from .hits import LEVEL_SIZE, SMALL_SPLIT, UntilHit
from .ordering import SCORE_BLOCK, sorted_lazily
from .shared import NO_LIMIT, STOP, CostBounds, Stats, Timeout, class_searched, ctrl_c_stops

__all__ = [
    "Allowed",
    "CACHE_SHARE",
    "CLOSED",
    "CostBounds",
    "ENTRY_BYTES",
    "FIRST_MISSES",
    "GuessesUntilDetermined",
    "LEVEL_SIZE",
    "LostGames",
    "MID_SET",
    "NO_LIMIT",
    "REPORT_MASK",
    "SCORE_BLOCK",
    "SMALL_SPLIT",
    "STOP",
    "Search",
    "Stats",
    "TIE",
    "TINY_SET",
    "TWO_LEVELS",
    "Timeout",
    "UntilDetermined",
    "UntilHit",
    "class_searched",
    "ctrl_c_stops",
    "key_bytes",
    "sorted_lazily",
    "stabilizer",
]
