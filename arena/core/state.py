"""What a guesser knows in the middle of a game: the secrets still possible and the moves so far.

The engine (trees, the referee, transcripts) builds these states; every guesser reads them."""

from __future__ import annotations

from dataclasses import dataclass

from .game import Index, Indexes, Reply

Move = tuple[Index, Reply]  # a guess and the reply it got


@dataclass(frozen=True)
class State:
    """What the guesser knows: the secrets still possible and the moves so far."""

    candidates: Indexes
    history: tuple[Move, ...] = ()
    #: the candidates are every secret of the game consistent with the history (the game started
    #: from all its secrets, as a tree over every secret does): what the history's symmetries
    #: fix is then the candidate set too (arena.trees.greedy's symmetric pool)
    whole: bool = False

    @property
    def turn(self) -> int:
        """How many guesses have been made."""
        return len(self.history)

    def after(self, guess: Index, reply: Reply, candidates: Indexes) -> State:
        return State(candidates, self.history + ((guess, reply),), self.whole)
