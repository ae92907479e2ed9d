"""Which kind of round the double oracle of a big game runs next, by what each kind gained.

A game too big to solve (certify.py) has two kinds of round: one that searches a best response
for `response_limit` seconds, and one that adds only weighted greedy trees (seconds each). Which
lowers the upper end faster changes as a run goes on: early, greedy trees are good columns and
cheap; late, they barely move the LP, and a search of minutes finds trees no greedy rule would.
On Wordle's state after 1,766 trees (experiments/game_values.md), a round of greedy trees took
57 s and lowered the upper end by about 0.00001, a round searching for 120 s took 180 s and
lowered it by 0.00024 to 0.00044: eight to fifteen times as much a second.

`Pace` (search_every="auto") keeps, for each kind, how fast its last round lowered the upper end
(guesses a second) and picks the faster; the slower kind is tried again after PROBE rounds of
the other in a row, since what it gains changes too. The first round searches (a resumed run's
first best response proves its claimed lower end again), for `response_limit` like the others
(not the third of the time limit that search_every=1 gives it), the next is a greedy round, and
from then on the measured rates decide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: Rounds of one kind in a row after which the other kind is tried again.
PROBE = 8
#: The two kinds of round.
SEARCH, QUICK = "search", "quick"


@dataclass
class Pace:
    """The upper end's fall a second in the last round of each kind, and the run of rounds of
    one kind in a row (the kind of the last round, `last`; `streak` of them)."""

    rates: dict[str, float] = field(default_factory=dict)
    last: str = ""
    streak: int = 0

    def record(self, kind: str, fall: float, seconds: float) -> None:
        """A round of `kind` lowered the upper end by `fall` in `seconds` (a fall from no upper
        end yet, the first LP's, is not a rate and is not kept)."""
        if kind not in (SEARCH, QUICK):
            raise ValueError(f"kind: {kind!r} is not {SEARCH!r} or {QUICK!r}")
        self.streak = self.streak + 1 if kind == self.last else 1
        self.last = kind
        if math.isfinite(fall):
            self.rates[kind] = max(fall, 0.0) / max(seconds, 1e-9)

    def next_quick(self) -> bool:
        """Should the next round add greedy trees only (else it searches)? The faster kind by the
        last rounds, each kind measured once first, the slower tried after PROBE rounds of the
        faster in a row."""
        search, quick = self.rates.get(SEARCH), self.rates.get(QUICK)
        if search is None or quick is None:
            return search is not None  # measure each kind once: the search first
        if self.streak >= PROBE:
            return self.last == SEARCH
        return quick > search
