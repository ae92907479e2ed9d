"""Small sets closed without a search (one secret, two, a candidate that splits the rest
into singletons), or bounded from their candidates' classes alone before their pool is scored.
"""

from __future__ import annotations

import numpy as np

from ...core.game import Index, Indexes
from .shared import SearchState

#: Sets of at most this many secrets, all of them guesses, are closed or bounded (close_small)
#: in plain Python lists rather than numpy arrays, which cost more to set up than to count.
TINY_SET = 12
#: Sets of at most this many secrets, all of them guesses, are bounded by their candidates'
#: classes before their pool is scored (close_small, close_by_candidates).
MID_SET = 64
#: With unequal weights, sets of up to MID_SET secrets are bounded by their candidates too
#: (close_by_weighted_candidates); False leaves them to the slot bound (the tests compare both).
WEIGHTED_CANDIDATES = True


class Closures(SearchState):
    """close_small and close_by_candidates."""

    def close_small(self, S: Indexes, left: int, parts: int) -> tuple[float, Index] | None:
        """The exact value of a set too small to need a search and its best guess, or (guess
        -1) a lower bound on its value read off its candidates, or None (`left` >= 2 guesses
        are allowed; no guess makes more than `parts` non-hit classes on S).

        The bound, equal weights: every class of c secrets costs at least 2c - 1 (one may be
        hit first, the others need two guesses at least), so a candidate whose replies take d
        distinct values on S (the hit among them) costs at least

            n + sum over its d - 1 other classes of (2 c - 1) = 3n - 1 - d,

        and a guess that is no candidate, making p <= min(n, parts) classes, at least 3n - p:

            C(S) >= min(3n - 1 - max over candidates of d, 3n - min(n, parts)).

        (bounds.py, "The candidates' bound"; close_by_candidates for sets beyond TINY_SET.)
        It needs only the n x n block of the candidates' replies, against a pass over every
        guess of the pool for the node's own bound; when it reaches the budget the node fails
        high without one (4x6: 1,816 sets searched without the bound, 1,618 with it)."""
        n = len(S)
        if self.uniform and self.all_named and n <= TINY_SET:  # the same, in plain Python
            if n == 2:
                return 3.0, int(self.game.secret_guess[S[0]])
            named = S if self.same_index else self.game.secret_guess[S]
            rows = self.game.table[named[:, None], S].tolist()
            distinct = [len(set(row)) for row in rows]
            most = max(distinct)
            if most == n or (most == n - 1 and left >= 3):
                return float(3 * n - 1 - most), int(named[distinct.index(most)])
            return float(min(3 * n - 1 - most, 3 * n - min(n, parts))), -1
        if self.uniform and self.all_named and n <= MID_SET:
            return self.close_by_candidates(S, left, parts)
        named = self.game.secret_guess[S]
        if n == 2 and named.min() >= 0:  # guess the heavier: w1 + 2 w2
            heavy = 0 if self.w[S[0]] >= self.w[S[1]] else 1
            return float(self.w[S].sum() + self.w[S[1 - heavy]]), int(named[heavy])
        if WEIGHTED_CANDIDATES and not self.uniform and self.all_named and n <= MID_SET:
            return self.close_by_weighted_candidates(S, left, parts)
        if n <= self.b_max + 1 and named.min() >= 0:
            block = np.sort(self.game.table[named[:, None], S], axis=1)
            distinct = 1 + (block[:, 1:] != block[:, :-1]).sum(axis=1)
            if self.uniform:
                best = int(distinct.argmax())
                if distinct[best] == n or (distinct[best] == n - 1 and left >= 3):
                    # all singletons: 2n - 1; one pair: 2n, which is the bound without a perfect candidate
                    return float(2 * n - 1 + (n - distinct[best])), int(named[best])
                return float(min(3 * n - 1 - distinct[best], 3 * n - min(n, parts))), -1
            else:
                # every secret but the one hit first needs two guesses: 2 w(S) - w_max at least,
                # attained when a heaviest secret's guess splits the others into singletons
                w = self.w[S]
                perfect = np.flatnonzero((distinct == n) & (w == w.max()))
                if len(perfect):
                    return float(2 * w.sum() - w.max()), int(named[perfect[0]])
        return None

    def close_by_candidates(self, S: Indexes, left: int, parts: int) -> tuple[float, Index]:
        """close_small for a set of up to MID_SET secrets, equal weights, all of them guesses:
        the closures, or else a lower bound from the candidates' classes alone. With T the slot
        table for `parts` classes (bounds.py; it bounds every class below), a candidate costs
        at least n + sum over its classes of T(c), and a guess that is no candidate, whose
        p <= min(n, parts) classes hold all n secrets, at least n + the least sum of T over p
        classes, which (T being convex with T(0) = 0) is that of the most even split. For
        n <= parts + 1 (T(c) = 2c - 1) this is close_small's bound; beyond, it is tighter."""
        n, codes = len(S), self.game.n_codes
        named = self.game.secret_guess[S]
        keys = self.game.table[named[:, None], S].astype(np.intp)
        keys += np.arange(0, n * codes, codes, dtype=np.intp)[:, None]
        counts = np.bincount(keys.ravel(), minlength=n * codes).reshape(n, codes)
        distinct = np.count_nonzero(counts, axis=1)  # the hit class among them
        best = int(distinct.argmax())
        most = int(distinct[best])
        if most == n or (most == n - 1 and left >= 3):
            return float(3 * n - 1 - most), int(named[best])
        counts[:, self.hit] = 0
        table = self.table(parts)
        candidates = n + table[counts].sum(axis=1).min()
        p = min(n, parts)
        q, r = divmod(n, p)
        others = n + r * table[q + 1] + (p - r) * table[q]
        return float(min(candidates, others)), -1

    def close_by_weighted_candidates(self, S: Indexes, left: int, parts: int) -> tuple[float, Index]:
        """close_by_candidates with weights (a chooser's mix): the candidates' bound of
        bounds.py, each class's slot bound taken with its own weights, heaviest in the
        shallowest slot (`sorted_weight_bound`).

        A candidate g costs at least w(S) + the sum over its non-hit classes C of
        sorted_weight_bound(C), which is its exact cost when every class is a singleton, or a
        pair with a third guess allowed (guess the heavier of the two first). A guess that is no
        candidate makes p <= min(n, parts) classes and finds no secret itself: its classes'
        slots are p at depth 1, p b at depth 2, ..., and giving the heaviest secrets the
        shallowest of them bounds its cost by w(S) + sum_k w_(k) depth(floor(k / p)), w_(k) the
        k-th heaviest. The least of these bounds C(S); it is C(S) itself, with its guess, when
        it is a candidate's exact cost."""
        n = len(S)
        S = S[np.argsort(-self.w[S], kind="stable")]  # heaviest first
        w = self.w[S]
        named = self.game.secret_guess[S]
        depths = self.depths(parts)
        p = min(n, parts)
        others = float(w.sum() + w @ depths[np.arange(n) // p])
        kernels = self.weighted_compiled()
        if kernels is not None:  # the plain-Python loop in compiled code (weighted_kernels.py)
            game = self.game
            value, best, largest = kernels.weighted_candidates(game.table, named, S, w, depths, self.hit, game.n_codes)
        elif n <= TINY_SET:
            value, best, largest = self.weighted_candidates_in_python(S, w, named, depths)
        else:
            value, best, largest = self.weighted_candidates_in_numpy(S, w, named, depths)
        if value <= others and (largest == 1 or (largest == 2 and left >= 3)):
            return value, int(named[best])
        return min(value, others), -1

    def weighted_candidates_in_python(
        self, S: Indexes, w: np.ndarray, named: Indexes, depths: np.ndarray
    ) -> tuple[float, int, int]:
        """(the least candidate bound, its candidate's place in S, its largest non-hit class)
        for S heaviest first, in plain Python (small sets)."""
        weights, slot = w.tolist(), depths.tolist()
        base, hit = sum(weights), self.hit
        best, best_value, best_largest = -1, float("inf"), 0
        for i, row in enumerate(self.game.table[named[:, None], S].tolist()):
            seen: dict[int, int] = {}
            total = base
            for reply, weight in zip(row, weights):
                if reply == hit:
                    continue
                rank = seen.get(reply, 0)
                seen[reply] = rank + 1
                total += weight * slot[rank]
            if total < best_value:
                best, best_value, best_largest = i, total, max(seen.values(), default=0)
        return best_value, best, best_largest

    def weighted_candidates_in_numpy(
        self, S: Indexes, w: np.ndarray, named: Indexes, depths: np.ndarray
    ) -> tuple[float, int, int]:
        """weighted_candidates_in_python with numpy (sets beyond TINY_SET)."""
        n = len(S)
        columns = np.arange(n)
        keys = self.game.table[named[:, None], S].astype(np.intp) * n + columns  # reply, then weight order
        keys.sort(axis=1)  # each candidate's classes together, heaviest first within each
        grouped, heavy = np.divmod(keys, n)
        starts = np.ones(keys.shape, dtype=bool)
        starts[:, 1:] = grouped[:, 1:] != grouped[:, :-1]
        rank = columns - np.maximum.accumulate(np.where(starts, columns, 0), axis=1)  # place in its class
        missed = grouped != self.hit
        candidates = w.sum() + (w[heavy] * depths[rank] * missed).sum(axis=1)
        best = int(candidates.argmin())
        largest = int((rank[best] * missed[best]).max()) + 1
        return float(candidates[best]), best, largest
