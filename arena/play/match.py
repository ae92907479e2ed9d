"""The referee: a guesser against a chooser, one game at a time, every reply checked.

`play_match` plays one game: the chooser starts (a committed one draws its secret), the
guesser is told the opening (Hangman: the word's length), then guess by guess the chooser
replies. Every reply is checked against the secrets still possible: a reply that is not a
reply of the game, or that leaves no secret possible, is refused with a RuleBreak naming the
chooser and the move; so is a guess the rules do not allow after the moves so far (Wordle's
hard mode, `Game.refusal`), naming the guesser. (A committed chooser cannot fail this; an adaptive one, or a human, can.)

Hangman is played in full, until every letter of the word is shown. Once one word is left the
game is decided, and an agent guesser finishes it the only sensible way: it plays the word's
letters not yet shown, in alphabetical order. Each is a hit, so this adds guesses but never
misses. A match is *counted* as `evaluate` counts a game (the published convention): guesses
and misses until one candidate is left, so the uniform chooser's figures are evaluate's and
the finishing letters are not counted. A human guesser finishes by hand, misses and all.

`play` and `play_script` are the same referee with a scripted chooser: one that replies as a
committed secret does, or with the replies written in a script (a transcript, a test of an
agent's exact moves). There is no second game loop.

`evaluate_against` is evaluation with a chooser: the uniform chooser is `evaluate` (every
secret once); other committed choosers play `repeat` games from their draws; adversaries
(evil, minimax, spoiler) play one game per opening (Hangman: per word length) and report what
they force. Seeds: repetition r plays the guesser seeded (seed, r), as evaluate does, and the
chooser seeded by a hash of (seed, chooser stream, r, opening), so nothing depends on the order
or the process the games are played in.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields

import numpy as np

from ..core import checks
from ..core.errors import ArenaError, RuleBreak
from ..core.game import Game, Index, Indexes, Reply
from ..core.players import AgentProtocol, ChooserProtocol, GuesserProtocol
from ..core.seeding import mix64
from ..core.state import State
from ..core.traits import Traits
from .evaluate import Evaluation, Streamed, evaluate, repetition_chunks

#: A game is stopped (RuleBreak) after this many guesses.
MAX_TURNS = 200
#: The Match records (every move) are kept for at most this many games.
KEEP_MATCHES = 10_000
_CHOOSER_STREAM = 0xC4005E  # keeps the chooser's draws apart from the guesser's (seed, r)


def chooser_seed(seed: int, repetition: int = 0, opening: int = 0) -> int:
    """The seed a chooser starts with in repetition r, opening k: a hash, so draws are
    independent of the order in which games are played."""
    return mix64(seed, _CHOOSER_STREAM, repetition, opening)


@dataclass(frozen=True)
class Turn:
    """One move: the guess, the reply, and how many secrets are still possible after it."""

    guess: Index
    reply: Reply
    left: int


@dataclass(frozen=True)
class Match:
    """One game: the moves, how it ended, and how it counts."""

    game: Game
    guesser: str
    chooser: str
    opening: str  # what the guesser was told first ("" or Hangman's "5 letters")
    possible: int  # secrets possible at the start, after the opening
    turns: tuple[Turn, ...]
    secret: Index | None  # the committed secret, or the one an adaptive chooser was left with
    solved: bool  # the secret was guessed (Hangman: every letter shown)
    lost: bool  # stopped at the strike limit
    guesses: int  # as evaluate counts them: until the hit, or (Hangman) until one word is left
    misses: int  # misses among those guesses
    length: int | str = 0  # the secrets' shape in play (Game.shape: their length; Hangman's pattern)

    def lines(self) -> list[str]:
        """`Guess 1: stoma, Reply: 1, Consistent targets: 1118`, one line a turn (Hangman:
        the pattern and the strikes: the game writes the line)."""
        out, history = [], []
        for number, turn in enumerate(self.turns, 1):
            history.append((turn.guess, turn.reply))
            out.append(self.game.turn_line(number, history, turn.left, self.length))
        return out


def _is_over(game: Game, state) -> bool:
    """Over without a hit: the game is determined and nothing is left to play (Hangman: one
    word left, every letter of it played)."""
    return game.over(state.candidates, {g for g, _ in state.history})


def _next_guess(game: Game, guesser, state) -> Index:
    """The guesser's guess; once the game is determined, an agent plays the guesses that
    finish it (Hangman: the word's unshown letters)."""
    if game.determined(state.candidates) and not guesser.traits.interactive:
        return game.finishing_guesses(state.candidates, {g for g, _ in state.history})[0]
    return guesser.guess(game, state)


def _choose_opening(game: Game, chooser: ChooserProtocol, openings: list[tuple[str, Indexes]]) -> tuple[str, Indexes]:
    if len(openings) == 1:
        return openings[0]
    secret = chooser.secret
    if secret is not None:  # a committed chooser's secret fixes it
        return next((label, part) for label, part in openings if secret in set(part.tolist()))
    k = chooser.opening(game, openings)
    if not (isinstance(k, (int, np.integer)) and 0 <= k < len(openings)):
        raise RuleBreak(f"chooser {_name(chooser)} chose opening {k!r}, not one of 0..{len(openings) - 1}")
    return openings[int(k)]


def _name(agent: AgentProtocol) -> str:
    return agent.label or agent.spec


def checked_guess(game: Game, guesser, state, guess, number: int) -> Index:
    """The guesser's guess, if it is a guess of the game that the rules allow after the moves
    so far (`Game.refusal`: Wordle's hard mode), else a RuleBreak naming the guesser and why."""
    if not (isinstance(guess, (int, np.integer)) and 0 <= guess < len(game.guesses)):
        raise RuleBreak(f"guesser {_name(guesser)} made an illegal guess {guess!r} at guess {number}")
    reason = game.refusal(int(guess), state.history)
    if reason:
        raise RuleBreak(
            f"guesser {_name(guesser)} broke the rules at guess {number} ({game.guesses[int(guess)]}): {reason}"
        )
    return int(guess)


def checked_reply(game: Game, chooser, state, guess: Index, number: int) -> tuple[Reply, Indexes]:
    """The chooser's reply and the secrets it leaves, or a RuleBreak naming the chooser and the move."""
    reply = chooser.reply(game, state, guess)
    move = f"guess {number} ({game.guesses[guess]})"
    if not isinstance(reply, (int, np.integer)) or not 0 <= reply < game.n_codes or not np.any(game.codes == reply):
        raise RuleBreak(f"chooser {_name(chooser)} gave {reply!r} to {move}: not a reply of {game.spec}")
    left = game.consistent(state.candidates, guess, int(reply))
    if not len(left):
        raise RuleBreak(
            f"chooser {_name(chooser)} broke the rules: reply {game.reply_label(int(reply))} to {move} "
            f"leaves no secret possible"
        )
    return int(reply), left


OnTurn = Callable[[int, Turn, object], None]


def play_match(
    game: Game,
    guesser: GuesserProtocol,
    chooser: ChooserProtocol,
    secrets: Indexes | None = None,
    seed: int = 0,
    on_open: Callable[[str, Indexes], None] | None = None,
    on_turn: OnTurn | None = None,
    stop_at_strikes: bool = False,
) -> Match:
    """One game of `guesser` against `chooser` over `secrets` (default: every secret).

    The chooser is started with `seed`; seed a random guesser yourself (`guesser.seeded(...)`).
    `on_open(label, candidates)` and `on_turn(number, turn, state_after)` see the game as it
    goes (the interactive commands print with them). With `stop_at_strikes`, Hangman stops when
    the misses reach the game's strike limit, as a real game does. A guesser still playing after
    MAX_TURNS guesses is stopped (RuleBreak).
    """
    secrets = game.all_secrets if secrets is None else np.asarray(secrets)
    chooser.meet(guesser)  # a chooser that studies its opponent (the spoiler); nothing by default
    chooser.start(game, secrets, seed)
    opening, candidates = _choose_opening(game, chooser, game.openings(secrets))
    if on_open:
        on_open(opening, candidates)
    state = State(candidates)
    turns: list[Turn] = []
    counted = (0, 0) if game.determined(candidates) else None
    misses, solved, lost = 0, False, False
    while not _is_over(game, state):
        if stop_at_strikes and game.loses(misses):
            lost = True
            break
        if len(turns) >= MAX_TURNS:
            raise RuleBreak(
                f"guesser {_name(guesser)} makes no progress: {len(state.candidates)} secrets "
                f"still possible after {len(turns)} guesses"
            )
        guess = checked_guess(game, guesser, state, _next_guess(game, guesser, state), len(turns) + 1)
        reply, left = checked_reply(game, chooser, state, guess, len(turns) + 1)
        turn = Turn(int(guess), reply, len(left))
        turns.append(turn)
        misses += game.is_miss(reply)
        state = state.after(int(guess), reply, left)
        if counted is None and (game.finished(reply) or game.determined(left)):
            counted = (len(turns), misses)
        if on_turn:
            on_turn(len(turns), turn, state)
        if game.finished(reply):
            solved = True
            break
    solved = solved or _is_over(game, state)
    if counted is None:  # stopped at the strike limit before the game was decided
        counted = (len(turns), misses)
    secret = chooser.secret
    if secret is None and len(state.candidates) == 1:
        secret = int(state.candidates[0])
    return Match(
        game,
        _name(guesser),
        _name(chooser),
        opening,
        len(candidates),
        tuple(turns),
        secret,
        solved,
        lost,
        counted[0],
        counted[1],
        game.shape(candidates),
    )


# --- a scripted chooser: one line of play through the same referee ---------------------------


class Scripted(ChooserProtocol):
    """A chooser whose replies are given: `answer(guess)` is the reply to each guess (a
    committed secret's, or the next of a script). The referee checks them as any chooser's."""

    traits = Traits(committed=True)
    label = spec = "script"

    def __init__(self, answer: Callable[[Index], Reply], secret: Index | None = None):
        self.answer, self.secret = answer, secret

    def start(self, game: Game, secrets: Indexes, seed: int) -> None:
        """Nothing to draw: the replies are given."""

    def reply(self, game: Game, state, guess: Index) -> Reply:
        return self.answer(guess)


@dataclass(frozen=True)
class Transcript:
    """One line of play seen from the guesser's side: its guesses, as written, and the turns."""

    game: Game
    turns: tuple[Turn, ...]
    length: int | str = 0  # the secrets' shape (Hangman's pattern)

    @property
    def guesses(self) -> list[str]:
        return [self.game.guesses[t.guess] for t in self.turns]

    @property
    def solved(self) -> bool:
        return bool(self.turns) and self.game.finished(self.turns[-1].reply)

    def lines(self) -> list[str]:
        """`Guess 1: stoma, Reply: 1, Consistent targets: 1118`, one line a turn."""
        history = [(t.guess, t.reply) for t in self.turns]
        return [self.game.turn_line(i, history[:i], t.left, self.length) for i, t in enumerate(self.turns, 1)]


def play(game: Game, guesser, secret: Index) -> Transcript:
    """The guesser against a committed secret, refereed by `play_match`."""
    chooser = Scripted(lambda guess: game.reply(guess, secret), secret=int(secret))
    return _transcript(play_match(game, guesser, chooser))


def play_script(game: Game, guesser, replies: Iterable[str]) -> Transcript:
    """The guesser against a scripted opponent: the replies, written as people write them,
    refereed by `play_match` (a reply that leaves no secret is a RuleBreak)."""
    script = iter(replies)
    return _transcript(play_match(game, guesser, Scripted(lambda guess: game.parse_reply(next(script)))))


def _transcript(match: Match) -> Transcript:
    return Transcript(match.game, match.turns, match.length)


# --- evaluation against a chooser ----------------------------------------------------------


@dataclass(frozen=True)
class MatchEvaluation(Evaluation):
    """An Evaluation against a named chooser. With an adversary, column k of `guesses` is the
    game played in opening `openings[k]` (one column unless Hangman covers several lengths), and
    `finals[r, k]` the secret that game ended on; with other committed choosers, one column of
    `repeat` drawn secrets. As in Evaluation, the per-game arrays (and `finals`, so the game
    records) are kept up to KEEP_GAMES games, the Match records up to KEEP_MATCHES."""

    chooser: str = "uniform"
    openings: tuple[str, ...] = ()
    finals: np.ndarray | None = None
    matches: list = field(default_factory=list, repr=False, compare=False)
    played: bool = False  # games played against the chooser (not every secret once, as uniform)

    def games(self) -> list[dict]:
        """One record per game played (none for the uniform chooser: that is every secret)."""
        if self.finals is None or self.guesses is None:
            return []
        from ..games import make_game

        game = make_game(self.game)
        out = []
        for r in range(self.guesses.shape[0]):
            for k in range(self.guesses.shape[1]):
                s = int(self.finals[r, k])
                record = {
                    "opening": self.openings[k] if k < len(self.openings) else "",
                    "guesses": int(self.guesses[r, k]),
                    "secret": game.secrets[s] if s >= 0 else None,
                }
                if self.misses is not None:
                    record["misses"] = int(self.misses[r, k])
                out.append(record)
        return out

    def header(self) -> str:
        """`knuth on mastermind: 1,296 secrets` (the uniform chooser, as evaluate prints it), or
        `knuth against evil on mastermind: 1 game`."""
        if not self.played:
            return super().header()
        reps = f" x {self.repeat} repetitions (seed {self.seed})" if self.repeat > 1 else ""
        return (
            f"{self.guesser} against {self.chooser} on {self.game}: {self.n:,} game{'s' if self.n != 1 else ''}{reps}"
        )

    def game_lines(self, limit: int = 60) -> list[str]:
        """One line per game played (a single repetition of at most `limit` games), else none."""
        if self.finals is None or self.guesses is None or self.repeat > 1 or self.n > limit:
            return []
        lines = []
        for record in self.games():
            where = record["opening"] or self.game
            misses = f"{record['misses']} misses, " if "misses" in record else ""
            lines.append(f"  {where}: {misses}{record['guesses']} guesses, ended on {record['secret']}")
        return lines

    def to_frame(self):
        """One row per game played, with Evaluation.to_frame's columns: against the uniform
        chooser every secret once per repetition; against another chooser each game played, its
        secret the one the game ended on (an adversary's, or the committed chooser's draw)."""
        if not self.played:
            return self._frame(np.broadcast_to(self._secret_names(), self._kept().shape), self.chooser)
        if self.finals is None:
            self._kept()  # says why: too many games to keep
        names = np.append(
            self._secret_names(), np.array([None], dtype=object)
        )  # -1, a game that ended on no secret: None
        return self._frame(names[self.finals], self.chooser)

    def to_json(self) -> dict:
        data = super().to_json() | {"chooser": self.chooser}
        if self.finals is not None:
            data["games"] = self.games()
        return data


def evaluate_against(
    game: Game, guesser, chooser, repeat: int = 1, seed: int = 0, strikes: tuple[int, ...] | None = None
) -> MatchEvaluation:
    """`guesser` against `chooser` on `game` (agents: the command line and configs
    build them from specs); see the module docstring.

    Random agents are played `repeat` times; a deterministic guesser against a deterministic
    chooser plays once. `strikes` are the strike limits to report losses at (Hangman).
    """
    for agent in (guesser, chooser):
        checks.unattended(agent)
    if repeat < 1:
        raise ArenaError(f"repeat must be at least 1, got {repeat}")
    traits = chooser.traits
    if traits.every_secret_once:  # a uniform secret: every secret once is the exact expectation
        result = evaluate(game, guesser, repeat=repeat, seed=seed, strikes=strikes)
        return MatchEvaluation(**{f.name: getattr(result, f.name) for f in fields(Evaluation)}, chooser=_name(chooser))
    start = time.perf_counter()
    random = not guesser.deterministic or not traits.deterministic
    rows = repeat if random else 1
    adversary = traits.adversary
    columns = game.openings(game.all_secrets) if adversary else [("", game.all_secrets)]
    stream = Streamed(len(columns), rows, game.rules.strikes)
    finals, matches = [], []
    for chunk in repetition_chunks(rows, len(columns)):  # a block of repetitions at a time: memory stays flat
        guesses = np.zeros((len(chunk), len(columns)), dtype=np.int64)
        misses = np.zeros_like(guesses)
        ended = np.full_like(guesses, -1)
        for i, r in enumerate(chunk):
            player = guesser if guesser.deterministic else guesser.seeded(seed, r)
            for k, (_, secrets) in enumerate(columns):
                match = play_match(game, player, chooser, secrets, seed=chooser_seed(seed, r, k))
                guesses[i, k], misses[i, k] = match.guesses, match.misses
                ended[i, k] = -1 if match.secret is None else match.secret
                if rows * len(columns) <= KEEP_MATCHES:
                    matches.append(match)
        stream.add(guesses, misses if game.rules.strikes else None)
        if stream.keeping:
            finals.append(ended)
    limits = tuple(strikes or game.default_strikes())
    return MatchEvaluation(
        game.spec,
        _name(guesser),
        seconds=time.perf_counter() - start,
        seed=seed if random else None,
        strikes=limits,
        **stream.fields(),
        chooser=_name(chooser),
        openings=tuple(label for label, _ in columns),
        finals=np.concatenate(finals) if finals else None,
        matches=matches,
        played=True,
    )
