"""Compile Hangman's support search ahead of a first double oracle (`arena warm`).

The compiled support search (compiled_letters.py, its loops in letter_loops.py) is numba code
cached beside the package, like the exact search's kernels (arena.optimal.search.warm): a first
`arena equilibrium hangman:...` whose chooser mix holds COMPILED_WORDS words or more compiled it
for about 15 s (4x6's web2 words, 48 of them: 14.8 s, then 0.5 s with the cache). This searches
such a mix once, under misses and lost games, so that the first real run loads the code.
"""

from __future__ import annotations

import time

import numpy as np


def warm_letters() -> float:
    """Search a uniform mix of COMPILED_WORDS four-letter words of the shipped list under both
    Hangman payoffs, by the compiled search; the seconds it took."""
    from ..core.costs import cost_for
    from ..games import make_game
    from .letters import COMPILED_WORDS, ranks, support_response

    start = time.perf_counter()
    game = make_game(f"hangman:length=4,first={COMPILED_WORDS}")
    mix = np.ones(len(game.secrets))
    for payoff in ("misses", "lost"):
        support_response(game, mix, cost_for(game, payoff), rank=ranks(2)[1])
    return time.perf_counter() - start
