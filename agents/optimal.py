"""The `optimal` guesser: plays the exact tree of least expected guesses (arena.optimal).

A guesser whose whole strategy is one tree builds it once per game and then looks each state
up by its candidate set (the best continuation depends on nothing else; under a depth limit,
also on the guesses already made). A tree shipped under arena/data/trees/ for the same game and
parameters is used as is, so `arena evaluate mastermind optimal` is instant; otherwise the
solver runs. A state outside the tree is solved from its candidates. With fixed openers
(`optimal:openers=salet`) the tree is the best one that opens with them, built (or shipped) for
the whole game once the openers are played.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from arena.core.costs import KINDS, cost_for
from arena.core.errors import ArenaError
from arena.core.game import Game, Index, Indexes
from arena.core.spec import canonical
from arena.core.traits import Traits
from arena.core.weights import read_weights
from arena.optimal.params import NAME, PARAMS
from arena.trees.saved import load_tree
from arena.trees.tree import Tree

from .base import Guesser, State, only_candidate

TREES = Path(str(resources.files("arena").joinpath("data", "trees")))  # shipped as package data


@cache
def shipped_trees() -> dict[tuple[str, str], Path]:
    """(game spec, guesser spec) -> the shipped tree file, from the files' own headers."""
    found = {}
    for path in sorted(TREES.glob("*.json")):
        try:
            head = json.loads(path.read_text())
            found[(head["game"], head["guesser"])] = path
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not a tree: ignored (the tests check every shipped file loads)
    return found


#: A tree's decisions, holding no game: (the candidates as bytes, what was spent before: the
#: guesses made, or the misses where a limit counts misses, and the guess).
Decisions = tuple[tuple[bytes, int, Index], ...]


def decisions(tree: Tree, spent: Callable[[tuple], int] = len, skip: int = 0) -> Decisions:
    """Every node of `tree` as (candidates, spent(replies so far), guess), the game left out;
    nodes fewer than `skip` guesses deep are left out too (fixed openers: a class they do not
    split would otherwise be told to play the opener again)."""
    return tuple(
        (candidates_key(node.candidates), spent(node.replies), node.guess)
        for node in tree.nodes()
        if len(node.replies) >= skip
    )


def candidates_key(candidates: Indexes) -> bytes:
    return np.asarray(candidates, dtype=np.intp).tobytes()


@lru_cache(maxsize=8)
def shipped_decisions(game_spec: str, guesser_spec: str, skip: int = 0) -> Decisions | None:
    """The shipped tree of this guesser on this game, replayed (which checks it), as its
    decisions below the first `skip` guesses (the cache keeps no game), or None."""
    path = shipped_trees().get((game_spec, guesser_spec))
    return None if path is None else decisions(load_tree(path), skip=skip)


class TreePlayer(Guesser):
    """A guesser that plays a tree built (or loaded) once per game; see the module docstring."""

    traits = Traits(uses_history=True)
    depth_limited = False  # does the best guess depend on the turn as well as the candidates?

    #: Parameters that do not change the tree (shipped trees are matched without them).
    untreed: tuple[str, ...] = ("openers",)

    def tree_spec(self) -> str:
        """The spec that names this guesser's tree: shipped trees are matched on it."""
        kept = {k: p for k, p in self.declared_params().items() if k not in self.untreed}
        return canonical(self.name, kept, self.values)

    def build(self, game: Game, secrets: Indexes | None, turn: int) -> Tree:
        raise NotImplementedError

    def plan_for(self, game: Game) -> dict:
        """Guess by state for this game: seeded with the shipped tree if there is one."""
        return self.per_game(game, "plan", lambda: self._shipped_plan(game))

    def _shipped_plan(self, game: Game) -> dict:
        plan: dict = {}
        shipped = shipped_decisions(game.spec, self.tree_spec(), self.fixed_turns())
        if shipped is not None:
            self.learn(plan, shipped, 0)
        return plan

    def fixed_turns(self) -> int:
        """The turns its trees leave to fixed openers (played by Guesser.guess, never looked
        up): those of a tree that names its openers."""
        return 0 if "openers" in self.untreed else len(self.values.get("openers", ()))

    def spent(self, game: Game, replies: tuple) -> int:
        """What a depth limit has used after these replies: the guesses made."""
        return len(replies)

    def key(self, candidates: Indexes, spent: int):
        return (candidates_key(candidates), spent if self.depth_limited else 0)

    def learn(self, plan: dict, decided: Decisions, spent: int) -> None:
        """Remember every decision of a tree whose root is reached having spent `spent`."""
        for candidates, below, guess in decided:
            plan.setdefault((candidates, spent + below if self.depth_limited else 0), guess)

    def choose(self, game: Game, state: State) -> Index:
        plan = self.plan_for(game)
        spent = self.spent(game, tuple(r for _, r in state.history))
        key = self.key(state.candidates, spent)
        if key not in plan:
            last = only_candidate(game, state)
            if last is not None:
                return last
            whole = self.whole_game(game, state)
            tree = self.build(game, None if whole else state.candidates, 0 if whole else spent)
            self.learn(
                plan,
                decisions(tree, lambda replies: self.spent(game, replies), self.fixed_turns() if whole else 0),
                0 if whole else spent,
            )
        return plan[key]

    def whole_game(self, game: Game, state: State) -> bool:
        """Is this the first decision of a game over every secret (so the tree to build is the
        whole game's)?"""
        return state.turn == 0 and len(state.candidates) == len(game.secrets)


#: the costs that limit what is counted of themselves (lost games: the strikes)
LIMITED = tuple(name for name, kind in KINDS.items() if kind.limits_itself)


class Optimal(TreePlayer):
    """The tree of least expected guesses (exact branch and bound, arena.optimal.optimal_tree)."""

    name = NAME
    summary = "the exact tree of least expected guesses (branch and bound; shipped trees when known)"
    params = PARAMS  # declared with the solver, which names this agent in its trees

    def __init__(self, **values):
        super().__init__(**values)
        for name, unit in (("max", "guesses (Hangman: misses)"), ("time", "seconds")):
            if not self.values[name] >= 0:  # NaN fails this too
                raise ArenaError(
                    f"optimal: {name} must be 0 (no limit) or a positive number of {unit}, got {self.values[name]}"
                )
        self.depth_limited = (
            bool(self.values["max"]) or self.values["objective"] != "average" or self.values["cost"] in LIMITED
        )

    def cost(self, game: Game) -> str | None:
        """The cost asked for (None: the game's own)."""
        return None if self.values["cost"] == "game" else self.values["cost"]

    def spent(self, game: Game, replies: tuple) -> int:
        """What the limit has used: the guesses made or, where misses are counted, the misses."""
        return cost_for(game, self.cost(game)).spent(game, replies)

    #: a time limit does not change an exact tree; fixed openers do (the best tree after them)
    untreed = ("time",)

    def whole_game(self, game: Game, state: State) -> bool:
        """With fixed openers, the first decision after them in a game that began with every
        secret: the tree after the openers is built for the whole game at once."""
        openers = self.openers_for(game)
        if not openers or self.values["objective"] != "average" or not cost_for(game, self.cost(game)).solves_openers:
            return super().whole_game(game, state)  # those trees are solved class by class
        if tuple(g for g, _ in state.history) != openers:
            return False
        everyone = game.all_secrets  # did the game begin with every secret (not a subset)?
        for guess, reply in state.history:
            everyone = game.consistent(everyone, guess, reply)
        return len(everyone) == len(state.candidates)

    def weights(self, game: Game) -> np.ndarray | None:
        return read_weights(self.values["weights"], game) if self.values["weights"] else None

    def build(self, game: Game, secrets: Indexes | None, spent: int) -> Tree:
        from arena.optimal import optimal_tree
        from arena.optimal.problem import Problem

        cost = cost_for(game, self.cost(game))
        limit = self.values["max"] or cost.default_limit()
        if limit is not None:  # off the tree after some guesses: the same limit, counted from the start
            try:
                cost, limit = cost.after(game, limit - spent)
            except ArenaError:
                raise ArenaError(f"optimal:max={self.values['max']}: no guesses left after {spent}") from None
        openers = self.values["openers"] if secrets is None else ()
        problem = Problem.of(
            game, secrets, self.weights(game), self.values["pool"], self.values["objective"], limit, cost, openers
        )
        return optimal_tree(problem, self.values["time"] or None)


AGENTS = [Optimal]
