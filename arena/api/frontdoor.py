"""The front door: the game a notebook holds, with the common operations as its methods.

    from arena import make_game
    game = make_game("mastermind")
    game.evaluate("knuth").total          # 5801, as `arena evaluate mastermind knuth`
    game.evaluate("entropy", chooser="evil")
    game.tree("knuth").table(depth=2)      # the strategy table
    game.optimal().value                   # 5625.0, the exact optimum
    game.equilibrium(guessers=["knuth", "entropy"])
    game.rank("entropy", top=5)

As nashpy's Game sits above the algorithms it offers, the game users hold sits above the
evaluators, the solvers and the agents: `open_game(game)` gives a game (an arena.core.game.Game,
as the engine built it) the `Door` methods evaluate, tree, optimal, equilibrium and rank,
and `make_game` (arena.make_game) is the registry's make_game with the door open. Each method
is a thin wrapper over a function here, and each function over the free function that does
the work (arena.play.evaluate, arena.play.match, arena.trees.grow, arena.optimal, arena.equilibrium,
arena.trees.metrics), with the same results.

Layering: this is the top layer, like the command line: it may import agents, and it alone
turns spec strings into agents for those methods (agents.make_guesser / make_chooser).
Nothing below imports it: the engine's Game has no front-door method, and the package
`arena` reaches this module only when `arena.make_game` or `arena.open_game` is asked for.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from agents import make_chooser, make_guesser

from ..core import checks as door
from ..core.errors import ArenaError, ArenaTypeError
from ..core.game import Game
from ..games import make_game as build_game
from ..play.evaluate import Evaluation
from ..play.evaluate import evaluate as evaluate_all
from ..play.match import evaluate_against
from ..trees.grow import grow_tree
from ..trees.tree import Tree
from .catalogue import best_first


class Door:
    """The front door's methods, mixed into a game's own class by `open_game`."""

    def evaluate(
        self, guesser, chooser=None, repeat: int = 1, seed: int = 0, strikes: tuple[int, ...] | None = None
    ) -> Evaluation:
        """`guesser` (an agent or a spec string) against every secret, or against `chooser`
        (an agent or a spec): an Evaluation, as `arena evaluate` prints it. E.g.
        `make_game("mastermind").evaluate("knuth").total == 5801`."""
        return evaluate(cast(Game, self), guesser, chooser, repeat=repeat, seed=seed, strikes=strikes)

    def tree(self, guesser, seed: int = 0) -> Tree:
        """The strategy tree of `guesser` (an agent or a spec) against every secret."""
        return tree(cast(Game, self), guesser, seed=seed)

    def optimal(self, **kwargs):
        """The exact tree of least expected guesses: a SolvedTree, proven optimal unless stopped.

        Keyword arguments are `arena optimal`'s (arena.api.exact.OptimalRequest): `secrets`
        (indexes; default all), `weights` (one per secret: the chooser's mix), `pool` ("all"
        guesses, or "consistent" ones only), `objective` ("average"; "worst": least worst case
        first; "lost": fewest games lost within the strikes), `max_guesses` (a limit on every
        game), `time_limit` (seconds; a stopped search returns its best tree and proven
        bounds), `cost` (what a game costs: "guesses", or Hangman's "misses"/"lost"), `openers`
        (fixed first guesses, as indexes or labels), `workers` (split the search over that many
        processes; `journal` to resume), `start` (improve a guesser's tree). `str()` of the
        result is the report `arena optimal` prints. E.g.
        `make_game("mastermind").optimal().total == 5625`."""
        return optimal(cast(Game, self), **kwargs)

    def equilibrium(self, **kwargs):
        """The game as a zero-sum game, solved: an Equilibrium (value, bounds, both mixes).

        `guessers=[...]` (agents or specs): the chooser's secrets against those guessers' trees
        only. `trees=True`: against every guesser tree of a tiny game (solve_enumerated's
        `frontier`, `max_trees`, `cost`). Otherwise the double oracle's keyword arguments:
        `symmetry` (None: the game's own; `no_symmetry(game)` to switch it off), `tolerance`
        (the gap that counts as closed), `time_limit` (seconds), `initial` (trees to start
        from, or guessers whose trees they are), `certify`, `smoothing`, `progress` (called with
        each Step), `cost` ("guesses", or Hangman's "misses"/"lost"), `state` (a file: the loop's
        state written after every round and resumed from) and `extra` (the trees each round adds
        besides its best response: "greedy", "worst", "flows", "closure" (with flows), as a tuple; () none). `certified=True` with
        `time_limit` and `response_limit`: a game too big to solve, each end of its bounds proven
        (certify.certified_bounds), as `arena equilibrium --response-limit` gives it."""
        return equilibrium(cast(Game, self), **kwargs)

    def rank(self, metric: str, top: int = 10) -> list[tuple[str, Any]]:
        """The `top` best first guesses by `metric`, as (guess, value), as `arena rank` orders them."""
        return rank(cast(Game, self), metric, top)

    def __reduce__(self):
        # pickled as the engine's game (its class importable by name), opened again when read
        closed: Game = object.__new__(type(self).__mro__[2])
        closed.__dict__.update(self.__dict__)
        return open_game, (closed,)


if TYPE_CHECKING:

    class OpenGame(Door, Game):
        """A game with the door open, for the type checker (each game class gets its own)."""
else:
    OpenGame = Game


_DOOR_CLASSES: dict[type, type] = {}


def door_class(kind: type) -> type:
    """`kind` with the Door methods: a subclass of the same name (made once per class), so the
    game is still the same kind of game to every isinstance check and printout; a class with
    the door open already is its own."""
    if issubclass(kind, Door):
        return kind
    if kind not in _DOOR_CLASSES:
        _DOOR_CLASSES[kind] = type(
            kind.__name__,
            (Door, kind),
            {"__module__": kind.__module__, "__qualname__": kind.__qualname__, "__doc__": kind.__doc__},
        )
    return _DOOR_CLASSES[kind]


def open_game(game: Game) -> OpenGame:
    """`game` itself (a Game, as the engine or a plug-in built it) with the front door's
    methods: its class becomes a subclass of its own with the Door mixed in, so everything
    that held the game holds the same object, unchanged but for the new methods."""
    door.game(game)
    game.__class__ = door_class(type(game))
    return cast(OpenGame, game)


def make_game(spec: str) -> OpenGame:
    """The game written `spec` (arena.games.make_game: built once, cached) with the door open."""
    return open_game(build_game(spec))


def guesser_of(guesser: Any, name: str = "guesser"):
    """An agent object as is; a spec string (`knuth`, `entropy:pool=all`) built by agents.make_guesser."""
    return make_guesser(guesser) if isinstance(guesser, str) else door.agent(guesser, "guesser", name)


def chooser_of(chooser: Any):
    """An agent object as is; a spec string (`uniform`, `evil`, `weighted:file=F`) built by agents.make_chooser."""
    return make_chooser(chooser) if isinstance(chooser, str) else door.agent(chooser, "chooser")


def evaluate(
    game: Game,
    guesser: Any,
    chooser: Any = None,
    repeat: int = 1,
    seed: int = 0,
    strikes: tuple[int, ...] | None = None,
) -> Evaluation:
    """`guesser` against every secret of `game` (arena.play.evaluate.evaluate), or, given a
    `chooser`, against that chooser (arena.play.match.evaluate_against): `arena evaluate`'s figures."""
    door.game(game)
    player = guesser_of(guesser)
    repeat, seed = door.integer(repeat, "repeat", low=1), door.integer(seed, "seed")
    strikes = door.strike_limits(strikes)
    if chooser is None:
        return evaluate_all(game, player, repeat=repeat, seed=seed, strikes=strikes)
    return evaluate_against(game, player, chooser_of(chooser), repeat=repeat, seed=seed, strikes=strikes)


def tree(game: Game, guesser: Any, seed: int = 0) -> Tree:
    """The strategy tree of `guesser` against every secret (arena.trees.grow.grow_tree); a random
    guesser is seeded (seed, 0), as the first repetition of an evaluation."""
    door.game(game)
    player = guesser_of(guesser)
    seed = door.integer(seed, "seed")
    return grow_tree(game, player if player.deterministic else player.seeded(seed, 0))


def optimal(game: Game, progress: Any = None, **kwargs: Any):
    """The exact tree the keywords ask for (arena.api.exact: the same checks and choice of
    solver as `arena optimal`): the problem's `secrets`, `weights`, `pool`, `objective`,
    `max_guesses`, `cost`, `openers`, and how to search it: `time_limit`, `workers` (the
    split), `start` (improve a guesser's tree), `journal`, ... (OptimalRequest's settings).
    `progress`: a ProgressLine to keep up to date."""
    from .exact import request_of, solve_optimal  # the solver is loaded only when asked for

    return solve_optimal(door.game(game), request_of(kwargs), progress)


def equilibrium(
    game: Game,
    guessers: list | None = None,
    trees: bool = False,
    certified: bool = False,
    bounds_from: Any = (),
    uniform_limit: Any = None,
    **kwargs: Any,
):
    """The game's equilibrium (arena.equilibrium): against named `guessers` (agents or specs,
    solve_restricted; `cost` the only other option), over every tree of a tiny game
    (`trees=True`, solve_enumerated(**kwargs)), or else of the whole game by the double oracle
    (double_oracle(game, **kwargs)); `certified=True`: of a game too big to solve, within
    `time_limit` and each best response within `response_limit` (certified_bounds: each end
    proven with its witness). `initial` trees may be given as
    guessers (agents or specs): their trees. Every bound proven elsewhere is folded in
    (arena.equilibrium.verified.fold: the uniform chooser's optimum, and the saved equilibria
    and split journals named in `bounds_from`; `uniform_limit` seconds on the uniform chooser,
    whose level bound takes minutes on Jotto). The command line's `arena equilibrium` calls this."""
    from .. import equilibrium as solvers  # the solvers (and scipy) are loaded only when asked for

    door.game(game)
    for limit in ("time_limit", "response_limit"):
        if limit in kwargs:
            kwargs[limit] = door.seconds(kwargs[limit], limit)
    for flag, value in (("trees", trees), ("certified", certified)):
        if not isinstance(value, bool):
            raise ArenaTypeError(f"{flag} must be True or False, got {value!r}")
    if uniform_limit is not None:
        uniform_limit = door.seconds(uniform_limit, "uniform_limit")
    if isinstance(bounds_from, (str, Path)):
        bounds_from = [bounds_from]
    if not isinstance(bounds_from, (list, tuple)) or not all(isinstance(f, (str, Path)) for f in bounds_from):
        raise ArenaTypeError(f"bounds_from must be a file name or a list of file names, got {bounds_from!r:.60}")
    if (bounds_from or uniform_limit is not None) and (guessers is not None or trees):
        raise ArenaError(
            "equilibrium: bounds_from and uniform_limit fold bounds on the whole game's value: not with guessers or trees"
        )
    if guessers is not None:
        if trees or certified or set(kwargs) - {"cost"}:
            raise ArenaError("equilibrium: named guessers take no other options")
        players = [guesser_of(g, "guessers (each)") for g in door.specs(guessers, "guessers")]
        return solvers.solve_restricted(game, players, kwargs.get("cost"))
    if trees:
        if certified:
            raise ArenaError("equilibrium: trees=True lists every tree; certified=True is the double oracle's")
        door.settings(kwargs, ("frontier", "max_trees", "cost", "time_limit"), "equilibrium")
        return solvers.solve_enumerated(game, **kwargs)
    if kwargs.get("initial"):
        kwargs["initial"] = initial_trees(game, kwargs["initial"])
    if kwargs.get("state") is not None and not isinstance(kwargs["state"], (str, Path)):
        raise ArenaTypeError(f"state must be a file name, got {kwargs['state']!r:.60}")
    if kwargs.get("split") is not None and not isinstance(kwargs["split"], solvers.OnTheSplit):
        raise ArenaTypeError(
            f"split must be an arena.equilibrium.OnTheSplit(workers, journals), got {kwargs['split']!r:.60}"
        )
    if certified:
        options = (
            "time_limit",
            "response_limit",
            "initial",
            "cost",
            "progress",
            "state",
            "extra",
            "split",
            "search_every",
        )
        if kwargs.get("time_limit") is None or kwargs.get("response_limit") is None or set(kwargs) - set(options):
            raise ArenaError(
                "equilibrium: certified=True takes time_limit and response_limit (and initial, cost, progress, "
                "state, extra, split, search_every) only"
            )
        return solvers.certified_bounds(game, bounds_from=list(bounds_from), uniform_limit=uniform_limit, **kwargs)
    from ..equilibrium.oracle import OracleSettings
    from ..equilibrium.verified import fold

    door.settings(kwargs, ("cost", *(f.name for f in fields(OracleSettings))), "equilibrium")
    return fold(solvers.double_oracle(game, **kwargs), kwargs.get("time_limit"), list(bounds_from), 0, uniform_limit)


def best_responses_split(workers: int, journals: str | Path | None = None):
    """The double oracle's best responses searched by the split's `workers`, their proofs in
    journals in the folder `journals` (arena.equilibrium.OnTheSplit): `equilibrium(...,
    split=...)`, `arena equilibrium --workers N --journals DIR`."""
    from ..equilibrium import OnTheSplit

    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArenaError(f"workers must be a number of worker processes, 1 or more, got {workers!r}")
    return OnTheSplit(workers, journals)


def extra_tree_kinds() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The kinds of tree a double oracle's round may add besides its best response, and the
    default (arena.equilibrium.oracle.OracleSettings.extra): `arena equilibrium --extra-trees`."""
    from ..equilibrium.oracle import EXTRA, OracleSettings

    return EXTRA, OracleSettings.extra


def initial_trees(game: Game, guessers: Any) -> tuple[Tree, ...]:
    """Trees to seed the double oracle's guesser side: each a Tree as is, or the tree of a
    guesser (an agent or a spec) against every secret."""
    return tuple(
        g if isinstance(g, Tree) else grow_tree(game, guesser_of(g, "initial (each)"))
        for g in door.specs(guessers, "initial")
    )


def rank(game: Game, metric: str, top: int = 10) -> list[tuple[str, Any]]:
    """The `top` best first guesses by `metric` (one of arena.trees.metrics.METRICS), as (guess,
    value), best first: the order `arena rank` prints."""
    order, values, _ = best_first(game, metric, top)
    return [(game.guesses[g], values[g].item() if isinstance(values[g], np.generic) else values[g]) for g in order]
