"""The front door: the common operations on a game, for a notebook that imports one thing.

    from arena.games import make_game
    game = make_game("mastermind")
    game.evaluate("knuth").total          # 5801, as `arena evaluate mastermind knuth`
    game.evaluate("entropy", chooser="evil")
    game.tree("knuth").table(depth=2)      # the strategy table
    game.optimal().value                   # 5625.0, the exact optimum
    game.equilibrium(guessers=["knuth", "entropy"])
    game.rank("entropy", top=5)

Each `Game` method of these names is a thin wrapper over a function here, and each function
here over the free function that does the work (arena.evaluate, arena.match, arena.tree,
arena.optimal, arena.equilibrium, arena.metrics), with the same results.

Layering: this is the top layer, like the command line: it may import agents, and it alone
turns spec strings into agents for the Game methods (agents.make_guesser / make_chooser). The
engine (arena/game.py) reaches it only through function-level imports carrying the front-door
marker, the one upward import tests/test_architecture.py accepts (its rule d).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents import make_chooser, make_guesser

from . import door
from .errors import ArenaError, ArenaTypeError, choices
from .evaluate import Evaluation
from .evaluate import evaluate as evaluate_all
from .game import Game
from .match import evaluate_against
from .metrics import METRICS
from .strategy import Tree
from .tree import grow_tree


def guesser_of(guesser: Any, name: str = "guesser"):
    """An agent object as is; a spec string (`knuth`, `entropy:pool=all`) built by agents.make_guesser."""
    return make_guesser(guesser) if isinstance(guesser, str) else door.agent(guesser, "guesser", name)


def chooser_of(chooser: Any):
    """An agent object as is; a spec string (`uniform`, `evil`, `weighted:file=F`) built by agents.make_chooser."""
    return make_chooser(chooser) if isinstance(chooser, str) else door.agent(chooser, "chooser")


def evaluate(game: Game, guesser: Any, chooser: Any = None, repeat: int = 1, seed: int = 0,
             strikes: tuple[int, ...] | None = None) -> Evaluation:
    """`guesser` against every secret of `game` (arena.evaluate.evaluate), or, given a
    `chooser`, against that chooser (arena.match.evaluate_against): `arena evaluate`'s figures."""
    door.game(game)
    player = guesser_of(guesser)
    repeat, seed = door.integer(repeat, "repeat", low=1), door.integer(seed, "seed")
    strikes = door.strike_limits(strikes)
    if chooser is None:
        return evaluate_all(game, player, repeat=repeat, seed=seed, strikes=strikes)
    return evaluate_against(game, player, chooser_of(chooser), repeat=repeat, seed=seed, strikes=strikes)


def tree(game: Game, guesser: Any, seed: int = 0) -> Tree:
    """The strategy tree of `guesser` against every secret (arena.tree.grow_tree); a random
    guesser is seeded (seed, 0), as the first repetition of an evaluation."""
    door.game(game)
    player = guesser_of(guesser)
    seed = door.integer(seed, "seed")
    return grow_tree(game, player if player.deterministic else player.seeded(seed, 0))


def optimal(game: Game, **kwargs: Any):
    """The exact tree of least expected guesses (arena.optimal.optimal_tree(game, **kwargs):
    secrets, weights, pool, objective, max_guesses, time_limit)."""
    from .optimal import optimal_tree  # the solver is loaded only when asked for

    return optimal_tree(door.game(game), **kwargs)


def equilibrium(game: Game, guessers: list | None = None, trees: bool = False, **kwargs: Any):
    """The game's equilibrium (arena.equilibrium): against named `guessers` (agents or specs,
    solve_restricted), over every tree of a tiny game (`trees=True`, solve_enumerated(**kwargs)),
    or else of the whole game by the double oracle (double_oracle(game, **kwargs))."""
    from . import equilibrium as solvers  # the solvers (and scipy) are loaded only when asked for

    door.game(game)
    if "time_limit" in kwargs:
        kwargs["time_limit"] = door.seconds(kwargs["time_limit"])
    if not isinstance(trees, bool):
        raise ArenaTypeError(f"trees must be True or False, got {trees!r}")
    if guessers is not None:
        if trees or kwargs:
            raise ArenaError("equilibrium: named guessers take no other options")
        return solvers.solve_restricted(game, [guesser_of(g, "guessers (each)") for g in door.specs(guessers, "guessers")])
    if trees:
        return solvers.solve_enumerated(game, **kwargs)
    return solvers.double_oracle(game, **kwargs)


def best_first(game: Game, metric: str, top: int = 10):
    """The indexes of the `top` best first guesses by `metric` (stable order), every guess's
    metric value, and the whole pool's ReplyCounts against every secret."""
    if not isinstance(metric, str):
        raise ArenaTypeError(f"metric must be a metric's name such as 'entropy', got {metric!r}")
    if metric not in METRICS:
        raise ArenaError(f"unknown metric {metric!r}; metrics: {choices(METRICS)}")
    top = door.integer(top, "top", low=1)
    scorer = METRICS[metric]
    replies = game.reply_counts(None, game.all_secrets)
    order = np.argsort(scorer.key(replies.counts), kind="stable")[:top]
    return order, scorer.value(replies.counts), replies


def rank(game: Game, metric: str, top: int = 10) -> list[tuple[str, Any]]:
    """The `top` best first guesses by `metric` (one of arena.metrics.METRICS), as (guess,
    value), best first: the order `arena rank` prints."""
    order, values, _ = best_first(game, metric, top)
    return [(game.guesses[g], values[g].item() if isinstance(values[g], np.generic) else values[g]) for g in order]
