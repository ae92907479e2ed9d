"""A game as a sequence of moves, for the libraries researchers already use (OpenSpiel,
PettingZoo, Gymnasium) and for policies trained in them: numpy only, so it is tested and used
without those libraries (arena.bridges.openspiel and arena.bridges.envs are the thin adapters).

The rules are the engine's: the reply to a guess is read off the game's feedback table
(`Game.reply`), the candidates are `Game.consistent`, a game ends where the referee ends it
(a hit, or a determined game: Hangman's one word left) and costs what arena.core.costs says
(guesses, Hangman's misses, or a lost game). Two choices make the move sequence finite and
small without changing any game's value:

- The guesser's legal moves are its *useful* guesses (`useful_guesses`): those that may hit
  the secret or split the candidates, within the guesses the rules allow (Wordle's hard mode).
  Any other guess costs a guess (or a miss) and tells nothing, so no optimal play uses one,
  and every game ends within as many guesses as there are secrets.
- Under the `lost` cost a game ends when the misses reach the strike limit: from there on
  nothing the guesser does changes the payoff.

The guesser's observation (`observe`) is the candidate set and the mask of useful guesses;
`candidates_key` writes a candidate set as one short string, the key of a saved policy table
(agents/learned.py).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core.caches import shared_by_game_spec
from ..core.costs import Cost, cost_for
from ..core.errors import ArenaError
from ..core.game import Game, Index, Indexes, Reply

#: Histories a game may have before `count_histories` stops counting (arena.bridges.openspiel's limit).
MAX_HISTORIES = 200_000


def useful_guesses(game: Game, candidates: Indexes, history: Sequence[tuple[Index, Reply]] = ()) -> Indexes:
    """The guesses that may hit a candidate or split the candidates (at least two replies
    occur), allowed after `history`, in index order. Never empty while the game is not over:
    a candidate's own guess may hit it, and two words of one shape differ in some letter."""
    counts = game.partition_counts(None, candidates)
    useful = np.count_nonzero(counts, axis=1) >= 2
    if game.rules.hits:
        useful |= game.is_candidate(candidates)
    allowed = game.allowed_guesses(history)
    if allowed is not None:
        mask = np.zeros(len(game.guesses), dtype=bool)
        mask[allowed] = True
        useful &= mask
    return np.flatnonzero(useful)


@shared_by_game_spec(maxsize=100_000)
def _useful(game: Game, candidates: bytes) -> Indexes:
    # a solver walks the same candidate sets again and again (every secret of them, every
    # iteration): the useful guesses of each are computed once
    found = useful_guesses(game, np.frombuffer(candidates, dtype=np.intp))
    found.setflags(write=False)
    return found


def candidates_key(candidates: Indexes) -> str:
    """A candidate set as one short string: the bitmask of its secrets' indexes, in hex
    (secrets 0, 1 and 4: `13`). The key of a policy table's rows."""
    return format(sum(1 << int(s) for s in candidates), "x")


def mask_of(indexes: Indexes | Sequence[int], size: int) -> np.ndarray:
    """A 0/1 int8 vector of `size` with ones at `indexes`."""
    mask = np.zeros(size, dtype=np.int8)
    mask[np.asarray(indexes, dtype=np.intp)] = 1
    return mask


@dataclass
class Play:
    """One game in progress, move by move: the state the adapters hold.

    `secret` is the chooser's (None until chosen, and for an adaptive chooser, who keeps
    none); `candidates` are the secrets consistent with what the guesser was told (the opening,
    then each reply); `guesses` and `misses` are counted until the game is decided, as the
    referee counts them (arena.play.match)."""

    game: Game
    cost: Cost
    candidates: Indexes
    secret: Index | None = None
    opening: str = ""
    history: list[tuple[Index, Reply]] = field(default_factory=list)
    guesses: int = 0
    misses: int = 0
    done: bool = False

    def __deepcopy__(self, memo: dict) -> Play:
        # OpenSpiel clones a Python state by deep copy: the (read-only) game and its feedback
        # table are shared, never copied with it
        twin = copy.copy(self)
        twin.history = list(self.history)
        return twin

    @classmethod
    def start(cls, game: Game, cost: str | Cost | None = None, secret: Index | None = None) -> Play:
        """A game of `game` under `cost` (default: the game's own), with `secret` chosen (or
        none yet): the guesser is told the secret's opening (Hangman: its length)."""
        play = cls(game, cost_for(game, cost), game.all_secrets)
        if secret is not None:
            play.choose(secret)
        return play

    def choose(self, secret: Index) -> None:
        """The chooser picks `secret`: the guesser is told its opening."""
        self.secret = int(secret)
        for label, part in self.game.openings(self.game.all_secrets):
            if self.secret in set(part.tolist()):
                self.opening, self.candidates = label, part
        self.done = self.game.determined(self.candidates)

    def open(self, label: str, candidates: Indexes) -> None:
        """An adaptive chooser (who keeps no secret) plays the opening `label` (Hangman: a word
        length) over `candidates`."""
        self.opening, self.candidates = label, np.asarray(candidates)
        self.done = self.game.determined(self.candidates)

    def legal(self) -> Indexes:
        """The guesser's useful guesses now (none once the game is over)."""
        if self.done:
            return np.zeros(0, dtype=np.intp)
        if self.game.rules.restricted:  # the allowed guesses depend on the moves, not only the candidates
            return useful_guesses(self.game, self.candidates, self.history)
        return _useful(self.game, self.candidates.astype(np.intp).tobytes())

    def guess(self, guess: Index, reply: Reply | None = None) -> Reply:
        """Play `guess`; the reply is the secret's (`reply` None) or an adaptive chooser's
        `reply`, which must leave a candidate. Returns the reply."""
        if self.done:
            raise ArenaError(f"{self.game.spec}: the game is over; start another")
        if reply is None:
            if self.secret is None:
                raise ArenaError(f"{self.game.spec}: no secret chosen and no reply given")
            reply = self.game.reply(int(guess), self.secret)
        left = self.game.consistent(self.candidates, int(guess), int(reply))
        if not len(left):
            raise ArenaError(f"{self.game.spec}: reply {self.game.reply_label(reply)} leaves no secret possible")
        self.history.append((int(guess), int(reply)))
        self.candidates = left
        self.guesses += 1
        self.misses += int(self.game.is_miss(reply))
        limit = self.cost.default_limit()
        self.done = (
            self.game.finished(reply)
            or self.game.determined(left)
            or (self.cost.limits_itself and limit is not None and self.misses >= limit)
        )
        return int(reply)

    def payoff(self) -> float:
        """What the game has cost the guesser so far (its final cost once `done`)."""
        return float(self.cost.of_rows(np.array([self.guesses]), np.array([self.misses]))[0])

    def observe(self) -> dict[str, np.ndarray]:
        """The guesser's observation (see `observe`)."""
        return observe(self.game, self.candidates, self.legal())


def history_string(play: Play, secret: bool) -> str:
    """What a player knows: the secret (the chooser's, if `secret`), the opening and every
    guess with its reply (`secret=12 | 11:R 23:W`)."""
    game = play.game
    told = [f"secret={game.secrets[play.secret]}"] if secret and play.secret is not None else []
    if play.opening:
        told.append(play.opening)
    moves = " ".join(f"{game.guesses[g]}:{game.reply_label(r)}" for g, r in play.history)
    return " | ".join(told + ([moves] if moves else []))


def observe(game: Game, candidates: Indexes, legal: Indexes) -> dict[str, np.ndarray]:
    """The guesser's observation: `candidates` (1 for each secret still possible) and
    `action_mask` (1 for each useful guess), both int8."""
    return {"candidates": mask_of(candidates, len(game.secrets)), "action_mask": mask_of(legal, len(game.guesses))}


def count_histories(game: Game, cost: str | Cost | None = None, limit: int = MAX_HISTORIES) -> int | None:
    """How many histories (nodes) the game's tree has, the chooser's choice of secret at the
    root and every useful guess after it, or None if more than `limit`: counted over candidate
    sets (each counted once, however many histories reach it), so the work stops near `limit`."""
    paid = cost_for(game, cost)
    strikes = paid.default_limit() if paid.limits_itself else None
    memo: dict[tuple[bytes, int], int] = {}
    total = [1]  # the root: the chooser's move

    class Over(Exception):
        pass

    def nodes(candidates: Indexes, history: tuple, misses: int) -> int:
        # every secret of `candidates` sits at one node here; below, each useful guess's replies
        key = (candidates.tobytes(), misses)
        if key in memo and game.allowed_guesses(history) is None:
            return memo[key]
        found = len(candidates)
        for g in useful_guesses(game, candidates, history).tolist():
            for reply, part in game.partition(g, candidates).items():
                spent = misses + int(game.is_miss(reply))
                if game.finished(reply) or game.determined(part) or (strikes is not None and spent >= strikes):
                    found += len(part)
                else:
                    found += nodes(part, history + ((g, reply),), spent)
            if found > limit:
                raise Over
        memo[key] = found
        return found

    try:
        for _, part in game.openings(game.all_secrets):
            total[0] += len(part) if game.determined(part) else nodes(part, (), 0)
            if total[0] > limit:
                return None
    except (Over, RecursionError):
        return None
    return total[0]
