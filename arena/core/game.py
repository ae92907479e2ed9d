"""A game instance: secrets, guesses, its rules, its labels and its feedback table.

Everything in the project is an index into `game.secrets` or `game.guesses`. The game's
constructor builds its table `F[g, s]` once and hands it to an arena.core.feedback.FeedbackTable
(`game.feedback`), which owns the primitives that agents and solvers use (`consistent`,
`partition`, `partition_counts`, `reply_counts`, `fused_keys`) and how they count; the game
answers them by asking its table (`game.table`, `game.codes` and the rest are the table's).

A game says what it is and owns what is specific to it, so that no code outside
arena/games/ asks which game it has: `rules` (does a guess hit, is a miss a strike, what a
game costs), which reply is the miss, how replies are written, read and explained to people,
what a reply tells (the evil chooser's tie rule), the opening and transcript lines, and the
guesses that finish a determined game. `GameType` is how a game module (or a plug-in)
registers a game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from . import checks as door
from .errors import ArenaError, ArenaTypeError, did_you_mean
from .feedback import (
    CHUNK,
    COMPILED_CELLS,
    MANY_CODES,
    MISS,
    MISS_COLUMN,
    FeedbackTable,
    Index,
    Indexes,
    OnTheFly,
    Reply,
    ReplyCounts,
    check_on_the_fly_memory,
    check_table_memory,
    code_dtype,
    count_label,
)
from .spec import Param

#: Re-exported: the game modules and plug-ins import the table's names from here, with Game.
__all__ = [
    "CHUNK",
    "COMPILED_CELLS",
    "MANY_CODES",
    "MISS",
    "MISS_COLUMN",
    "FeedbackTable",
    "Game",
    "GameType",
    "Index",
    "Indexes",
    "OnTheFly",
    "Reply",
    "ReplyCounts",
    "Rules",
    "check_on_the_fly_memory",
    "check_table_memory",
    "code_dtype",
    "count_label",
]


@dataclass(frozen=True)
class Rules:
    """What kind of game a game is: the questions solvers and agents ask instead of testing
    which class they hold (OpenSpiel's GameType is the model).

    hits: a guess may be the secret, and naming it ends the game (Jotto, Mastermind); where
        False (Hangman) a game ends when one candidate is left, `determined(candidates)`.
    strikes: a miss (the all-blank reply) counts against the guesser, and enough lose the game.
    cost: what a game costs the guesser in the published studies: "guesses" or "misses".
    restricted: the guesses allowed depend on the moves so far (Wordle's hard mode): ask
        `Game.allowed_guesses(history)`; a solver that keys its work by the candidates alone
        must not assume every guess is allowed.
    """

    hits: bool = True
    strikes: bool = False
    cost: str = "guesses"
    restricted: bool = False


@dataclass(frozen=True)
class GameType:
    """A game as the registry knows it (arena/games/__init__.py): its name, how to build it
    (`make(spec, **params)`), its parameters and a one-line summary for `arena games`. Each
    game module registers one as `GAME`; a plug-in names one in the `arena.games` entry points."""

    name: str
    make: Callable[..., Game]
    params: Mapping[str, Param]
    summary: str


class Game:
    """A finite guessing game given by its feedback table.

    table[g, s] is the reply (a small integer code) to guess g when the secret is s.
    `hit` is the reply that means "you guessed the secret" (None where no guess is a secret),
    and `same_secret[g]` is the secret that guess g names, or -1. `rules` says what kind of
    game it is.

    Attributes read by agents and solvers: `secrets` and `guesses` (the labels, indexed by
    secret and guess), `table` (the feedback table F[g, s], read-only; computed on the fly by
    numpy-style indexing for a game too big to hold it), `codes` (the reply codes that occur)
    and `n_codes` (one more than the largest: the width of a row of `partition_counts`),
    `all_secrets` and `all_guesses` (index arrays of every secret and guess). The table and
    its primitives are `feedback`'s (arena.core.feedback.FeedbackTable); the game's primitives ask it.
    """

    name: str = "game"
    rules: Rules = Rules()
    #: Up to this many codes partition counts have a column per code (above 64, a game whose
    #: codes nearly all occur says so here: Wordle's 243); beyond, the alphabet is sparse.
    dense_codes: int = MANY_CODES
    #: Misses that lose the game (Hangman), None where misses don't count. Whether they count
    #: is the rules' to say (`rules.strikes`), asked there and never read off this number.
    strikes: int | None = None
    miss: Reply = MISS  # the all-blank reply (MISS)
    build_seconds: float = 0.0  # how long make_game took to build it (lists and table; arena.games)

    def __init__(
        self,
        spec: str,
        secrets: Sequence[str],
        guesses: Sequence[str],
        table: np.ndarray | OnTheFly,
        hit: Reply | None,
        same_secret: np.ndarray,
        symmetric: bool = False,
        codes: np.ndarray | None = None,
    ):
        self.spec = spec
        self.secrets = tuple(secrets)
        self.guesses = tuple(guesses)
        self.feedback = FeedbackTable(table, symmetric=symmetric, codes=codes, dense_codes=self.dense_codes)
        # the table's, read by agents and solvers as the game's own
        self.table, self.by_secret = self.feedback.table, self.feedback.by_secret
        self.codes, self.n_codes = self.feedback.codes, self.feedback.n_codes
        self.compiled = self.feedback.compiled
        self.hit = hit
        self.same_secret = np.asarray(same_secret, dtype=np.intp)
        self.secret_guess = np.full(len(self.secrets), -1, dtype=np.intp)  # the inverse map
        named = self.same_secret >= 0
        self.secret_guess[self.same_secret[named]] = np.flatnonzero(named)
        self._occurring = frozenset(self.codes.tolist())
        self.all_secrets: Indexes = np.arange(len(self.secrets))
        self.all_guesses: Indexes = self.feedback.all_guesses
        self._guess_index = {label: i for i, label in enumerate(self.guesses)}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}: {len(self.secrets)} secrets, {len(self.guesses)} guesses>"

    def symmetry(self):
        """The game's group of reply-preserving permutations of the codes, for the solvers to
        exploit (Mastermind: arena.games.mastermind_symmetry), or None: none is known."""
        return None

    # --- labels -------------------------------------------------------------------------
    def guess_index(self, label: str) -> Index:
        """The index of the guess written `label`, or an ArenaError saying what a guess looks like."""
        if not isinstance(label, str):
            raise ArenaTypeError(
                f"guess_index takes a guess as written, a str such as {self.guesses[0]!r}, got "
                f"{label!r} ({type(label).__name__}); game.guesses[i] is the guess of index i"
            )
        key = self.normalise_guess(label)
        if key not in self._guess_index:
            hint = did_you_mean(key, self.guesses) if len(self.guesses) <= 20_000 else ""
            raise ArenaError(f"{label!r} is not a guess of {self.spec}: {self.describe_guesses()}{hint}")
        return self._guess_index[key]

    def normalise_guess(self, label: str) -> str:
        return label.strip()

    def describe_guesses(self) -> str:
        return f"{len(self.guesses)} guesses such as {', '.join(self.guesses[:3])}"

    def reply_label(self, reply: Reply) -> str:
        """How a reply is written for people (and in saved trees)."""
        return str(reply)

    def parse_reply(self, text: str) -> Reply:
        """The reply code written `text` (the inverse of `reply_label`): plain digits only
        (int() would also take `+3`, `1_0` or other scripts' digits)."""
        if not re.fullmatch(r"[0-9]+", text.strip()):
            raise ArenaError(f"reply {text!r} is not a reply of {self.spec}: write a number, like 2")
        code = int(text.strip())
        if code not in self._occurring:
            raise ArenaError(f"reply {text!r} never occurs in {self.spec}")
        return code

    def parse_reply_to(self, guess: Index, text: str) -> Reply:
        """The reply written `text` to `guess`: `parse_reply`, unless a game reads its replies
        better knowing the guess (Hangman: the pattern `_ u _ _ y` that `arena play` prints)."""
        return self.parse_reply(text)

    def history_label(self, replies: Sequence[Reply]) -> str:
        """The replies so far as one short string (the History column of strategy tables)."""
        return "".join("|" + self.reply_label(r) for r in replies)

    # --- the primitives, the table's -------------------------------------------------------
    def reply(self, guess: Index | str, secret: Index | str) -> Reply:
        """The reply `secret` gives to `guess`: indexes into the guesses and the secrets, or
        both as written (`game.reply("1122", "3456")`); anything else is one ArenaError."""
        if isinstance(guess, str):
            guess = self.guess_index(guess)
        if isinstance(secret, str):
            secret = self.secret_index(secret)
        # O(1) checks: the referee asks this once a move
        if isinstance(guess, bool) or not isinstance(guess, (int, np.integer)) or not 0 <= guess < len(self.guesses):
            door.index(guess, "reply: guess", len(self.guesses), "guesses")
        if isinstance(secret, bool) or not isinstance(secret, (int, np.integer)) or not 0 <= secret < len(self.secrets):
            door.index(secret, "reply: secret", len(self.secrets), "secrets")
        return int(self.table[guess, secret])

    def secret_index(self, label: str) -> Index:
        """The index of the secret written `label`, or an ArenaError naming what the secrets are."""
        if not isinstance(label, str):
            raise ArenaTypeError(
                f"secret_index takes a secret as written, a str such as {self.secrets[0]!r}, got {label!r}"
            )
        if not hasattr(self, "_secret_index"):  # built on first use: most games never look one up
            self._secret_index = {s: i for i, s in enumerate(self.secrets)}
        key = self.normalise_guess(label)
        if key not in self._secret_index:
            shown = ", ".join(self.secrets[:3])
            raise ArenaError(f"{label!r} is not a secret of {self.spec}: {len(self.secrets):,} secrets such as {shown}")
        return self._secret_index[key]

    def consistent(self, candidates: Indexes, guess: Index, reply: Reply) -> Indexes:
        """The candidates that would have given `reply` to `guess`."""
        return candidates[self.table[guess, candidates] == reply]

    def partition(self, guess: Index, candidates: Indexes) -> dict[Reply, Indexes]:
        """The candidates split by their reply to `guess`, in reply order (each class keeps
        the candidates' order). `guess` is an index into the guesses (no index from the end),
        `candidates` an int array of indexes into the secrets."""
        # O(1) checks only: this is the solvers' inner loop (an index array's range is checked
        # where it is not an int array already, and where it is, by numpy's own IndexError)
        if isinstance(guess, bool) or not isinstance(guess, (int, np.integer)) or not 0 <= guess < len(self.guesses):
            door.index(guess, "partition: guess", len(self.guesses), "guesses")
        if not isinstance(candidates, np.ndarray) or candidates.dtype.kind not in "iu" or candidates.ndim != 1:
            candidates = door.indexes(candidates, "partition: candidates", len(self.secrets), "secrets")
        try:
            return self.feedback.partition(guess, candidates)
        except IndexError:
            door.indexes(candidates, "partition: candidates", len(self.secrets), "secrets")
            raise

    def partition_counts(self, pool: Indexes | None, candidates: Indexes) -> np.ndarray:
        """counts[i, j] = how many candidates fall in class j of guess pool[i] (pool None:
        every guess): the class sizes, with the miss always column 0 (FeedbackTable.partition_counts)."""
        return self.feedback.reply_counts(pool, candidates).counts

    def reply_counts(self, pool: Indexes | None, candidates: Indexes) -> ReplyCounts:
        """The partition counts and the reply each column counts (FeedbackTable.reply_counts)."""
        return self.feedback.reply_counts(pool, candidates)

    @property
    def on_the_fly(self) -> bool:
        """Is the table computed on the fly (OnTheFly), its cells never all in memory at once?"""
        return self.feedback.fly is not None

    @property
    def uses_kernels(self) -> bool:
        """Are partition counts taken by the compiled loops of arena.core.kernels? (FeedbackTable.uses_kernels)"""
        return self.feedback.uses_kernels

    def fused_keys(
        self, pool: Indexes | None, candidates: Indexes, how: str, terms: np.ndarray, fixed: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """A metric's keys of every guess of the pool by the compiled loop, or None where this
        game counts with numpy (FeedbackTable.fused_keys)."""
        return self.feedback.fused_keys(pool, candidates, how, terms, fixed)

    def reply_major_counts(self, pool: Indexes, candidates: Indexes) -> np.ndarray | None:
        """counts[r, i] by the compiled loop, or None where this game counts with numpy
        (FeedbackTable.reply_major_counts)."""
        return self.feedback.reply_major_counts(pool, candidates)

    def finished(self, reply: Reply) -> bool:
        """Does this reply end the game? (In Jotto and Mastermind: the guess was the secret.)"""
        return reply == self.hit

    def finishing(self, replies: np.ndarray) -> np.ndarray:
        """`finished` of each reply code of an array, at once (a game that changes `finished`
        changes this with it)."""
        return np.asarray(replies) == self.hit

    def determined(self, candidates: Indexes) -> bool:
        """Is the game over without another guess? (Hangman: one word left. Jotto: never, the
        secret must still be guessed.)"""
        return False

    def openings(self, secrets: Indexes) -> list[tuple[str, Indexes]]:
        """What the guesser is told before the first guess, as (label, secrets) classes: nothing
        here; Hangman tells the word's length."""
        return [("", secrets)]

    def is_miss(self, reply: Reply) -> bool:
        """Was this reply a miss, the all-blank reply (a strike in Hangman)?"""
        return reply == self.miss

    def loses(self, misses: int) -> bool:
        """Have this many misses lost the game? Never where a miss is no strike (`rules.strikes`)."""
        return self.rules.strikes and self.strikes is not None and misses >= self.strikes

    def default_strikes(self) -> tuple[int, ...]:
        """The strike limits a game's figures count lost games at unless told others: the game's
        own where a miss is a strike, none elsewhere."""
        return (self.strikes,) if self.rules.strikes and self.strikes is not None else ()

    def candidate_guesses(self, candidates: Indexes) -> Indexes:
        """The consistent pool: guesses that may be the secret (Hangman: letters that may be in it)."""
        return self.guesses_naming(candidates)

    def guesses_naming(self, candidates: Indexes) -> Indexes:
        """The guesses that may be the secret: the consistent pool."""
        named = self.secret_guess[candidates]
        return named[named >= 0]

    def allowed_guesses(self, history: Sequence[tuple[Index, Reply]]) -> Indexes | None:
        """The guesses the rules allow after `history` (the moves so far), or None: every guess,
        as in most games. A game that narrows them (Wordle's hard mode) must always allow every
        guess that may be the secret, so the consistent pool never needs this check. The greedy
        guessers choose within it, and the referee refuses any other guess (`refusal`)."""
        return None

    def refusal(self, guess: Index, history: Sequence[tuple[Index, Reply]]) -> str | None:
        """Why the rules forbid `guess` after `history`, in one line for people, or None where it
        is allowed: exactly the guesses outside `allowed_guesses(history)` are refused."""
        return None

    def is_candidate(self, candidates: Indexes) -> np.ndarray:
        """A boolean per guess: may this guess be the secret, given the candidates?"""
        mask = np.zeros(len(self.secrets) + 1, dtype=bool)  # the extra slot catches same_secret == -1
        mask[candidates] = True
        return mask[self.same_secret]

    # --- what a game tells people, and how it ends ----------------------------------------
    #: What a secret is called when the game speaks of one ("word" in Hangman).
    secret_noun: str = "secret"

    def reply_help(self) -> str:
        """How a person types a reply (the human chooser's prompt)."""
        return "a reply"

    def reveals(self) -> np.ndarray:
        """shown[r]: how much reply r tells the guesser, for the adversaries' "reveals least"
        tie rule (`told`), with the hit above every other reply: it tells everything.
        Computed once per game."""
        if getattr(self, "_reveals", None) is None:
            shown = np.asarray(self.told(np.arange(self.n_codes)), dtype=np.int64)
            if self.hit is not None:
                shown[self.hit] = int(shown.max()) + 1
            shown.setflags(write=False)
            self._reveals = shown
        return self._reveals

    def told(self, replies: np.ndarray) -> np.ndarray:
        """How much each of these replies tells: here the code itself (Jotto: letters in common)."""
        return replies.copy()

    def shape(self, candidates: Indexes) -> int | str:
        """What the candidates of one opening show before the first guess, for the printouts
        (`turn_line`): here the length of their labels (Hangman: its pattern, shown
        characters and all)."""
        return len(self.secrets[candidates[0]])

    def opening_line(self, label: str, candidates: Indexes, length: int | str) -> str | None:
        """What `arena play` prints when the guesser is told the opening (None: nothing)."""
        return f"The guesser is told: {label} ({len(candidates):,} possible)" if label else None

    def opening_question(self, labels: list[str]) -> str:
        """The question a human chooser answers to pick the opening."""
        return f"Tell the guesser what it may know first ({labels[0]} .. {labels[-1]}): "

    def turn_line(self, number: int, history: Sequence[tuple[Index, Reply]], left: int, length: int | str) -> str:
        """One line of a transcript, in the published examples' format, for the last move of
        `history` (`left` secrets possible after it; `length` the secrets' `shape`)."""
        guess, reply = history[-1]
        return f"Guess {number}: {self.guesses[guess]}, Reply: {self.reply_label(reply)}, Consistent targets: {left}"

    def finishing_guesses(self, candidates: Indexes, played: set[Index]) -> list[Index]:
        """Once the game is `determined`, the guesses that finish it, in the order an agent
        plays them (none here: the secret must be hit)."""
        return []

    def over(self, candidates: Indexes, played: set[Index]) -> bool:
        """Is the game over without a hit? Determined, and nothing left to play to finish it."""
        return self.determined(candidates) and not self.finishing_guesses(candidates, played)

    def guess_note(self, guess: Index, candidates: Indexes) -> str:
        """What `arena solve` says about its next guess."""
        if self.is_candidate(candidates)[guess]:
            return "it may itself be the secret"
        return "it cannot be the secret: it is played to learn"
