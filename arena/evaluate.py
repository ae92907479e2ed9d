"""Evaluating a guesser against every secret: the numbers the published tables report."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .game import Game
from .tree import Tree, grow_tree


@dataclass(frozen=True)
class Evaluation:
    """How many guesses a guesser needs for each secret, over one or more repetitions.

    `guesses[r, s]` is the number of guesses in repetition r against secret s (a deterministic
    guesser has one repetition). Statistics are over all repetitions x secrets.
    """

    game: str
    guesser: str
    guesses: np.ndarray
    seconds: float
    seed: int | None = None
    trees: list[Tree] = field(default_factory=list, repr=False, compare=False)
    misses: np.ndarray | None = None  # misses[r, s], for games where misses are strikes
    strikes: tuple[int, ...] = ()  # the strike limits to report losses at

    def lost(self, strikes: int) -> int:
        """Games lost at this strike limit: misses reached it."""
        return int((self.misses >= strikes).sum()) if self.misses is not None else 0

    @property
    def n(self) -> int:
        """Secrets evaluated."""
        return self.guesses.shape[1]

    @property
    def repeat(self) -> int:
        return self.guesses.shape[0]

    @property
    def total(self) -> int:
        """Guesses over all games (for one repetition: the published 'total')."""
        return int(self.guesses.sum())

    @property
    def mean(self) -> float:
        return float(self.guesses.mean())

    @property
    def std(self) -> float:
        return float(self.guesses.std())

    @property
    def max(self) -> int:
        return int(self.guesses.max())

    @property
    def mean_total(self) -> float:
        """The total per repetition: comparable with a published total over all secrets."""
        return self.total / self.repeat

    @property
    def histogram(self) -> dict[int, int]:
        """Number of guesses -> how many games took that many."""
        values, counts = np.unique(self.guesses, return_counts=True)
        return {int(v): int(c) for v, c in zip(values, counts)}

    def summary(self) -> str:
        """`mean = 4.48 ± 0.64 guesses; worst = 5`, as the command prints it (Hangman adds the
        misses and the games lost at each strike limit)."""
        text = f"mean = {self.mean:.2f} ± {self.std:.2f} guesses; worst = {self.max}"
        if self.misses is not None:
            games = self.misses.size
            text += (f"\nmisses: mean = {self.misses.mean():.2f} ± {self.misses.std():.2f}; worst = {self.misses.max()}"
                     + "".join(f"\nlost with {k} strikes: {self.lost(k):,} of {games:,} ({100 * self.lost(k) / games:.2f}%)"
                               for k in self.strikes))
        return text

    def to_json(self) -> dict:
        return {"game": self.game, "guesser": self.guesser, "n": self.n, "repeat": self.repeat,
                "seed": self.seed, "total": self.total, "mean": round(self.mean, 6), "std": round(self.std, 6),
                "max": self.max, "histogram": {str(k): v for k, v in self.histogram.items()},
                "seconds": round(self.seconds, 4)} | self._misses_json()

    def _misses_json(self) -> dict:
        if self.misses is None:
            return {}
        values, counts = np.unique(self.misses, return_counts=True)
        return {"misses_total": int(self.misses.sum()), "misses_mean": round(float(self.misses.mean()), 6),
                "misses_max": int(self.misses.max()),
                "misses_histogram": {str(int(v)): int(c) for v, c in zip(values, counts)},
                "strikes": self.strikes[0] if len(self.strikes) == 1 else list(self.strikes),
                "lost": self.lost(self.strikes[0]) if len(self.strikes) == 1 else
                {str(k): self.lost(k) for k in self.strikes}}


def evaluate(game: Game, guesser, repeat: int = 1, seed: int | None = None,
             strikes: tuple[int, ...] | None = None) -> Evaluation:
    """Play `guesser` against every secret of `game`.

    A deterministic guesser is one strategy tree, grown once. A random guesser is played
    `repeat` times, each repetition a random tree seeded by (seed, repetition): every secret's
    game in a repetition is distributed exactly as an independent game would be, and the same
    seed gives the same figures whatever order or process the games are played in.
    """
    start = time.perf_counter()
    if guesser.deterministic:
        players, seed = [guesser], None
    else:
        seed = guesser.values.get("seed", 0) if seed is None else seed
        players = [guesser.seeded(seed, r) for r in range(repeat)]
    trees = [grow_tree(game, p) for p in players]
    guesses = np.stack([t.guesses for t in trees])
    misses = np.stack([t.misses for t in trees]) if game.strikes else None
    strikes = tuple(strikes or ((game.strikes,) if game.strikes else ()))
    return Evaluation(game.spec, getattr(guesser, "label", guesser.spec), guesses, time.perf_counter() - start,
                      seed, trees, misses, strikes)


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
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [("guesses", lambda e: e.guesses)]
    if evaluations[0].misses is not None:
        panels.insert(0, ("misses", lambda e: e.misses))
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4), squeeze=False)
    for ax, (unit, values_of) in zip(axes[0], panels):
        for ev in evaluations:
            values, counts = np.unique(values_of(ev), return_counts=True)
            ax.plot(values, counts / values_of(ev).size, marker="o", ms=3,
                    label=f"{ev.guesser} (mean {values_of(ev).mean():.2f})")
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
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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
