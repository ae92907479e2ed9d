"""Tasks: the blocks of repetitions that a config's cells are split into, each with its own seed.

A task's seed is a hash of the tournament seed and the task's identity (game, chooser,
guesser, block), never of its position in a queue, so results are the same whatever the
number of workers, the backend, or the order in which tasks finish.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Task:
    """One block of a cell: `repeat` repetitions over every secret, seeded by `seed`."""

    cell: int  # index of the config cell it belongs to
    game: str
    chooser: str
    guesser: str
    block: int
    repeat: int
    seed: int
    strikes: tuple[int, ...] = ()

    @property
    def key(self) -> str:
        """The task's identity in the results store."""
        return f"{self.game} | {self.chooser} | {self.guesser} | block {self.block}"


def task_seed(seed: int, game: str, chooser: str, guesser: str, block: int) -> int:
    """A 63-bit seed from the tournament seed and the task's identity (SHA-256: stable everywhere)."""
    text = f"{seed}\x1f{game}\x1f{chooser}\x1f{guesser}\x1f{block}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def _randomised(spec: str, role: str) -> bool:
    from agents.registry import make_agent

    agent = make_agent(spec, role)
    return not getattr(agent, "deterministic", True) or not getattr(agent, "traits", {}).get("deterministic", True)


def expand(cells, block: int = 5) -> list[Task]:
    """Every cell as tasks: one if both agents are deterministic, else its repetitions in
    blocks of `block`. Limits from published lostK figures join the cell's strike limits."""
    tasks = []
    for i, cell in enumerate(cells):
        limits = tuple(sorted({int(k[4:]) for k in cell.published if k.startswith("lost")} | set(cell.strikes)))
        random = _randomised(cell.guesser, "guesser") or (cell.chooser != "uniform"
                                                           and _randomised(cell.chooser, "chooser"))
        repeat = cell.repeat if random else 1
        for b, start in enumerate(range(0, repeat, block)):
            seed = task_seed(cell.seed, cell.game, cell.chooser, cell.guesser, b)
            tasks.append(Task(i, cell.game, cell.chooser, cell.guesser, b, min(block, repeat - start), seed, limits))
    return tasks
