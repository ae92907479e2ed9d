"""The compiled code built ahead, once, at set-up (`arena warm`): the exact search's kernels
(arena.optimal.search.warm) and Hangman's support search (arena.equilibrium.warm), each cached
by numba beside the package, so that no first search waits for a compiler."""

from __future__ import annotations

import warnings


def warm() -> list[tuple[str, float]]:
    """Compile (or load from numba's cache: a second run) every kernel a first search would
    compile; (what, seconds) for each part."""
    from ..core.errors import Compiling
    from ..equilibrium.warm import warm_letters
    from ..optimal.search.warm import warm as warm_search

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Compiling)  # the command says it, in its own words
        return [("the exact search's kernels", warm_search()), ("Hangman's support search", warm_letters())]
