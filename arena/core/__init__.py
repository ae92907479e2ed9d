"""The engine's ground: a game, its feedback table, what it costs, and what every layer above
shares. Modules, one idea each:

    game       Game: a game's secrets, guesses, Rules, labels and GameType, and its table
    feedback   FeedbackTable: the table F[g, s] and its primitives (dense, compiled or on the fly)
    kernels    compiled loops (numba) for big instances: tables, counts, keys, replies on the fly
    compiled   numba, imported once (njit), its start-up cut to what these loops use
    dominance_loops  dominated columns of a big matrix, in compiled code (equilibrium/dominance.py)
    costs      what a game costs the guesser (Guesses, Misses, Lost): the solvers' payoffs, and
               each cost's Payoff, what a tournament's grids and meta-games measure, with a unit
    state      State: what a guesser knows (the candidates, the moves so far)
    players    GuesserProtocol and ChooserProtocol: the agents as the engine calls them
    traits     Traits: what an agent declares about itself
    spec       spec strings `name:key=value,...`, for games and agents alike
    words      word lists: shipped (sgb, web2, the Wordle lists) or any file
    weights    weights files: how much each secret weighs, one reader for every user
    seeding    mix64: seeded draws as hashes, no random generator
    caches     caches keyed by game spec, holding no game (shared_by_game_spec)
    digests    SHA-256 of the files a result was computed from, and of the project's code
    plugins    installed entry points, read through importlib.metadata only when one may exist
    resources  the memory an instance may take, checked before it is built; workers capped
    checks     arguments checked at the door (ArenaError / ArenaTypeError naming the argument)
    errors     ArenaError (a user's mistake) and RuleBreak (an agent's)
    outfile    output paths and plot formats checked before any work
    frames     results as pandas DataFrames (`.to_frame()`)
"""
