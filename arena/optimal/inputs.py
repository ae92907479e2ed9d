"""The arguments of an exact search, checked and put in the form the search reads: the secrets
covered (`secret_set`), their weights (`weight_vector`, rescaled to ones when equal), fixed
first guesses (`opener_indexes`), a named choice (`check_choice`), and what a symmetry must
preserve (`invariant`), a tree to start from (`check_start`). A bad argument is one ArenaError that names it."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core import checks as door
from ..core.errors import ArenaError, ArenaTypeError, choices
from ..core.game import Game, Index, Indexes
from ..core.weights import check_weights
from ..trees.tree import Tree
from .params import Pool

__all__ = ["check_choice", "check_start", "invariant", "opener_indexes", "secret_set", "weight_vector"]


def check_choice(name: str, value: str, valid: Sequence[str]) -> None:
    if not isinstance(value, str) or value not in valid:
        raise ArenaError(f"{name} must be one of {choices(valid)}, got {value!r}")


def secret_set(game: Game, secrets: Sequence[Index] | np.ndarray | None) -> Indexes:
    """The secrets to cover, as a sorted array of distinct valid indexes."""
    if secrets is None:
        return game.all_secrets
    given = door.indexes(secrets, "secrets", len(game.secrets), "secrets")
    S = np.unique(given)
    if len(S) == 0 or len(S) != len(given):
        raise ArenaError(f"secrets must be distinct indexes between 0 and {len(game.secrets) - 1}, at least one")
    return S


def weight_vector(
    game: Game, S: Indexes, weights: Sequence[float] | np.ndarray | None
) -> tuple[np.ndarray, float | None]:
    """Weights over all secrets of the game (float64), and the common weight when all of S's are
    equal (then the vector is all ones and the values are rescaled at the end), else None."""
    w = np.ones(len(game.secrets), dtype=np.float64)
    if weights is None:
        return w, 1.0
    try:
        if isinstance(weights, (str, bytes)):
            raise TypeError
        given = np.asarray(weights, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise ArenaTypeError(f"weights must be numbers, one per secret (or None), got {weights!r:.60}") from None
    if len(given) == len(S):
        w[S] = given
    elif len(given) == len(game.secrets):
        w = given.copy()
    else:
        raise ArenaError(
            f"weights: expected {len(S)} (one per secret covered) or {len(game.secrets)} "
            f"(one per secret of the game), got {len(given)}"
        )
    if not np.all(np.isfinite(w[S])) or np.any(w[S] < 0):
        raise ArenaError("weights must be finite and non-negative")
    check_weights(w[S], game)
    common = w[S][0]
    if common > 0 and np.all(w[S] == common):
        return np.ones(len(game.secrets), dtype=np.float64), float(common)
    return w, None


def invariant(game: Game, S: Indexes, w: np.ndarray) -> np.ndarray:
    """What a symmetry must preserve: the weights of the secrets covered, -1 for the others."""
    out = np.full(len(game.secrets), -1.0)
    out[S] = w[S]
    return out


def opener_indexes(game: Game, openers: Sequence[Index | str]) -> tuple[Index, ...]:
    """Fixed first guesses as guess indexes (words or indexes), each given once."""
    fixed = []
    for o in (openers,) if isinstance(openers, str) else tuple(openers):
        if isinstance(o, str):
            fixed.append(game.guess_index(o))
        elif isinstance(o, (int, np.integer)) and 0 <= o < len(game.guesses):
            fixed.append(int(o))
        else:
            raise ArenaError(
                f"openers: {o!r} is not a guess of {game.spec} (a word or an index "
                f"between 0 and {len(game.guesses) - 1})"
            )
    repeated = [g for k, g in enumerate(fixed) if g in fixed[:k]]
    if repeated:
        raise ArenaError(
            f"openers: {game.guesses[repeated[0]]} is given twice; each fixed first guess must differ from the others"
        )
    return tuple(fixed)


def check_start(tree: Tree, S: Indexes, pool: Pool, max_guesses: int | None = None) -> None:
    """A start tree is an incumbent only if it is a tree of this search: one root over every
    secret of S, within the limit, and under the consistent pool a consistent guess at every node."""
    if len(tree.roots) != 1 or len(tree.root.candidates) != len(S) or not np.array_equal(tree.secrets, S):
        raise ArenaError(f"start tree of {tree.guesser}: it must cover every secret from one root")
    if max_guesses is not None and tree.guesses[S].max() > max_guesses:
        raise ArenaError(
            f"start tree of {tree.guesser}: it takes {tree.guesses[S].max()} guesses for some secret, "
            f"over the limit of {max_guesses}"
        )
    if pool == Pool.CONSISTENT:
        for node in tree.root.walk():
            if node.guess not in node.candidates:
                raise ArenaError(
                    f"start tree of {tree.guesser}: it plays a guess that is not consistent after "
                    f"{tree.game.history_label(node.replies) or 'no replies'}, so it is no tree of the consistent pool"
                )
