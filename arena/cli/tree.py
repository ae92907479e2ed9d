"""`arena tree`: a guesser's strategy table, saved as JSON or drawn where asked."""

from __future__ import annotations

import time

from ..core.errors import ArenaError


def cmd_tree(args) -> None:
    """`arena tree`: the guesser's tree grown, its table printed, saved and drawn where asked."""
    from ..api import console
    from ..api.evaluations import DEPTH, check_drawable, draw_tree, grow_tree, plot_format

    for option, value in (("--depth", args.depth), ("--min-count", args.min_count)):
        if value is not None and value < 0:
            raise ArenaError(f"{option} must be 0 or more, got {value}")
    if args.save:
        console.check_output_file(args.save, "--save")  # before growing the tree, not after
    if args.plot:
        plot_format(args.plot)  # a wrong name, then a missing folder, then a missing `dot`:
        console.check_output_file(args.plot, "--plot")  # the user's mistakes before the machine's
        check_drawable(args.plot)
    game, guesser = console.make_game(args.game), console.playing_guesser(args.guesser, "tree")
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
        draw_tree(tree, args.plot, depth=args.depth or DEPTH, min_count=args.min_count, guesser=guesser.label)
        levels = args.depth or DEPTH
        print(
            f"tree drawn to {args.plot} ({levels} level{'s' if levels != 1 else ''} of guesses; "
            "the subtrees below, and classes under --min-count secrets, folded)"
        )


def add_commands(sub) -> None:
    """This module's subcommands, added to the `arena` parser's `sub`."""
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
