"""The two kinds of failure the arena reports without a traceback.

`ArenaError` is a user's mistake (an unknown name, a malformed spec, config or history).
`RuleBreak` is an agent's mistake (an illegal guess, a guesser that never finishes).
The command line turns both into a one-line message and exit status 2.
"""


class ArenaError(ValueError):
    """Bad input from the user: the message says which part is wrong and what is valid."""


class RuleBreak(RuntimeError):
    """An agent broke the rules of the game: the message names the agent and the move."""


def agent_name(agent) -> str:
    """How a message names an agent: as the user wrote it (its label, e.g. `rogue:Raiser`),
    the name a config's cell and a failure's line use too; else its spec."""
    return str(agent.label or agent.spec)


def choices(names) -> str:
    """`a, b, c`: the valid choices, for error messages."""
    return ", ".join(str(n) for n in names)


def shown(value: object, width: int = 60, raw: bool = False) -> str:
    """A value as a one-line message shows it: its repr (`raw`: a str as it is, such as another
    message), cut to `width` characters (a damaged stored value may be huge, an int too long to
    print, or nested too deep to repr)."""
    try:
        text = value if raw and isinstance(value, str) else repr(value)
    except (ValueError, RecursionError):
        text = f"a {type(value).__name__} too large to show"
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def did_you_mean(name: object, valid) -> str:
    """`; did you mean 'entropy'?` when `name` looks like a typo of one of `valid`, else ``."""
    import difflib  # here: few errors need it

    close = difflib.get_close_matches(str(name), [str(v) for v in valid], n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class ArenaTypeError(ArenaError, TypeError):
    """An argument of the wrong type given to the Python API (arena.core.checks): a TypeError, and a
    user's mistake like any ArenaError (one line on the command line)."""


class Compiling(UserWarning):
    """Compiled code is being built, not loaded from numba's cache (a first run): the message
    says what and about how long; the command line prints it as a note on stderr."""
