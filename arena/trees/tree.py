"""Strategy trees as data: a Node per decision point and the Tree of a guesser against every
secret, with its printed table and JSON form. Growing them: arena.trees.grow; loading them: arena.trees.saved."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.frames import counts, frame
from ..core.game import Game, Index, Indexes, Reply


@dataclass
class Node:
    """A decision point: the guess made there and the subtree for each reply that goes on."""

    guess: Index
    candidates: Indexes  # the secrets that reach this point
    replies: tuple[Reply, ...]  # the replies that led here
    children: dict[Reply, Node] = field(default_factory=dict)
    opening: str = ""  # what the guesser was told first (Hangman: the length)

    @property
    def depth(self) -> int:
        """Guesses already made before this one."""
        return len(self.replies)

    def walk(self) -> Iterator[Node]:
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
    #: the secrets the tree covers, where an opening of one secret needs no root (Hangman: a
    #: length, or a shape, with one word); None: those of the roots
    covered: Indexes | None = None

    @property
    def root(self) -> Node:
        if len(self.roots) != 1:
            raise ValueError("this tree has one root per opening: use .roots")
        return self.roots[0]

    @property
    def secrets(self) -> Indexes:
        if self.covered is not None:
            return np.sort(np.asarray(self.covered))
        return np.sort(np.concatenate([r.candidates for r in self.roots]))

    def cost_of(self, node: Node) -> np.ndarray:
        """What the secrets reaching this node cost (the strategy table's columns): guesses."""
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
            cost = self.cost_of(node)
            rows.append(
                (
                    self.history(node),
                    self.game.guesses[node.guess],
                    len(cost),
                    int(cost.sum()),
                    float(cost.mean()),
                    int(cost.max()),
                )
            )
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

    def to_frame(self, min_count: int = 3, depth: int | None = None):
        """The strategy table (`rows`) as a pandas DataFrame: columns history, guess, count,
        total, avg, max; one row per decision point reached by at least `min_count` secrets."""
        rows = self.rows(min_count, depth)
        names = ["history", "guess", "count", "total", "avg", "max"]
        return frame({name: [row[i] for row in rows] for i, name in enumerate(names)})

    def costs_frame(self):
        """Each secret's cost as a pandas DataFrame: columns secret, guesses, misses (misses
        <NA> where they do not count), one row per secret the tree covers, in secret order."""
        covered = self.secrets
        misses = self.misses[covered] if self.game.rules.strikes else None
        return frame(
            {
                "secret": [self.game.secrets[s] for s in covered],
                "guesses": self.guesses[covered],
                "misses": counts(misses, len(covered)),
            }
        )

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        labels: dict[int, str] = {}  # each reply's label made once (a Wordle state's trees: 3.7 M labels of 243)

        def label(reply: int) -> str:
            text = labels.get(reply)
            if text is None:
                text = labels[reply] = self.game.reply_label(reply)
            return text

        def encode(node: Node) -> dict:
            out = {"guess": self.game.guesses[node.guess], "count": int(len(node.candidates))}
            if node.children:
                out["replies"] = {label(r): encode(c) for r, c in sorted(node.children.items())}
            return out

        data = {
            "format": "arena-tree/1",
            "game": self.game.spec,
            "guesser": self.guesser,
            "total": int(self.guesses.sum()),
            "worst": int(self.guesses.max()),
        }
        if len(self.roots) == 1 and not self.roots[0].opening:
            data["root"] = encode(self.roots[0])
        else:
            data["openings"] = {r.opening: encode(r) for r in self.roots}
        return data

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")
