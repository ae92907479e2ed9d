"""The exact Hangman guesser: fewest expected misses, or fewest lost games, by exhaustive search.

For a candidate set S, with each informative letter l splitting S into classes C (the miss
class among them), the value is

    misses:  V(S)    = min_l  sum_C |C|/|S| * ([C is the miss class] + V(C)),   V(S) = 0 if |S| <= 1
    lost:    L(S, k) = min_l  sum_C |C|/|S| * L(C, k - [C is the miss class]),
             L(S, 0) = 1 (the strikes ran out), L(S, k) = 0 if |S| <= 1

Both are solved depth first with memoisation on the candidate set (and strikes left), and a
letter is abandoned as soon as its partial sum cannot beat the best letter so far (every class
costs at least its miss). Above `exact` candidates the search would explode, so the guesser
plays a greedy metric (`greedy=`) there and is exact below it, which is where the endgame is
decided. Ties go to the alphabetically first letter.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from arena.errors import ArenaError
from arena.game import Game, Index, Indexes
from arena.spec import Param
from arena.traits import Traits

from .base import Guesser, State


class FewestMisses(Guesser):
    """Exact for small candidate sets: the letter minimising expected misses (or lost games)."""

    name = "fewest-misses"
    summary = "exact search for the fewest expected misses (objective=lost: fewest lost games) below exact=N words"
    params = {
        "exact": Param("exact", int, 20, "search exactly with this many candidates or fewer"),
        "objective": Param("objective", ("misses", "lost"), "misses", "what to minimise"),
        "greedy": Param("greedy", ("max-frequency", "expected", "entropy", "minimax", "most-parts"),
                        "max-frequency", "the scoring guesser used above the exact limit"),
    }
    traits = Traits(uses_history=True)

    def __init__(self, **values):
        super().__init__(**values)
        if self.values["exact"] < 1:
            raise ArenaError("fewest-misses: exact must be at least 1")
        from .registry import make_guesser
        self.greedy = make_guesser(f"{self.values['greedy']}:tiebreak=first")
        self._solvers: dict[int, "_Search"] = {}

    def choose(self, game: Game, state: State) -> Index:
        if game.strikes is None:
            raise ArenaError(f"fewest-misses plays games with strikes (hangman), not {game.spec}")
        if len(state.candidates) > self.values["exact"]:
            return self.greedy.choose(game, state)
        search = self._solvers.setdefault(id(game), _Search(game, self.values["objective"]))
        left = game.strikes - sum(game.is_miss(r) for _, r in state.history)
        return search.best(state.candidates, left)[1]


class _Search:
    """The memoised search over candidate sets of one game."""

    def __init__(self, game: Game, objective: str):
        self.game, self.objective = game, objective
        self.value = lru_cache(maxsize=None)(self._value)

    def best(self, candidates: Indexes, strikes_left: int) -> tuple[float, Index]:
        """(value, letter) for these candidates."""
        return self.value(candidates.tobytes(), strikes_left if self.objective == "lost" else 0)

    def _value(self, key: bytes, left: int) -> tuple[float, Index]:
        candidates = np.frombuffer(key, dtype=np.intp)
        n = len(candidates)
        if self.objective == "lost" and left <= 0:  # the strikes ran out, even on the last word
            return 1.0, -1
        if n <= 1:
            return 0.0, -1
        block = self.game.table[:, candidates]
        letters = np.flatnonzero((block != block[:, :1]).any(axis=1))
        # cheap order: fewest misses first, so a good bound comes early
        letters = letters[np.argsort((block[letters] == 0).sum(axis=1), kind="stable")]
        best, best_letter = np.inf, int(letters[0])
        rows, secrets = block[letters].tolist(), candidates.tolist()
        for letter, row in zip(letters.tolist(), rows):
            groups: dict[int, list[int]] = {}
            for secret, reply in zip(secrets, row):  # plain Python: the sets here are small
                groups.setdefault(reply, []).append(secret)
            parts = sorted(((r, np.array(g, dtype=np.intp)) for r, g in groups.items()), key=lambda rp: -len(rp[1]))
            # what is left costs at least each class's miss now (misses objective)
            bounds = [len(p) / n * self.game.is_miss(r) if self.objective == "misses" else 0.0 for r, p in parts]
            total, rest = 0.0, sum(bounds)
            for (reply, part), bound in zip(parts, bounds):
                miss = self.game.is_miss(reply)
                share = len(part) / n
                if self.objective == "misses":
                    total += share * (miss + self.value(part.tobytes(), 0)[0])
                else:
                    total += share * self.value(part.tobytes(), left - miss)[0]
                rest -= bound
                if total + rest > best + 1e-12:  # cannot beat, nor tie, the best letter
                    break
            else:
                if total < best - 1e-12 or (abs(total - best) <= 1e-12 and letter < best_letter):
                    best, best_letter = total, letter
        return best, best_letter


AGENTS = [FewestMisses]
