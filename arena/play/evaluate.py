"""Evaluating a guesser against every secret: the numbers the published tables report."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..core import checks as door
from ..core.errors import ArenaError
from ..core.frames import counts, frame
from ..core.game import Game
from ..trees.grow import grow_tree
from ..trees.tree import Tree

#: Per-game arrays (`guesses[r, s]`, `misses[r, s]`) are kept up to this many games (32 MB
#: each); above it an Evaluation keeps only the streamed sums, so memory does not grow with
#: the repetitions.
KEEP_GAMES = 2**22
#: Repetitions are played and summed this many games at a time (their trees are then dropped).
CHUNK_GAMES = 2**16


@dataclass
class Sums:
    """Exact integer sums of a distribution of per-game counts (guesses, or misses): they add up
    block by block, so streamed repetitions give the figures the whole array would."""

    count: int = 0
    total: int = 0
    squares: int = 0
    worst: int = 0
    histogram: dict[int, int] = field(default_factory=dict)
    repetition_squares: int = 0  # sum over repetitions of (the repetition's total)**2

    def add(self, values: np.ndarray) -> None:
        """Count a block of per-game values: one row per repetition (a 1-D block is one)."""
        if not values.size:
            return
        v = np.asarray(values, dtype=np.int64)
        self.count += int(v.size)
        self.total += int(v.sum())
        self.squares += int((v * v).sum())
        rows = v.reshape(-1, v.shape[-1]).sum(axis=1)  # exact: Python ints below
        self.repetition_squares += sum(int(t) * int(t) for t in rows.tolist())
        self.worst = max(self.worst, int(v.max()))
        keys, counts = np.unique(v, return_counts=True)
        for key, c in zip(keys.tolist(), counts.tolist()):
            self.histogram[key] = self.histogram.get(key, 0) + c
        self.histogram = dict(sorted(self.histogram.items()))

    @classmethod
    def of(cls, values: np.ndarray) -> Sums:
        sums = cls()
        sums.add(values)
        return sums

    @property
    def mean(self) -> float:
        return self.total / self.count  # exactly np.mean of the values: both divide exact sums

    @property
    def std(self) -> float:
        """The population standard deviation, from the exact integer variance."""
        return math.sqrt((self.count * self.squares - self.total**2) / self.count**2)

    def at_least(self, k: int) -> int:
        """Games whose value is k or more (Hangman: lost at strike limit k)."""
        return sum(c for v, c in self.histogram.items() if v >= k)


@dataclass(frozen=True)
class Evaluation:
    """How many guesses a guesser needs for each secret, over one or more repetitions.

    `guesses[r, s]` is the number of guesses in repetition r against secret s (a deterministic
    guesser has one repetition). Statistics are over all repetitions x secrets, from exact sums
    (`sums`, `miss_sums`) that `evaluate` streams a block of repetitions at a time: above
    KEEP_GAMES games the per-game arrays are not kept (`guesses` and `misses` are None), so
    memory does not grow with the repetitions; `worst[s]` (and `worst_misses[s]`) is the most
    any repetition took against secret s. The standard deviation is numpy's of the array when
    it is kept (the published figures), else the exact one of the sums.
    """

    game: str
    guesser: str
    guesses: np.ndarray | None
    seconds: float
    seed: int | None = None
    trees: list[Tree] = field(default_factory=list, repr=False, compare=False)
    misses: np.ndarray | None = None  # misses[r, s], for games where misses are strikes
    strikes: tuple[int, ...] = ()  # the strike limits to report losses at
    sums: Sums | None = field(default=None, repr=False, compare=False)
    miss_sums: Sums | None = field(default=None, repr=False, compare=False)  # where misses count
    shape: tuple[int, int] = (0, 0)  # (repetitions, secrets)
    worst: np.ndarray | None = field(default=None, repr=False, compare=False)
    worst_misses: np.ndarray | None = field(default=None, repr=False, compare=False)
    column_totals: np.ndarray | None = field(
        default=None, repr=False, compare=False
    )  # sum over repetitions, per secret
    column_misses: np.ndarray | None = field(default=None, repr=False, compare=False)  # the same for misses

    def __post_init__(self):
        """Built from whole arrays: derive the sums and the per-secret worst from them."""
        if self.sums is None:
            if self.guesses is None:
                raise ValueError("an Evaluation is built from its guesses or from its sums")
            object.__setattr__(self, "sums", Sums.of(self.guesses))
            object.__setattr__(self, "shape", tuple(self.guesses.shape))
            object.__setattr__(self, "worst", self.guesses.max(axis=0))
            object.__setattr__(self, "column_totals", self.guesses.sum(axis=0, dtype=np.int64))
            if self.misses is not None:
                object.__setattr__(self, "miss_sums", Sums.of(self.misses))
                object.__setattr__(self, "worst_misses", self.misses.max(axis=0))
                object.__setattr__(self, "column_misses", self.misses.sum(axis=0, dtype=np.int64))

    @property
    def guess_sums(self) -> Sums:
        """The sums of the guesses (set when the evaluation is built)."""
        if self.sums is None:
            raise ValueError("an Evaluation without its sums")  # __post_init__ sets them
        return self.sums

    @property
    def counted_misses(self) -> Sums:
        """The sums of the misses, where misses count (Hangman); a ValueError elsewhere."""
        if self.miss_sums is None:
            raise ValueError(f"{self.game}: misses are not counted in this game")
        return self.miss_sums

    @property
    def counts_misses(self) -> bool:
        """Do misses count in this game (Hangman)?"""
        return self.miss_sums is not None

    def lost(self, strikes: int) -> int:
        """Games lost at this strike limit: misses reached it."""
        return self.miss_sums.at_least(strikes) if self.miss_sums is not None else 0

    @property
    def n(self) -> int:
        """Secrets evaluated."""
        return self.shape[1]

    @property
    def repeat(self) -> int:
        return self.shape[0]

    @property
    def total(self) -> int:
        """Guesses over all games (for one repetition: the published 'total')."""
        return self.guess_sums.total

    @property
    def mean(self) -> float:
        return self.guess_sums.mean

    @property
    def std(self) -> float:
        return float(self.guesses.std()) if self.guesses is not None else self.guess_sums.std

    @property
    def max(self) -> int:
        return self.guess_sums.worst

    @property
    def mean_total(self) -> float:
        """The total per repetition: comparable with a published total over all secrets."""
        return self.total / self.repeat

    @property
    def histogram(self) -> dict[int, int]:
        """Number of guesses -> how many games took that many."""
        return dict(self.guess_sums.histogram)

    @property
    def misses_mean(self) -> float:
        return self.counted_misses.mean

    @property
    def misses_std(self) -> float:
        return float(self.misses.std()) if self.misses is not None else self.counted_misses.std

    @property
    def misses_max(self) -> int:
        return self.counted_misses.worst

    def summary(self) -> str:
        """`mean = 4.48 ± 0.64 guesses; worst = 5`, as the command prints it (Hangman adds the
        misses and the games lost at each strike limit)."""
        text = f"mean = {self.mean:.2f} ± {self.std:.2f} guesses; worst = {self.max}"
        if self.counts_misses:
            games = self.counted_misses.count
            text += (
                f"\nmisses: mean = {self.misses_mean:.2f} ± {self.misses_std:.2f}; worst = {self.misses_max}"
                + "".join(
                    f"\nlost with {k} strikes: {self.lost(k):,} of {games:,} ({100 * self.lost(k) / games:.2f}%)"
                    for k in self.strikes
                )
            )
        return text

    def header(self) -> str:
        """`knuth on mastermind: 1,296 secrets` (with the repetitions and their seed, if several)."""
        reps = f" x {self.repeat} repetitions (seed {self.seed})" if self.repeat > 1 else ""
        return f"{self.guesser} on {self.game}: {self.n:,} secrets{reps}"

    def game_lines(self, limit: int = 60) -> list[str]:
        """One line per game played, where a chooser's games are worth listing (none here)."""
        return []

    def report(self) -> str:
        """The evaluation as `arena evaluate` prints it: the header, the summary, the total and
        the time, the games an adversary forced (if any), and the histogram of guesses."""
        total = f"total = {self.total:,}" if self.repeat == 1 else f"total per repetition = {self.mean_total:,.1f}"
        lines = [self.header(), self.summary(), f"{total}; {self.seconds:.2f} s", *self.game_lines()]
        return "\n".join([*lines, text_histogram(self.histogram)])

    def __str__(self) -> str:
        return self.report()

    def to_frame(self):
        """One row per game played: every secret, once per repetition, as a pandas DataFrame
        with the tidy columns game, guesser, chooser, secret, repetition, guesses, misses
        (misses are <NA> where they do not count). `frame.guesses.mean()` is `self.mean`."""
        names = self._secret_names()
        return self._frame(np.broadcast_to(names, self._kept().shape), "uniform")

    def _kept(self) -> np.ndarray:
        """The per-game array `guesses[r, s]`, which a frame needs."""
        if self.guesses is None:
            raise ArenaError(
                f"{self.repeat:,} repetitions x {self.n:,} secrets is too many games to keep one "
                f"by one (at most {KEEP_GAMES:,}): evaluate fewer repetitions for a frame"
            )
        return self.guesses

    def _secret_names(self) -> np.ndarray:
        """The secrets' names, in the order of the columns of `guesses`."""
        if self.trees:
            game = self.trees[0].game
        else:
            from ..games import make_game  # the evaluation keeps the game's spec, not the game

            game = make_game(self.game)
        return np.asarray(game.secrets, dtype=object)

    def _frame(self, secrets: np.ndarray, chooser: str):
        """The tidy frame of `guesses[r, k]`, game (r, k) having ended on `secrets[r, k]`."""
        guesses = self._kept()
        repetition = np.indices(guesses.shape)[0]
        misses = self.misses.ravel() if self.misses is not None else None
        return frame(
            {
                "game": self.game,
                "guesser": self.guesser,
                "chooser": chooser,
                "secret": secrets.ravel(),
                "repetition": repetition.ravel(),
                "guesses": guesses.ravel(),
                "misses": counts(misses, guesses.size),
            }
        )

    def to_json(self) -> dict:
        return {
            "game": self.game,
            "guesser": self.guesser,
            "n": self.n,
            "repeat": self.repeat,
            "seed": self.seed,
            "total": self.total,
            "mean": round(self.mean, 6),
            "std": round(self.std, 6),
            "max": self.max,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "seconds": round(self.seconds, 4),
        } | self._misses_json()

    def _misses_json(self) -> dict:
        if not self.counts_misses:
            return {}
        return {
            "misses_total": self.counted_misses.total,
            "misses_mean": round(self.misses_mean, 6),
            "misses_max": self.misses_max,
            "misses_histogram": {str(v): c for v, c in self.counted_misses.histogram.items()},
            "strikes": self.strikes[0] if len(self.strikes) == 1 else list(self.strikes),
            "lost": self.lost(self.strikes[0])
            if len(self.strikes) == 1
            else {str(k): self.lost(k) for k in self.strikes},
        }


class Streamed:
    """Per-game blocks of repetitions summed as they come: the sums, the per-column worst and,
    up to `keep` games, the blocks themselves (see Evaluation)."""

    def __init__(self, columns: int, repeat: int, counts_misses: bool, keep: int | None = None):
        self.columns, self.repeat = columns, repeat
        self.keeping = repeat * columns <= (KEEP_GAMES if keep is None else keep)
        self.sums, self.miss_sums = Sums(), (Sums() if counts_misses else None)
        self.worst = np.zeros(columns, dtype=np.int64)
        self.worst_misses = np.zeros(columns, dtype=np.int64) if counts_misses else None
        self.column_totals = np.zeros(columns, dtype=np.int64)
        self.column_misses = np.zeros(columns, dtype=np.int64) if counts_misses else None
        self.blocks: list[np.ndarray] = []
        self.miss_blocks: list[np.ndarray] = []

    def add(self, guesses: np.ndarray, misses: np.ndarray | None) -> None:
        """Count a block of rows (repetitions) of per-game guesses (and misses)."""
        self.sums.add(guesses)
        np.maximum(self.worst, guesses.max(axis=0), out=self.worst)
        self.column_totals += guesses.sum(axis=0, dtype=np.int64)
        if self.keeping:
            self.blocks.append(guesses)
        if self.miss_sums is not None and self.worst_misses is not None:
            if misses is None:
                raise ValueError("misses count in this game: every block needs its misses")
            self.miss_sums.add(misses)
            np.maximum(self.worst_misses, misses.max(axis=0), out=self.worst_misses)
            self.column_misses += misses.sum(axis=0, dtype=np.int64)
            if self.keeping:
                self.miss_blocks.append(misses)

    def fields(self) -> dict:
        """The Evaluation fields these blocks make."""
        kept = self.keeping and self.blocks
        return {
            "guesses": np.concatenate(self.blocks) if kept else None,
            "misses": np.concatenate(self.miss_blocks) if kept and self.miss_sums is not None else None,
            "sums": self.sums,
            "miss_sums": self.miss_sums,
            "shape": (self.repeat, self.columns),
            "worst": self.worst,
            "worst_misses": self.worst_misses,
            "column_totals": self.column_totals,
            "column_misses": self.column_misses,
        }


def repetition_chunks(repeat: int, games_each: int) -> list[range]:
    """The repetitions 0..repeat-1 in blocks of about CHUNK_GAMES games (at least one each)."""
    step = max(1, CHUNK_GAMES // max(1, games_each))
    return [range(start, min(start + step, repeat)) for start in range(0, repeat, step)]


def evaluate(
    game: Game, guesser, repeat: int = 1, seed: int | None = None, strikes: tuple[int, ...] | None = None
) -> Evaluation:
    """Play `guesser` against every secret of `game`.

    A deterministic guesser is one strategy tree, grown once. A random guesser is played
    `repeat` times, each repetition a random tree seeded by (seed, repetition): every secret's
    game in a repetition is distributed exactly as an independent game would be, and the same
    seed gives the same figures whatever order or process the games are played in. Repetitions
    are grown and summed a block at a time (their trees dropped), so memory does not grow with
    `repeat`; the seeds do not depend on the blocks. The trees are kept for one repetition only.
    """
    door.game(game)
    door.unattended(door.agent(guesser, "guesser"))
    repeat = door.integer(repeat, "repeat", low=1)
    if seed is not None:
        seed = door.integer(seed, "seed")
    strikes = door.strike_limits(strikes)
    start = time.perf_counter()
    if guesser.deterministic:
        repeat, seed = 1, None
    else:
        seed = guesser.values.get("seed", 0) if seed is None else seed
    stream = Streamed(len(game.secrets), repeat, game.rules.strikes)
    kept: list[Tree] = []
    for chunk in repetition_chunks(repeat, len(game.secrets)):
        players = [guesser] if guesser.deterministic else [guesser.seeded(seed, r) for r in chunk]
        trees = [grow_tree(game, p) for p in players]
        stream.add(
            np.stack([t.guesses for t in trees]), np.stack([t.misses for t in trees]) if game.rules.strikes else None
        )
        if repeat == 1:
            kept = trees
    strikes = tuple(strikes or game.default_strikes())
    return Evaluation(
        game.spec,
        guesser.label,
        seconds=time.perf_counter() - start,
        seed=seed,
        trees=kept,
        strikes=strikes,
        **stream.fields(),
    )


def text_histogram(histogram: dict[int, int], width: int = 50, unit: str = "guesses") -> str:
    """One bar per value, scaled to the largest count."""
    top = max(histogram.values())
    total = sum(histogram.values())
    lines = []
    for value in range(min(histogram), max(histogram) + 1):
        count = histogram.get(value, 0)
        bar = "#" * (round(width * count / top) if count else 0)
        lines.append(f"{value:>3} {unit} {count:>7,} {100 * count / total:5.1f}% {bar}")
    return "\n".join(lines)


def plot_distributions(evaluations: list[Evaluation], path: str) -> None:
    """One figure: the distribution of guesses per game for each guesser, and beside it the
    distribution of misses where misses count (the published Hangman study's two panels)."""
    import matplotlib  # lazy: heavy

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: heavy

    panels = [("guesses", lambda e: e.sums)]
    if evaluations[0].counts_misses:
        panels.insert(0, ("misses", lambda e: e.miss_sums))
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4), squeeze=False)
    for ax, (unit, sums_of) in zip(axes[0], panels):
        for ev in evaluations:
            sums = sums_of(ev)
            values, counts = np.array(list(sums.histogram)), np.array(list(sums.histogram.values()))
            ax.plot(values, counts / sums.count, marker="o", ms=3, label=f"{ev.guesser} (mean {sums.mean:.2f})")
        if unit == "misses":
            for k in evaluations[0].strikes:
                ax.axvline(k - 0.5, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(f"{unit} per game")
        ax.set_ylabel("share of games")
        ax.legend(fontsize=8)
    fig.suptitle(evaluations[0].game)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_histogram(evaluations: list[Evaluation], path: str, unit: str = "guesses") -> None:
    """A bar chart of the distribution of guesses per game, one series per evaluation."""
    import matplotlib  # lazy: heavy

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: heavy

    fig, ax = plt.subplots(figsize=(7, 4))
    width = 0.8 / len(evaluations)
    for i, ev in enumerate(evaluations):
        h = ev.histogram
        xs = np.array(sorted(h)) + (i - (len(evaluations) - 1) / 2) * width
        share = np.array([h[k] for k in sorted(h)]) / (ev.n * ev.repeat)
        ax.bar(xs, share, width=width, label=f"{ev.guesser} (mean {ev.mean:.2f}, worst {ev.max})")
    ax.set_xlabel(f"{unit} to find the secret")
    ax.set_ylabel("share of games")
    ax.set_title(evaluations[0].game)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
