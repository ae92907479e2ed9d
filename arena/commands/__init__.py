"""Subcommands of `arena` beyond the core ones in arena/cli.py.

Each module here defines `add_commands(subparsers)`, which adds its subcommands with
`set_defaults(func=...)`; the command line finds the modules by itself, so a new command is a
new module. A command raises ArenaError or RuleBreak for a user's or an agent's mistake.
"""
