"""Playing: a guesser against every secret, the referee, and a game move by move. Modules, one
idea each:

    evaluate  a guesser against every secret: the published tables' numbers (Evaluation)
    match     the referee: a guesser against a chooser, every reply checked (also transcripts
              and replayed histories: the one game loop)
    moves     a game as a sequence of moves (useful guesses, observations, its tree counted),
              for the bridges and the learned agents; numpy only
"""
