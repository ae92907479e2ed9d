"""Overhead of the tournament machinery over the bare evaluations it runs (goal: under 20%).

    python benchmarks/bench_tournament.py [CONFIG]   (default: experiments/tournament.toml)

Times, in one process and one worker each so that only the machinery differs:
  bare:       every task's evaluation called directly (game tables already built);
  tournament: `run_config` with a results store (tasks, seeds, SQLite commits, tallies, report).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from arena.games import make_game
from arena.study.config import load_config
from arena.study.tournament.run import run_config
from arena.study.tournament.tasks import expand


def bare(task) -> None:
    """The evaluation a task runs, called directly."""
    from agents.registry import make_chooser, make_guesser
    from arena.play.match import evaluate_against

    game, guesser = make_game(task.game), make_guesser(task.guesser)
    evaluate_against(
        game, guesser, make_chooser(task.chooser), repeat=task.repeat, seed=task.seed, strikes=task.strikes or None
    )


def main(argv: list[str]) -> None:
    path = argv[1] if len(argv) > 1 else str(Path(__file__).parents[1] / "experiments" / "tournament.toml")
    config = load_config(path)
    tasks = expand(config.cells, config.block)
    for spec in {t.game for t in tasks}:
        make_game(spec)  # both timings start with the tables built
    best_bare = best_run = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for task in tasks:
            bare(task)
        best_bare = min(best_bare, time.perf_counter() - start)
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            run_config(config, out=out)
            best_run = min(best_run, time.perf_counter() - start)
    overhead = best_run / best_bare - 1
    print(f"{path}: {len(config.cells)} cells, {len(tasks)} tasks (best of 3)")
    print(f"bare evaluations   {best_bare:8.3f} s")
    print(f"tournament         {best_run:8.3f} s")
    print(f"overhead           {100 * overhead:7.1f} %   (goal < 20 %)")


if __name__ == "__main__":
    main(sys.argv)
