"""What an agent declares about itself, for the referee, the tournament and the tests to ask
(`agent.traits.deterministic`) instead of guessing from its name or class.

One frozen dataclass with one set of defaults: an agent class states only where it differs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Traits:
    """The declared behaviour of a guesser or a chooser.

    deterministic      the same moves whatever the seed (one game per secret is enough)
    uses_history       a guesser that reads the moves so far, not only the candidates left
    committed          a chooser that draws a secret at the start and answers it truthfully
                       (not committed: adaptive, it holds no secret and keeps some consistent)
    adversary          a chooser that plays each opening as a game of its own, against the guesser
    interactive        a person at the terminal: played by `arena play`, never evaluated
    every_secret_once  a committed chooser whose secret is uniform over the secrets, so an
                       evaluation may play every secret once instead of drawing them
    """

    deterministic: bool = True
    uses_history: bool = False
    committed: bool = False
    adversary: bool = False
    interactive: bool = False
    every_secret_once: bool = False

    def but(self, **changes: bool) -> Traits:
        """These traits with some changed (for a subclass that differs from its base)."""
        return replace(self, **changes)
