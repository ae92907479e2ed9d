"""`arena optimal GAME`: the exact tree of least expected guesses, with its proven lower bound.

arena optimal mastermind                              5,625, proven optimal, and its table
arena optimal mastermind --pool consistent --depth 2  the consistent-only optimum (5,660)
arena optimal mastermind --max 5                      best total that never needs a 6th guess
arena optimal wordle --openers salet                  the best tree opening with SALET (7,920)
arena optimal mastermind --workers 2                  split into (first guess, reply class) pieces,
                                                      searched by 2 processes
arena optimal jotto --start lookahead --time-limit 60 --bound-levels 2
                                                      a big instance: the best tree found from
                                                      a guesser's tree, and a proven lower bound
"""

from __future__ import annotations

import sys

from ..api.console import print_json

#: The table's depth by default: the first guess and the guesses after each reply to it.
TABLE_DEPTH = 2

#: Why a run stopped by Ctrl-C (or SIGTERM, for a split) ends `arena ...: interrupted: ...`
#: (status 130), after its results.
STOPPED = "stopped by Ctrl-C; what it reached is printed above"
SPLIT_STOPPED = "stopped by Ctrl-C or SIGTERM; what the split reached is printed above (a journal keeps it)"


def cmd_optimal(args) -> None:
    """`arena optimal`: the request its flags make, planned and run by the API
    (arena.api.exact: the checks and the choice of solver), and what it returns printed."""
    from ..api.exact import OptimalRequest, ProgressLine, ctrl_c_stops, make_game, plan_optimal, plus_list, run_plan

    request = OptimalRequest(
        weights_file=args.weights or None,
        pool=args.pool,
        objective=args.objective,
        max_guesses=args.max,
        cost=args.cost,
        openers=plus_list(args.openers, "--openers") if args.openers else (),
        time_limit=args.time_limit,
        workers=args.workers,
        start=args.start,
        bound_levels=args.bound_levels,
        journal=args.journal,
        new_journal=args.new_journal,
        standing=args.standing,
        backend=args.backend,
        scheduler=args.scheduler,
        oversubscribe=args.oversubscribe,
        log_every=args.log_every,
        split_after=args.split_after,
        target=args.target,
        flags=True,
    )
    plan = plan_optimal(make_game(args.game), request, notice)
    progress = ProgressLine("arena optimal", enabled=None if not args.json else False, log_every=args.log_every)
    with ctrl_c_stops(plan.ctrl_c_stops) as ctrl_c:
        tree = run_plan(plan, progress, notice)
    split = tree.split is not None and tree.split.interrupted
    show(tree, args, ctrl_c.asked or split)
    if ctrl_c.asked or split:
        raise KeyboardInterrupt(SPLIT_STOPPED if split else STOPPED)


def notice(line: str) -> None:
    """What the user should know before or while the search runs, on stderr."""
    print(f"arena optimal: {line}", file=sys.stderr, flush=True)


def show(tree, args, interrupted: bool) -> None:
    """What `arena optimal` found: saved, and printed (--json: one object)."""
    from ..api.exact import optimal_json, optimal_text

    if args.save:
        tree.save(args.save)
    if args.json:
        print_json(optimal_json(tree))
        return
    print(optimal_text(tree, interrupted))
    print(table_with_rest(tree, args))
    if args.save:
        print(f"tree saved to {args.save} (replay it with the guesser tree:file={args.save})")


def table_with_rest(tree, args) -> str:
    """The strategy table to --depth (default TABLE_DEPTH; --full: every row), and a line
    saying how many rows deeper down were left out and how to see them."""
    depth = None if args.full else args.depth if args.depth is not None else TABLE_DEPTH
    text = tree.table(min_count=args.min_count, depth=depth)
    if depth is None:
        return text
    left = len(tree.rows(min_count=args.min_count)) - len(tree.rows(min_count=args.min_count, depth=depth))
    if left:
        text += f"\n... {left:,} more rows {depth} or more guesses deep (--depth D to see more, --full for all)"
    return text


def add_commands(sub) -> None:
    p = sub.add_parser("optimal", help="the exact tree of least expected guesses, with a proven lower bound")
    p.add_argument("game", help="game spec, e.g. mastermind or jotto:first=20")
    p.add_argument("--pool", default="all", help="all (default) or consistent: the guesses allowed")
    p.add_argument(
        "--objective",
        default="average",
        help="average (default), worst: the least cost in the worst case, then the least total; "
        "fewest-at-worst: the least worst case, then the fewest secrets needing it, then the least total; "
        "lost (Hangman): the fewest games lost within the strikes",
    )
    p.add_argument(
        "--cost",
        default=None,
        help="what a secret costs: the game's own by default (guesses; Hangman: misses until "
        "the word is determined); Hangman also guesses (letters until determined)",
    )
    p.add_argument("--max", type=int, default=None, metavar="K", help="never more than K guesses")
    p.add_argument("--weights", metavar="FILE.json", help="secret weights: {secret: weight} or a list")
    p.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="S",
        help="stop after S seconds with the best tree found and a proven lower bound "
        "(default: none; big instances are warned, and a terminal shows the progress)",
    )
    p.add_argument(
        "--start",
        metavar="GUESSER",
        help="start from this guesser's tree (big instances); with --workers, its cost is the first incumbent "
        "when it beats the greedy trees",
    )
    p.add_argument(
        "--openers",
        metavar="A+B",
        default=None,
        help="fixed first guesses, joined by + (e.g. salet): the best tree that opens with them, "
        "each class they leave solved exactly",
    )
    p.add_argument(
        "--bound-levels",
        type=int,
        default=1,
        metavar="L",
        help="with --start: also prove the L-level look-ahead lower bound (2 costs minutes on Jotto)",
    )
    add_split_flags(p)
    p.add_argument(
        "--depth",
        type=int,
        default=None,
        help=f"table rows fewer than D guesses deep (default {TABLE_DEPTH}: the first two guesses)",
    )
    p.add_argument("--full", action="store_true", help="the whole table, every depth")
    p.add_argument("--min-count", type=int, default=3, help="table rows reached by at least this many secrets")
    p.add_argument("--save", metavar="FILE.json", help="save the tree as JSON")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object (no table)")
    p.set_defaults(func=cmd_optimal)


def add_split_flags(p) -> None:
    """The split's flags (--workers and what goes with it)."""
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="split the search into pieces (a first guess and one of its reply classes), searched by "
        "N processes with one shared incumbent; with --time-limit, the proven bound so far",
    )
    p.add_argument(
        "--oversubscribe",
        action="store_true",
        help="with --workers: allow more processes than CPUs (by default --workers is capped at the CPU count)",
    )
    p.add_argument(
        "--backend",
        default="local",
        help="with --workers: local (forked processes, the default) or dask (the workers of "
        "--scheduler get the pieces; each builds the game from its spec)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="with --backend dask: the scheduler's address, e.g. tcp://127.0.0.1:8786",
    )
    p.add_argument(
        "--journal",
        metavar="FILE.jsonl",
        default=None,
        help="with --workers: append what each piece proves (its exact value and subtree, or a lower "
        "bound) to FILE, and resume from what it holds: a killed run loses only the pieces in flight, "
        "and a run resumed under another incumbent (another --start) decides afresh what the proofs "
        "close (a journal of another game, word file, pool, weights or arena version is refused, and "
        "so is a record that cannot be right, in one line naming its line)",
    )
    p.add_argument(
        "--split-after",
        type=int,
        default=None,
        metavar="SETS",
        help="with --workers: a piece that has searched SETS candidate sets hands itself back and is "
        "split into tasks of its own (its guesses and their classes, at any depth), so that every "
        "worker has work to the end (default: 1000 on one or two workers, then 1600 / workers, at least "
        "50; 0: never)",
    )
    p.add_argument(
        "--target",
        type=float,
        default=None,
        metavar="TOTAL",
        help="with --workers: prove that no tree costs less than TOTAL (the total guesses, or with "
        "--weights the weighted total) and no more: a first guess is closed once proven at least "
        "TOTAL, so a lower bound below the optimum is proven sooner than the optimum; a tree found "
        "below it is searched on as without one",
    )
    p.add_argument(
        "--log-every",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --workers: write the split's status (pieces, first guesses closed, best, proven "
        "bound) as a line on stderr every SECONDS, with the time: a log for a run in the background",
    )
    p.add_argument(
        "--standing",
        action="store_true",
        help="with --journal: search nothing, print what the journal proves (the best first guess "
        "and its tree, the first guesses closed and solved exactly, the lower bound); a journal of "
        "another arena version is read too, and said to be",
    )
    p.add_argument(
        "--new-journal",
        action="store_true",
        help="with --journal: a journal of other inputs is set aside (renamed FILE.old) and started anew",
    )
