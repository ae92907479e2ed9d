"""`arena equilibrium GAME`: the chooser against the guesser as a zero-sum game, solved.

arena equilibrium mastermind:pegs=3,colors=4            the whole game (double oracle)
arena equilibrium jotto:first=8 --method enumerate      against every tree, listed
arena equilibrium mastermind --guessers knuth,entropy   against a named set of guessers
"""

from __future__ import annotations

import sys

from ..api.console import print_json
from ..core.errors import ArenaError

METHODS = ("oracle", "enumerate")


def split_specs(text: str) -> list[str]:
    """`knuth,entropy:pool=all,small=3` -> ["knuth", "entropy:pool=all,small=3"]: a comma
    starts a new spec unless what follows is another key=value of the spec before it."""
    specs: list[str] = []
    for token in (t.strip() for t in text.split(",")):
        if specs and "=" in token and ":" not in token:
            specs[-1] += "," + token
        elif token:
            specs.append(token)
    return specs


def requested(args):
    """The Equilibrium the arguments ask for, from the Python API's one path
    (arena.api.frontdoor.equilibrium): the checks and the choice of solver live there."""
    from ..api import console
    from ..api.frontdoor import equilibrium

    game = console.make_game(args.game)
    cost = console.cost_name(game, args.payoff)
    time_limit = console.seconds(args.time_limit, "--time-limit")
    if args.bounds_from and (args.guessers is not None or args.method == "enumerate"):
        raise ArenaError(
            "--bounds-from folds bounds on the whole game's value into the double oracle's: "
            "give it without --guessers and --method enumerate"
        )
    if args.workers is not None and (args.guessers is not None or args.method == "enumerate"):
        raise ArenaError(
            "--workers searches the double oracle's best responses: give it without --guessers and --method enumerate"
        )
    if args.state and (args.guessers is not None or args.method == "enumerate"):
        raise ArenaError("--state is the double oracle's: give it without --guessers and --method enumerate")
    if args.guessers is not None:
        specs = split_specs(args.guessers)
        if not specs:
            raise ArenaError("--guessers needs at least one guesser spec, e.g. --guessers knuth,entropy")
        return equilibrium(game, guessers=specs, cost=cost)
    if args.method == "enumerate":
        try:
            return equilibrium(game, trees=True, frontier=not args.all_trees, cost=cost, time_limit=time_limit)
        except ValueError as e:
            raise ArenaError(str(e)) from None
    if time_limit is None:
        warn_if_long(game, args.no_symmetry)
    terminal = console.is_terminal(sys.stderr) and not args.json
    search_line = console.progress_line("arena equilibrium: best response", enabled=terminal)
    progress = None
    if args.progress or terminal:

        def progress(step):
            steps.append(step)
            search_line.close()
            print(
                f"  best response {len(steps)}: {step.lower:.6f} <= value <= {step.upper:.6f} "
                f"({step.trees} trees, {step.seconds:.1f} s)",
                file=sys.stderr,
                flush=True,
            )

        steps = []
    initial = initial_specs(args.initial)
    extra = extra_trees(args.extra_trees)
    split = on_the_split(args.workers, args.journals)
    response_limit = console.seconds(args.response_limit, "--response-limit")
    if response_limit is None and args.search_every != 1:
        raise ArenaError(
            "--search-every spaces out the searches of a game too big to solve: give it with --response-limit"
        )
    try:
        if response_limit is not None:
            if time_limit is None or args.no_symmetry:
                raise ArenaError(
                    "--response-limit bounds a game too big to solve: give it with --time-limit "
                    "(and without --no-symmetry)"
                )
            return equilibrium(
                game,
                certified=True,
                extra=extra,
                time_limit=time_limit,
                response_limit=response_limit,
                initial=initial,
                cost=cost,
                progress=progress,
                bounds_from=args.bounds_from or (),
                uniform_limit=args.uniform_limit,
                state=args.state,
                split=split,
                search_every=args.search_every,
            )
        return equilibrium(
            game,
            symmetry=console.no_symmetry(game) if args.no_symmetry else None,
            time_limit=time_limit,
            progress=progress,
            search_progress=search_line if terminal else None,
            cost=cost,
            initial=initial,
            bounds_from=args.bounds_from or (),
            uniform_limit=args.uniform_limit,
            state=args.state,
            extra=extra,
            split=split,
        )
    finally:
        search_line.close()


def on_the_split(workers: int | None, journals: str | None):
    """The best responses' split (`--workers N`, `--journals DIR`), checked; None without --workers."""
    from ..api.frontdoor import best_responses_split

    if workers is None:
        if journals is not None:
            raise ArenaError("--journals keeps the split's proofs: give it with --workers N")
        return None
    return best_responses_split(workers, journals)


def extra_trees(text: str | None) -> tuple[str, ...]:
    """The kinds of tree `--extra-trees` names (comma-separated, or none), checked."""
    from ..api.frontdoor import extra_tree_kinds

    kinds_known, default = extra_tree_kinds()
    if text is None:
        return default
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    if kinds == ("none",):
        return ()
    if not kinds or not all(k in kinds_known for k in kinds):
        raise ArenaError(f"--extra-trees {text}: give none or a comma-separated list of {', '.join(kinds_known)}")
    return kinds


def initial_specs(specs: str | None) -> list[str]:
    """The guessers named in `--initial` (comma-separated), whose trees seed the guesser's side."""
    if specs is None:
        return []
    named = split_specs(specs)
    if not named:
        raise ArenaError("--initial needs at least one guesser spec, e.g. --initial knuth,entropy")
    return named


def initial_trees(game, specs: str | None) -> tuple:
    """The trees of the guessers named in `specs` (comma-separated, as `--initial` writes them),
    which seed the double oracle's guesser side (experiments/game_values.py builds them so)."""
    from ..api.frontdoor import initial_trees as trees

    return trees(game, initial_specs(specs)) if specs is not None else ()


def warn_if_long(game, no_symmetry: bool) -> None:
    """One line on stderr before a double oracle that is not expected to finish in minutes:
    each round is an exact best response, as long as `arena optimal` on the same game."""
    from ..api.exact import LONG_WITH_SYMMETRY, LONG_WITHOUT_SYMMETRY

    n = len(game.secrets)
    symmetric = not no_symmetry and game.symmetry() is not None
    if n > (LONG_WITH_SYMMETRY if symmetric else LONG_WITHOUT_SYMMETRY):
        print(
            f"arena equilibrium: {game.spec} has {n:,} secrets: each exact best response may take hours; "
            "--time-limit SECONDS stops with the bounds reached (value in [lower, upper])",
            file=sys.stderr,
            flush=True,
        )


def cmd_equilibrium(args) -> None:
    """`arena equilibrium`; under a time limit, Ctrl-C stops the double oracle as the limit
    would (the bounds reached are printed), a second Ctrl-C at once."""
    from ..api import console
    from .optimal import STOPPED

    oracle = args.method == "oracle" and args.guessers is None
    if args.export:
        from ..api.tournaments import check_export_file

        check_export_file(args.export, "--export")  # before the work, not after it
    check_save(args.save, args.bounds_from or ())
    with console.ctrl_c_stops(args.time_limit is not None and oracle) as ctrl_c:
        eq = requested(args)
    _print(eq, args)
    if ctrl_c.asked:
        raise KeyboardInterrupt(STOPPED)


def check_save(save: str | None, bounds_from) -> None:
    """Refuse, before the work, a --save over a file --bounds-from reads: the file saved would
    name itself as what its bounds rest on, and could never be read back."""
    from pathlib import Path

    if save is None:
        return
    for path in bounds_from:
        if Path(path) == Path(save) or (Path(path).exists() and Path(save).exists() and Path(path).samefile(save)):
            raise ArenaError(
                f"--save {save} would overwrite {path}, which --bounds-from reads (the file saved would rest on "
                "itself and could never be read back): save to another file"
            )


def _print(eq, args) -> None:
    """The equilibrium found: exported, checked (--check), saved and printed."""

    from ..api import console

    if args.export:
        from ..api.tournaments import equilibrium_game

        equilibrium_game(eq).save(args.export)
        print(f"arena equilibrium: the game solved written to {args.export}", file=sys.stderr)
    check = None
    if args.check:  # nashpy on the payoff matrix of the trees the guesser mixes
        check = eq.cross_check()
    if args.save:
        eq.save(args.save)
    if args.json:
        data = eq.to_json() | console.timings(eq.game, eq.seconds)
        if check is not None:
            data["nashpy"] = console.check_json(check)
        print_json(data)
        return
    print(eq.report(check))
    if args.save:
        print(f"\nsaved to {args.save} (play it with the guesser equilibrium:file={args.save})")


def add_commands(sub) -> None:
    p = sub.add_parser("equilibrium", help="solve chooser against guesser as a zero-sum game")
    p.add_argument("game", help="game spec, e.g. mastermind:pegs=3,colors=4 or jotto:first=12")
    p.add_argument(
        "--guessers", metavar="G1,G2,...", help="restrict the guesser to these guessers' trees (comma-separated specs)"
    )
    p.add_argument(
        "--method",
        choices=METHODS,
        default="oracle",
        help="oracle: double oracle with exact best responses (default); "
        "enumerate: list every undominated tree (tiny games only)",
    )
    p.add_argument(
        "--all-trees", action="store_true", help="with --method enumerate: every tree, not only undominated ones"
    )
    p.add_argument("--no-symmetry", action="store_true", help="do not reduce Mastermind to code types")
    p.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop the double oracle after this long (a best response under way included) "
        "and report the bounds reached, not converged; reading a --state and checking the "
        "known bounds folded in (a journal's records) come on top: minutes on Wordle",
    )
    p.add_argument(
        "--initial",
        metavar="G1,G2,...",
        help="seed the double oracle's guesser side with these guessers' trees (comma-separated specs)",
    )
    p.add_argument(
        "--extra-trees",
        metavar="KINDS",
        help="the trees each round adds besides its best response, comma-separated: greedy (a weighted greedy "
        "tree aimed at the secrets the guesser's mix concedes most on), worst (the best response to those "
        "secrets), flows (now and then, trees drawn from the guesser that randomises at every state the trees "
        "meet), closure (with flows: each step also tries every letter at every state, on Hangman; slower "
        "steps, a lower upper end a step), or none; default greedy,flows",
    )
    add_big_game_options(p)
    p.add_argument(
        "--payoff",
        default=None,
        metavar="COST",
        help="what the chooser wins: guesses (Jotto, Mastermind); on Hangman misses (the default: "
        "misses until the word is determined), lost (games lost within the strikes) or "
        "guesses (letters until determined)",
    )
    p.add_argument(
        "--bounds-from",
        action="append",
        metavar="FILE",
        help="fold in the bounds this file proves, each proven again: a saved equilibrium (its guesser "
        "mix replayed, its chooser mix's best response searched) or a split's journal (`arena optimal "
        "GAME --journal FILE`: the optimum against the uniform chooser), or an equilibrium of another game "
        "whose chooser mix weighs only this game's secrets (a list's core solved on its own: that mix's best "
        "response searched here, a lower end); may be repeated. The project's "
        "own journals of the game are folded in unnamed (a checkout's experiments/data, or the "
        "directories of the environment's ARENA_WITNESSES; ARENA_WITNESSES= for none)",
    )
    p.add_argument(
        "--uniform-limit",
        type=float,
        metavar="S",
        help="seconds for bounding the uniform chooser's optimum after the run where the run did not "
        "solve it (a search for half, at most 60 s, then its level bound for the rest: LB_2, deepened to "
        "LB_3 best first; default: the time limit, at most 60 s); Jotto's LB_2 takes about 4 minutes, then "
        "about 80 s a first guess taken to LB_3",
    )
    p.add_argument("--check", action="store_true", help="also solve the final payoff matrix with nashpy")
    p.add_argument(
        "--progress",
        action="store_true",
        help="print the bounds after each best response on stderr (the default on a terminal, without --json)",
    )
    p.add_argument("--save", metavar="FILE.json", help="save the solution with its trees (for equilibrium:file=)")
    p.add_argument(
        "--state",
        metavar="FILE.json[.gz]",
        help="the double oracle's state, written after every round (atomically) and resumed from when the "
        "same command runs again: a kill loses at most the round in flight (the trees are replayed, the "
        "lower bound proven again; a long Hangman list's rows are written every 30 s and at the end)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--export",
        metavar="FILE.nfg",
        help="write the matrix game solved (chooser rows x the guesser's trees) as Gambit's .nfg "
        "or a .csv payoff matrix (the double oracle's: its final restricted game)",
    )
    p.set_defaults(func=cmd_equilibrium)


def search_every(text: str) -> int | str:
    """--search-every: a number of rounds (checked by the double oracle: 1 or more) or 'auto'."""
    import argparse

    if text == "auto":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of rounds or 'auto'") from None


def add_big_game_options(p) -> None:
    """The options of a game too big to solve at once: each best response stopped and spaced
    out, or searched by the split's workers."""
    p.add_argument(
        "--response-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop each best response after this long and go on (games too big to solve: "
        "the bounds stay proven); the chooser's mix saved is the one the lower bound is proven against",
    )
    p.add_argument(
        "--search-every",
        type=search_every,
        default=1,
        metavar="K",
        help="with --response-limit: search a best response every K rounds (default 1: each round); the rounds "
        "between add only weighted greedy trees, seconds each, so the upper end falls faster; 'auto': "
        "the kind of round whose last one lowered the upper end faster a second",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="search each best response with the split's N worker processes (arena optimal --workers: "
        "Jotto, Mastermind and Wordle; the same best response, sooner)",
    )
    p.add_argument(
        "--journals",
        metavar="DIR",
        help="with --workers: each best response's proofs in a journal of its own in DIR, named by the "
        "chooser's mix: a response stopped by --response-limit goes on where it stopped when a resumed "
        "--state asks for the same mix",
    )
