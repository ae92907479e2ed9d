"""Lower bounds on the number of guesses (or misses) a class of secrets still needs.

The slot bound
--------------
Take a strategy subtree that must find every secret of a class T (n secrets), and let b be the
largest number of *non-hit* replies any guess of the pool can give on T. Count the secrets found
by the d-th guess of the subtree: the first guess finds at most one (the guess itself, if it is a
candidate); every node has at most b children (one per non-hit reply), so there are at most
b^(d-1) nodes at depth d, and each finds at most one secret. So at most

    slots(d) = 1 + b + b^2 + ... + b^(d-1)

secrets are found within d guesses, and at least n - slots(d) of them need more than d. The total
number of guesses is sum over secrets of their depth = sum over d >= 0 of #{secrets deeper than d},
hence

    total(T) >= sum_{d >= 0} max(0, n - slots(d))          (slots(0) = 0)

which is what filling the slots greedily, shallowest first, gives: 1 secret at depth 1, b at
depth 2, b^2 at depth 3, ... For n <= b + 1 this is 2n - 1 (one hit, the rest one guess later).

Why b may be taken from an ancestor: if a guess splits a subset T' of T into k non-hit classes,
it splits T into at least k, so the largest number of parts can only shrink going down the tree
(the pool is all guesses, or the candidates, which also only shrink). A node's b therefore
bounds every class below it.

The candidates' bound
---------------------
A class T of n secrets, all of them guesses, equal weights, met before its pool is scored. The
slot bound assumes the best a guess could do; T's own candidates can be checked for little (the
n x n block of their replies, against n x |pool| for a full scan), and split the guesses in two:

- a candidate g makes its own classes T_r(g), the hit among them, so it costs at least
  n + sum over its non-hit classes of slot(|T_r(g)|), slot() the slot bound with this b;
- a guess that is no candidate makes p <= min(n, b) classes holding all n secrets, and costs at
  least n + the least sum of slot() over p class sizes adding up to n. slot() is convex with
  slot(0) = 0 (its increments, the slot depths, never decrease), so that least sum is the most
  even split: r classes of q + 1 and p - r of q, where n = p q + r.

The least of the two is a lower bound on C(T) (`Search.close_by_candidates`). While n <= b + 1
(every class then has slot(c) = 2c - 1) it reads

    C(T) >= min(3n - 1 - max over candidates of d(g), 3n - min(n, b))

with d(g) the distinct replies of candidate g on T (a candidate with d = n costs exactly
2n - 1: the closure; one with d = n - 1, one pair, costs 2n, the least without a perfect
candidate, when a third guess is allowed). The search asks this bound of every class of a
guess before it searches any (`Search.known_class_bounds`), and drops the guess when the
classes' bounds add up to the best total already found. Measured (`arena optimal SPEC --json`,
its `searched` field), 4x6 then 4x8 without repeats: 1,816 and 10,985 candidate sets searched
with the slot bound alone; 1,513 and 8,113 with this bound asked of a class of up to 64
secrets when its own turn comes; 1,443 and 7,772 with, besides, the cache's bounds of all
the classes taken first; 795 and 3,692 with this bound, too, asked of every class first.

Weighted secrets
----------------
With weights (a chooser's mix), the cost is sum_s w_s depth_s. The same counting, applied to
mass instead of secrets: the secrets found within d guesses occupy at most slots(d) places, each
holding at most w_max (the heaviest secret of the class), and each secret that does not fit
weighs at least w_min. So the mass deeper than d is at least max(0, X - w_max slots(d),
w_min (n - slots(d))), X the class's total weight, and

    cost(T) >= sum_{d >= 0} max(0, X - w_max slots(d), w_min (n - slots(d)))

With all weights 1 this is the slot bound above. When the class's own weights are known, sorting
them heaviest first and giving the k-th heaviest the depth of the k-th slot is exact for the
relaxation and tighter still (`sorted_weight_bound`): an exchange argument, since a heavier
secret in a deeper slot than a lighter one costs more than the two swapped, and the slots
within d guesses are at most slots(d) whichever secrets fill them. It is at least the bound
above, as the heaviest k weights of a class weigh at most k w_max and its lightest n - k at
least (n - k) w_min.

A node's guesses are bounded this way too (`ranked_bounds`), each class with its own weights, at
the cost of a second pass over the replies: with the candidates taken heaviest first, a secret's
place in its class is the number of heavier ones in it that gave the same reply, so one pass
over the (guesses x candidates) replies puts every secret in its slot. It prunes little more
than the mass bound above on Mastermind: 4x5 under random weights searched 189,536 sets where
that bound searched 190,819, and the 4x7 witness replay took the same time (the numbers are in
benchmarks/README.md); a node of hundreds of candidates is held by its classes' sizes more than
by how their weights are spread.

A depth limit K (`max=K`): a class that does not fit, n > slots(K), is infeasible (bound inf).

The misses cost (Hangman)
-------------------------
When only misses are paid, no counting like the above bounds a class: however many words a
class holds, some letter may split it without a miss at every step (a letter in every word, at
different positions), so a class costs at least 0 before it is searched, which is what the
search uses. At a node the search proves more: every guess that splits S costs at least the
weight of its miss class (each of those words pays this miss), so

    M(S) >= min over guesses g splitting S of w(miss class of g),

(0 when some letter splits S with no miss), and this is the bound the node caches when it
fails high. Counting lost games, a class with no strike left costs its weight (it is lost) and
any other class at least 0.

Two levels. The same bound applies to each class C that a guess g leaves: its first letter h
must split C, and the words of C without h pay that miss, so

    M(C) >= F(C) = w(C) - max over letters h splitting C of w(words of C containing h)

(0 for a determined class). Hence a guess costs at least w(miss class of g) + sum_C F(C), the
bound of a node with enough candidates (search.TWO_LEVELS; `Search.next_misses` computes it for
every guess at once), and a class is searched with the budget left once the other classes'
F(C) are reserved (`Search.first_misses`). Measured on `hangman:length=5,first=200`: 48,607
candidate sets searched without them, 39,558 with them; the time gain is about 10%, as each
bound costs a few matrix products.

Guesses until determined (Hangman's `guesses` cost)
---------------------------------------------------
When every guess is paid but no guess names the secret, a game ends once one candidate is left.
A class of n >= 2 candidates is not a leaf, and a node with at most b replies per guess has at
most b^d leaves within depth d, so at least n - b^d of the secrets lie deeper than d, and

    total(n) >= n + sum_{d >= 1} max(0, n - b^d)               (`determine_table`)

with b taken from an ancestor as above. With weights, an undetermined class costs at least its
weight (each of its secrets pays one more guess).
"""

from __future__ import annotations

import math

import numpy as np

INF = math.inf
_HUGE = 1 << 62


def slot_capacity(b: int, depth: int) -> int:
    """slots(depth) = 1 + b + ... + b^(depth-1): secrets that can be found within `depth` guesses."""
    if depth <= 0:
        return 0
    if b <= 1:
        return depth if b == 1 else 1
    if depth * (b - 1).bit_length() > 62:  # more slots than any game has secrets
        return _HUGE
    return (b**depth - 1) // (b - 1)


def slot_depths(n: int, b: int) -> np.ndarray:
    """depth of the k-th slot, k = 0..n-1: 1, then b slots at 2, b^2 at 3, ..."""
    depths = np.empty(n, dtype=np.int64)
    filled, depth, width = 0, 1, 1
    while filled < n:
        take = min(width, n - filled)
        depths[filled : filled + take] = depth
        filled += take
        depth += 1
        width = width * b if b > 1 else 1
    return depths


def slot_table(n_max: int, b: int) -> np.ndarray:
    """table[n] = the slot bound for n secrets (n = 0..n_max), as float64 (it is added to weights).

    table[n] = sum of the first n slot depths: 0, 1, 3, 5, ... (2n - 1 while n <= b + 1)."""
    table = np.zeros(n_max + 1, dtype=np.float64)
    table[1:] = np.cumsum(slot_depths(n_max, b))
    return table


def ranked_bounds(replies: np.ndarray, w: np.ndarray, depths: np.ndarray, hit: int) -> np.ndarray:
    """Every guess's bound w(S) + sum_r sorted_weight_bound(S_r) at once: replies[i, k] is guess
    i's reply to the k-th candidate, the candidates heaviest first (w, ties in any fixed order),
    and the k-th candidate of its class takes the k-th slot's depth (`depths`, from
    slot_depths); the hit class costs nothing past w(S). Summed from w(S), lightest candidate
    first, as weighted_kernels sums it, to the same bits."""
    m, n = replies.shape
    order = np.argsort(replies, axis=1, kind="stable")
    grouped = np.take_along_axis(replies, order, axis=1)
    starts = np.ones((m, n), dtype=bool)
    starts[:, 1:] = grouped[:, 1:] != grouped[:, :-1]
    place = np.arange(n)
    place_in_class = place - np.maximum.accumulate(np.where(starts, place, 0), axis=1)
    rank = np.empty_like(place_in_class)
    np.put_along_axis(rank, order, place_in_class, axis=1)
    terms = np.where(replies == hit, 0.0, w * depths[rank])
    start = np.full((m, 1), np.cumsum(w)[-1] if n else 0.0)
    return np.cumsum(np.hstack([start, terms[:, ::-1]]), axis=1)[:, -1]


def sorted_weight_bound(weights: np.ndarray, depths: np.ndarray) -> float:
    """The slot bound for a class whose weights are known: the heaviest secret in the shallowest
    slot (`depths` from slot_depths, at least as long as `weights`)."""
    return float(np.sort(weights)[::-1] @ depths[: len(weights)])


def min_depth(n: int, b: int) -> int:
    """The fewest guesses within which n secrets can all be found: the least d with slots(d) >= n."""
    d = 0
    while slot_capacity(b, d) < n:
        d += 1
        if b <= 1 and d > n:
            break
    return d


def determine_table(n_max: int, b: int) -> np.ndarray:
    """table[n]: a lower bound on the total guesses that determine n secrets (one left) when no
    guess names the secret and every guess splits a class into at most b classes: the root is
    a leaf only when n <= 1, and at most b^d leaves lie within depth d, so

        total(n) >= n + sum_{d >= 1} max(0, n - b^d)      (n >= 2; 0 for n <= 1)

    (the guesses-until-determined cost; see "Guesses until determined" above)."""
    n = np.arange(n_max + 1, dtype=np.float64)
    table = np.where(n >= 2, n, 0.0)
    width = max(b, 1)
    if width == 1:
        return table
    reach = width
    while reach < n_max:
        table += np.maximum(0.0, n - reach)
        reach *= width
    return table
