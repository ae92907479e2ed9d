"""Payoffs: what a tournament's grids, heat maps and meta-games measure, with a name and a unit.

Every game pays in guesses; a game where misses are strikes (Hangman) also pays in misses and
in games lost within each strike limit. A config picks the payoff its grids use (`payoff =
"misses"`); by default it is the game's own cost (misses where they count, else guesses). Each
payoff knows the figures of a result it reads (arena.study.tournament.tally.Tally.figures), so every
table, plot title and meta-game line can name what it shows and in what unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ArenaError

NAMES = ("guesses", "misses", "lostK")


@dataclass(frozen=True)
class Payoff:
    """A per-game cost to the guesser (a gain to the chooser) that a result's figures hold."""

    key: str  # as a config writes it: guesses, misses, lost6
    figure: str  # the per-game mean among a result's figures
    worst: str | None  # the figure of the worst game, where one exists
    error: str | None  # the figure of the mean's standard error (random agents), where one exists
    against_worst: str | None  # the figure of the cost against the guesser's worst secret, where one exists
    title: str  # what it is, for a heading: "mean misses per game"
    unit: str  # what a value counts, after a number: "misses"

    def describe(self, value: float) -> str:
        """A value with its unit: `4.4761 guesses`, `12.5% of games lost within 6 strikes`."""
        if self.key.startswith("lost"):
            return f"{value:.2%} {self.unit}"
        return f"{value:.4f} {self.unit}"


GUESSES = Payoff("guesses", "mean", "max", "mean_se", "worst_secret", "mean guesses per game", "guesses")
MISSES = Payoff("misses", "misses", "misses_max", "misses_se", "misses_worst_secret", "mean misses per game", "misses")


def lost(strikes: int) -> Payoff:
    """The share of games lost within `strikes` strikes (the guesser missed that many times)."""
    return Payoff(
        f"lost{strikes}",
        f"lost{strikes}_rate",
        None,
        None,
        None,
        f"share of games lost within {strikes} strikes",
        f"of games lost within {strikes} strikes",
    )


def loss_limits(figures) -> list[int]:
    """The strike limits whose loss rate (`lost(K).figure`) is among these figure names."""
    return sorted({int(m[1]) for k in figures if (m := re.fullmatch(r"lost([1-9]\d*)_rate", k))})


def payoff(key: str) -> Payoff:
    """The payoff a config names; an ArenaError listing the valid ones otherwise."""
    if key == "guesses":
        return GUESSES
    if key == "misses":
        return MISSES
    m = re.fullmatch(r"lost([1-9]\d*)", key) if isinstance(key, str) else None
    if m:
        return lost(int(m[1]))
    raise ArenaError(
        f"unknown payoff {key!r}; payoffs: guesses, misses, or lostK (games lost within K strikes, e.g. lost6)"
    )


def default(counts_misses: bool) -> Payoff:
    """A game's own cost: misses where they are strikes, else guesses."""
    return MISSES if counts_misses else GUESSES


def measures(figures: dict, chosen: Payoff) -> bool:
    """Does a result with these figures measure this payoff?"""
    return chosen.figure in figures
