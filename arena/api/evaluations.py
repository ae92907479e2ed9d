"""Guessers measured, for the command line (`arena evaluate`, `hardest`, `compare`, `rank`,
`tree`) and for notebooks: a guesser against a chooser, its exploitability, its hardest
secrets, several compared secret by secret, a strategy tree grown, saved and drawn. Each is the lower layers'
own function, named here so that the command line imports only the API; the results print
themselves (`Evaluation.report()`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.costs import cost_for
from ..core.game import Game
from ..play.evaluate import Evaluation, evaluate, plot_distributions, plot_histogram
from ..play.match import evaluate_against
from ..trees.grow import grow_tree
from ..trees.plot import DEPTH, check_drawable, draw_tree, plot_format

__all__ = [
    "DEPTH",
    "Evaluation",
    "check_drawable",
    "cost_for",
    "draw_tree",
    "evaluate",
    "evaluate_against",
    "exploitability",
    "grow_tree",
    "hardest",
    "paired_lines",
    "plot_distributions",
    "plot_format",
    "plot_histogram",
]


def exploitability(game: Game, guesser: Any, **options: Any) -> Any:
    """The guesser's cost against its worst secret beside the game's value
    (arena.equilibrium.exploitable.exploitability: the solvers are loaded only when asked for).
    Without a `cost`, a `value_from` file's own payoff (Hangman: misses or lost games)."""
    from ..equilibrium.exploitable import exploitability as measure

    if options.get("cost") is None and options.get("value_from") is not None:
        from ..equilibrium.solution import read_saved  # the one reader: a bad file is one line

        options["cost"] = str(read_saved(options["value_from"], game)["key"].get("payoff") or "") or None
    return measure(game, guesser, **options)


def hardest(game: Game, evaluation: Evaluation, top: int) -> list[tuple[str, int, int]]:
    """(secret, misses, guesses) for the `top` hardest secrets: most misses first where misses
    count (Hangman), else most guesses; ties keep the list order."""
    guesses = evaluation.worst  # per secret, the most any repetition took (kept however many)
    assert guesses is not None  # set whenever an Evaluation is built
    misses = evaluation.worst_misses if evaluation.worst_misses is not None else np.zeros_like(guesses)
    order = np.lexsort((np.arange(len(guesses)), -guesses, -misses))[:top]
    return [(game.secrets[s], int(misses[s]), int(guesses[s])) for s in order]


def paired_lines(results: list[Evaluation], cost: Any, deterministic: list[bool]) -> list[str]:
    """Each guesser against the best (least mean `cost`), secret by secret
    (arena.study.results.paired): the heading and one line each; none for a single guesser."""
    from ..study.results.paired import compare, per_secret

    if len(results) < 2:
        return []
    best = min(range(len(results)), key=lambda k: float(per_secret(results[k], cost).mean()))
    lines = [f"paired, secret by secret, each against the best ({results[best].guesser}):"]
    for k, r in enumerate(results):
        if k != best:
            lines.append("  " + compare(results[best], r, cost, deterministic[best] and deterministic[k]).line())
    return lines
