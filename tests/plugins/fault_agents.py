"""Guessers that misbehave, for the fault tests: one raises, one hangs, one kills its process.

Imported as `fault_agents:Raising` etc. with `--allow-import` and this folder on PYTHONPATH.
"""

from __future__ import annotations

import os
import signal
import time

from agents.base import Guesser


class Raising(Guesser):
    """Raises on its first guess: an agent's bug."""

    name = "raising"

    def choose(self, game, state):
        raise RuntimeError("this guesser always fails")


class Hanging(Guesser):
    """Never returns: a task time limit must stop it."""

    name = "hanging"

    def choose(self, game, state):
        while True:
            time.sleep(1)


class Killing(Guesser):
    """Kills the process it runs in (as the kernel's out-of-memory killer would)."""

    name = "killing"

    def choose(self, game, state):
        os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(10)
