"""Both sides of the equilibrium: a strategy tree drawn from the guesser's solved mix, and a
secret drawn from the chooser's.

The equilibrium of a game (see arena.equilibrium) gives the guesser a mix over strategy trees,
each played (in Mastermind) after a uniformly random colour and position permutation. This
guesser solves the game on first use (or reads a solution saved by `arena equilibrium --save`)
and draws one tree and one permutation per game from a hash of (seed, stream): a seeded
guesser is a fixed tree, as `evaluate` expects, and repetitions draw independently.

The equilibrium chooser is a committed chooser whose weights are the chooser's mix, from the same
solution (solved on first use, or file=).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from arena.core.caches import shared_by_game_spec
from arena.core.costs import COSTS
from arena.core.errors import RuleBreak
from arena.core.game import Game, Index
from arena.core.seeding import mix64
from arena.core.spec import Param, plus_list
from arena.core.traits import Traits

from .base import Guesser, State
from .chooser import Committed, Weighted
from .registry import imports_allowed, imports_are_allowed, make_guesser

_TWO64 = 2.0**64


@shared_by_game_spec(maxsize=8)  # one solve shared by every seeded twin
def guesser_mix(game: Game, guessers: tuple[str, ...], file: str, payoff: str = "game"):
    """(probabilities, plans, symmetry) of the guesser's equilibrium mix for this game."""
    from arena.equilibrium.plans import tree_plan
    from arena.equilibrium.solution import load_guesser_mix

    if file:
        mix, symmetry = load_guesser_mix(file, game)
        return np.array([float(p) for p, _ in mix]), [plan for _, plan in mix], symmetry
    solution = equilibrium_for(game, guessers, payoff)
    mix = solution.guesser_mix()  # in the order a saved solution lists them, so both draw alike
    return np.array([p for p, _, _ in mix]), [tree_plan(t) for _, t, _ in mix], solution.symmetry


def equilibrium_for(game: Game, guessers: tuple[str, ...], payoff: str):
    """The equilibrium of the game (against these guessers' trees only, if any named), with
    the payoff `payoff` (arena.core.costs; "game": the game's own)."""
    from arena.equilibrium import double_oracle, solve_restricted

    cost = None if payoff == "game" else payoff
    if guessers:
        return solve_restricted(game, [make_guesser(spec) for spec in guessers], cost)
    return double_oracle(game, cost=cost)


#: The payoff parameter both sides take.
PAYOFF = Param(
    "payoff",
    ("game",) + COSTS,
    "game",
    "the payoff solved for: the game's own cost (guesses; Hangman: misses), or on Hangman "
    "guesses (letters until determined) or lost (games lost within the strikes)",
)


class EquilibriumGuesser(Guesser):
    """Play a tree drawn from the guesser's equilibrium mix (carried by a random symmetry)."""

    name = "equilibrium"
    summary = "a tree drawn from the guesser's equilibrium mix (solved on first use, or file=)"
    params: ClassVar[dict[str, Param]] = {
        "seed": Param("seed", int, 0, "random seed"),
        "guessers": Param(
            "guessers", plus_list, (), "mix only these guessers' trees, joined by + (default: every tree)"
        ),
        "file": Param("file", str, "", "an equilibrium saved by `arena equilibrium --save`"),
        "payoff": PAYOFF,
    }
    traits = Traits(deterministic=False, uses_history=True)

    @classmethod
    def declared_params(cls):
        return dict(cls.params)  # the trees fix the first guesses: no openers

    def __init__(self, **values):
        super().__init__(**values)
        self.entropy: tuple[int, ...] = (self.values["seed"],)
        self.allow_import = imports_are_allowed()  # for guessers=pkg.mod:Class, built on first use

    def seeded(self, *entropy: int) -> EquilibriumGuesser:
        twin = type(self)(**self.values)
        twin.entropy = tuple(entropy)
        twin.label = self.label
        twin.allow_import = self.allow_import
        return twin

    def draw(self, game: Game) -> tuple[dict, np.ndarray | None]:
        """This game's tree (as a plan) and symmetry (a permutation of the guesses, or None):
        fixed by the entropy, drawn once."""
        return self.per_game(game, "drawn", lambda: self._draw(game))

    def _draw(self, game: Game) -> tuple[dict, np.ndarray | None]:
        with imports_allowed(self.allow_import):
            probabilities, plans, symmetry = guesser_mix(
                game, tuple(self.values["guessers"]), self.values["file"], self.values["payoff"]
            )
        u = mix64(*self.entropy, 0) / _TWO64
        cumulative = np.cumsum(probabilities) / probabilities.sum()
        k = min(int(np.searchsorted(cumulative, u, side="right")), len(plans) - 1)
        return plans[k], symmetry.permutation(mix64(*self.entropy, 1) % symmetry.order)

    def expected_costs(self, game: Game, cost: str) -> np.ndarray:
        """Each secret's expected cost (arena.core.costs `cost`) over the mix's trees and the random
        symmetry that carries them: exact, without sampling (a worst secret for --exploitability)."""
        from arena.core.costs import cost_for
        from arena.equilibrium.plans import plan_tree

        with imports_allowed(self.allow_import):
            probabilities, plans, symmetry = guesser_mix(
                game, tuple(self.values["guessers"]), self.values["file"], self.values["payoff"]
            )
        paid = cost_for(game, cost)
        rows = np.array([symmetry.averages(paid.of(plan_tree(game, plan, self.spec)))[0] for plan in plans])
        return (np.asarray(probabilities) @ rows / np.sum(probabilities))[symmetry.orbit]

    def choose(self, game: Game, state: State) -> Index:
        from arena.equilibrium.plans import plan_key

        plan, permutation = self.draw(game)
        key = plan_key(game, state)
        if key not in plan:
            raise RuleBreak(f"{self.spec}: its tree has no guess after {game.history_label(key[1:]) or 'no replies'}")
        return int(plan[key] if permutation is None else permutation[plan[key]])


@shared_by_game_spec(maxsize=8)  # one solve shared by every seeded twin
def chooser_mix(game: Game, guessers: tuple[str, ...], file: str, payoff: str = "game") -> np.ndarray:
    """The chooser's equilibrium probability of every secret of this game."""
    if file:
        return saved_chooser_mix(game, file)
    return np.asarray(equilibrium_for(game, guessers, payoff).chooser, dtype=float)


def saved_chooser_mix(game: Game, file: str) -> np.ndarray:
    """The chooser's mix from a file saved by `arena equilibrium --save`, checked
    (arena.equilibrium.witness.saved_chooser: its format tag and key, a finite non-negative
    probability for secrets of this game, summing to 1)."""
    from arena.equilibrium.solution import read_saved
    from arena.equilibrium.witness import saved_chooser

    return saved_chooser(file, game, read_saved(file, game))[0]


class EquilibriumChooser(Weighted):
    """Commit to a secret drawn from the chooser's equilibrium mix."""

    name = "equilibrium"
    summary = "a secret drawn from the chooser's equilibrium mix (solved on first use, or file=)"
    params: ClassVar[dict[str, Param]] = {
        "guessers": Param("guessers", plus_list, (), "solve against only these guessers' trees, joined by +"),
        "file": Param("file", str, "", "an equilibrium saved by `arena equilibrium --save`"),
        "payoff": PAYOFF,
    }

    def __init__(self, **values):
        Committed.__init__(self, **values)
        self.allow_import = imports_are_allowed()  # for guessers=pkg.mod:Class, built on first use

    def weights(self, game: Game) -> np.ndarray:
        with imports_allowed(self.allow_import):
            mix = chooser_mix(game, tuple(self.values["guessers"]), self.values["file"], self.values["payoff"])
        return mix / mix.sum()


AGENTS = [EquilibriumGuesser, EquilibriumChooser]
