"""A tournament's results.
Modules, one idea each:

    report    Report: each cell judged against its published figures, tables, the meta-game on
              a named payoff, the ranking, the CSV; a stored run loaded back (from_dir)
    paired    two guessers compared secret by secret
    views     `arena report`'s --export, --dynamics and --html
    export    matrix games (an equilibrium's, a meta-game) as Gambit's .nfg or CSV, read back
    dynamics  replicator dynamics and fictitious play on a matrix game, beside its equilibrium
    html      a tournament as one self-contained HTML page
"""
