"""Games played one at a time, for the command line (`arena play`, `arena solve`) and for
notebooks: a match refereed move by move, the secret a fixed chooser holds, a person's
guesses scored, and a history of replies refereed as a game is (what `solve` stands on).
Each is the lower layers' own function, named here so that the command line imports only
the API."""

from __future__ import annotations

from functools import partial

from agents.chooser import secret_index
from agents.human import Quit, score_text

from ..core.errors import ArenaError, RuleBreak
from ..core.game import Game
from ..core.state import State
from ..play.match import Scripted, checked_reply, chooser_seed, play_match

__all__ = ["Quit", "State", "after_moves", "chooser_seed", "play_match", "score_text", "secret_index"]


def given_reply(reply: int, guess: int) -> int:
    """The reply a script gives, whatever the guess (the referee checks it as any chooser's)."""
    return reply


def after_moves(game: Game, moves: list[tuple[int, int, str]]) -> State:
    """The State after these moves, (guess, reply, the move as written), or ArenaError naming
    the first move that leaves no secret.

    The history is refereed as a game is: each reply goes through the referee's check
    (`checked_reply`), the chooser being the script of replies; a refusal is the user's mistake."""
    openings = game.openings(game.all_secrets)
    if len(openings) > 1:
        raise ArenaError(
            f"{game.spec}: solve needs what the guesser is told first; give it in the game spec "
            f"(for Hangman the length, like hangman:length=5)"
        )
    state = State(openings[0][1])
    for number, (guess, reply, item) in enumerate(moves, 1):
        reason = game.refusal(guess, state.history)  # e.g. Wordle's hard mode
        if reason:
            raise ArenaError(f"guess {number}, {item}, breaks the rules: {reason}")
        try:
            reply, left = checked_reply(game, Scripted(partial(given_reply, reply)), state, guess, number)
        except RuleBreak:
            raise ArenaError(
                f"no secret is consistent with these replies: none is left after guess {number}, {item}"
            ) from None
        state = state.after(guess, reply, left)
    return state
