"""The exact search: depth-first branch and bound for the strategy tree of least expected cost.

The paper-style account (the recursion, the bounds, why it is exact) is branch.py's docstring.
The modules, from the top:

    branch    Search: the branch and bound (solve, search_node, guess_value), the pool at a
              node, and reading the best guess back; `stabilizer` (the game's symmetry)
    scoring   a node's partition counts and every guess's lower bound and tie-break
              (the slot bound of ../bounds.py); the lazy order of the guesses
    closures  small sets closed, or bounded from their candidates, without scoring a pool
    misses    the costs of games that end when the secret is determined (Hangman): misses,
              lost games and guesses until determined, a class each with its bounds, and
              the value of a guess under them
    depth     depth limits: fits, the worst case, and the bounds proven at the root
    cache     the bounded cache (keys, byte budget, forgetting the older half)
    allowed   hard mode: the guesses the rules still allow on a path
    state     what the parts share: NO_LIMIT, Timeout, Stats, and the attributes declared

`Search` is assembled from the parts (mixins of SearchState); callers import from here.
"""

from .allowed import Allowed
from .branch import LEVEL_SIZE, REPORT_MASK, SMALL_SPLIT, TIE, Search, stabilizer
from .cache import CACHE_SHARE, CLOSED, ENTRY_BYTES, key_bytes
from .closures import MID_SET, TINY_SET
from .misses import FIRST_MISSES, TWO_LEVELS
from .scoring import SCORE_BLOCK, sorted_lazily
from .state import NO_LIMIT, Stats, Timeout

__all__ = [
    "Allowed",
    "CACHE_SHARE",
    "CLOSED",
    "ENTRY_BYTES",
    "FIRST_MISSES",
    "LEVEL_SIZE",
    "MID_SET",
    "NO_LIMIT",
    "REPORT_MASK",
    "SCORE_BLOCK",
    "SMALL_SPLIT",
    "Search",
    "Stats",
    "TIE",
    "TINY_SET",
    "TWO_LEVELS",
    "Timeout",
    "key_bytes",
    "sorted_lazily",
    "stabilizer",
]
