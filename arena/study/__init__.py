"""Studies: `arena run` configs run as tournaments, stored, resumed, and their results judged
and shown. Modules, one idea each:

    config       `arena run` configs (TOML): games, guessers and choosers, cell by cell
    tournament/  configs run in parallel blocks, stored, resumed and tallied
    results/     results judged against published figures; tables, meta-game, CSV, HTML
"""
