"""The `evil` chooser: evil Hangman (Keith Schwarz) and Absurdle, for every game.

It commits to nothing. After each guess it splits the secrets still possible by their reply
and answers the reply of the largest class; ties go to the reply that reveals least (Hangman:
fewest positions, Mastermind: fewest pegs, Jotto: fewest letters in common; the hit is last),
then to the lowest code. Greedy: it looks no further than the next reply (agents/adversary.py
looks ahead).
"""

from __future__ import annotations

from arena.core.game import Game, Index, Reply
from arena.core.traits import Traits

from .base import State
from .chooser import Chooser, largest_class


class Evil(Chooser):
    """Keep the largest class of the secrets still possible (see the module docstring)."""

    name = "evil"
    summary = "evil Hangman / Absurdle: answer so that the most secrets stay possible"
    traits = Traits(adversary=True)

    def reply(self, game: Game, state: State, guess: Index) -> Reply:
        return largest_class(game, state.candidates, guess)


AGENTS = [Evil]
