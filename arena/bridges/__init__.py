"""The games for the libraries researchers already use, as optional extras (the moves they are
built on, numpy only, are arena.play.moves). Modules, one idea each:

    openspiel  any game spec as an OpenSpiel game (`load_game`), for OpenSpiel's solvers
    envs       any game spec as a PettingZoo AEC or Gymnasium environment (it builds choosers
               from specs, as `arena evaluate --chooser` does)
"""
