"""The Python front door.
Modules, one idea each:

    frontdoor  the game users hold (`arena.make_game`, `open_game`): the methods evaluate, tree,
               optimal, equilibrium and rank on top of the algorithms they call
"""
