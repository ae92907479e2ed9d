"""People at the terminal: a `human` guesser and a `human` chooser (for `arena play`).

Both read lines with input() (so sys.stdin can be scripted) and print to stdout. When the input
is not a terminal, what was read is echoed, so a scripted game reads like a typed one.

The human guesser types guesses; a mistake gets a one-line explanation and the question again,
and `?` asks the configured guesser (`hint`, default entropy) for its choice and score. The
human chooser keeps a secret in mind and types the replies; a reply that no secret could give
after the earlier ones is refused at once, naming the earlier guess it contradicts, and asked
again; once the game is determined (Hangman: one word left), the replies are forced and given for them. `quit` abandons the game; the end of the input is an error (ArenaError).
"""

from __future__ import annotations

import sys

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, Index, Indexes, Reply
from arena.core.traits import Traits

from .base import Guesser, State
from .chooser import Chooser

INTERACTIVE = Traits(interactive=True)
_QUIT = {"quit", "q", "exit"}


class Quit(Exception):
    """The person abandoned the game."""


def ask(prompt: str) -> str:
    """One line from the person (echoed when the input is scripted); Quit at `quit` or the end."""
    try:
        line = input(prompt)
    except EOFError:
        print()
        raise ArenaError("the input ended before the game did") from None
    if not sys.stdin.isatty():
        print(line)
    if line.strip().lower() in _QUIT:
        raise Quit("game abandoned")
    return line.strip()


def score_text(game: Game, guesser, candidates: Indexes, guess: Index) -> str:
    """The guesser's score of this guess, as people read it (scoring guessers only, else "")."""
    metric = guesser.metric
    if metric is None or len(candidates) < 2:
        return ""
    value = metric.value(game.partition_counts(np.array([guess]), candidates))[0]
    shown = {
        "entropy": f"entropy {value:.4f} bits",
        "minimax": f"largest class {int(value)}",
        "expected": f"expected class size {value:.2f}",
        "most-parts": f"{int(value)} parts",
        "max-frequency": f"chance of a hit {value:.1%}",
    }
    return shown.get(metric.name, f"{metric.name} {value}")


def read_reply(game: Game, text: str, guess: Index) -> Reply:
    """The reply a person typed to `guess`, read as the game's prompt (`reply_help`) describes
    it: an empty line is no reply at all (an ArenaError saying what to type) rather than some
    game's reading of "" as nothing."""
    if not text.strip():
        raise ArenaError(f"type a reply: {game.reply_help()}")
    return game.parse_reply_to(guess, text)


class HumanGuesser(Guesser):
    """A person typing guesses; `?` shows the hint guesser's choice."""

    name = "human"
    summary = "you, at the terminal (arena play): type guesses, ? for a hint"
    traits = INTERACTIVE

    @classmethod
    def declared_params(cls):
        return {}

    def __init__(self, **values):
        super().__init__(**values)
        self.hint = None  # the guesser `?` asks; `arena play --hint` sets it (default entropy)

    def hint_guesser(self):
        if self.hint is None:
            from .registry import make_guesser

            self.hint = make_guesser("entropy")
        return self.hint

    def guess(self, game: Game, state: State) -> Index:
        played = {g for g, _ in state.history}
        n = len(state.candidates)
        prompt = f"Guess {state.turn + 1} ({n:,} secret{'s' if n != 1 else ''} possible; ? for a hint): "
        while True:
            text = ask(prompt)
            if not text:  # a stray Enter: say what is expected rather than call it a bad guess
                print(f"  type a guess ({game.describe_guesses()}), ? for a hint, or quit to give up")
                continue
            if text == "?":
                print(self.hint_text(game, state))
                continue
            try:
                guess = game.guess_index(text)
            except ArenaError as e:
                print(f"  {e}")
                continue
            if guess in played:  # its reply is known and it was no hit: it tells nothing twice
                reply = next(r for g, r in state.history if g == guess)
                print(f"  you have tried {game.guesses[guess]} already (reply {game.reply_label(reply)})")
                continue
            reason = game.refusal(guess, state.history)  # e.g. Wordle's hard mode
            if reason:
                print(f"  {reason}")
                continue
            return guess

    def hint_text(self, game: Game, state: State) -> str:
        if game.determined(state.candidates):  # decided (Hangman: fill in the word)
            finish = game.finishing_guesses(state.candidates, {g for g, _ in state.history})
            return (
                f"  Hint: the {game.secret_noun} is {game.secrets[state.candidates[0]]}; try {game.guesses[finish[0]]}"
            )
        hint = self.hint_guesser()
        guess = hint.guess(game, state)
        score = score_text(game, hint, state.candidates, guess)
        return f"  Hint ({hint.label}): {game.guesses[guess]}" + (f", {score}" if score else "")


class HumanChooser(Chooser):
    """A person keeping a secret in mind and typing the replies; contradictions are refused."""

    name = "human"
    summary = "you, at the terminal (arena play): keep a secret in mind and type the replies"
    traits = INTERACTIVE

    def start(self, game: Game, secrets: Indexes, seed: int) -> None:
        super().start(game, secrets, seed)
        self.first: Indexes | None = None  # the secrets possible before the first reply

    def opening(self, game: Game, openings: list[tuple[str, Indexes]]) -> int:
        labels = [label for label, _ in openings]
        question = game.opening_question(labels)
        while True:
            text = ask(question)
            if not text:
                print(f"  type one of: {', '.join(labels)}")
                continue
            shortcuts = [label.split()[0] for label in labels]  # "5" for "5 letters", where it names one
            for k, label in enumerate(labels):
                if text == label or (text == shortcuts[k] and shortcuts.count(text) == 1):
                    return k
            print(f"  {text!r} is not one of: {', '.join(labels)}")

    def reply(self, game: Game, state: State, guess: Index) -> Reply:
        if self.first is None or not state.history:
            self.first = state.candidates
        if game.determined(state.candidates):  # one secret left (Hangman): the reply is forced
            return game.reply(guess, int(state.candidates[0]))
        how = game.reply_help()
        while True:
            text = ask(f"Your reply to {game.guesses[guess]} ({how}): ")
            try:
                reply = read_reply(game, text, guess)
            except ArenaError as e:
                print(f"  {e}")
                continue
            if len(game.consistent(state.candidates, guess, reply)):
                return reply
            print("  " + self.contradiction(game, state, guess, reply))

    def contradiction(self, game: Game, state: State, guess: Index, reply: Reply) -> str:
        """Which earlier reply this one contradicts: the first guess after which no secret fits."""
        label = f"{game.reply_label(reply)} to {game.guesses[guess]}"
        possible = state.candidates if self.first is None else self.first
        if not len(game.consistent(possible, guess, reply)):
            return f"No secret gives {label}: try again."
        for number, (g, r) in enumerate(state.history, 1):
            possible = game.consistent(possible, g, r)
            if not len(game.consistent(possible, guess, reply)):
                return (
                    f"That contradicts your reply to guess {number} ({game.reply_label(r)} to {game.guesses[g]})"
                    + (" and those before it" if number > 1 else "")
                    + f": no secret gives {label}. Try again."
                )
        return f"No secret gives {label}: try again."  # not reached: the full history has no secret


AGENTS = [HumanGuesser, HumanChooser]
