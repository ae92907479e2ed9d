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
    """A guesser's complete strategy against a set of secrets, with each secret's cost."""

    game: Game
    guesser: str
    root: Node
    guesses: np.ndarray  # guesses[s] = guesses needed for secret s (0 for secrets not covered)

    @property
    def secrets(self) -> Indexes:
        return self.root.candidates

    def cost(self, node: Node) -> np.ndarray:
        return self.guesses[node.candidates]

    def nodes(self) -> Iterator[Node]:
        return self.root.walk()

    def rows(self, min_count: int = 3, depth: int | None = None) -> list[tuple[str, str, int, int, float, int]]:
        """The strategy table: (History, Guess, Count, Total, Avg, Max) for each decision point
        reached by at least `min_count` secrets (and fewer than `depth` guesses deep), largest first."""
        rows = []
        for node in self.nodes():
            if len(node.candidates) < min_count or (depth is not None and node.depth >= depth):
                continue
            cost = self.cost(node)
            rows.append((self.game.history_label(node.replies), self.game.guesses[node.guess],
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
        return {"format": "arena-tree/1", "game": self.game.spec, "guesser": self.guesser,
                "total": int(self.guesses.sum()), "worst": int(self.guesses.max()), "root": encode(self.root)}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")


#: A guesser is stopped after this many guesses in one game, or this many in a row that split nothing.
MAX_GUESSES = 200
STALL = 8


def grow_tree(game: Game, guesser, secrets: Indexes | None = None) -> Tree:
    """The tree of `guesser` (deterministic, or seeded) against every secret of `secrets`.

    Raises RuleBreak if the guesser names a guess outside the game or never finishes.
    """
    from agents.base import State  # agents depend on the engine, not the other way round

    secrets = game.all_secrets if secrets is None else np.asarray(secrets)
    cost = np.zeros(len(game.secrets), dtype=np.int64)

    def grow(state: State, stalled: int = 0) -> Node:
        guess = guesser.guess(game, state)
        if not (isinstance(guess, (int, np.integer)) and 0 <= guess < len(game.guesses)):
            raise RuleBreak(f"guesser {guesser.spec} made an illegal guess {guess!r} after "
                            f"{game.history_label([r for _, r in state.history]) or 'no replies'}")
        node = Node(int(guess), state.candidates, tuple(r for _, r in state.history))
        parts = game.partition(node.guess, state.candidates)
        stalled = stalled + 1 if len(parts) == 1 and not game.finished(next(iter(parts))) else 0
        if state.turn >= MAX_GUESSES or stalled > STALL:
            raise RuleBreak(f"guesser {guesser.spec} makes no progress: {len(state.candidates)} secrets "
                            f"still possible after {state.turn + 1} guesses")
        for reply, part in parts.items():
            if game.finished(reply):
                cost[part] = state.turn + 1
            else:
                node.children[reply] = grow(state.after(node.guess, reply, part), stalled)
        return node

    root = grow(State(secrets))
    return Tree(game, guesser.spec, root, cost)


def read_tree_file(path: str | Path) -> dict:
    """The JSON of a saved tree, checked for the fields a replay needs."""
    try:
        data = json.loads(Path(path).read_text())
        if data.get("format") != "arena-tree/1" or not isinstance(data.get("root"), dict):
            raise ValueError("no arena-tree/1 format tag or no root")
        if not isinstance(data.get("game"), str):
            raise ValueError("no game spec")
        return data
    except (OSError, ValueError, AttributeError) as e:
        raise ArenaError(f"{path}: not a saved strategy tree ({e})") from None


def load_tree(path: str | Path) -> Tree:
    """A saved tree, replayed against every secret of its game (which checks it covers them all)."""
    from agents.replay import Replay
    from .games import make_game

    data = read_tree_file(path)
    tree = grow_tree(make_game(data["game"]), Replay(file=str(path)))
    tree.guesser = data.get("guesser", tree.guesser)
    return tree
