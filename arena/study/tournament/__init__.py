"""Tournaments: a config's cells, split into seeded blocks, run in parallel (a local process
pool or a Dask cluster), each finished block committed to a SQLite store that a killed run
resumes from, then tallied into tables, CSV, plots and the chooser x guesser meta-game.
Modules, one idea each:

    tasks    tasks: the seeded blocks of repetitions a config's cells are split into
    tally    the sums a block of games leaves, adding up exactly across blocks
    store    the results store: one SQLite file, one row per finished task
    run      a config run as a tournament: tasks, the store to resume from, the Report
    output   what a tournament leaves in its directory: CSV, summary, plots
    play     running tasks: in this process, on the local pool, or on a Dask cluster
    methods  how each agent of a run works, in its own words (provenance.json, --methods)
    provenance  the code an outside agent was loaded from, keyed so a changed file is rerun
"""

from .play import run_tasks
from .store import Store
from .tally import Tally
from .tasks import Task, expand, task_seed

__all__ = ["Task", "expand", "task_seed", "run_tasks", "Store", "Tally"]
