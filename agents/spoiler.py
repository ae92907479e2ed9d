"""The `spoiler` chooser: the best response to a known guesser.

It grows the guesser's strategy tree against every secret at once (arena.trees.grow.grow_tree), reads
off what each secret costs that guesser, and commits to a secret that costs the most: the most
guesses, or in Hangman the most misses and then the most guesses. Ties are broken by a seeded
random draw. Against a deterministic guesser this is exactly the guesser's worst case.

`against=` names the guesser, its own parameters joined by `;` since `,` ends the spoiler's
(`spoiler:against=entropy:pool=all;small=3`); left out, it is the guesser the referee says it is playing (for
a random guesser, the seeded one it faces: it knows the seed, so this finds that game's worst
secret, not a best response to the guesser's mix of trees).
"""

from __future__ import annotations

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, Index, Indexes
from arena.core.seeding import mix64
from arena.core.spec import Param
from arena.core.traits import Traits
from arena.trees.grow import grow_tree

from .chooser import Committed
from .registry import imports_are_allowed, make_guesser


class Spoiler(Committed):
    """Commit to a secret that the known guesser needs the most guesses (misses) for."""

    name = "spoiler"
    summary = "best response to a known guesser: the secret it needs the most guesses (Hangman: misses) for"
    params = {
        "against": Param(
            "against", str, "", "the guesser it knows, its parameters joined by ; (default: the one it plays)"
        )
    }
    traits = Traits(committed=True, adversary=True, deterministic=False)

    def __init__(self, **values):
        super().__init__(**values)
        self.opponent = None
        self.allow_import = imports_are_allowed()  # for against=pkg.mod:Class, built later

    def meet(self, guesser) -> None:
        """The referee says which guesser this game is against (before `start`)."""
        self.opponent = guesser

    def target(self):
        """The guesser this spoiler plays against."""
        if self.values["against"]:
            return make_guesser(self.values["against"].replace(";", ","), allow_import=self.allow_import)
        if self.opponent is None or self.opponent.traits.interactive:
            raise ArenaError(
                "chooser spoiler: name the guesser it knows, as spoiler:against=GUESSER "
                "(it studies an agent's strategy tree; a person has none)"
            )
        return self.opponent

    def costs(self, game: Game, guesser) -> np.ndarray:
        """What each secret costs the guesser, as one sortable number: guesses, or in games with
        strikes misses first and guesses second. Grown once per game and guesser."""
        return self.per_game(game, f"costs of {guesser.spec} {guesser.entropy}", lambda: self._costs(game, guesser))

    def _costs(self, game: Game, guesser) -> np.ndarray:
        if not guesser.deterministic and guesser.entropy is None:
            guesser = guesser.seeded(guesser.values.get("seed", 0))
        tree = grow_tree(game, guesser)
        cost = tree.guesses.astype(np.int64)
        if game.rules.strikes:
            cost = tree.misses.astype(np.int64) * (int(cost.max()) + 1) + cost
        return cost

    def draw(self, game: Game, secrets: Indexes, seed: int) -> Index:
        cost = self.costs(game, self.target())[secrets]
        worst = secrets[cost == cost.max()]
        return int(worst[mix64(seed, len(worst)) % len(worst)])


AGENTS = [Spoiler]
