"""Saved strategy trees: a tree (arena.trees.tree, grown by arena.trees.grow.grow_tree) saved as
JSON is loaded again as a guesser (`SavedTree`, `load_tree`).

Saved trees have one reader (`read_tree_file` / `check_tree` for the JSON, `read_plan` for the
guesses against a game): the `tree` agent, `load_tree` and saved equilibria's trees all use it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from ..core.errors import ArenaError, RuleBreak
from ..core.game import Game, Index, Reply
from ..core.players import GuesserProtocol
from ..core.state import State
from ..core.traits import Traits
from ..games import make_game
from .grow import MAX_GUESSES, grow_tree
from .grow import STALL as STALL  # the old arena.tree's name (arena.moved), kept for code using it
from .tree import Node as Node  # the old arena.tree's name (arena.moved), kept for code using it
from .tree import Tree

__all__ = ["Labels", "SavedPlan", "SavedTree", "check_tree", "load_tree", "read_plan", "read_tree_file"]


# --- saved trees: the one reader (for `tree:file=`, load_tree and saved equilibria) ----------

#: A saved plan: the guess at each node, by (opening, reply codes so far...).
SavedPlan = dict[tuple, Index]


def read_tree_file(path: str | Path) -> dict:
    """The JSON of a saved tree, checked (`check_tree`)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except RecursionError:  # json's parser nests one call per level: no strategy is that deep
        raise ArenaError(f"{path}: not a saved strategy tree (nested too deep)") from None
    except (OSError, ValueError) as e:
        raise ArenaError(f"{path}: not a saved strategy tree ({e})") from None
    return check_tree(path, data)


def check_tree(where: str | Path, data) -> dict:
    """A saved tree's JSON (`Tree.to_json`), checked for the fields a replay needs: every node an
    object with a `guess` string and, below it, `replies` mapping reply labels to nodes, at most
    MAX_GUESSES deep (a saved tree never is deeper; checked without recursion, so a deeper file
    is one line, not a RecursionError). `where` names the file (and the tree in it) in errors.
    The roots are returned under "openings" ({"": root} for a tree of one root)."""
    if not isinstance(data, dict) or data.get("format") != "arena-tree/1":
        raise ArenaError(f"{where}: not a saved strategy tree (no arena-tree/1 format tag)")
    if not isinstance(data.get("game"), str):
        raise ArenaError(f"{where}: not a saved strategy tree (no game spec)")
    roots = data.get("openings") if "openings" in data else {"": data.get("root")}
    if not isinstance(roots, dict) or not roots:
        raise ArenaError(f"{where}: not a saved strategy tree (no root)")
    for opening, root in roots.items():
        _check_nodes(where, opening, root)
    data["openings"] = roots
    return data


def _check_nodes(path: str | Path, opening: str, root) -> None:
    """Every node under `root` well formed and at most MAX_GUESSES deep, walked with a stack."""

    def at(replies: tuple[str, ...]) -> str:  # a node's place, for a message only (made when one is raised)
        shown = "|".join(replies) if len(replies) <= 6 else f"{len(replies)} replies (...|{'|'.join(replies[-3:])})"
        return " ".join(([opening] if opening else []) + ["the root" if not replies else "after " + shown])

    stack: list[tuple[Any, tuple[str, ...]]] = [(root, ())]
    while stack:
        node, replies = stack.pop()
        if not isinstance(node, dict):
            raise ArenaError(f"{path}: malformed tree node at {at(replies)}: not an object")
        if not isinstance(node.get("guess"), str):
            raise ArenaError(f"{path}: malformed tree node at {at(replies)}: no guess (a string)")
        children = node.get("replies", {})
        if not isinstance(children, dict):
            raise ArenaError(f"{path}: malformed tree node at {at(replies)}: replies must map reply labels to nodes")
        if children and len(replies) >= MAX_GUESSES:
            raise ArenaError(f"{path}: the tree is deeper than {MAX_GUESSES} guesses at {at(replies)}")
        stack.extend((child, replies + (label,)) for label, child in children.items())


#: The guesses and replies of a game read so far, by their names and labels (read_plan's `read`).
Labels = tuple[dict[str, Index], dict[str, Reply]]


def read_plan(where: str | Path, game: Game, data: dict, name: str = "", read: Labels | None = None) -> SavedPlan:
    """Every node's guess of a checked saved tree (`check_tree`), read against `game`, by
    (opening, reply codes...). The tree must be saved for this game (`name` says what it is
    in that message); a guess or reply the game does not know is one line naming the node.
    Walked with a stack, not recursion. `read`: the names and labels of `game` read before,
    kept by a caller that reads many trees (a Wordle state: 1,440 trees, 3.4 M names)."""
    if game.spec != data["game"]:
        raise ArenaError(f"{name or where} was saved for {data['game']}, not {game.spec}")
    plan: SavedPlan = {}

    def at(replies: tuple) -> str:  # a node's place, for a message only (Wordle's trees: 4.6 M labels)
        return (replies[0] + " " if replies[0] else "") + (game.history_label(replies[1:]) or "the root")

    # each name and label read once (Wordle's trees: 4.6 M labels of 243)
    guess_of, reply_of = ({}, {}) if read is None else read
    for opening, root in data["openings"].items():
        stack: list[tuple[Any, tuple[Any, ...]]] = [(root, (opening,))]
        while stack:
            node, replies = stack.pop()
            try:
                name = node["guess"]
                guess = guess_of.get(name)
                if guess is None:
                    guess = guess_of[name] = game.guess_index(name)
                plan[replies] = guess
                for label, child in reversed(list(node.get("replies", {}).items())):
                    reply = reply_of.get(label)
                    if reply is None:
                        reply = reply_of[label] = game.parse_reply(label)
                    stack.append((child, replies + (reply,)))
            except (KeyError, TypeError, AttributeError):
                raise ArenaError(f"{where}: malformed tree node at {at(replies)}") from None
            except ArenaError as e:
                raise ArenaError(f"{where}: at {at(replies)}: {e}") from None
    return plan


class SavedTree(GuesserProtocol):
    """A saved tree played as a guesser: the guess it stores for the replies so far. (The `tree`
    agent, agents/replay.py, is this with a spec.) `spec` names it in messages."""

    traits = Traits(uses_history=True)
    deterministic = True

    def __init__(self, file: str, spec: str = ""):
        self.file, self.spec = file, spec or f"tree:file={file}"
        self.data = read_tree_file(file)
        self._plans: dict[str, SavedPlan] = {}  # by game spec: no game is kept alive

    def openers_for(self, game: Game) -> tuple[Index, ...]:
        return ()  # a tree already fixes its first guesses

    def plan_for(self, game: Game) -> SavedPlan:
        """Every node's guess, by its (opening, replies...)."""
        if game.spec not in self._plans:
            self._plans[game.spec] = read_plan(self.file, game, self.data, self.spec)
        return self._plans[game.spec]

    def guess(self, game: Game, state: State) -> Index:
        plan = self.plan_for(game)
        opening = game.openings(state.candidates[:1])[0][0]  # the candidates share one opening
        replies = (opening,) + tuple(r for _, r in state.history)
        if replies not in plan:
            raise RuleBreak(
                f"{self.spec} has no guess after replies "
                f"{game.history_label(cast(tuple[Reply, ...], replies[1:])) or '(none)'}"
            )
        return plan[replies]


def load_tree(path: str | Path) -> Tree:
    """A saved tree, replayed against every secret of its game (which checks it covers them all)."""
    data = read_tree_file(path)
    tree = grow_tree(make_game(data["game"]), SavedTree(str(path)))
    if isinstance(data.get("guesser"), str):
        tree.guesser = data["guesser"]
    return tree
