"""The `arena` command. Every subcommand is a thin layer over the Python API; a user's
mistake (ArenaError) or an agent's (RuleBreak) is one line on stderr and exit status 2.

Start-up: this module and arena/cli/* import at their top only what parsing the command
line needs (no numpy, no game, no agent), so that `arena --help`, `--version` and a mistyped
option cost Python's start-up and argparse; each command imports what it uses when it runs."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
import warnings

from ..core.errors import ArenaError, RuleBreak, choices, did_you_mean
from ..core.outfile import print_json, stdout_for_json_only
from .common import playing_guesser, strike_limits


def _game(spec: str):
    from ..games import make_game

    return make_game(spec)


def cmd_evaluate(args) -> None:
    from agents import make_chooser

    from ..core.outfile import check_plot_file
    from ..play.evaluate import plot_histogram, text_histogram
    from ..play.match import evaluate_against

    if args.repeat < 1:
        raise ArenaError(f"--repeat must be at least 1, got {args.repeat}")
    if args.plot:
        check_plot_file(args.plot)  # before the work, not after it
    game, guesser = _game(args.game), playing_guesser(args.guesser)
    chooser = make_chooser(args.chooser)
    seed = args.seed if args.seed is not None else guesser.values.get("seed", 0)
    if args.value_from is not None and not args.exploitability:
        raise ArenaError(
            "--value-from gives the game value beside the guesser's worst secret: give it with --exploitability"
        )
    if args.time_limit is not None and not args.exploitability:
        raise ArenaError("--time-limit bounds the game value's search: give it with --exploitability")
    if args.time_limit is not None and not args.time_limit > 0:
        raise ArenaError(f"--time-limit must be a number of seconds > 0, got {args.time_limit}")
    result = evaluate_against(
        game, guesser, chooser, repeat=args.repeat, seed=seed, strikes=strike_limits(args.strikes)
    )
    exploit = None
    if args.exploitability:
        from ..equilibrium.exploitable import exploitability

        if args.chooser != "uniform":
            raise ArenaError("--exploitability plays the guesser against its worst secret, not --chooser")
        if args.time_limit is None and args.value_from is None:
            from .equilibrium import warn_if_long

            warn_if_long(game, no_symmetry=False)
        exploit = exploitability(
            game, guesser, repeat=args.repeat, seed=seed, time_limit=args.time_limit, value_from=args.value_from
        )
    if args.plot:
        plot_histogram([result], args.plot)
    if args.json:
        from ..games import timings

        extra = {"exploitability": exploit.to_json()} if exploit else {}
        print_json(result.to_json() | timings(game, result.seconds) | extra)
        return
    print(result.header())
    print(result.summary())
    total = f"total = {result.total:,}" if result.repeat == 1 else f"total per repetition = {result.mean_total:,.1f}"
    print(f"{total}; {result.seconds:.2f} s")
    for line in result.game_lines():  # against an adversary: what it forced, game by game
        print(line)
    print(text_histogram(result.histogram))
    if args.plot:
        print(f"histogram written to {args.plot}")
    if exploit:
        print(f"exploitability of {exploit.guesser} ({exploit.cost}):")
        for line in exploit.lines():
            print(f"  {line}")


def cmd_rank(args) -> None:
    import numpy as np  # here, not at the top: `arena --help` and `--version` need no numpy

    from ..api.frontdoor import best_first
    from ..trees.metrics import METRICS

    game = _game(args.game)
    if args.metric not in METRICS:
        raise ArenaError(
            f"unknown metric {args.metric!r}{did_you_mean(args.metric, METRICS)}; metrics: {choices(METRICS)}"
        )
    if args.top < 1:
        raise ArenaError(f"--top must be at least 1, got {args.top}")
    metric = METRICS[args.metric]
    order, values, replies = best_first(game, args.metric, args.top)
    counts = replies.counts
    used = game.codes
    by_reply = replies.of(used)  # column k: reply used[k] (counts' own columns may be fewer)
    print(f"best first guesses of {game.spec} by {metric.name} ({metric.summary}), {len(game.secrets):,} secrets")
    header = "replies " + " ".join(game.reply_label(int(c)) for c in used)
    print(f"{'rank':>4} {'guess':<8} {metric.name:>13} {'largest':>7} {'parts':>5}  {header}")
    for rank, g in enumerate(order, 1):
        value = values[g]
        shown = f"{value:.4f}" if isinstance(value, (float, np.floating)) else f"{value}"
        row = " ".join(str(int(n)) for n in by_reply[g])
        print(
            f"{rank:>4} {game.guesses[g]:<8} {shown:>13} {counts[g].max():>7} {np.count_nonzero(counts[g]):>5}  {row}"
        )


def cmd_tree(args) -> None:
    from ..core.outfile import check_output_file
    from ..trees.grow import grow_tree

    for option, value in (("--depth", args.depth), ("--min-count", args.min_count)):
        if value is not None and value < 0:
            raise ArenaError(f"{option} must be 0 or more, got {value}")
    if args.save:
        check_output_file(args.save, "--save")  # before growing the tree, not after
    if args.plot:
        from ..trees.plot import check_drawable, plot_format

        plot_format(args.plot)  # a wrong name, then a missing folder, then a missing `dot`:
        check_output_file(args.plot, "--plot")  # the user's mistakes before the machine's
        check_drawable(args.plot)
    game, guesser = _game(args.game), playing_guesser(args.guesser, "tree")
    if not guesser.deterministic:
        guesser = guesser.seeded(args.seed, 0)
    start = time.perf_counter()
    tree = grow_tree(game, guesser)
    seconds = time.perf_counter() - start
    print(
        f"{guesser.label} on {game.spec}: total {int(tree.guesses.sum()):,}, "
        f"mean {tree.guesses.mean():.3f}, worst {tree.guesses.max()} ({seconds:.2f} s)"
    )
    print(tree.table(min_count=args.min_count, depth=args.depth))
    if args.save:
        tree.save(args.save)
        print(f"tree saved to {args.save} (replay it with the guesser tree:file={args.save})")
    if args.plot:
        from ..trees.plot import DEPTH, draw_tree

        draw_tree(tree, args.plot, depth=args.depth or DEPTH, min_count=args.min_count, guesser=guesser.label)
        levels = args.depth or DEPTH
        print(
            f"tree drawn to {args.plot} ({levels} level{'s' if levels != 1 else ''} of guesses; "
            "the subtrees below, and classes under --min-count secrets, folded)"
        )


def cmd_games(args) -> None:
    from ..games import GAMES

    for name in GAMES:
        try:
            kind = GAMES[name]
        except ArenaError as e:  # a broken plug-in: one line, and the other games still listed
            print(f"{name}: {e}")
            continue
        print(f"{kind.name}: {kind.summary}")
        for p in kind.params.values():
            print(f"    {p.describe()}")


def cmd_agents(args) -> None:
    from agents import describe_agents

    for name, role, summary, params in describe_agents():
        print(f"{name} ({role}): {summary}")
        for line in params:
            print(f"    {line}")


def cmd_run(args) -> None:
    """Run a config; with --out, store each task as it finishes (one writer per directory)."""
    from ..study.config import load_config
    from ..study.tournament.run import run_config
    from ..study.tournament.store import DirectoryLock

    config = load_config(args.config, allow_import=getattr(args, "allow_import", False))
    workers = _workers(args.workers, args.oversubscribe, args.backend)
    timeout = args.task_timeout if args.task_timeout is not None else config.task_timeout
    lock = DirectoryLock(args.out) if args.out else contextlib.nullcontext()
    with lock:  # held while the store and the outputs beside it are written
        report = run_config(
            config,
            progress=not args.json and sys.stderr.isatty(),
            workers=workers,
            backend=args.backend,
            scheduler=args.scheduler,
            out=args.out,
            force=args.force,
            retry_failed=args.retry_failed,
            timeout=timeout,
            notice=lambda line: print(f"arena run: {args.out}: {line}", file=sys.stderr),
        )
        _show_report(report, args)
    _exit_status(report, args)


def _workers(workers: int, oversubscribe: bool, backend: str) -> int:
    """--workers, capped at the CPU count (more processes than CPUs only slow each other down)."""
    from ..core.resources import capped_workers

    return capped_workers(workers, oversubscribe, "arena run", backend)


def _exit_status(report, args) -> None:
    """1 with --check unless every published figure is reproduced, or with --strict if a cell failed."""
    if args.check and not report.all_agree or getattr(args, "strict", False) and report.failed:
        sys.exit(1)


def _show_report(report, args) -> None:
    from ..study.tournament.output import write_outputs

    if args.csv:
        report.write_csv(args.csv)
    if getattr(args, "out", None):
        for path in write_outputs(report, args.out, plots=not args.no_plots):
            print(f"wrote {path}", file=sys.stderr)
    if args.json:
        print_json(report.to_json())
        return
    # a tournament's grids are what a person reads first; its cells are one row per (chooser,
    # guesser) and wait behind --cells (summary.txt keeps them); a reproduction is its cells
    print(report.table(cells=args.cells or not report.grids()))
    summary = report.summary()
    if summary:
        print()
        print(summary)


def cmd_report(args) -> None:
    """The tables of a stored tournament, from DIR/results.sqlite, without running anything:
    the stored config is read as data (no agent is imported), and no lock is taken."""
    from ..study.results.views import check_views, show_views
    from ..study.tournament.output import stored_report

    args.out = None
    check_views(args)
    report = stored_report(args.dir)
    if args.methods:  # the paragraph in place of the tables
        print(report.methods())
    else:
        _show_report(report, args)
    show_views(report, args)
    _exit_status(report, args)


def _seconds(text: str) -> float:
    """--task-timeout: seconds, a number > 0."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds > 0")
    return value


class _Version(argparse.Action):
    """`--version`: the installed version, read only when asked for (importlib.metadata costs start-up)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(
            option_strings, dest, nargs=0, default=default, help=help or "show program's version number and exit"
        )

    def __call__(self, parser, namespace, values, option_string=None):
        from .. import __version__

        print(f"arena {__version__}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena", description="Guessing games as contests between a chooser and a guesser."
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("evaluate", help="play a guesser against every secret")
    p.add_argument("game", help="game spec, e.g. mastermind or jotto:words=web2")
    p.add_argument("guesser", help="guesser spec, e.g. knuth or entropy:pool=all,small=3")
    p.add_argument("--repeat", type=int, default=1, help="repetitions for random guessers (default 1)")
    p.add_argument("--seed", type=int, default=None, help="seed for random guessers (default: the guesser's seed=)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="write a histogram")
    p.add_argument("--strikes", metavar="K,K,...", help="report losses at these strike limits (Hangman)")
    p.add_argument(
        "--exploitability",
        action="store_true",
        help="also the guesser's cost against its worst secret beside the game value (double oracle)",
    )
    p.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --exploitability: stop the game value's search, bracketing it (with --value-from: "
        "the search proving the file's lower end again; default 60 s)",
    )
    p.add_argument(
        "--value-from",
        metavar="FILE.json",
        default=None,
        help="with --exploitability: the game value's bounds proven again from the witnesses in an "
        "equilibrium saved by `arena equilibrium --save` (its guesser mix replayed, its chooser mix "
        "searched against), instead of solving the game; what the file only claims is printed as a claim",
    )
    p.add_argument(
        "--chooser",
        default="uniform",
        help="chooser spec (default uniform: every secret once); evil, minimax, spoiler: what they force",
    )
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("rank", help="the best first guesses by a metric")
    p.add_argument("game")
    p.add_argument("metric", help="minimax, expected, entropy, most-parts or max-frequency")
    p.add_argument("--top", type=int, default=10)
    p.set_defaults(func=cmd_rank)

    p = sub.add_parser("tree", help="a guesser's strategy table")
    p.add_argument("game")
    p.add_argument("guesser")
    p.add_argument("--depth", type=int, default=None, help="only decision points fewer than D guesses deep")
    p.add_argument("--min-count", type=int, default=3, help="only decision points reached by this many secrets")
    p.add_argument("--seed", type=int, default=0, help="seed for a random guesser's tree")
    p.add_argument("--save", metavar="FILE.json", help="save the tree as JSON")
    p.add_argument(
        "--plot",
        metavar="FILE.svg",
        help="draw the tree to --depth levels (default 2), deeper subtrees and classes under "
        "--min-count secrets folded: .svg, .png or .pdf (Graphviz's dot), or .dot (its source)",
    )
    p.set_defaults(func=cmd_tree)

    sub.add_parser("games", help="the games and their parameters").set_defaults(func=cmd_games)
    sub.add_parser("agents", help="the agents and their parameters").set_defaults(func=cmd_agents)

    p = sub.add_parser(
        "run",
        help="run a TOML config and print its table",
        description="Run a TOML config and print its table. An agent that raises, breaks the rules or runs past "
        "--task-timeout fails its own cells only: they are marked FAILED in the table, results.csv "
        "(status and error columns) and summary.txt, and the run goes on. Exit status: 0 when the "
        "run completed, 1 with --check if a published figure was not reproduced or with --strict "
        "if a cell failed, 2 for a mistake in the command or the config. With --out DIR, a second "
        "run resumes (failed tasks are kept unless --retry-failed); one run writes to DIR at a time.",
    )
    p.add_argument("config", help="a TOML file (see experiments/)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument(
        "--cells",
        action="store_true",
        help="also print every cell's row before a tournament's grids (a reproduction always does)",
    )
    p.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    p.add_argument("--check", action="store_true", help="exit 1 unless every published figure is reproduced")
    p.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 if any cell failed (by default a run that completes exits 0, failed cells "
        "marked FAILED in its table, results.csv and summary.txt)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes on this machine (default 1; at most the CPU count unless --oversubscribe)",
    )
    p.add_argument(
        "--oversubscribe", action="store_true", help="allow --workers above the CPU count (up to 8 per CPU, or 64)"
    )
    p.add_argument(
        "--task-timeout",
        type=_seconds,
        metavar="SECONDS",
        help="fail a task that runs longer (default: the config's task_timeout, else no limit)",
    )
    p.add_argument("--backend", default="local", help="local (a process pool) or dask")
    p.add_argument("--scheduler", metavar="ADDRESS", help="the Dask scheduler, e.g. tcp://127.0.0.1:8786")
    p.add_argument(
        "--out",
        metavar="DIR",
        help="store results in DIR/results.sqlite (a rerun resumes) and write results.csv, summary.txt and plots there",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="discard stored results of a different config (or a damaged store) and start afresh",
    )
    p.add_argument(
        "--retry-failed",
        action="store_true",
        help="with --out, run again the stored tasks that failed (by default a resumed run keeps "
        "failures as results and runs only the tasks not stored yet)",
    )
    p.add_argument("--no-plots", action="store_true", help="with --out, skip the plots")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser(
        "report",
        help="the tables of a stored tournament (arena run --out DIR)",
        description="Reprint a stored tournament from DIR/results.sqlite. Nothing is run and no "
        "agent is imported: the stored config is read as data. Safe while a run writes.",
    )
    p.add_argument("dir")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument(
        "--cells",
        action="store_true",
        help="also print every cell's row before a tournament's grids (a reproduction always does)",
    )
    p.add_argument("--csv", metavar="FILE", help="also write the results as CSV")
    p.add_argument("--check", action="store_true", help="exit 1 unless every published figure is reproduced")
    p.add_argument("--strict", action="store_true", help="exit 1 if any cell failed or was not run yet")
    p.add_argument(
        "--methods",
        action="store_true",
        help="print a methods paragraph for a paper (what was run, how many games, the software and machine)",
    )
    p.add_argument(
        "--export",
        metavar="FILE.nfg",
        help="write each game's meta-game as Gambit's .nfg or a .csv payoff matrix (several games: FILE-GAME.nfg)",
    )
    p.add_argument(
        "--dynamics",
        nargs="?",
        const=True,
        default=False,
        metavar="FOLDER",
        help="replicator dynamics and fictitious play on each meta-game: a table, and with a FOLDER its "
        "plots FOLDER/dynamics-GAME.png (report only reads DIR: it writes nowhere unless told)",
    )
    p.add_argument("--html", metavar="FILE.html", help="write the whole tournament as one self-contained page")
    p.set_defaults(func=cmd_report, no_plots=True)

    from . import command_modules

    for module in command_modules():
        module.add_commands(sub)
    _add_allow_import(sub)
    return parser


#: Subcommands that never build an agent from a spec: no --allow-import (`report` reads the store only).
NO_AGENT_SPECS = frozenset({"games", "agents", "rank", "report"})


def _add_allow_import(sub) -> None:
    """`--allow-import` on every subcommand that builds agents from specs (those of
    arena/cli/* included), where the subcommand has not declared it itself."""
    for name, p in sub.choices.items():
        if name not in NO_AGENT_SPECS and "--allow-import" not in p._option_string_actions:
            p.add_argument(
                "--allow-import",
                action="store_true",
                help="let module:Class agent specs (here or in a config) import Python modules, which runs their code",
            )


@contextlib.contextmanager
def notes_on_stderr(command: str):
    """A game's notes (words of a user's list left out, arena.core.words.WordsLeftOut; code compiled
    on a first run, arena.core.errors.Compiling) as one line each on stderr, `arena COMMAND: note:
    ...`, not as a Python warning with its source line."""
    from ..core.errors import Compiling
    from ..core.words import WordsLeftOut

    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, (WordsLeftOut, Compiling)):
            print(f"arena {command}: note: {message}", file=sys.stderr, flush=True)
        else:
            shown(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():  # restores showwarning and the filters on leaving
        warnings.simplefilter("always", WordsLeftOut)
        warnings.simplefilter("always", Compiling)
        warnings.showwarning = show
        yield


def _parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """The arguments; one the subcommand does not take is refused with that subcommand's usage
    (`arena evaluate: error: unrecognized arguments: --workers 2`), not the top level's."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        sub.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _agent_imports(args: argparse.Namespace) -> contextlib.AbstractContextManager:
    """Whether `module:Class` specs may import their module (agents.registry.imports_allowed),
    for a command that builds agents; the others (NO_AGENT_SPECS: `arena games`, ...) do not
    import the agents at all (about 0.05 s of start-up)."""
    if not hasattr(args, "allow_import"):
        return contextlib.nullcontext()
    from agents.registry import imports_allowed

    return imports_allowed(args.allow_import)


def main(argv: list[str] | None = None) -> int:
    args = _parse(build_parser(), argv)  # --help and --version end here, before the agents are imported
    try:
        with (
            _agent_imports(args),
            notes_on_stderr(args.command),
            stdout_for_json_only(bool(getattr(args, "json", False))),
        ):  # module:Class specs import only when asked
            args.func(args)
    except (ArenaError, RuleBreak) as e:
        print(f"arena {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `arena ... | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:  # an output file that cannot be written: the user's path, not our bug
        where = f"{e.filename}: " if e.filename else ""
        print(f"arena {args.command}: error: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except MemoryError:  # an estimate that missed: still one line, and nothing stored is lost
        print(
            f"arena {args.command}: error: out of memory; the instance is too big for this machine "
            "(ARENA_MEMORY_LIMIT sets the budget that instances are checked against)",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt as e:
        saved = f": {e}" if str(e) else ""  # what was kept, where the command knows (arena run --out)
        print(f"arena {args.command}: interrupted{saved}", file=sys.stderr)
        return 130
    except Exception as e:  # an agent from outside the project failed: its line, not our traceback
        from agents.registry import agent_fault

        fault = agent_fault(e)
        if fault is None:
            raise
        print(f"arena {args.command}: error: {fault}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
