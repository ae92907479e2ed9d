"""Strategy trees: a deterministic guesser against every secret at once.

Growing the tree partitions the candidates by the reply to each guess and recurses into each
class, so each node asks the guesser once however many secrets pass through it. The tree
records, for every secret, the number of guesses it takes; it can be printed as the strategy
table of the Mastermind study, saved as JSON, and loaded again as a guesser.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import numpy as np

from .errors import ArenaError, RuleBreak
from .game import Game, Index, Indexes, Reply


@dataclass
class Node:
    """A decision point: the guess made there and the subtree for each reply that goes on."""

    guess: Index
    candidates: Indexes  # the secrets that reach this point
    replies: tuple[Reply, ...]  # the replies that led here
    children: dict[Reply, "Node"] = field(default_factory=dict)
    opening: str = ""  # what the guesser was told first (Hangman: the length)

    @property
    def depth(self) -> int:
        """Guesses already made before this one."""
        return len(self.replies)

    def walk(self) -> Iterator["Node"]:
        """This node and every node below it, depth first in reply order."""
        yield self
        for reply in sorted(self.children):
            yield from self.children[reply].walk()


@dataclass
class Tree:
    """A guesser's complete strategy against a set of secrets, with each secret's costs.

    `roots` has one tree per opening (one, unless the game tells the guesser something first,
    as Hangman tells the length). `guesses[s]` is the number of guesses secret s takes and
    `misses[s]` how many of them were misses (0 for secrets not covered).
    """

    game: Game
    guesser: str
    roots: list[Node]
    guesses: np.ndarray
    misses: np.ndarray

    @property
    def root(self) -> Node:
        if len(self.roots) != 1:
            raise ValueError("this tree has one root per opening: use .roots")
        return self.roots[0]

    @property
    def secrets(self) -> Indexes:
        return np.sort(np.concatenate([r.candidates for r in self.roots]))

    def cost(self, node: Node) -> np.ndarray:
        return self.guesses[node.candidates]

    def nodes(self) -> Iterator[Node]:
        for root in self.roots:
            yield from root.walk()

    def history(self, node: Node) -> str:
        prefix = f"{node.opening}: " if node.opening else ""
        return prefix + self.game.history_label(node.replies)

    def rows(self, min_count: int = 3, depth: int | None = None) -> list[tuple[str, str, int, int, float, int]]:
        """The strategy table: (History, Guess, Count, Total, Avg, Max) for each decision point
        reached by at least `min_count` secrets (and fewer than `depth` guesses deep), largest first."""
        rows = []
        for node in self.nodes():
            if len(node.candidates) < min_count or (depth is not None and node.depth >= depth):
                continue
            cost = self.cost(node)
            rows.append((self.history(node), self.game.guesses[node.guess],
                         len(cost), int(cost.sum()), float(cost.mean()), int(cost.max())))
        rows.sort(key=lambda r: -r[2])  # stable: ties keep depth-first order
        return rows

    def table(self, min_count: int = 3, depth: int | None = None) -> str:
        """The strategy table as text, in the layout of the Mastermind study."""
        rows = self.rows(min_count, depth)
        width = max([7] + [len(r[0]) for r in rows])
        gw = max([5] + [len(r[1]) for r in rows])
        lines = [f"{'History':<{width}} {'Guess':<{gw}} {'Count':>6} {'Total':>7} {'Avg':>5} {'Max':>4}"]
        for hist, guess, count, total, avg, worst in rows:
            lines.append(f"{hist:<{width}} {guess:<{gw}} {count:>6,} {total:>7,} {avg:>5.2f} {worst:>4}")
        return "\n".join(lines)

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        def encode(node: Node) -> dict:
            out = {"guess": self.game.guesses[node.guess], "count": int(len(node.candidates))}
            if node.children:
                out["replies"] = {self.game.reply_label(r): encode(c) for r, c in sorted(node.children.items())}
            return out
        data = {"format": "arena-tree/1", "game": self.game.spec, "guesser": self.guesser,
                "total": int(self.guesses.sum()), "worst": int(self.guesses.max())}
        if len(self.roots) == 1 and not self.roots[0].opening:
            data["root"] = encode(self.roots[0])
        else:
            data["openings"] = {r.opening: encode(r) for r in self.roots}
        return data

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")


#: A guesser is stopped after this many guesses in one game, or this many in a row that split nothing.
MAX_GUESSES = 200
STALL = 8


def grow_tree(game: Game, guesser, secrets: Indexes | None = None) -> Tree:
    """The tree of `guesser` (deterministic, or seeded) against every secret of `secrets`.

    Each class of the game's openings (Hangman: each word length) is a root. A branch ends when
    the reply ends the game (the secret was guessed) or the candidates determine it (Hangman:
    one word left). Raises RuleBreak if the guesser names a guess outside the game or never
    finishes.
    """
    from agents.base import State  # agents depend on the engine, not the other way round

    from .levels import can_grow_by_levels, grow_by_levels

    secrets = game.all_secrets if secrets is None else np.asarray(secrets)
    if can_grow_by_levels(game, guesser):
        return grow_by_levels(game, guesser, secrets)
    guesses = np.zeros(len(game.secrets), dtype=np.int64)
    misses = np.zeros(len(game.secrets), dtype=np.int64)

    def grow(state: State, opening: str, missed: int, stalled: int = 0) -> Node | None:
        if game.determined(state.candidates):
            guesses[state.candidates], misses[state.candidates] = state.turn, missed
            return None
        guess = guesser.guess(game, state)
        if not (isinstance(guess, (int, np.integer)) and 0 <= guess < len(game.guesses)):
            raise RuleBreak(f"guesser {guesser.spec} made an illegal guess {guess!r} after "
                            f"{game.history_label([r for _, r in state.history]) or 'no replies'}")
        node = Node(int(guess), state.candidates, tuple(r for _, r in state.history), opening=opening)
        parts = game.partition(node.guess, state.candidates)
        stalled = stalled + 1 if len(parts) == 1 and not game.finished(next(iter(parts))) else 0
        if state.turn >= MAX_GUESSES or stalled > STALL:
            raise RuleBreak(f"guesser {guesser.spec} makes no progress: {len(state.candidates)} secrets "
                            f"still possible after {state.turn + 1} guesses")
        for reply, part in parts.items():
            miss = missed + game.is_miss(reply)
            if game.finished(reply):
                guesses[part], misses[part] = state.turn + 1, miss
            else:
                child = grow(state.after(node.guess, reply, part), opening, miss, stalled)
                if child is not None:
                    node.children[reply] = child
        return node

    roots = [grow(State(part), label, 0) for label, part in game.openings(secrets)]
    return Tree(game, guesser.spec, [r for r in roots if r is not None], guesses, misses)


def read_tree_file(path: str | Path) -> dict:
    """The JSON of a saved tree, checked for the fields a replay needs: every node an object with
    a `guess` string and, below it, `replies` mapping reply labels to nodes, at most MAX_GUESSES
    deep (a saved tree never is deeper; checked without recursion, so a deeper file is one line,
    not a RecursionError)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except RecursionError:
        raise ArenaError(f"{path}: not a saved strategy tree (nested too deep)") from None
    except (OSError, ValueError) as e:
        raise ArenaError(f"{path}: not a saved strategy tree ({e})") from None
    if not isinstance(data, dict) or data.get("format") != "arena-tree/1":
        raise ArenaError(f"{path}: not a saved strategy tree (no arena-tree/1 format tag)")
    if not isinstance(data.get("game"), str):
        raise ArenaError(f"{path}: not a saved strategy tree (no game spec)")
    roots = data.get("openings") if "openings" in data else {"": data.get("root")}
    if not isinstance(roots, dict) or not roots:
        raise ArenaError(f"{path}: not a saved strategy tree (no root)")
    for opening, root in roots.items():
        _check_nodes(path, opening, root)
    data["openings"] = roots
    return data


def _check_nodes(path: str | Path, opening: str, root) -> None:
    """Every node under `root` well formed and at most MAX_GUESSES deep, walked with a stack."""
    stack = [(root, ())]
    while stack:
        node, replies = stack.pop()
        shown = "|".join(replies) if len(replies) <= 6 else f"{len(replies)} replies (...|{'|'.join(replies[-3:])})"
        where = " ".join(([opening] if opening else []) + ["the root" if not replies else "after " + shown])
        if not isinstance(node, dict):
            raise ArenaError(f"{path}: malformed tree node at {where}: not an object")
        if not isinstance(node.get("guess"), str):
            raise ArenaError(f"{path}: malformed tree node at {where}: no guess (a string)")
        children = node.get("replies", {})
        if not isinstance(children, dict):
            raise ArenaError(f"{path}: malformed tree node at {where}: replies must map reply labels to nodes")
        if children and len(replies) >= MAX_GUESSES:
            raise ArenaError(f"{path}: the tree is deeper than {MAX_GUESSES} guesses at {where}")
        stack.extend((child, replies + (label,)) for label, child in children.items())


def load_tree(path: str | Path) -> Tree:
    """A saved tree, replayed against every secret of its game (which checks it covers them all)."""
    from agents.replay import Replay
    from .games import make_game

    data = read_tree_file(path)
    tree = grow_tree(make_game(data["game"]), Replay(file=str(path)))
    if isinstance(data.get("guesser"), str):
        tree.guesser = data["guesser"]
    return tree
