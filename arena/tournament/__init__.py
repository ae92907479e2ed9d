"""Tournaments: a config's cells, split into seeded blocks, run in parallel (a local process
pool or a Dask cluster), each finished block committed to a SQLite store that a killed run
resumes from, then tallied into tables, CSV, plots and the chooser x guesser meta-game."""

from .cells import Task, expand, task_seed
from .runner import run_tasks
from .store import Store
from .tally import Tally

__all__ = ["Task", "expand", "task_seed", "run_tasks", "Store", "Tally"]
