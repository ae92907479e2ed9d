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

from ..core.errors import ArenaError
from ..core.outfile import print_json

#: Above this many secrets (with no symmetry to cut the search; Mastermind has one) the exact
#: search is not expected to finish in minutes, and a run without --time-limit is warned:
#: jotto:first=200 takes about 30 s, first=400 does not finish in 120 s; Mastermind from scratch
#: (benchmarks/bench_optimal.py --scratch): 4x7 (2,401 codes) 24 s, Bulls and Cows (5,040) 83 s.
LONG_WITHOUT_SYMMETRY = 300
LONG_WITH_SYMMETRY = 6_000


def cmd_optimal(args) -> None:
    from ..core.spec import plus_list
    from ..games import make_game
    from ..optimal.search import ctrl_c_stops
    from ..parallel.progress import ProgressLine

    game = make_game(args.game)
    if args.bound_levels < 1:
        raise ArenaError(f"--bound-levels must be at least 1, got {args.bound_levels}")
    if args.time_limit is not None and not args.time_limit > 0:
        raise ArenaError(f"--time-limit must be a positive number of seconds, got {args.time_limit:g}")
    from ..core.costs import Lost, cost_for
    from ..optimal.solve import check_choice

    check_choice("objective", args.objective, ("average", "worst", "lost"))
    if args.objective == "lost" and args.cost not in (None, Lost.name):
        raise ArenaError(f"--objective lost counts lost games: it cannot be combined with --cost {args.cost}")
    objective, cost = ("average", "lost") if args.objective == "lost" else (args.objective, args.cost)
    paid = cost_for(game, cost)
    cost = paid.name
    openers = plus_list(args.openers, "--openers") if args.openers else ()
    if args.start and openers:
        raise ArenaError("--start improves a guesser's whole tree: it cannot be combined with --openers")
    if args.start and (args.weights or (args.max is not None and args.workers is None) or args.objective != "average"):
        raise ArenaError(
            "--start improves a guesser's tree for the average with equal weights: "
            "it cannot be combined with --weights, --objective worst, or --max without --workers"
        )
    if args.standing:
        check_standing(args)
    if args.workers is not None:
        check_split(args, openers)
    elif args.oversubscribe:
        raise ArenaError("--oversubscribe allows more split workers than CPUs: give --workers N")
    elif args.backend != "local" or args.scheduler:
        raise ArenaError("--backend and --scheduler send the split's pieces to a cluster: give --workers N")
    elif args.journal or args.new_journal:
        raise ArenaError("--journal records the pieces the split closes: give --workers N too")
    if args.time_limit is None and not openers and args.workers is None:
        warn_if_long(game)
    if args.log_every is not None and (args.workers is None or args.standing):
        raise ArenaError("--log-every logs the status of a split that searches: give --workers N")
    if args.log_every is not None and not args.log_every > 0:
        raise ArenaError(f"--log-every must be a positive number of seconds, got {args.log_every:g}")
    progress = ProgressLine("arena optimal", enabled=None if not args.json else False, log_every=args.log_every)
    # the split's workers take Ctrl-C themselves: there it interrupts, keeping the journal
    with ctrl_c_stops(args.time_limit is not None and args.workers is None) as ctrl_c:
        tree = _search(game, args, progress, objective, cost, openers)
    _print(tree, args, objective, paid, ctrl_c.asked)
    if ctrl_c.asked:
        raise KeyboardInterrupt(STOPPED)


#: Why a run stopped by Ctrl-C ends `arena ...: interrupted: ...` (status 130), after its results.
STOPPED = "stopped by Ctrl-C; what it reached is printed above"


def _search(game, args, progress, objective, cost, openers):
    """`arena optimal`'s search, once its arguments are checked: the tree found."""
    from ..optimal import optimal_tree
    from ..optimal.solve import refine

    try:
        if args.workers is not None:
            tree = split_tree(game, args, progress)
        elif args.start:
            tree = refine(
                game, _start_tree(game, args.start), args.pool, args.time_limit, args.bound_levels, progress=progress
            )
        else:
            weights = None
            if args.weights:
                weights = read_weights_or_mix(args.weights, game)
            tree = optimal_tree(
                game,
                weights=weights,
                pool=args.pool,
                objective=objective,
                max_guesses=args.max,
                time_limit=args.time_limit,
                progress=progress,
                cost=cost,
                openers=openers,
            )
    finally:
        progress.close()
    return tree


def _print(tree, args, objective: str, paid, interrupted: bool) -> None:
    """What `arena optimal` found: saved, and printed (--json: one object)."""
    from ..core.costs import Guesses

    if args.save:
        tree.save(args.save)
    if args.json:
        from ..games import timings

        costs = tree.costs[tree.secrets]
        print_json(
            {k: v for k, v in tree.to_json().items() if k not in ("root", "openings")}
            | {"mean": round(float(costs.mean()), 6), "searched": tree.searched}
            | ({} if paid == Guesses() else {"cost_total": int(costs.sum()), "cost_worst": int(costs.max())})
            | adversaries(tree, objective)
            | split_figures(tree)
            | timings(tree.game, tree.seconds)
        )
        return
    print(report(tree, args.weights, interrupted))
    for line in split_lines(tree) + adversary_lines(tree, objective):
        print(line)
    print(table_with_rest(tree, args))
    if args.save:
        print(f"tree saved to {args.save} (replay it with the guesser tree:file={args.save})")


#: The table's depth by default: the first guess and the guesses after each reply to it.
TABLE_DEPTH = 2


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


def check_split(args, openers) -> None:
    """--workers splits the root of the plain average: refuse what it does not combine with."""
    clash = [
        flag
        for flag, given in (
            ("--openers", bool(openers)),
            ("--objective", args.objective != "average"),
            ("--cost", args.cost is not None),
        )
        if given
    ]
    if clash:
        raise ArenaError(
            f"--workers searches every first guess for the least (weighted) total: "
            f"it cannot be combined with {clash[0]}"
        )
    if args.workers < 1:
        raise ArenaError(f"--workers must be a positive number of processes, got {args.workers}")
    if not args.standing:
        from ..core.resources import capped_workers

        args.workers = capped_workers(args.workers, args.oversubscribe, "arena optimal", args.backend)


def check_standing(args) -> None:
    """--standing reads a split's journal and searches nothing."""
    if not args.journal:
        raise ArenaError("--standing reads what a split's journal proves: give --journal FILE.jsonl")
    clash = [
        flag
        for flag, given in (
            ("--start", args.start),
            ("--new-journal", args.new_journal),
            ("--time-limit", args.time_limit is not None),
            ("--backend dask", args.backend != "local"),
        )
        if given
    ]
    if clash:
        raise ArenaError(f"--standing searches nothing: it cannot be combined with {clash[0]}")
    if args.workers is None:
        args.workers = 1


def split_tree(game, args, progress):
    """The split (arena.optimal.split): the pieces (first guess, reply class) searched by the
    workers, and the best tree put together from their subtrees, with the split's proven bound
    and effort."""
    from ..optimal.split import split_root
    from ..optimal.split import split_tree as tree_of

    def status(text: str) -> None:
        if progress.due():
            progress.show(text)

    weights = None
    if args.weights:
        from ..core.weights import read_weights

        weights = read_weights(args.weights, game)
    cluster = dask_cluster(args)
    try:
        from ..parallel import cluster as dask

        result = split_root(
            game,
            args.pool,
            args.workers,
            args.time_limit,
            args.journal,
            status=status,
            executor=cluster,
            weights=weights,
            new_journal=args.new_journal,
            no_worker_seconds=dask.NO_WORKER_SECONDS,
            start_tree=_start_tree(game, args.start) if args.start else None,
            max_guesses=args.max,
            standing=args.standing,
            notice=lambda line: print(f"arena optimal: {line}", file=sys.stderr, flush=True),
        )
    finally:
        if cluster is not None:
            cluster.close()
    if result.best_guess < 0 and args.standing:
        raise ArenaError(
            f"{game.spec}: the journal {args.journal} holds no first guess solved exactly "
            f"({result.closed:,} of {len(result.openings):,} closed, proven >= {result.lower_bound:,.6g})"
        )
    if result.best_guess < 0 and not result.stopped and args.max is not None:
        raise ArenaError(f"{game.spec}: no tree finds every secret within {args.max} guesses")
    if result.best_guess < 0:
        raise ArenaError(
            f"{game.spec}: no first guess was solved before the time limit "
            f"({result.closed:,} of {len(result.openings):,} closed, proven >= "
            f"{result.lower_bound:,.6g}); run again with --journal to resume"
        )
    return tree_of(result, args.time_limit)


def dask_cluster(args):
    """With --backend dask: the cluster of the scheduler at --scheduler (the split's pieces go
    to its workers), else None."""
    if args.backend == "local":
        if args.scheduler:
            raise ArenaError("--scheduler is for --backend dask")
        return None
    if args.backend != "dask":
        raise ArenaError(f"--backend must be local or dask, got {args.backend!r}")
    if args.workers is None:
        raise ArenaError("--backend dask sends the split's pieces to a cluster: give --workers N (pieces in flight)")
    from ..parallel.cluster import connect

    return connect(args.scheduler)


#: How many first guesses solved exactly the text report names.
PROVEN_SHOWN = 10


def split_lines(tree) -> list[str]:
    result = tree.split
    if result is None:
        return []
    lines = [
        f"split: {result.closed:,} of {len(result.openings):,} first guesses closed, {result.pieces:,} pieces "
        f"(first guess, reply class) searched ({result.searched:,} in this run, the others read from the "
        f"journal); best first guess {tree.game.guesses[result.best_guess]}"
    ]
    proven = result.proven()
    if proven:
        shown = ", ".join(f"{tree.game.guesses[g]} {total:,.6g}" for g, total in proven[:PROVEN_SHOWN])
        more = f" and {len(proven) - PROVEN_SHOWN:,} more (--json lists them)" if len(proven) > PROVEN_SHOWN else ""
        lines.append(f"first guesses solved exactly: {shown}{more}")
    if result.written_by:
        lines.append(f"journal written by arena {result.written_by}: read, its proofs are that version's")
    return lines


def warn_if_long(game) -> None:
    """One line on stderr, before a search that is not expected to finish in minutes: the
    instance's size, and how to bound the run."""
    n = len(game.secrets)
    symmetric = game.rules.hits and game.symmetry() is not None
    if n > (LONG_WITH_SYMMETRY if symmetric else LONG_WITHOUT_SYMMETRY):
        kind = "" if symmetric else " and no symmetry to exploit"
        print(
            f"arena optimal: {game.spec} has {n:,} secrets{kind}: the exact search may not finish for hours; "
            "--time-limit SECONDS stops it with the best tree found and a proven lower bound",
            file=sys.stderr,
            flush=True,
        )


def _start_tree(game, spec: str):
    from agents import make_guesser

    from ..trees.grow import grow_tree

    guesser = make_guesser(spec)
    if not guesser.deterministic:
        raise ArenaError(f"--start needs a deterministic guesser, not {spec!r}")
    return grow_tree(game, guesser)


def report(tree, weighted: str | None = None, interrupted: bool = False) -> str:
    """Two lines: what the tree costs, and what is proven about the optimum (`interrupted`:
    the search was stopped by Ctrl-C, not by its time limit)."""
    n = len(tree.secrets)
    cost = tree.costs[tree.secrets]
    unit = cost_unit(tree)
    head = (
        f"{tree.guesser} on {tree.game.spec}: {n:,} secrets; total {int(cost.sum()):,} {unit}, "
        f"mean {cost.mean():.4f}, worst {cost.max()}"
    )
    from ..core.costs import cost_for

    if not cost_for(tree.game, tree.cost).pays_every_guess:
        head += f" (guesses until determined: mean {tree.guesses[tree.secrets].mean():.4f})"
    if weighted:
        head += f"; weighted cost {tree.value:.6g}"
    what = "weighted cost" if weighted else f"total {unit}"
    trees = f"tree opening with {'+'.join(tree.openers)}" if tree.openers else "tree"
    if "objective=worst" in tree.guesser:  # the worst case is proven least first, then the total among such trees
        trees = f"tree needs fewer than {tree.depth_bound} {unit} in the worst case, and no tree with that worst case"
    if tree.exact:
        proof = f"proven optimal: no {trees} has a smaller {what}"
    else:
        mean = "" if weighted else f" (mean >= {tree.lower_bound / n:.4f})"
        why = f" (stopped at the time limit of {tree.time_limit:g} s)" if tree.stopped else ""
        if tree.stopped and interrupted:
            why = " (stopped by Ctrl-C)"
        among = f" of a {trees}" if trees != "tree" else ""
        proof = (
            f"not proven optimal{why}: best tree found; proven lower bound on the optimal {what}{among}: "
            f"{tree.lower_bound:,.6g}{mean}, gap {tree.value - tree.lower_bound:,.6g}"
        )
    return f"{head}\n{proof}; {tree.seconds:.2f} s, {tree.searched:,} candidate sets searched"


def split_figures(tree) -> dict:
    result = tree.split
    if result is None:
        return {}
    return {
        "first_guess": tree.game.guesses[result.best_guess],
        "first_guesses": len(result.openings),
        "closed": result.closed,
        "pieces": result.pieces,
        "searched_pieces": result.searched,
        "proven_first_guesses": {tree.game.guesses[g]: total for g, total in result.proven()},
    } | ({"journal_written_by": result.written_by} if result.written_by else {})


def cost_unit(tree) -> str:
    from ..core.costs import UNITS

    return UNITS[tree.cost]


def adversaries(tree, objective: str) -> dict:
    """With objective worst on a game that commits to no secret's cost by misses (Hangman): the
    exact worst case is what the best adaptive chooser forces against the best guesser; beside
    it, what the greedy evil chooser forces against this tree, and the least any guesser needs
    against the greedy evil chooser (a search of its replies)."""
    if objective != "worst" or tree.game.rules.hits or not tree.exact:
        return {}
    from agents import make_chooser

    from ..optimal.against import conceded, fewest_against

    evil = make_chooser("evil")
    forced = max(conceded(tree.game, root, evil, tree.cost) for root in tree.roots)
    least = max(fewest_against(tree.game, evil, root.candidates, tree.cost).value for root in tree.roots)
    return {
        "adaptive_value": int(tree.costs[tree.secrets].max()),
        "greedy_evil_forces": int(forced),
        "fewest_against_greedy_evil": int(least),
    }


def adversary_lines(tree, objective: str) -> list[str]:
    figures = adversaries(tree, objective)
    if not figures:
        return []
    unit = cost_unit(tree)
    return [
        f"adaptive chooser: the best adaptive (evil) chooser forces exactly {figures['adaptive_value']} {unit} "
        f"against the best guesser (the exact worst case above)",
        f"greedy evil chooser: forces {figures['greedy_evil_forces']} {unit} against this tree; the best "
        f"guesser against it needs {figures['fewest_against_greedy_evil']} {unit}",
    ]


def read_weights_or_mix(path: str, game):
    """Secret weights from a weights file, or the chooser's mix of an equilibrium saved by
    `arena equilibrium --save` (.json or .json.gz; the witness of a proven lower bound:
    searching against it proves the bound again)."""
    from ..core.weights import read_weights
    from ..equilibrium.solution import NotAnEquilibrium, read_saved

    try:
        read_saved(path, game)  # a saved equilibrium for another game or word list is refused here
    except NotAnEquilibrium:
        return read_weights(path, game)  # not a saved equilibrium: it says what is wrong with it
    from agents.equilibrium import saved_chooser_mix

    return saved_chooser_mix(game, path)


def add_commands(sub) -> None:
    p = sub.add_parser("optimal", help="the exact tree of least expected guesses, with a proven lower bound")
    p.add_argument("game", help="game spec, e.g. mastermind or jotto:first=20")
    p.add_argument("--pool", default="all", help="all (default) or consistent: the guesses allowed")
    p.add_argument(
        "--objective",
        default="average",
        help="average (default), worst: the least cost in the worst case, then the least total; "
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
