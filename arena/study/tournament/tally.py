"""A tally: the sums a block of games leaves, which add up exactly across blocks."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, cast

from ...core.errors import ArenaError, shown


@dataclass
class Tally:
    """Sums over games: how many, guesses (sum, sum of squares, max, histogram), and where
    misses count, misses and the games lost at each strike limit."""

    games: int = 0
    repeat: int = 0  # repetitions over the secrets that these games make up
    guesses: int = 0
    guesses_sq: int = 0
    worst: int = 0
    histogram: dict[int, int] = field(default_factory=dict)
    misses: int | None = None
    misses_worst: int | None = None
    lost: dict[int, int] = field(default_factory=dict)
    guesses_rep_sq: int = 0  # sum over repetitions of (guesses in the repetition)**2
    misses_rep_sq: int | None = None  # the same for misses, where misses count
    misses_histogram: dict[int, int] = field(default_factory=dict)  # misses -> games, where misses count
    # Against every secret once per repetition (a uniform chooser): the cost of the guesser's
    # worst secret, summed over the repetitions (a random guesser: per secret, its total).
    secret_guesses: list[int] | None = None
    secret_misses: list[int] | None = None

    @classmethod
    def of(cls, evaluation, every_secret: bool = False) -> Tally:
        """The tally of an arena.play.evaluate.Evaluation, from its exact streamed sums (which it keeps
        however many repetitions it played; its per-game arrays it may not). `every_secret`: the
        evaluation played each secret once per repetition, so its per-secret totals are kept:
        each secret's total (a random guesser's blocks add up secret by secret), the records
        that paired comparisons of two guessers read (Report.paired). Stores written before kept
        only a deterministic guesser's worst; they are read as they are."""
        g = evaluation.sums
        tally = cls(
            g.count,
            evaluation.repeat,
            g.total,
            g.squares,
            g.worst,
            dict(g.histogram),
            guesses_rep_sq=g.repetition_squares,
        )
        if evaluation.miss_sums is not None:
            tally.misses, tally.misses_worst = evaluation.miss_sums.total, evaluation.miss_sums.worst
            tally.misses_rep_sq = evaluation.miss_sums.repetition_squares
            tally.misses_histogram = dict(evaluation.miss_sums.histogram)
            tally.lost = {k: evaluation.lost(k) for k in evaluation.strikes}
        if every_secret:
            tally.secret_guesses = _per_secret(evaluation.column_totals)
            if evaluation.column_misses is not None:
                tally.secret_misses = _per_secret(evaluation.column_misses)
        return tally

    def __add__(self, other: Tally) -> Tally:
        if self.games * other.repeat != other.games * self.repeat:
            raise ArenaError(
                f"blocks of {self.games // self.repeat} and {other.games // other.repeat} games per "
                "repetition are not blocks of one cell"
            )
        hist = dict(self.histogram)
        for k, v in other.histogram.items():
            hist[k] = hist.get(k, 0) + v
        misses = None if self.misses is None and other.misses is None else (self.misses or 0) + (other.misses or 0)
        worst_m = None if misses is None else max(self.misses_worst or 0, other.misses_worst or 0)
        lost = {k: self.lost.get(k, 0) + other.lost.get(k, 0) for k in {*self.lost, *other.lost}}
        rep_sq_m = None if misses is None else (self.misses_rep_sq or 0) + (other.misses_rep_sq or 0)
        secret_guesses = _add_secrets(self.secret_guesses, other.secret_guesses)
        secret_misses = _add_secrets(self.secret_misses, other.secret_misses)
        miss_hist = dict(self.misses_histogram)
        for k, v in other.misses_histogram.items():
            miss_hist[k] = miss_hist.get(k, 0) + v
        return Tally(
            self.games + other.games,
            self.repeat + other.repeat,
            self.guesses + other.guesses,
            self.guesses_sq + other.guesses_sq,
            max(self.worst, other.worst),
            hist,
            misses,
            worst_m,
            lost,
            self.guesses_rep_sq + other.guesses_rep_sq,
            rep_sq_m,
            dict(sorted(miss_hist.items())),
            secret_guesses,
            secret_misses,
        )

    def figures(self) -> dict[str, float]:
        """The figures a table shows: per repetition where the published ones are (total, lost),
        per game otherwise (mean, misses, the loss rates `lostK_rate`), and where the cell was
        played more than once, the standard error of each mean between repetitions (`mean_se`,
        `misses_se`)."""
        mean = self.guesses / self.games
        out = {
            "total": self.guesses / self.repeat,
            "mean": mean,
            "max": self.worst,
            "std": math.sqrt(max(self.guesses_sq / self.games - mean * mean, 0.0)),
        }
        if self.repeat > 1:
            out["mean_se"] = standard_error(self.guesses, self.guesses_rep_sq, self.repeat, self.games)
        if self.secret_guesses is not None:
            out["worst_secret"] = max(self.secret_guesses) / self.repeat
        if self.misses is not None:
            out |= {"misses": self.misses / self.games, "misses_max": cast(int, self.misses_worst)}  # set with misses
            if self.repeat > 1:
                out["misses_se"] = standard_error(self.misses, self.misses_rep_sq or 0, self.repeat, self.games)
            if self.secret_misses is not None:
                out["misses_worst_secret"] = max(self.secret_misses) / self.repeat
            for k in sorted(self.lost):
                out |= {f"lost{k}": self.lost[k] / self.repeat, f"lost{k}_rate": self.lost[k] / self.games}
        return out

    def to_json(self) -> dict:
        """The tally as stored, with `check`: a digest of the rest, so that a number damaged in
        the store (one the sums' own checks could not tell, such as a square off by two) is caught."""
        data = self._fields()
        return data | {"check": _digest(data)}

    def _fields(self) -> dict:
        return {
            "games": self.games,
            "repeat": self.repeat,
            "guesses": self.guesses,
            "guesses_sq": self.guesses_sq,
            "worst": self.worst,
            "histogram": {str(k): v for k, v in sorted(self.histogram.items())},
            "misses": self.misses,
            "misses_worst": self.misses_worst,
            "lost": {str(k): v for k, v in sorted(self.lost.items())},
            "guesses_rep_sq": self.guesses_rep_sq,
            "misses_rep_sq": self.misses_rep_sq,
            "misses_histogram": {str(k): v for k, v in sorted(self.misses_histogram.items())},
            "secret_guesses": self.secret_guesses,
            "secret_misses": self.secret_misses,
        }

    @classmethod
    def from_json(cls, data: Any) -> Tally:
        """The tally stored as `to_json` wrote it; anything else (a damaged store row) is an
        ArenaError saying what is wrong, never a KeyError or a silently wrong sum."""
        if not isinstance(data, dict):
            raise ArenaError(f"a tally is a JSON object, got {type(data).__name__}")
        missing = [k for k in _FIELDS if k not in data]
        if missing:
            raise ArenaError(f"a tally needs {', '.join(_FIELDS)}; {missing[0]!r} is missing")
        counts = {k: _count(k, data[k]) for k in ("games", "repeat", "guesses", "worst")}
        counts["guesses_sq"] = _count("guesses_sq", data["guesses_sq"], None)
        if counts["games"] < 1 or counts["repeat"] < 1:
            raise ArenaError("a tally counts at least one game and one repetition")
        misses = None if data["misses"] is None else _count("misses", data["misses"])
        misses_worst = None if data["misses_worst"] is None else _count("misses_worst", data["misses_worst"])
        rep_sq_m = None if data["misses_rep_sq"] is None else _count("misses_rep_sq", data["misses_rep_sq"], None)
        if counts["games"] % counts["repeat"]:
            raise ArenaError(f"a tally's {counts['games']} games are not {counts['repeat']} equal repetitions")
        tally = cls(
            counts["games"],
            counts["repeat"],
            counts["guesses"],
            counts["guesses_sq"],
            counts["worst"],
            _int_table("histogram", data["histogram"]),
            misses,
            misses_worst,
            _int_table("lost", data["lost"]),
            _count("guesses_rep_sq", data["guesses_rep_sq"], None),
            rep_sq_m,
            _int_table("misses_histogram", data["misses_histogram"]),
            _counts("secret_guesses", data["secret_guesses"]),
            _counts("secret_misses", data["secret_misses"]),
        )
        tally.check()
        # last, so that what the sums' own checks can name is named: stores written before the
        # digest have none, and their sums are checked alone
        if "check" in data and data["check"] != _digest({k: v for k, v in data.items() if k != "check"}):
            raise ArenaError("a tally does not match its check digest (a number in it was changed)")
        return tally

    def check(self) -> None:
        """Are the sums those of one set of games? Each is implied by the histograms (their
        counts, totals and squares), so a damaged number is an ArenaError, never a figure."""
        _check_histogram("guesses", self.histogram, self.games, self.guesses, self.guesses_sq, self.worst)
        _check_repetitions("guesses", self.guesses, self.guesses_rep_sq, self.repeat)
        _check_secrets("secret_guesses", self.secret_guesses, self)
        if self.misses is None:
            if self.misses_worst is not None or self.misses_rep_sq is not None or self.lost or self.misses_histogram:
                raise ArenaError("a tally without misses has a miss figure")
            if self.secret_misses is not None:
                raise ArenaError("a tally without misses has per-secret misses")
            return
        if not self.lost:  # misses are counted where they are strikes, and losses at every limit
            raise ArenaError("a tally that counts misses has no games lost at any strike limit")
        squares = sum(k * k * v for k, v in self.misses_histogram.items())
        _check_histogram("misses", self.misses_histogram, self.games, self.misses, squares, self.misses_worst)
        _check_repetitions("misses", self.misses, self.misses_rep_sq or 0, self.repeat)
        for limit, count in self.lost.items():
            if count != sum(v for k, v in self.misses_histogram.items() if k >= limit):
                raise ArenaError(f"a tally's lost[{limit}] = {count} is not the games with {limit} misses or more")
        _check_secrets("secret_misses", self.secret_misses, self, misses=True)


_FIELDS = (
    "games",
    "repeat",
    "guesses",
    "guesses_sq",
    "worst",
    "histogram",
    "misses",
    "misses_worst",
    "lost",
    "guesses_rep_sq",
    "misses_rep_sq",
    "misses_histogram",
    "secret_guesses",
    "secret_misses",
)


def _per_secret(totals) -> list[int]:
    """Per-secret totals as stored: every secret's (a list as long as the game's secrets)."""
    return [int(v) for v in totals]


def _add_secrets(a: list[int] | None, b: list[int] | None) -> list[int] | None:
    """Two blocks' per-secret totals: summed secret by secret (None unless both have them)."""
    if a is None or b is None:
        return None
    if len(a) != len(b):
        raise ArenaError(f"per-secret totals of {len(a)} and {len(b)} secrets cannot be added")
    return [x + y for x, y in zip(a, b)]


def _counts(name: str, value: Any) -> list[int] | None:
    """A stored list of counts, or None."""
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        raise ArenaError(f"tally field {name!r} must be a non-empty list of counts, got {shown(value)}")
    return [_count(f"{name}[{i}]", v) for i, v in enumerate(value)]


def standard_error(total: int, repetition_squares: int, repeat: int, games: int) -> float:
    """The standard error of a per-game mean estimated from `repeat` independent repetitions
    over the same secrets: with x_r the mean of repetition r (its total over games/repeat),
    s^2 = sum (x_r - mean)^2 / (repeat - 1) and SE = s / sqrt(repeat). From exact integer sums:
    s^2 = (repeat * sum T_r^2 - total^2) / (repeat (repeat - 1) n^2), n = games per repetition.
    The secrets themselves are enumerated, not sampled, so this is the agents' randomness only."""
    if repeat < 2:
        return 0.0
    n = games // repeat
    variance = (repeat * repetition_squares - total * total) / (repeat * (repeat - 1) * n * n)
    return math.sqrt(max(variance, 0.0) / repeat)


#: The largest count a tally holds (a sum of squares may be larger: it is checked against the
#: histogram instead). Beyond it a mean would overflow a float, and no run plays that many games.
MAX_COUNT = 2**63 - 1


def _count(name: str, value: Any, limit: int | None = MAX_COUNT) -> int:
    """A stored count: a non-negative integer (JSON has no other kind of count), at most `limit`."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ArenaError(f"tally field {name!r} must be a count (an integer >= 0), got {shown(value)}")
    if limit is not None and value > limit:
        raise ArenaError(f"tally field {name!r} is {shown(value)}, over the largest count {limit}")
    return value


def _check_histogram(what: str, histogram: dict[int, int], games: int, total: int, squares: int, worst) -> None:
    """A histogram (value -> games) must count every game and add up to the total, the sum of
    squares and the worst value stored beside it."""
    if sum(histogram.values()) != games:
        raise ArenaError(f"a tally's {what} histogram counts {sum(histogram.values())} games, not {games}")
    if sum(k * v for k, v in histogram.items()) != total:
        raise ArenaError(f"a tally's {what} histogram does not add up to its {what} ({shown(total)})")
    if sum(k * k * v for k, v in histogram.items()) != squares:
        raise ArenaError(f"a tally's {what} histogram does not add up to its sum of squares ({shown(squares)})")
    if max((k for k, v in histogram.items() if v), default=0) != worst:
        raise ArenaError(f"a tally's worst {what} ({shown(worst)}) is not its histogram's largest")


def _digest(data: dict) -> str:
    """The first 16 hex digits of the SHA-256 of `data` as canonical JSON."""
    import hashlib
    import json

    return hashlib.sha256(json.dumps(data, sort_keys=True, allow_nan=False).encode()).hexdigest()[:16]


def _check_repetitions(what: str, total: int, squares: int, repeat: int) -> None:
    """The sum over repetitions of each one's total squared lies between total^2/repeat (equal
    repetitions) and total^2 (all in one), and has the total's parity (x^2 = x mod 2)."""
    if not total * total <= repeat * squares or squares > total * total or (squares - total) % 2:
        raise ArenaError(
            f"a tally's {what} per repetition squared ({shown(squares)}) cannot come from {repeat} repetitions"
        )


def _check_secrets(name: str, totals: list[int] | None, tally: Tally, misses: bool = False) -> None:
    """Per-secret totals: every secret's (adding up to the total, each secret played once per
    repetition) or only the worst (at most the worst game's cost in each repetition)."""
    if totals is None:
        return
    total, worst = (tally.misses or 0, tally.misses_worst or 0) if misses else (tally.guesses, tally.worst)
    if len(totals) > 1:
        if tally.games != len(totals) * tally.repeat or sum(totals) != total:
            raise ArenaError(
                f"a tally's {name} are not {tally.games} games over {len(totals)} secrets adding up to {total}"
            )
    elif (
        totals[0] > worst * tally.repeat
        or totals[0] * tally.games < total
        or (tally.repeat == 1 and totals[0] != worst)
    ):
        raise ArenaError(f"a tally's {name} [{totals[0]}] cannot be its worst secret's")


def _int_table(name: str, value: Any) -> dict[int, int]:
    """{"3": 17, ...} as {3: 17, ...}: integer keys (JSON writes them as strings) to counts."""
    if not isinstance(value, dict):
        raise ArenaError(f"tally field {name!r} must be an object of counts, got {shown(value)}")
    table = {}
    for key, count in value.items():
        try:
            number = int(key)
        except ValueError:
            raise ArenaError(f"tally field {name!r} has the key {shown(key)}, not an integer") from None
        if not 0 <= number <= MAX_COUNT:
            raise ArenaError(f"tally field {name!r} has the key {shown(key)}, not a count")
        table[number] = _count(f"{name}[{key}]", count)
    return table
