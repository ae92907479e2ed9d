"""The Python front door, and what the command line asks of the layers below (arena/cli/
imports nothing else).
Modules, one idea each:

    frontdoor    the game users hold (`arena.make_game`, `open_game`): the methods evaluate, tree,
                 optimal, equilibrium and rank on top of the algorithms they call
    console      what every command shares: checks on what a user wrote (time limits, workers,
                 strikes, files), games and agents from specs, --json's stdout, notes, faults
    evaluations  guessers measured: evaluations, exploitability, hardest secrets, paired
                 comparisons, strategy trees grown, saved and drawn
    catalogue    what there is: the games, the agents, the partition metrics
    playing      one game at a time: a match refereed, a history of replies refereed
    tournaments  configs run and stored, stored runs read back, their views and exports
    exact        the exact solver asked from user input (`arena optimal` and `game.optimal()`):
                 the request checked in one place, its Problem built and one of three solvers chosen
    compiling    the compiled kernels built ahead, at set-up (`arena warm`)
"""
