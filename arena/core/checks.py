"""The Python API's arguments checked at the door, as the command line checks its own.

A public function called with an argument it cannot use raises, before any work, an ArenaError
(a wrong value) or an ArenaTypeError (a wrong type: both a TypeError and an ArenaError) whose
message names the argument, what it accepts, and what it got; never an AttributeError or an
IndexError from deep inside. Used by evaluate, optimal_tree, the equilibrium front door,
Game.guess_index and Game.partition, and make_game.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .errors import ArenaError, ArenaTypeError


def _got(value: Any) -> str:
    text = repr(value)
    return f"{text[:60]}{'...' if len(text) > 60 else ''} ({type(value).__name__})"


def integer(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """`value` as an int (numpy integers too; not bool, not a float, not a str of digits)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ArenaTypeError(f"{name} must be an integer, got {_got(value)}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        if low == 1 and high is None:
            raise ArenaError(f"{name} must be a positive integer, got {value}")
        bounds = (
            (f"from {low} to {high}" if high is not None else f"at least {low}")
            if low is not None
            else f"at most {high}"
        )
        raise ArenaError(f"{name} must be an integer {bounds}, got {value}")
    return value


def seconds(value: Any, name: str = "time_limit") -> float | None:
    """A time limit: None (no limit) or a finite number of seconds > 0. The one check of a time
    limit, for the Python API (`time_limit`) and the command line (`--time-limit`: an option
    that may be left out, so its message offers no None)."""
    if value is None:
        return None
    none = "" if name.startswith("-") else " or None"
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ArenaTypeError(f"{name} must be a number of seconds{none}, got {_got(value)}")
    if not (math.isfinite(value) and value > 0):
        raise ArenaError(f"{name} must be a positive number of seconds{none}, got {value!r}")
    return float(value)


def workers(value: Any, name: str = "workers") -> int:
    """A count of worker processes: an integer of at least 1. The one check of `--workers`,
    for the command line and the Python API (the cap at the CPU count is arena.core.resources')."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ArenaTypeError(f"{name} must be a number of processes, got {_got(value)}")
    if value < 1:
        raise ArenaError(f"{name} must be at least 1, got {value}")
    return int(value)


def settings(given: Any, valid: Any, where: str) -> None:
    """One ArenaError for the first keyword of `given` that is none of the `valid` settings of
    `where` (the solver a front-door method calls): `optimal: bogus is not a setting; settings: ...`."""
    unknown = [k for k in given if k not in valid]
    if unknown:
        raise ArenaError(f"{where}: {unknown[0]} is not a setting; settings: {', '.join(valid)}")


def strike_limits(value: Any, name: str = "strikes") -> tuple[int, ...] | None:
    """None, or strike limits: integers of at least 1 (as `--strikes 6,8`)."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ArenaTypeError(f"{name} must be a tuple of strike limits such as (6, 8), or None, got {_got(value)}")
    limits = tuple(integer(k, f"{name} (each limit)", low=1) for k in value)
    if not limits:
        raise ArenaError(f"{name} must name at least one strike limit, or be None")
    return limits


def unattended(agent: Any) -> Any:
    """`agent`, refused in one line if it plays interactively (a person at the terminal, who
    cannot be asked to play every secret of an evaluation)."""
    if agent.traits.interactive:
        raise ArenaError(f"{agent.label or agent.spec} plays interactively: use `arena play`, not an evaluation")
    return agent


def agent(value: Any, role: str, name: str | None = None) -> Any:
    """An agent object of `role` (a guesser has guess(), a chooser reply()); a spec string is
    the front door's to build (`game.evaluate("knuth")`), not the engine's."""
    method, name = ("guess" if role == "guesser" else "reply"), name or role
    if isinstance(value, str):
        raise ArenaTypeError(
            f"{name} must be a {role} object here (agents.make_{role}({value!r})); "
            f"game.evaluate({value!r}) builds it from its spec"
        )
    if not callable(getattr(value, method, None)):
        raise ArenaTypeError(
            f"{name} must be a {role}: an agent with {method}(), such as "
            f"agents.make_{role}('{'knuth' if role == 'guesser' else 'uniform'}'), got {_got(value)}"
        )
    return value


def index(value: Any, name: str, size: int, what: str) -> int:
    """An index into a list of `size` (guesses or secrets): no negative index from the end."""
    return integer(value, name, low=0, high=size - 1) if size else integer(value, name, low=0, high=-1)


def indexes(value: Any, name: str, size: int, what: str) -> np.ndarray:
    """An array of indexes into `size` `what` (an int ndarray, or a list of ints), each in range."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise ArenaTypeError(f"{name} must be an array of indexes of {what}, got {_got(value)}")
    array = np.asarray(value)
    if array.size and (array.dtype.kind not in "iu" or array.ndim != 1):
        raise ArenaTypeError(
            f"{name} must be a one-dimensional array of integer indexes of {what}, "
            f"got {array.dtype} of shape {array.shape}"
        )
    array = array.astype(np.intp, copy=False).reshape(-1)
    if array.size and (array.min() < 0 or array.max() >= size):
        bad = array[(array < 0) | (array >= size)][0]
        raise ArenaError(f"{name}: {bad} is not an index of the {size:,} {what} (0 to {size - 1})")
    return array


def specs(value: Any, name: str) -> list:
    """A list of agents or spec strings (one string is not a list of its letters)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ArenaTypeError(
            f"{name} must be a list of guessers or specs such as ['knuth', 'entropy'], got {_got(value)}"
        )
    items = list(value)
    if not items:
        raise ArenaError(f"{name} must name at least one guesser")
    return items


def game(value: Any, name: str = "game") -> Any:
    """A game (arena.Game, as make_game builds it): not its spec string."""
    if not (hasattr(value, "secrets") and hasattr(value, "openings") and hasattr(value, "table")):
        hint = f" (make_game({value!r}) builds it)" if isinstance(value, str) else ""
        raise ArenaTypeError(f"{name} must be a game such as make_game('mastermind'){hint}, got {_got(value)}")
    return value
