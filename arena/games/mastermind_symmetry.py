"""Mastermind's symmetry: permuting the colours and the positions of every code keeps every reply.

For sigma = (pi, tau) acting by (sigma x)[i] = pi(x[tau[i]]), F(sigma g, sigma s) = F(g, s).
The group G has colors! * pegs! elements, and the solvers use it two ways, both reached through
`game.symmetry()` (a `MastermindSymmetry`; games without a symmetry return None):

- `code_types()`: the orbits of G on the codes (the code types aabc, ...) and the action of
  each element, for the equilibrium solvers (arena.equilibrium.symmetry: the orbit game);
- `stabilizer(invariant)`: the subgroup G_H fixing a history H of guesses, for the exact
  search (arena.optimal.search): equivalent guesses are searched once (below).

The stabilizer. If sigma also fixes every guess made so far, it maps the candidate set onto
itself (a candidate is defined by its replies to those guesses), so the guesses g and sigma g
lead to isomorphic subtrees of the same cost; only one guess per orbit of the stabilizer G_H of
the history H needs to be searched. With weights, sigma must also preserve the weights (and the
set of secrets the tree covers), or the costs differ.

Concretely: for a position permutation tau, sigma fixes every h of H only if
pi(h[tau[i]]) = h[i] for all h, i: this forces pi on the colours V that occur in H (it must be a
bijection of V), and leaves pi free on the unused colours U. So G_H = F x Sym(U), where F holds
one element per admissible tau (at most pegs!) and Sym(U) permutes the unused colours.

Orbit representatives without listing Sym(U): relabelling the unused colours of a code in order
of first appearance is invariant under Sym(U) and stays in the orbit, so

    rep(x) = min over f in F of index(relabel_U(f x))

is constant on each orbit of G_H and belongs to it: exactly one guess per orbit has rep(x) = x.
With weights the group is listed explicitly instead (F x Sym(U) while that is small, else F) and
cut down to the elements that preserve the weights; its orbit minima are the representatives.

At a node, more. The stabilizer of the history maps the node's candidate set S onto itself, and
so does every permutation of the dead colours D, those no candidate has (it fixes each
candidate). With equal weights, where F is the identity, the search takes one guess per orbit of
Sym(D) (x Sym(U)) instead (`Stabilizer.node_mask`; the argument is there).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

from ..core.game import Indexes
from .codes import symbol_tallies, unique_rows

#: Largest group listed element by element (weighted case); beyond it Sym(U) is left out.
EXPLICIT_LIMIT = 20_000
#: Weights constant on every code type count as equal weights for the group (`keeps_all`);
#: False lists the elements that keep them instead (the tests compare both).
SYMMETRIC_WEIGHTS = True


class MastermindSymmetry:
    """The colour and position permutations of one Mastermind game (module docstring)."""

    def __init__(self, game):
        self.game = game

    def stabilizer(self, invariant: np.ndarray | None = None) -> Stabilizer | None:
        """The symmetry of the empty history, for the exact search, or None if it is trivial.

        `invariant` is None when every code is a secret of equal weight; else an array over the
        secrets (the weights, -1 for secrets the tree does not cover) that an element must preserve.
        Weights that are the same on every code of a type (a chooser's mix in the orbit game of
        arena.equilibrium.symmetry) are kept by every element of the group, so every argument
        made for equal weights holds for them, and they are treated alike (`keeps_all`)."""
        if invariant is not None and self.keeps_all(invariant):
            invariant = None
        sym = Stabilizer(self.game, (), invariant)
        return sym if sym.mask() is not None else None

    def keeps_all(self, invariant: np.ndarray) -> bool:
        """Does every element of the group keep `invariant` (one value per code, -1 for codes not
        covered)? It does when the value is the same on every code of a type: an element maps
        each code to one of its own type."""
        if not SYMMETRIC_WEIGHTS:
            return False
        orbit = code_types(self.game)[0]
        invariant = np.asarray(invariant)
        if len(invariant) != len(orbit):
            return False
        first = np.zeros(orbit.max() + 1, dtype=invariant.dtype)
        first[orbit] = invariant  # one of each type's values (the last), compared with all of them
        return bool(np.array_equal(first[orbit], invariant))

    def code_types(self):
        """(orbit per code, type labels, the group's name, its order, element -> permutation of the codes)."""
        return code_types(self.game)


class Stabilizer:
    """The stabilizer of a history of guesses in a Mastermind game, and its orbit representatives.

    `invariant` is None when every code is a secret of equal weight; else an array over the
    secrets (the weights, -1 for secrets the tree does not cover) that an element must preserve.

    Cheap to extend. The search asks for `after(guess)` at every guess it tries, so a history's
    group is built once (the stabilizers are kept by history in `shared`, shared by all nodes),
    from its parent's: an element fixing H + (g) fixes H, so the forced elements of the longer
    history are the parent's (tau, pi) whose partial colour map pi extends consistently and
    injectively to the colours of g (`extend`), not a scan of all pegs! position permutations.
    The orbit representatives (`mask`, a pass over every code for each forced element) are
    computed only when a node asks for its pool: most histories only reach small classes that
    are closed without a search.
    """

    def __init__(
        self,
        game,
        history: tuple[int, ...] = (),
        invariant: np.ndarray | None = None,
        _shared: dict | None = None,
        _forced: list | None = None,
    ):
        self.game = game
        self.history = tuple(sorted(set(history)))
        self.invariant = invariant
        self.shared = {} if _shared is None else _shared  # stabilizers by history, the code index
        if "codes" not in self.shared:
            self.shared["codes"] = [tuple(code) for code in game.codes_array.tolist()]
        #: F (forced_elements) as (tau, pi) with pi a tuple over the colours, -1 where unused
        self.forced = self._forced_from_scratch() if _forced is None else _forced
        used = {c for h in self.history for c in self.shared["codes"][h]}
        self.unused = [c for c in range(game.colors) if c not in used]
        self._mask: np.ndarray | bool | None = None

    def after(self, guess: int) -> Stabilizer | None:
        """The stabilizer of the history extended by `guess` (None once it is trivial, with
        weights)."""
        if guess in self.history:
            return self
        history = tuple(sorted(self.history + (guess,)))
        if history not in self.shared:
            made = Stabilizer(self.game, history, self.invariant, self.shared, self.extend(guess))
            child: Stabilizer | None = made
            if made.trivial():  # with equal weights its nodes may still exchange dead colours
                child = (
                    None
                    if self.invariant is not None
                    else self.shared.setdefault("identity", Identity(self.game, self.shared))
                )
            self.shared[history] = child
        return self.shared[history]

    def trivial(self) -> bool:
        """Is the group the identity alone? With equal weights: one forced element and at most
        one unused colour; with weights, when no other element keeps the invariant."""
        if self.invariant is None:
            return len(self.forced) == 1 and len(self.unused) <= 1
        return self.mask() is None

    def representatives(self, pool: Indexes, candidates: Indexes | None = None) -> Indexes:
        """The guesses of `pool` that are the least of their orbit; given the node's
        `candidates` (equal weights), one per orbit of the larger group that also exchanges
        the colours no candidate has (`node_mask`)."""
        mask = self.mask() if candidates is None or self.invariant is not None else self.node_mask(candidates)
        return pool if mask is None else pool[mask[pool]]

    def node_mask(self, candidates: Indexes) -> np.ndarray | None:
        """The representatives at a node whose candidates S have none of the colours D (the
        dead colours), equal weights, when F (forced_elements) is the identity alone.

        Why it keeps the cost. A permutation of D fixes every candidate, so it maps S onto
        itself, as every element of G_H does; the pool is all codes and the weights are equal,
        so guesses in one orbit of K = <G_H, Sym(D)> have isomorphic classes of equal cost and
        one per orbit is searched. With F the identity, G_H = Sym(U) (U: the colours the history
        never used), and U lies in D or misses it (two unused colours are exchanged by G_H, so
        they occur in S both or neither). So K is Sym(D), or Sym(U) x Sym(D), and its orbit
        representatives are the codes whose colours of each group (D; U apart when it misses
        D) appear in increasing order, the smallest first (`first_in_order`: relabelling in
        order of first appearance leaves them unchanged). When F is larger, the history's
        representatives (`mask`) are used."""
        if len(self.forced) > 1:
            return self.mask()
        codes = self.game.codes_array
        present = np.zeros(self.game.colors, dtype=bool)
        present[codes[candidates]] = True
        dead = tuple(np.flatnonzero(~present).tolist())
        unused = tuple(self.unused)
        if len(dead) < 2 or set(dead) <= set(unused):  # Sym(D) adds nothing to Sym(U)
            return self.mask()
        groups = (dead,) if len(unused) < 2 or set(unused) <= set(dead) else (dead, unused)
        masks = self.shared.setdefault("node masks", {})
        if groups not in masks:
            masks[groups] = np.logical_and.reduce([self.first_in_order(group) for group in groups])
        return masks[groups]

    def first_in_order(self, group: tuple[int, ...]) -> np.ndarray:
        """Per code: do the colours of `group` it uses appear, in order of first appearance,
        as the smallest of the group, increasing? (Its relabelling within the group is itself.)"""
        if "firsts" not in self.shared:  # a column per rank of first appearance, in narrow ints
            firsts = _first_appearances(self.game.codes_array, self.game.colors)
            self.shared["firsts"] = np.ascontiguousarray(firsts.T.astype(np.min_scalar_type(self.game.colors)))
        firsts = self.shared["firsts"]  # pegs x codes: the colours by first appearance, then `colors`
        rank = np.full(self.game.colors + 1, -1, dtype=np.int16)
        rank[list(group)] = np.arange(len(group))
        ok = np.ones(firsts.shape[1], dtype=bool)
        seen = np.zeros(firsts.shape[1], dtype=np.int16)  # the group's colours met so far
        for column in firsts:  # the k-th colour of the group to appear must be its k-th
            ranks = rank[column]
            inside = ranks >= 0
            ok &= ~inside | (ranks == seen)
            seen += inside
        return ok

    # --- the group --------------------------------------------------------------------------
    def mask(self) -> np.ndarray | None:
        """A boolean per code: is it its orbit's representative? None if the group is trivial."""
        if self._mask is None:
            self._mask = self._compute_mask()
        return self._mask if isinstance(self._mask, np.ndarray) else None  # False: trivial

    def _compute_mask(self) -> np.ndarray | bool:
        if not self.history and self.invariant is None:
            return self.type_minima()
        forced = self.forced_elements()
        unused = self.unused
        if self.invariant is None:
            if len(forced) == 1 and len(unused) <= 1:
                return False
            canonical = self.relabelled(unused)
            images = np.stack([canonical[self.index_of(self.apply(f))] for f in forced])
        else:
            rep = self.explicit_minimum(forced, unused, self.invariant)
            if rep is None:
                return False
            return rep == np.arange(len(rep))
        rep = images.min(axis=0)
        return rep == np.arange(len(rep))

    def type_minima(self):
        """The empty history's mask without listing G: its orbits are the code types (two codes
        with the same colour multiplicities differ by a colour and a position permutation), so
        the representatives are the first code of each type (False: one code, trivial group)."""
        codes = self.game.codes_array
        if len(codes) <= 1:
            return False
        mask = np.zeros(len(codes), dtype=bool)
        mask[type_firsts(symbol_tallies(codes, self.game.colors))] = True
        return mask

    def relabelled(self, unused: list[int]) -> np.ndarray:
        """For every code, the index of the code with its unused colours relabelled (`relabel`),
        kept by the set of unused colours: relabelling acts code by code, so relabel(f x) is
        read off the index of f x."""
        canonical = self.shared.setdefault("relabelled", {})
        key = tuple(unused)
        if key not in canonical:
            canonical[key] = self.index_of(self.relabel(self.game.codes_array, unused))
        return canonical[key]

    def forced_elements(self) -> list[tuple[tuple[int, ...], np.ndarray]]:
        """F: for each position permutation tau that some colour permutation makes fix every guess
        of the history, (tau, pi) with pi the forced colour map (identity on unused colours)."""
        out = []
        for tau, partial in self.forced:
            pi = np.array(partial, dtype=np.int64)
            free = pi < 0
            pi[free] = np.flatnonzero(free)  # identity on the unused colours
            out.append((tau, pi))
        return out

    def _forced_from_scratch(self) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """F of the history, every position permutation tried (the root's, or a history given whole)."""
        out = []
        for tau in itertools.permutations(range(self.game.pegs)):
            pi: tuple[int, ...] = (-1,) * self.game.colors
            for h in self.history:
                extended = _extended(pi, tau, self.shared["codes"][h])
                if extended is None:
                    break
                pi = extended
            else:
                out.append((tau, pi))
        return out

    def extend(self, guess: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """F of the history extended by `guess`: the parent's elements whose colour map extends
        to it (only they can fix the longer history)."""
        code = self.shared["codes"][guess]
        out = []
        for tau, pi in self.forced:
            longer = _extended(pi, tau, code)
            if longer is not None:
                out.append((tau, longer))
        return out

    def apply(self, element: tuple[tuple[int, ...], np.ndarray]) -> np.ndarray:
        """Every code transformed by the element: y[i] = pi(x[tau[i]])."""
        tau, pi = element
        return pi[self.game.codes_array[:, list(tau)]]

    def relabel(self, codes: np.ndarray, unused: list[int]) -> np.ndarray:
        """Unused colours renamed in order of first appearance (to the smallest unused ones)."""
        if len(unused) <= 1:
            return codes
        is_free = np.zeros(self.game.colors, dtype=bool)
        is_free[unused] = True
        targets = np.array(unused)
        rows = np.arange(len(codes))
        name = np.full((len(codes), self.game.colors), -1, dtype=np.int64)
        given = np.zeros(len(codes), dtype=np.int64)
        for j in range(codes.shape[1]):
            col = codes[:, j]
            new = is_free[col] & (name[rows, col] < 0)
            name[rows[new], col[new]] = targets[given[new]]
            given[new] += 1
        return np.where(is_free[codes], name[rows[:, None], codes], codes)

    def index_of(self, codes: np.ndarray) -> np.ndarray:
        """The index of each code (rows of colours) in the game's order."""
        if "index" not in self.shared:
            c, p = self.game.colors, self.game.pegs
            powers = c ** np.arange(p - 1, -1, -1)
            dense = np.full(c**p, -1, dtype=np.int64)
            dense[self.game.codes_array.astype(np.int64) @ powers] = np.arange(len(self.game.codes_array))
            self.shared["index"] = (dense, powers)
        dense, powers = self.shared["index"]
        return dense[codes.astype(np.int64) @ powers]

    def explicit_minimum(self, forced, unused, invariant: np.ndarray) -> np.ndarray | None:
        """The least image of every code over the elements of G_H that preserve the invariant
        (they form a subgroup), or None if only the identity does."""
        free_perms = [tuple(unused)]
        if len(forced) * math.factorial(len(unused)) <= EXPLICIT_LIMIT:
            free_perms = list(itertools.permutations(unused))
        codes = self.game.codes_array
        least, kept = np.arange(len(codes)), 0
        probe = np.linspace(0, len(codes) - 1, min(len(codes), 64)).astype(np.intp)
        colour_maps = np.array([_with(pi, unused, perm) for _, pi in forced for perm in free_perms])
        for k, (tau, _) in enumerate(forced):
            maps = colour_maps[k * len(free_perms) : (k + 1) * len(free_perms)]
            moved = codes[:, list(tau)]
            # most elements move some probe code to a different weight: test those first, cheaply
            near = self.index_of(maps[:, moved[probe]])
            maps = maps[(invariant[near] == invariant[probe]).all(axis=1)]
            if len(maps) == 0:
                continue
            images = self.index_of(maps[:, moved])  # (maps, codes)
            keep = (invariant[images] == invariant).all(axis=1)
            if keep.any():
                np.minimum(least, images[keep].min(axis=0), out=least)
                kept += int(keep.sum())
        return least if kept > 1 else None


class Identity(Stabilizer):
    """The trivial group of a history, equal weights: every longer history's is trivial too,
    and its nodes' representatives are those of their dead colours alone (`node_mask`: at
    most one colour is unused, and relabelling one colour changes nothing). One object serves
    every such history."""

    def __init__(self, game, shared: dict):
        identity = (tuple(range(game.pegs)), tuple(range(game.colors)))
        super().__init__(game, (), None, shared, [identity])
        self.unused = []
        self._mask = False

    def after(self, guess: int) -> Identity:
        return self


def type_firsts(tallies: np.ndarray) -> np.ndarray:
    """The index of the first code of each code type (aabc, ...), given every code's colour
    tallies: two codes with the same multiplicities, sorted, are one type."""
    return unique_rows(np.sort(tallies, axis=1))[1]


def _first_appearances(codes: np.ndarray, colors: int) -> np.ndarray:
    """firsts[x] = the distinct colours of code x in order of first appearance, padded with
    `colors` (no colour)."""
    firsts = np.full(codes.shape, colors, dtype=np.int64)
    for x, code in enumerate(codes.tolist()):
        seen = list(dict.fromkeys(code))
        firsts[x, : len(seen)] = seen
    return firsts


def _extended(pi: tuple[int, ...], tau: tuple[int, ...], code: tuple[int, ...]) -> tuple[int, ...] | None:
    """The partial colour map pi (-1: not yet forced) extended so that (tau, pi) fixes `code`,
    pi(code[tau[i]]) = code[i] for every position i, or None if no injective extension does."""
    pi_list = list(pi)
    for source, t in zip(tau, code):
        a = code[source]
        if pi_list[a] == -1:
            if t in pi_list:  # t is already the image of another colour: not injective
                return None
            pi_list[a] = t
        elif pi_list[a] != t:
            return None
    return tuple(pi_list)


def _with(pi: np.ndarray, unused: list[int], perm: tuple[int, ...]) -> np.ndarray:
    """The colour map pi with the unused colours sent to `perm`."""
    full = pi.copy()
    full[unused] = perm
    return full


def _pattern(code: np.ndarray) -> str:
    """A code's type: its colour multiplicities, largest first, written aabc."""
    counts = sorted(np.bincount(code).tolist(), reverse=True)
    return "".join(chr(ord("a") + i) * c for i, c in enumerate(c for c in counts if c))


def _permutation(number: int, n: int) -> list[int]:
    """The permutation of range(n) with this index (0 <= number < n!) in the factorial
    number system (Lehmer code)."""
    items, out = list(range(n)), []
    for k in range(n, 0, -1):
        number, digit = divmod(number, k)
        out.append(items.pop(digit))
    return out


def code_types(game) -> tuple[np.ndarray, tuple[str, ...], str, int, Callable[[int], np.ndarray]]:
    """Colour x position permutations of Mastermind: orbits are code types (aabc, ...).

    The group has colors! * pegs! elements; element e = c * pegs! + p applies colour
    permutation number c and position permutation number p: code x becomes y with
    y[i] = colour_perm[x[position_perm[i]]] (codes of Bulls and Cows, without repeats, stay
    without repeats, so the same group acts on them)."""
    codes = game.codes_array
    patterns = [_pattern(c) for c in codes]
    labels = tuple(sorted(set(patterns)))  # aaaa, aaab, aabb, aabc, abcd: fewest colours first
    index = {p: i for i, p in enumerate(labels)}
    orbit = np.array([index[p] for p in patterns])
    pegs, colors = game.pegs, game.colors
    positions = math.factorial(pegs)
    # codes are listed in numerical order, so their numbers in base `colors` increase: a sorted key
    powers = colors ** np.arange(pegs - 1, -1, -1, dtype=np.int64)
    keys = codes.astype(np.int64) @ powers

    def act(element: int) -> np.ndarray:
        colour_number, position_number = divmod(element, positions)
        colour_perm = np.array(_permutation(colour_number, colors), dtype=codes.dtype)
        moved = colour_perm[codes[:, _permutation(position_number, pegs)]]
        return np.searchsorted(keys, moved.astype(np.int64) @ powers)

    return orbit, labels, "colour and position permutations", math.factorial(colors) * positions, act
