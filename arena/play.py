"""One game, move by move: a guesser against a secret, or against a script of replies.

Evaluation grows whole trees; this module plays a single line of play, for transcripts,
for tests that assert an agent's exact moves, and for the interactive commands to come.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

import numpy as np

from .errors import RuleBreak
from .game import Game, Index, Reply
from .state import State


@dataclass(frozen=True)
class Turn:
    guess: Index
    reply: Reply
    left: int  # secrets still possible after the reply


@dataclass(frozen=True)
class Transcript:
    game: Game
    turns: tuple[Turn, ...]

    @property
    def guesses(self) -> list[str]:
        return [self.game.guesses[t.guess] for t in self.turns]

    @property
    def solved(self) -> bool:
        return bool(self.turns) and self.game.finished(self.turns[-1].reply)

    def lines(self) -> list[str]:
        """`Guess 1: stoma, Reply: 1, Consistent targets: 1118`, one line a turn."""
        return [f"Guess {i}: {self.game.guesses[t.guess]}, Reply: {self.game.reply_label(t.reply)}, "
                f"Consistent targets: {t.left}" for i, t in enumerate(self.turns, 1)]


def play_replies(game: Game, guesser, answer: Callable[[Index], Reply], max_turns: int = 100) -> Transcript:
    """Play until the game is finished, asking `answer(guess)` for each reply."""
    state = State(game.all_secrets)
    turns = []
    while len(turns) < max_turns:
        guess = guesser.guess(game, state)
        if not (isinstance(guess, (int, np.integer)) and 0 <= guess < len(game.guesses)):
            raise RuleBreak(f"guesser {guesser.spec} made an illegal guess {guess!r}")
        reply = answer(guess)
        left = game.consistent(state.candidates, guess, reply)
        if len(left) == 0:
            raise RuleBreak(f"reply {game.reply_label(reply)} to {game.guesses[guess]} leaves no secret possible")
        turns.append(Turn(guess, reply, len(left)))
        if game.finished(reply):
            break
        state = state.after(guess, reply, left)
    return Transcript(game, tuple(turns))


def play(game: Game, guesser, secret: Index) -> Transcript:
    """The guesser against a committed secret."""
    return play_replies(game, guesser, lambda guess: game.reply(guess, secret))


def play_script(game: Game, guesser, replies: Iterable[str]) -> Transcript:
    """The guesser against a scripted opponent: the replies, written as people write them."""
    script = iter(replies)
    return play_replies(game, guesser, lambda guess: game.parse_reply(next(script)))
