"""`arena play` (one game, agents or people on either side) and `arena solve` (the next-guess
assistant: the secrets a history of replies leaves, and the best next guess)."""

from __future__ import annotations

from ..core.errors import ArenaError

#: With this many secrets possible or fewer, `solve` lists them all (`--list N` sets it).
LIST_AT_MOST = 200
#: Beyond that, the first few are shown.
LIST_FIRST = 12


def _names(items, limit: int = 6) -> str:
    items = list(items)
    return ", ".join(items[:limit]) + (f", ... ({len(items):,} in all)" if len(items) > limit else "")


def _agents(args):
    """The game, the guesser and the chooser that `arena play` names."""
    from ..api.console import make_chooser, make_game, make_guesser
    from ..api.playing import secret_index

    game = make_game(args.game)
    guesser = make_guesser(args.guesser)
    chooser_spec = args.chooser
    if args.secret is not None:
        if chooser_spec.partition(":")[0] not in ("uniform", "fixed"):
            raise ArenaError(
                f"--secret fixes the secret, so it goes with the uniform or fixed chooser, not {chooser_spec}"
            )
        chooser_spec = f"fixed:secret={args.secret}"
        secret_index(game, args.secret)  # a secret not of this game: said now, not after the introduction
    chooser = make_chooser(chooser_spec)
    if args.hint is not None:
        if not guesser.traits.interactive:
            raise ArenaError(f"--hint is for --guesser human, not {args.guesser}")
        guesser.hint = make_guesser(args.hint)
    if chooser.traits.interactive and guesser.traits.interactive:
        raise ArenaError("a human on both sides needs no program: choose an agent for --guesser or --chooser")
    return game, guesser, chooser


def _introduce(game, guesser, chooser) -> None:
    n = len(game.secrets)
    print(f"{game.spec}: {guesser.label} guesses, {chooser.label} chooses; {n:,} secrets")
    if chooser.traits.interactive:
        print(f"Think of a secret, one of the {n:,} of {game.spec}, and reply to each guess.")
    elif guesser.traits.interactive:
        kind = (
            "committed to a secret"
            if chooser.traits.committed
            else "holds no secret, but every reply will be consistent"
        )
        print(f"The chooser {kind}. Type your guesses: {game.describe_guesses()}; quit to give up.")


def _ending(game, match) -> str:
    """The last line: solved or lost, in how many guesses (Hangman: and misses)."""
    n = len(match.turns)
    if match.lost:
        return f"Lost: {game.strikes} strikes after {n} guesses."
    if not game.rules.hits:
        misses = sum(game.is_miss(t.reply) for t in match.turns)  # a person may miss after the word is decided
        decided = f"; one {game.secret_noun} was left after {match.guesses}" if match.guesses < n else ""
        return f"Solved: {game.secrets[match.secret]}, in {n} guesses with {misses} misses{decided}."
    return f"Solved in {n} guess{'es' if n != 1 else ''}."


def cmd_play(args) -> None:
    from ..api.playing import Quit, chooser_seed, play_match

    game, guesser, chooser = _agents(args)
    _introduce(game, guesser, chooser)
    player = guesser if guesser.deterministic else guesser.seeded(args.seed, 0)
    history: list = []
    length: list[int | str] = [0]
    possible: list = [game.all_secrets]  # narrowed turn by turn, for a game stopped half way

    def on_open(label: str, candidates) -> None:
        possible[0] = candidates
        length[0] = game.shape(candidates)
        line = game.opening_line(label, candidates, length[0])
        if line is not None:
            print(line)

    def on_turn(number: int, turn, state) -> None:
        history.append((turn.guess, turn.reply))
        possible[0] = game.consistent(possible[0], turn.guess, turn.reply)
        print(game.turn_line(number, history, turn.left, length[0]))

    try:
        match = play_match(
            game, player, chooser, seed=chooser_seed(args.seed), on_open=on_open, on_turn=on_turn, stop_at_strikes=True
        )
    except Quit as e:
        print(f"Stopped: {e}. {_still_possible(game, possible[0])}")
        return
    except KeyboardInterrupt:
        print(f"\nStopped. {_still_possible(game, possible[0])}")
        raise
    print(_ending(game, match))
    if match.lost:
        if chooser.secret is not None:
            print(f"The secret was {game.secrets[chooser.secret]}.")
        else:
            left = [game.secrets[s] for s in _possible(game, match)]
            print(f"{len(left):,} secrets were still possible, such as {_names(left, 3)}.")
    elif not chooser.traits.committed and not chooser.traits.interactive:
        print(f"({chooser.label} held no secret: {game.secrets[match.secret]} was the one left.)")


def _still_possible(game, candidates) -> str:
    """`3 secrets were still possible: a, b, c.` (the first few of many)."""
    left = [game.secrets[s] for s in candidates]
    if len(left) == 1:
        return f"The {game.secret_noun} was {left[0]}."
    return f"{len(left):,} secrets were still possible: {_names(left, 12)}."


def _possible(game, match):
    """The secrets consistent with a match's replies (its opening's secrets narrowed down)."""
    candidates = next(part for label, part in game.openings(game.all_secrets) if label == match.opening)
    for turn in match.turns:
        candidates = game.consistent(candidates, turn.guess, turn.reply)
    return candidates


# --- solve -------------------------------------------------------------------------------------


def parse_history(game, items: list[str]) -> list[tuple[int, int, str]]:
    """`GUESS=REPLY` items as (guess, reply, the item as written)."""
    moves = []
    for item in items:
        guess, eq, reply = item.partition("=")
        if not eq or not guess.strip() or not reply.strip():
            raise ArenaError(
                f"--history {item!r}: write GUESS=REPLY, like 1122=1,1 (Mastermind), stoma=1 (Jotto) "
                "or e=2.5 (Hangman: the positions, - for a miss)"
            )
        index = game.guess_index(guess)
        moves.append((index, game.parse_reply_to(index, reply), item))
    return moves


def cmd_solve(args) -> None:
    from ..api.console import make_game, playing_guesser
    from ..api.playing import after_moves, score_text

    if args.list < 0:
        raise ArenaError(f"--list must be 0 or more (0 lists none beyond {LIST_FIRST}), got {args.list}")
    game = make_game(args.game)
    guesser = playing_guesser(args.guesser, "solve")
    if not guesser.deterministic:
        guesser = guesser.seeded(args.seed, 0)
    state = after_moves(game, parse_history(game, args.history or []))
    n = len(state.candidates)
    replies = f"{state.turn} repl{'y' if state.turn == 1 else 'ies'}"
    print(f"{game.spec}: {replies}; {n:,} secret{'s' if n != 1 else ''} possible")
    if state.history and game.finished(state.history[-1][1]):
        print(f"solved: the secret is {game.secrets[state.candidates[0]]}")
        return
    print_possible(game, state.candidates, args.list)
    if game.determined(state.candidates):
        return
    guess = guesser.guess(game, state)
    score = score_text(game, guesser, state.candidates, guess)
    print(f"best next guess by {guesser.label}: {game.guesses[guess]}" + (f", {score}" if score else ""))
    print(game.guess_note(guess, state.candidates))


def print_possible(game, candidates, at_most: int) -> None:
    """The secrets still possible, wrapped: all of them up to `at_most`, else the first few and
    how to see the rest."""
    import textwrap

    n = len(candidates)
    if n < 2 or at_most <= 0 and n > LIST_FIRST:
        return
    shown = [game.secrets[s] for s in candidates[: n if n <= at_most else min(LIST_FIRST, at_most)]]
    more = "" if len(shown) == n else ", ..."
    print(textwrap.fill("possible: " + ", ".join(shown) + more, width=100, subsequent_indent="  "))
    if more:
        print(f"  (the first {len(shown)} of {n:,}; --list {n} lists them all)")


def add_commands(sub) -> None:
    p = sub.add_parser("play", help="play one game: agents, or you, on either side")
    p.add_argument("game", help="game spec, e.g. mastermind or hangman:length=6")
    p.add_argument("--guesser", default="human", help="guesser spec, or human to play yourself (default human)")
    p.add_argument(
        "--chooser",
        default="uniform",
        help="chooser spec: uniform, fixed:secret=X, weighted:file=F, evil, minimax, spoiler, or human "
        "to keep the secret yourself (default uniform)",
    )
    p.add_argument("--secret", default=None, help="the secret (a fixed chooser)")
    p.add_argument("--seed", type=int, default=0, help="seed for random agents (default 0)")
    p.add_argument("--hint", default=None, help="the guesser that ? asks, for --guesser human (default entropy)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("solve", help="the secrets a history of replies leaves, and the best next guess")
    p.add_argument("game", help="game spec, e.g. mastermind or hangman:length=5")
    p.add_argument(
        "--history",
        action="append",
        metavar="GUESS=REPLY",
        help="a guess and its reply, e.g. 1122=1,1 or 1122=1,1,2 (black,white,grey); repeat in order",
    )
    p.add_argument("--guesser", default="entropy", help="the guesser that picks the next guess (default entropy)")
    p.add_argument("--seed", type=int, default=0, help="seed for a random guesser")
    p.add_argument(
        "--list",
        type=int,
        default=LIST_AT_MOST,
        metavar="N",
        help=f"list the secrets still possible when N or fewer remain, else the first {LIST_FIRST} (default {LIST_AT_MOST})",
    )
    p.set_defaults(func=cmd_solve)
