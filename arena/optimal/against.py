"""Against a deterministic chooser that commits to no secret (evil Hangman, Absurdle): what a
tree concedes to it, and the least any guesser needs to beat it.

Such a chooser's reply is a function of the candidates and the guess (agents/evil.py: the
largest class, ties by what the reply reveals), so a game against it is a single path, and the
guesser's best play is a shortest path over candidate sets:

    B(S) = 0                                        if S is determined (Hangman)
    B(S) = min over guesses g splitting S of  step(r) + (0 if r is the hit else B(S_r)),
           r = the chooser's reply to g at S

with step(r) = 1 per guess, or under the misses cost 1 per miss. Depth-first branch and bound
with a memo on S: a guess is dropped once what it has paid reaches the best path found so far,
and a set's value is kept only when its search was not cut short by that budget. Every guess
splitting S leaves a strictly smaller class, so every path ends.

The chooser is any object with `reply(game, state, guess)` (agents.chooser.Chooser); nothing
here imports the agents.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..core.costs import Cost, cost_for
from ..core.errors import ArenaError
from ..core.game import Game, Index, Indexes
from ..core.state import State
from ..trees.tree import Node

INF = float("inf")


@dataclass
class Path:
    """The least a guesser needs against the chooser from some candidates, and how."""

    value: float
    guesses: list[Index] = field(default_factory=list)
    seconds: float = 0.0
    searched: int = 0  # candidate sets whose guesses were tried


def conceded(game: Game, root: Node, chooser, cost: str | None = None) -> int:
    """What the tree from `root` pays when the chooser answers every guess: its one path."""
    paid, state = 0, State(root.candidates)
    node: Node | None = root
    rule = cost_for(game, cost)
    while node is not None:
        reply = chooser.reply(game, state, node.guess)
        paid += rule.step(game, reply)
        if game.finished(reply):
            break
        state = state.after(node.guess, reply, state.candidates[game.table[node.guess, state.candidates] == reply])
        node = node.children.get(reply)
    return paid


def fewest_against(
    game: Game, chooser, candidates: Indexes, cost: str | None = None, time_limit: float | None = None
) -> Path:
    """B(candidates) of the module docstring, and the guesses of one best path."""
    rule = cost_for(game, cost)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    memo: dict[bytes, tuple[float, Index]] = {}
    stats = [0]

    def best(state: State, budget: float) -> float:
        S = state.candidates
        if game.determined(S):
            return 0.0
        key = S.tobytes()
        if key in memo:
            return memo[key][0]
        if deadline is not None and time.perf_counter() > deadline:
            raise ArenaError(
                f"{game.spec}: the search against {chooser.spec} passed its time limit of {time_limit:g} s"
            )
        stats[0] += 1
        value, choice, cut = INF, -1, False
        for guess, reply, part in replies(game, chooser, state, rule):
            paid = rule.step(game, reply)
            if paid >= min(value, budget):
                cut = cut or paid >= budget
                continue
            total = (
                paid
                if game.finished(reply)
                else paid + best(state.after(guess, reply, part), min(value, budget) - paid)
            )
            if total < value:
                value, choice = total, guess
        if value < budget or not cut:
            memo[key] = (value, choice)
        return value

    start = time.perf_counter()
    S = np.asarray(candidates)
    value = best(State(S), INF)
    if value == INF:
        raise ArenaError(f"{game.spec}: no guess tells apart {', '.join(game.secrets[s] for s in S[:3])}")
    return Path(value, path_of(game, chooser, S, memo, rule), time.perf_counter() - start, stats[0])


def replies(game: Game, chooser, state: State, rule: Cost) -> list[tuple[Index, int, Indexes]]:
    """The chooser's reply to every guess splitting the candidates, and the class it keeps:
    cheapest replies first (a hit, then no miss), then the smallest classes."""
    S = state.candidates
    block = game.table[:, S]
    splitting = np.flatnonzero((block != block[:, :1]).any(axis=1) | game.is_candidate(S))
    out = []
    for guess in splitting.tolist():
        reply = chooser.reply(game, state, guess)
        part = S[block[guess] == reply]
        out.append((guess, reply, part))
    out.sort(key=lambda gr: (not game.finished(gr[1]), rule.step(game, gr[1]), len(gr[2])))
    return out


def path_of(game: Game, chooser, S: Indexes, memo: dict, rule: Cost) -> list[Index]:
    """The guesses of the best path the memo holds, from S."""
    path, state = [], State(S)
    while not game.determined(state.candidates) and state.candidates.tobytes() in memo:
        guess = memo[state.candidates.tobytes()][1]
        reply = chooser.reply(game, state, guess)
        path.append(guess)
        if game.finished(reply):
            break
        state = state.after(guess, reply, state.candidates[game.table[guess, state.candidates] == reply])
    return path
