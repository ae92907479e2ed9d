"""Guessers that misbehave as processes do, for the runner's tests (named `rogue_agents:Class`).

Each is the `lowest` guesser until its first move, where it raises, hangs, kills its own
process or exits it. Those that hang append their pid to the file named by ARENA_TEST_PIDS, if set, so
a test can check that no such process outlives the run.
"""

import os
import signal
import time

from agents.simple import Lowest


def _note_pid() -> None:
    path = os.environ.get("ARENA_TEST_PIDS")
    if path:
        with open(path, "a") as f:
            f.write(f"{os.getpid()}\n")


class Raise(Lowest):
    """Raises at its first move: an agent's bug."""

    name = "raise"

    def choose(self, game, state):
        raise RuntimeError("this guesser always fails")


class Hang(Lowest):
    """Never returns from its first move."""

    name = "hang"

    def choose(self, game, state):
        _note_pid()
        while True:
            time.sleep(0.1)


class Suicide(Lowest):
    """Kills its own process (SIGKILL) at its first move, as the kernel's out-of-memory killer would."""

    name = "suicide"

    def choose(self, game, state):
        os.kill(os.getpid(), signal.SIGKILL)


class Exit(Lowest):
    """Ends its process with os._exit(3) at its first move: no exception, no cleanup."""

    name = "exit"

    def choose(self, game, state):
        os._exit(3)


class Chatty(Lowest):
    """Plays as `lowest`, printing a line at every move (an agent's print(), which --json keeps
    off stdout)."""

    name = "chatty"

    def choose(self, game, state):
        print(f"chatty: {len(state.candidates)} candidates")
        return super().choose(game, state)
