"""Subcommands of `arena` beyond the core ones in arena/cli.py.

Each module here defines `add_commands(subparsers)`, which adds its subcommands with
`set_defaults(func=...)`; the command line finds the modules by itself, so a new command is a
new module. A command raises ArenaError or RuleBreak for a user's or an agent's mistake.
Modules, one idea each:

    play         `arena play` (one game, agents or people either side) and `arena solve`
    hardest      `arena hardest` and `arena compare`: the hardest secrets, distributions compared
    optimal      `arena optimal`: the exact tree of least expected guesses, with its lower bound
    equilibrium  `arena equilibrium`: the chooser against the guesser as a zero-sum game, solved
"""
