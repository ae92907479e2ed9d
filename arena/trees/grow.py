"""Growing a strategy tree: the one recursive grower behind greedy trees, exact trees,
look-ahead trees and replays of saved trees, and `grow_tree`, a guesser's tree by any route.

`grow_tree(game, guesser)` is a deterministic (or seeded) guesser against every secret at once:
it partitions the candidates by the reply to each guess and recurses into each class, so each
node asks the guesser once however many secrets pass through it. The tree records, for every
secret, the guesses (and misses) it takes.

`grow` walks a candidate set. At each node it asks `choose` for the guess, given what the node
knows (a `Spot`: the candidates, the replies and guesses so far, what is left of a depth limit,
the misses so far, what the rules allow there), splits the candidates by their reply to it
(`game.partition`) and grows each class that goes on. A branch ends where the game ends: with a
hit (`game.finished`), or, in a game that ends once the secret is determined (Hangman: one
word left), with `game.determined`. It returns the root and each secret's (guesses, misses).

What a caller adds is a parameter (`choose`) or a hook (a field of `Hooks`, each optional), not a
copy of the walk:

    choose     the guess at a node: a guesser's, checked against the rules (`grow_tree`, below),
               the exact search's best guess or a depth proof's (arena.optimal.growing), the
               rollout's (arena.optimal.lookahead), a fixed opener (arena.optimal.solve)
    check      a look at each guess once the game has split the node by it: grow_tree stops a
               guesser that makes no progress, fixed openers must leave room within a limit
    hand_over  a subtree solver a node is handed over to: the classes fixed openers leave go to
               the exact search (arena.optimal.solve.search_opened)
    step       what a reply uses of a depth limit (default one guess; the exact search's
               `Search.step` counts misses where its cost does)
    allow      what a class may guess after a reply (hard mode; the exact search's
               `Search.class_allowed`); default: what its parent may

The compiled level growers of arena.trees.levels are a separate fast path for greedy (scoring)
guessers: they grow the same tree as this grower asking the guesser at each node, node for node
(tests/test_levels.py and tests/test_hangman.py check it), but a whole depth at a time
in compiled code, so `grow_tree` tries them first and grows here only where they do not apply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import RuleBreak, agent_name
from ..core.game import Game, Index, Indexes, Reply
from ..core.state import Move, State
from .levels import can_grow_by_levels, can_grow_compiled, grow_by_levels, grow_compiled
from .tree import Node, Tree

__all__ = [
    "MAX_GUESSES",
    "Hooks",
    "Spot",
    "can_replay_by_levels",
    "grow",
    "grow_tree",
    "replay_by_levels",
    "splits_nothing",
]


@dataclass(slots=True)
class Spot:
    """What a node knows: the secrets still possible, the replies since the game's start, the
    moves (guess, reply) since the grower started (a subtree grown below a path knows only the
    path's replies), what is left of a depth limit (guesses, or misses: `step`), the misses so
    far, the guesses the rules allow there (hard mode; None: every guess), and how many
    guesses in a row split nothing before it. (Not frozen: a frozen dataclass costs four
    times as much to make, once a node; the grower makes a new one for every node.)"""

    candidates: Indexes
    replies: tuple[Reply, ...] = ()
    moves: tuple[Move, ...] = ()
    left: int = 0
    missed: int = 0
    allowed: Any = None
    stalled: int = 0

    @property
    def turn(self) -> int:
        """How many guesses have been made before this node (the node's depth)."""
        return len(self.replies)


Choose = Callable[[Spot], Index]
Check = Callable[[Spot, Index, dict[Reply, Indexes]], None]
Solve = Callable[[Spot], "tuple[Node | None, np.ndarray] | None"]
Allow = Callable[[Any, Index, Reply, Indexes], Any]


@dataclass(frozen=True, slots=True)
class Hooks:
    """What a caller of `grow` adds to the walk (see the module docstring): a look at each split
    (`check`), a subtree solver a node may be handed to (`hand_over`), what a reply uses of a depth
    limit (`step`; None: one guess) and what a class may guess after a reply (`allow`; None: what
    its parent may). They travel together: each caller's set is one value."""

    check: Check | None = None
    hand_over: Solve | None = None
    step: Callable[[Reply], int] | None = None
    allow: Allow | None = None


#: No hooks: the plain walk.
PLAIN = Hooks()


def splits_nothing(game: Game, parts: dict[Reply, Indexes]) -> bool:
    """Did a guess leave the candidates as they were (one class, and not a hit)?"""
    return len(parts) == 1 and not game.finished(next(iter(parts)))


def grow(
    game: Game,
    start: Spot,
    choose: Choose,
    opening: str = "",
    *,
    hooks: Hooks = PLAIN,
    costs: np.ndarray | None = None,
) -> tuple[Node | None, np.ndarray]:
    """The tree of the guesses `choose(spot)` names from `start` (its candidates, met after its
    replies), and each secret's (guesses, misses) under it as the rows of `costs` (filled in
    place where given: the roots of several openings share one; else new zeros), counted from
    the game's start. The root is None where the game is over at `start` already.

    At each node: the game may have ended (`game.determined`); else `hooks.hand_over(spot)` may hand
    the node over (its subtree and cost rows, or None to grow it here); else `choose(spot)` names
    the guess, the game splits the candidates by it, `hooks.check(spot, guess, parts)` looks at
    the split, and every class the reply does not end (`game.finished`) is grown below, its
    `left` less `hooks.step(reply)` and its guesses allowed `hooks.allow(allowed, guess, reply,
    class)`."""
    check, hand_over, step, allow = hooks.check, hooks.hand_over, hooks.step, hooks.allow
    rows = np.zeros((2, len(game.secrets)), dtype=np.int64) if costs is None else costs
    guesses, misses = rows  # each row on its own: a leaf's two assignments are then cheap

    def grow_at(spot: Spot) -> Node | None:
        part = spot.candidates
        if game.determined(part):
            guesses[part], misses[part] = spot.turn, spot.missed
            return None
        if hand_over is not None:
            solved = hand_over(spot)
            if solved is not None:
                root, solved_rows = solved
                rows[:, part] = solved_rows[:, part]
                return root
        node = Node(int(choose(spot)), part, spot.replies, opening=opening)
        parts = game.partition(node.guess, part)
        if check is not None:
            check(spot, node.guess, parts)
        stalled = spot.stalled + 1 if splits_nothing(game, parts) else 0
        for reply, cls in parts.items():
            missed = spot.missed + int(game.is_miss(reply))
            if game.finished(reply):
                guesses[cls], misses[cls] = spot.turn + 1, missed
                continue
            child = grow_at(
                Spot(
                    cls,
                    spot.replies + (reply,),
                    spot.moves + ((node.guess, reply),),
                    spot.left - (1 if step is None else step(reply)),
                    missed,
                    spot.allowed if allow is None else allow(spot.allowed, node.guess, reply, cls),
                    stalled,
                )
            )
            if child is not None:
                node.children[reply] = child
        return node

    return grow_at(start), rows


#: A guesser is stopped after this many guesses in one game, or this many in a row that split nothing.
MAX_GUESSES = 200
STALL = 8


def grow_tree(game: Game, guesser, secrets: Indexes | None = None) -> Tree:
    """The tree of `guesser` (deterministic, or seeded) against every secret of `secrets`.

    Each class of the game's openings (Hangman: each word length) is a root. A branch ends when
    the reply ends the game (the secret was guessed) or the candidates determine it (Hangman:
    one word left). Raises RuleBreak if the guesser names a guess outside the game, one the
    rules forbid after the moves so far (`Game.refusal`), or never finishes. A scoring guesser
    is grown by the compiled level growers (arena.trees.levels) where they apply, any other by the
    one grower (arena.trees.grow) asking the guesser at each node.
    """
    secrets = game.all_secrets if secrets is None else np.asarray(secrets)
    if can_grow_by_levels(game, guesser):
        return grow_by_levels(game, guesser, secrets)
    if can_grow_compiled(game, guesser):
        return grow_compiled(game, guesser, secrets)

    def guesser_at(opening: str, whole: bool) -> Choose:
        """The guesser's choice at a node; `whole`: the candidates are every secret consistent
        with the moves (State.whole)."""

        def choose(spot: Spot) -> Index:
            return guesser.guess(game, State(spot.candidates, spot.moves, whole))

        return choose

    return grow_roots(game, guesser_at, lambda: agent_name(guesser), guesser.spec, secrets)


def _legal_guess(game: Game, guess: Any, name: str, replies: tuple[Reply, ...]) -> Index:
    """`guess` as an index of the game's guesses, or the RuleBreak of a guesser `name` that named
    no guess of the game after `replies`."""
    if not (isinstance(guess, (int, np.integer)) and 0 <= guess < len(game.guesses)):
        raise RuleBreak(
            f"guesser {name} made an illegal guess {guess!r} after {game.history_label(replies) or 'no replies'}"
        )
    return int(guess)


def _no_progress(name: str, candidates: int, turn: int) -> RuleBreak:
    """The RuleBreak of a guesser that never finishes: `candidates` secrets still possible at a
    node of depth `turn` (MAX_GUESSES guesses made, or STALL in a row that split nothing)."""
    return RuleBreak(f"guesser {name} makes no progress: {candidates} secrets still possible after {turn + 1} guesses")


def grow_roots(
    game: Game, choose_at: Callable[[str, bool], Choose], name: Callable[[], str], spec: str, secrets: Indexes
) -> Tree:
    """grow_tree's walk for a guesser whose choice at a node is `choose_at(opening, whole)(spot)`
    (whole: the root's candidates are every secret), each guess checked against the game and its
    rules and each guesser stopped that never finishes (RuleBreak naming `name()`); one root per
    opening, the tree named `spec`. arena.equilibrium.plans replays saved plans through it
    without a guesser's State at every node."""

    def checked(choose: Choose) -> Choose:
        def choice(spot: Spot) -> Index:
            guess = _legal_guess(game, choose(spot), name(), spot.replies)
            reason = game.refusal(int(guess), spot.moves)
            if reason:
                raise RuleBreak(
                    f"guesser {name()} broke the rules with {game.guesses[int(guess)]} after "
                    f"{game.history_label(spot.replies)}: {reason}"
                )
            return int(guess)

        return choice

    def check_progress(spot: Spot, guess: Index, parts: dict[Reply, Indexes]) -> None:
        """A guesser that has made MAX_GUESSES guesses, or STALL in a row that split nothing,
        never finishes."""
        stalled = spot.stalled + 1 if splits_nothing(game, parts) else 0
        if spot.turn >= MAX_GUESSES or stalled > STALL:
            raise _no_progress(name(), len(spot.candidates), spot.turn)

    costs = np.zeros((2, len(game.secrets)), dtype=np.int64)
    whole = len(secrets) == len(game.secrets)
    roots = [
        grow(
            game,
            Spot(part),
            checked(choose_at(label, whole and len(part) == len(game.secrets))),
            label,
            hooks=Hooks(check=check_progress),
            costs=costs,
        )[0]
        for label, part in game.openings(secrets)
    ]
    return Tree(game, spec, [r for r in roots if r is not None], costs[0], costs[1], covered=np.sort(secrets))


# --- a plan (the guess after each history) replayed a level at a time --------------------------

#: Game methods whose defaults the replay assumes, besides the rules it asks.
_REPLAY_DEFAULTS = ("finished", "is_miss")


def can_replay_by_levels(game: Game) -> bool:
    """Can a plan be replayed on `game` a level at a time: every guess is allowed everywhere
    (`rules.restricted`) and a reply ends the game as `finishing` says?"""
    return bool(
        not game.rules.restricted and all(getattr(type(game), name) is getattr(Game, name) for name in _REPLAY_DEFAULTS)
    )


def replay_by_levels(game: Game, guess_at: Callable[[tuple], Any], spec: str, secrets: Indexes) -> Tree:
    """The tree of the guesser whose guess after each history is `guess_at((opening, replies...))`
    (None: it has none), against `secrets`, grown a level at a time: each level's nodes split by
    one sort of (node, reply), a node the game calls determined (Hangman: one word left) ended.
    Node for node the tree grow_roots grows asking at every node, with its checks and its
    messages (a test compares them): a history with no guess, an illegal guess, and a guesser
    that makes no progress are each a RuleBreak. Saved Wordle states hold thousands of trees of
    thousands of nodes, which the grower took minutes to replay: a Python call and a partition
    a node."""
    n_codes = game.n_codes
    guesses = np.zeros(len(game.secrets), dtype=np.int64)
    misses = np.zeros(len(game.secrets), dtype=np.int64)
    roots: list[Node] = []
    order_parts = []
    for label, part in game.openings(np.asarray(secrets)):
        if game.determined(part):  # over before a guess: 0 guesses, 0 misses
            continue
        roots.append(Node(-1, part, (), {}, label))
        order_parts.append(np.asarray(part))
    parents, stalled = list(roots), np.zeros(len(roots), dtype=np.int64)
    order = np.concatenate(order_parts) if order_parts else np.zeros(0, dtype=np.intp)
    sizes = np.array([len(p) for p in order_parts], dtype=np.int64)
    level = 0
    while parents:
        choice = _planned(game, guess_at, parents, spec)
        node_of = np.repeat(np.arange(len(parents)), sizes)
        replies = np.asarray(game.table[choice[node_of], order]).astype(np.int64)
        misses[order] += replies == game.miss
        level += 1
        done = np.asarray(game.finishing(replies), dtype=bool)
        guesses[order[done]] = level
        key = node_of[~done] * n_codes + replies[~done]
        perm = np.argsort(key, kind="stable")
        order, key = order[~done][perm], key[perm]
        starts = np.flatnonzero(np.diff(key, prepend=-1))
        sizes = np.diff(np.append(starts, len(order)))
        first = key[starts]
        at_parent = first // n_codes
        stalled = _progress(spec, parents, stalled, at_parent, np.bincount(node_of[done], minlength=len(parents)))
        children: list[Node] = []
        going = np.ones(len(order), dtype=bool)
        for start, size, at, reply in zip(
            starts.tolist(), sizes.tolist(), at_parent.tolist(), (first % n_codes).tolist()
        ):
            part = order[start : start + size]
            if game.determined(part):  # Hangman: one word left; its misses are counted already
                guesses[part], going[start : start + size] = level, False
                continue
            parent = parents[at]
            child = Node(-1, part, parent.replies + (reply,), {}, parent.opening)
            parent.children[reply] = child
            children.append(child)
        if not going.all():
            kept = going[starts]
            order, sizes, stalled = order[going], sizes[kept], stalled[kept]
        parents = children
    return Tree(game, spec, roots, guesses, misses, covered=np.sort(secrets))


def _planned(game: Game, guess_at: Callable[[tuple], Any], nodes: list[Node], spec: str) -> np.ndarray:
    """Each node's guess from the plan, set on the node; grow_roots' messages where it has none
    or names no guess of the game."""
    choice = np.empty(len(nodes), dtype=np.int64)
    for i, node in enumerate(nodes):
        guess = guess_at((node.opening,) + node.replies)
        if guess is None:
            raise RuleBreak(f"{spec} has no guess after {game.history_label(node.replies) or 'no replies'}")
        choice[i] = node.guess = _legal_guess(game, guess, spec, node.replies)
    return choice


def _progress(spec: str, nodes: list[Node], stalled, at_parent, hits) -> np.ndarray:
    """grow_roots' check_progress on a level's nodes, split into their children (`at_parent`: each
    child's node; `hits`: how many of each node's secrets the guess hit): a node whose guess
    split nothing (one child, no hit) adds to its run of such guesses, which stops the guesser
    past STALL, as MAX_GUESSES guesses do; each child's run."""
    classes = np.bincount(at_parent, minlength=len(nodes))
    runs = np.where((classes == 1) & (hits == 0), stalled + 1, 0)
    turn = len(nodes[0].replies) if nodes else 0
    stuck = np.flatnonzero(runs > STALL) if turn < MAX_GUESSES else np.arange(len(nodes))
    if len(stuck):
        raise _no_progress(spec, len(nodes[int(stuck[0])].candidates), turn)
    return runs[at_parent]
