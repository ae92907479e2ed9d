"""The Python front door.
Modules, one idea each:

    frontdoor  the game users hold (`arena.make_game`, `open_game`): the methods evaluate, tree,
               optimal, equilibrium and rank on top of the algorithms they call
    exact      the exact solver asked from user input (`arena optimal` and `game.optimal()`):
               the request checked in one place, its Problem built and one of three solvers chosen

The command line (arena/cli/) builds its requests here; nothing below imports this package.
"""
