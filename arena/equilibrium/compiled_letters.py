"""support_search.LetterSearch with its recursion in compiled code (letter_loops.py), for big supports.

The same sets, bounds, cuts and table as support_search.LetterSearch, so the same optimum (the tests
compare the two on random mixes, under misses and lost games). The compiled search runs in a
thread of its own without the GIL, in one call; this thread waits for it, checks the deadline
and the searches' stop flag (STOP: a first Ctrl-C under a time limit) every POLL seconds and
takes Ctrl-C, and on any of them sets the search's HALT flag: the search unwinds at once,
storing nothing half-searched (support_search.Stopped, or KeyboardInterrupt again).
When the search finds its table full, the table is grown and the search called again from the
top, every set already solved read back.
"""

from __future__ import annotations

import threading
import time

import numpy as np

from ..optimal.search import STOP
from . import letter_loops as loops
from .support_search import LetterSearch, Opening, Stopped

#: Seconds between two looks at the deadline while the compiled search runs.
POLL = 0.05
#: The table's first slots (a power of two; about 730,000 sets before it grows, GROWTH-fold).
#: A growth restarts the search, which then takes another path (the letters' order at a set
#: depends on what the table holds): from 65,536 slots, doubling, 80 words took 4x the sets.
FIRST_SLOTS = 1 << 20
GROWTH = 4


class CompiledSearch(LetterSearch):
    """support_search.LetterSearch whose `solve` runs letter_loops.solve (module docstring)."""

    def __init__(self, opening: Opening, strikes: int | None, deadline: float | None, rank: np.ndarray | None = None):
        super().__init__(opening, strikes, deadline, rank)
        o = opening
        n = len(o.words)
        self.words_per_set = max(1, (n + 63) // 64)
        self.codes = np.ascontiguousarray(o.codes, dtype=np.int64)
        self.held_letters = held_letters(o.presence > 0)
        self.w = np.ascontiguousarray(o.w, dtype=np.float64)
        self.kin = np.ascontiguousarray(o.kin, dtype=np.int64)
        self.by_weight = np.argsort(-self.w, kind="stable").astype(np.int64)
        self.ranks = np.arange(26, dtype=np.int64) if rank is None else np.asarray(rank, dtype=np.int64)
        self.scratch = np.full(max(o.width, 1), -1, dtype=np.int64)
        self.famcount = np.zeros(int(self.kin.max(initial=-1)) + 1 or 1, dtype=np.int64)
        self.keys = np.zeros((FIRST_SLOTS, self.words_per_set), dtype=np.uint64)
        self.ks = np.full(FIRST_SLOTS, loops.EMPTY, dtype=np.int64)
        self.val = np.zeros(FIRST_SLOTS)
        self.letter_of = np.full(FIRST_SLOTS, -1, dtype=np.int64)
        self.state = np.zeros(4, dtype=np.int64)

    def bits(self, C: int) -> np.ndarray:
        """Set C (a Python int, bit i: the support's i-th word) as the kernel's uint64 words."""
        return np.frombuffer(C.to_bytes(8 * self.words_per_set, "little"), dtype="<u8").astype(np.uint64)

    def solve(self, C: int, k: int, limit: float) -> float:
        """LetterSearch.solve, by the compiled search in its own thread (module docstring)."""
        bits = self.bits(C)
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise Stopped  # past its deadline a search does not begin
        while True:
            got = self._run(bits, k, limit)
            state = self.state
            self.nodes = int(state[loops.NODES])
            if state[loops.ABORT] == 0:
                return got
            if state[loops.ABORT] == loops.HALTED:
                raise Stopped
            self.keys, self.ks, self.val, self.letter_of = loops.grown(
                self.keys, self.ks, self.val, self.letter_of, GROWTH * len(self.ks)
            )

    def _run(self, bits: np.ndarray, k: int, limit: float) -> float:
        """One call of the compiled search, in a thread this one watches: the deadline and
        Ctrl-C halt it (the search sees state[HALT] at its next set)."""
        state = self.state
        state[loops.HALT] = state[loops.ABORT] = 0
        box: dict = {}

        def work() -> None:
            try:
                game = (
                    self.codes, self.w, self.held_letters, self.kin, self.by_weight, self.ranks, self.scratch,
                    self.famcount,
                )  # fmt: skip
                rules = (self.strikes is not None, self.rank is not None, int(self.o.miss))
                table = (self.keys, self.ks, self.val, self.letter_of, state)
                box["got"] = loops.solve(bits, k, limit, game, rules, table)
            except BaseException as error:  # handed to the waiting thread
                box["error"] = error

        worker = threading.Thread(target=work, name="letter-search", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(POLL)
                if STOP.asked or self.deadline is not None and time.perf_counter() > self.deadline:
                    state[loops.HALT] = 1
        except BaseException:  # Ctrl-C while waiting: halt the search, then let it through
            state[loops.HALT] = 1
            worker.join()
            raise
        if "error" in box:
            raise box["error"]
        return float(box["got"])

    def entry(self, C: int, k: int) -> tuple[float, int] | None:
        """The table's (value, letter) for set C with k strikes left (letter -1: a lower bound)."""
        s, there = loops.find(self.keys, self.ks, self.bits(C), k)
        return (float(self.val[s]), int(self.letter_of[s])) if there else None

    def choice(self, C: int, k: int) -> int | None:
        got = self.entry(C, k)
        return None if got is None or got[1] < 0 else got[1]

    def known_lower(self, C: int, k: int) -> float:
        got = self.entry(C, k)
        return 0.0 if got is None or got[1] >= 0 else got[0]


def held_letters(presence: np.ndarray) -> np.ndarray:
    """held[i]: the letters word i holds (presence[l, i]), alphabetical, then -1."""
    most = int(presence.sum(axis=0).max(initial=0))
    held = np.full((presence.shape[1], max(most, 1)), -1, dtype=np.int64)
    for i in range(presence.shape[1]):
        letters = np.flatnonzero(presence[:, i])
        held[i, : len(letters)] = letters
    return held
