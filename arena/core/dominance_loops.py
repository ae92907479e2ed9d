"""arena.equilibrium.dominance.undominated_columns' pass in compiled code (numba), for big matrices.

The numpy pass compares each column with every column kept so far in one vectorised step,
all m entries of each; the loop stops at the first entry that shows a kept column does not
dominate, which on a double oracle's matrices (trees x secrets: hardly any tree dominates
another) is within the first few. The same columns survive, in the same order.
Imported by arena.equilibrium.dominance only for matrices of at least dominance.COMPILED_CELLS cells.
"""

from __future__ import annotations

import numpy as np

from .compiled import njit


@njit(cache=True)
def undominated_in_order(columns, order, strict):  # pragma: no cover - compiled
    """The columns of order (indexes of the rows of `columns`, each row one column of the
    matrix, contiguous) that no column kept before them dominates: kept[k] <= column
    everywhere (strict: < everywhere); the kept ones, in the order visited."""
    m = columns.shape[1]
    kept = np.empty((len(order), m), dtype=columns.dtype)
    out = np.empty(len(order), dtype=np.int64)
    count = 0
    for j in order:
        column = columns[j]
        beaten = False
        for k in range(count):
            held = kept[k]
            dominates = True
            for i in range(m):
                if (held[i] >= column[i]) if strict else (held[i] > column[i]):
                    dominates = False
                    break
            if dominates:
                beaten = True
                break
        if not beaten:
            kept[count] = column
            out[count] = j
            count += 1
    return out[:count]
