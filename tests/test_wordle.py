"""Wordle (arena/games/wordle.py): the reply rule against a direct definition, how replies are
written and read, hard mode's refusals and the guessers' legality in it, the partition and
tree invariants, and every command on small instances (`first=N`). One test builds the full
2,315 x 12,972 table."""

from __future__ import annotations

import io
import sys
from collections import Counter

import numpy as np
import pytest
from cli_run import one_line, run
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import make_chooser, make_guesser
from arena import make_game
from arena.core.errors import ArenaError, RuleBreak
from arena.core.players import GuesserProtocol
from arena.core.traits import Traits
from arena.games.wordle import letter_codes, wordle_table
from arena.play.match import Scripted, play_match
from arena.trees.grow import grow_tree

SMALL = ["wordle:first=12", "wordle:hard=true,first=12"]
GREEDY = ["minimax", "expected", "entropy", "most-parts"]


def official(guess: str, answer: str) -> str:
    """The reply written G/Y/. by the rule as stated: greens first, then yellows left to right,
    each using up one unmatched copy of the letter in the answer."""
    marks = ["."] * len(guess)
    unmatched = Counter(a for g, a in zip(guess, answer) if g != a)
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            marks[i] = "G"
    for i, g in enumerate(guess):
        if marks[i] != "G" and unmatched[g] > 0:
            marks[i] = "Y"
            unmatched[g] -= 1
    return "".join(marks)


def reply_of(game, guess: str, answer: str) -> str:
    return game.reply_label(game.reply(game.guess_index(guess), game.secrets.index(answer)))


@pytest.fixture(scope="module")
def full():
    return make_game("wordle")


# --- the reply rule ----------------------------------------------------------------------

REPEATS = [
    ("etude", "poems", "Y...."),
    ("speed", "abide", "..Y.Y"),
    ("eerie", "there", "Y.Y.G"),
    ("llama", "hello", "YY..."),
    ("lolly", "hello", ".YGG."),
    ("speed", "crepe", ".YGY."),
    ("abbey", "kebab", "YYGY."),
    ("eerie", "elder", "GYY.."),
    ("mamma", "magma", "GG.GG"),
]


@pytest.mark.parametrize("guess,answer,expected", REPEATS)
def test_repeated_letters_by_the_official_rule(guess, answer, expected):
    assert official(guess, answer) == expected
    table = wordle_table(letter_codes([guess]), letter_codes([answer]))
    game = make_game("wordle:first=1")
    assert game.reply_label(int(table[0, 0])) == expected


def test_every_pair_of_repeated_letter_words_matches_the_direct_definition():
    """All pairs of words with repeated letters (the hard cases), through the vectorised build."""
    words = [
        "etude",
        "poems",
        "speed",
        "abide",
        "eerie",
        "there",
        "llama",
        "hello",
        "lolly",
        "mamma",
        "magma",
        "abbey",
        "kebab",
        "geese",
        "eexee",
        "aaaaa",
        "array",
        "radar",
        "sassy",
        "essay",
    ]
    table = wordle_table(letter_codes(words), letter_codes(words))
    game = make_game("wordle:first=1")
    for i, g in enumerate(words):
        for j, s in enumerate(words):
            assert game.reply_label(int(table[i, j])) == official(g, s), (g, s)


def test_the_full_table_on_a_seeded_sample_of_pairs(full):
    """The one full build: 2,315 answers x 12,972 guesses, checked on 20,000 random pairs."""
    assert (len(full.secrets), len(full.guesses)) == (2315, 12972)
    assert set(full.secrets) <= set(full.guesses) and full.table.dtype == np.uint8
    assert full.hit == 242 and full.reply_label(full.hit) == "GGGGG" and full.n_codes == 243
    rng = np.random.default_rng(12)
    guesses, secrets = rng.integers(0, 12972, 20_000), rng.integers(0, 2315, 20_000)
    for g, s in zip(guesses.tolist(), secrets.tolist()):
        assert full.reply_label(int(full.table[g, s])) == official(full.guesses[g], full.secrets[s])
    named = full.same_secret >= 0
    assert (full.table[named, full.same_secret[named]] == full.hit).all()
    assert reply_of(full, "salet", "cigar") == ".Y..."


def test_absurdle_tie_rule_fewest_greens_then_yellows_then_clues_rightmost(full):
    """told is greens * 6 + yellows; the evil chooser's last tie, the lowest code, prefers the
    clues furthest right (first position most significant, grey < yellow < green)."""
    codes = np.array([full.parse_reply(r) for r in ["G....", "YYYY.", "....Y", "Y....", "....."]])
    assert full.told(codes).tolist() == [6, 4, 1, 1, 0]
    assert full.parse_reply("....Y") < full.parse_reply("Y....")
    shown = full.reveals()
    assert shown[full.hit] == shown.max() and (shown[np.arange(full.hit)] < shown[full.hit]).all()


# --- writing and reading replies --------------------------------------------------------------


def test_labels_round_trip_and_squares_are_read(full):
    for code in full.codes.tolist():
        assert full.parse_reply(full.reply_label(code)) == code
    green = full.parse_reply("GGGGG")
    assert full.parse_reply("🟩🟩🟩🟩🟩") == green == full.hit
    assert full.parse_reply("🟩🟨⬛⬜⬛") == full.parse_reply("GY...") == full.parse_reply("gy-_.")
    assert full.parse_reply("⬛️🟨⬛️⬛️🟩") == full.parse_reply(" .Y..G ")  # variation selectors, spaces
    assert full.reply_help().startswith("5 marks")


@pytest.mark.parametrize(
    "text,needle",
    [("GYX..", "'X' is not a mark"), ("GY..", "has 4 marks, not 5"), ("GGGGY", "never occurs"), ("", "has 0 marks")],
)
def test_malformed_replies_are_one_line(full, text, needle):
    with pytest.raises(ArenaError, match=needle) as e:
        full.parse_reply(text)
    assert "\n" not in str(e.value)


def test_options_and_their_mistakes(capsys, tmp_path):
    small = make_game("wordle:first=12")
    assert len(small.secrets) == len(small.guesses) == 12
    assert len(make_game("wordle:first=12,guesses=wordle").guesses) == 12972
    words = tmp_path / "six.txt"
    words.write_text("planet\nPLANTS\nrocket\nbad\nrocket\n")
    six = make_game(f"wordle:answers={words},length=6")
    assert six.secrets == ("planet", "plants", "rocket") and six.n_codes <= 3**6 and six.hit == 3**6 - 1
    for argv, needles in [
        (["evaluate", "wordle:length=6", "entropy"], ["no words of 6 letters"]),
        (["evaluate", "wordle:first=-1", "entropy"], ["first"]),
        (["evaluate", "wordle:answers=/no/such", "entropy"], ["/no/such"]),
        (["solve", "wordle:first=12", "--history", "aback=GGX.."], ["'X' is not a mark"]),
    ]:
        one_line(*run(capsys, *argv)[::2], *needles)


# --- hard mode ---------------------------------------------------------------------------------


class Sequence(GuesserProtocol):
    """A guesser that plays the given words in order (to break hard mode on purpose)."""

    traits = Traits()
    deterministic = True

    def __init__(self, game, words):
        self.spec = self.label = "sequence"
        self.plan = [game.guess_index(w) for w in words]

    def openers_for(self, game):
        return ()

    def guess(self, game, state):
        return self.plan[state.turn]


def test_a_guess_breaking_hard_mode_is_refused_by_the_referee():
    hard = make_game("wordle:hard=true,first=40,guesses=wordle")
    secret = hard.secrets.index("abbey")
    assert reply_of(hard, "salet", "abbey") == ".Y.G."
    chooser = Scripted(lambda g: hard.reply(g, secret), secret=secret)
    with pytest.raises(
        RuleBreak,
        match=r"guesser sequence broke the rules at guess 2 \(crane\): hard mode: "
        r"letter 4 must be E \(green in guess 1, salet .Y.G.\)",
    ):
        play_match(hard, Sequence(hard, ["salet", "crane"]), chooser)
    with pytest.raises(RuleBreak, match="the guess must use A"):
        play_match(hard, Sequence(hard, ["salet", "tweed"]), chooser)
    match = play_match(hard, Sequence(hard, ["salet", "abbey"]), chooser)  # legal: it may be the secret
    assert match.solved and match.guesses == 2
    normal = make_game("wordle:first=40,guesses=wordle")  # the same moves are fine in normal play
    assert play_match(
        normal,
        Sequence(normal, ["salet", "crane", "abbey"]),
        Scripted(lambda g: normal.reply(g, secret), secret=secret),
    ).solved
    with pytest.raises(RuleBreak, match="hard mode"):
        grow_tree(hard, Sequence(hard, ["salet", "crane", "abbey"]), np.array([secret]))


def test_solve_refuses_a_history_that_breaks_hard_mode(capsys):
    rc, out, err = run(capsys, "solve", "wordle:hard=true", "--history", "salet=..Y.G", "--history", "crane=.....")
    one_line(rc, err, "guess 2, crane=....., breaks the rules: hard mode: letter 5 must be T")
    rc, out, err = run(capsys, "solve", "wordle", "--history", "salet=..Y.G", "--history", "crane=.....")
    assert rc == 0, err


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 12971), min_size=1, max_size=3), st.integers(0, 39))
def test_allowed_guesses_are_exactly_those_not_refused(guesses, secret):
    hard = make_game("wordle:hard=true,first=40,guesses=wordle")
    history = tuple((g, hard.reply(g, secret)) for g in guesses)
    allowed = hard.allowed_guesses(history)
    sample = np.unique(np.r_[allowed[:50], np.random.default_rng(secret).integers(0, 12972, 200)])
    for g in sample.tolist():
        assert (hard.refusal(g, history) is None) == (g in set(allowed.tolist()))
    assert secret in set(hard.same_secret[allowed].tolist())  # the secret is always allowed


def hard_legal(game, tree) -> int:
    """Every guess of the tree checked against hard mode after its history: the nodes checked."""
    checked = 0
    stack = [(root, ()) for root in tree.roots]
    while stack:
        node, history = stack.pop()
        assert game.refusal(node.guess, history) is None, (history, game.guesses[node.guess])
        checked += 1
        stack.extend((child, history + ((node.guess, reply),)) for reply, child in node.children.items())
    return checked


@pytest.mark.parametrize("metric", GREEDY)
def test_greedy_guessers_play_legally_in_hard_mode(metric):
    hard = make_game("wordle:hard=true,first=60,guesses=wordle")
    normal = make_game("wordle:first=60,guesses=wordle")
    tree = grow_tree(hard, make_guesser(metric))
    assert hard_legal(hard, tree) > 1 and (tree.guesses[hard.all_secrets] > 0).all()
    # the restriction binds: the same guesser in normal play makes a guess hard mode refuses
    loose = grow_tree(normal, make_guesser(metric))
    with pytest.raises(AssertionError):
        hard_legal(hard, loose)
    match = play_match(hard, make_guesser(metric), make_chooser("evil"))
    assert match.solved


# --- invariants on small instances --------------------------------------------------------------

SPECS = [
    "wordle:first=30",
    "wordle:hard=true,first=30",
    "wordle:first=25,guesses=wordle",
    "jotto:positions=true,first=40",
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SPECS), st.data())
def test_partitions_sum_to_the_candidates(spec, data):
    game = make_game(spec)
    n = len(game.secrets)
    candidates = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n))))
    pool = np.array(sorted(data.draw(st.sets(st.integers(0, len(game.guesses) - 1), min_size=1, max_size=30))))
    counts = game.partition_counts(pool, candidates)
    assert (counts.sum(axis=1) == len(candidates)).all()
    for i, g in enumerate(pool[:5].tolist()):
        parts = game.partition(g, candidates)
        assert np.array_equal(np.sort(np.concatenate(list(parts.values()))), candidates)
        assert {r: len(p) for r, p in parts.items()} == {r: int(c) for r, c in enumerate(counts[i]) if c}


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SPECS), st.sampled_from(GREEDY + ["lowest", "minimax:pool=consistent"]))
def test_trees_cover_every_secret_once(spec, guesser):
    game = make_game(spec)
    tree = grow_tree(game, make_guesser(guesser))
    reached = np.zeros(len(game.secrets), dtype=int)
    for node in tree.nodes():
        named = game.same_secret[node.guess]
        if named >= 0 and named in set(node.candidates.tolist()):
            reached[named] += 1  # the secret is hit here
            assert tree.guesses[named] == node.depth + 1
        children = [c.candidates for c in node.children.values()]
        below = np.concatenate(children) if children else np.zeros(0, dtype=int)
        assert len(set(below.tolist())) == len(below)  # the classes are disjoint
    assert (reached == 1).all()
    if game.rules.restricted:
        hard_legal(game, tree)


# --- every command on small instances -------------------------------------------------------------

COMMANDS = ["wordle:first=12", "wordle:hard=true,first=12", "jotto:positions=true,first=12"]


@pytest.mark.parametrize("spec", COMMANDS)
def test_evaluate_rank_tree_and_solve(capsys, spec):
    game = make_game(spec)
    for argv in (
        ["evaluate", spec, "entropy"],
        ["evaluate", spec, "lookahead:pool=consistent"],
        ["rank", spec, "minimax", "--top", "3"],
        ["tree", spec, "expected"],
        ["evaluate", spec, "most-parts", "--chooser", "evil"],
    ):
        rc, out, err = run(capsys, *argv)
        assert rc == 0 and out, (argv, err)
    first, secret = game.guesses[0], game.secrets[5]
    reply = game.reply_label(game.reply(0, 5))
    rc, out, err = run(capsys, "solve", spec, "--history", f"{first}={reply}")
    assert rc == 0 and f"{game.spec}: 1 reply" in out, err
    assert secret in out or "best next guess" in out


@pytest.mark.parametrize("spec", COMMANDS)
@pytest.mark.parametrize("chooser", ["uniform", "fixed", "weighted", "evil", "minimax", "spoiler", "equilibrium"])
def test_play_with_every_chooser(capsys, tmp_path, spec, chooser):
    game = make_game(spec)
    if chooser == "fixed":
        chooser = f"fixed:secret={game.secrets[3]}"
    elif chooser == "weighted":
        weights = tmp_path / "w.txt"
        weights.write_text("".join(f"{s} {i + 1}\n" for i, s in enumerate(game.secrets)))
        chooser = f"weighted:file={weights}"
    rc, out, err = run(capsys, "play", spec, "--guesser", "entropy", "--chooser", chooser)
    assert rc == 0, err
    assert "Solved in" in out and "Guess 1:" in out


@pytest.mark.parametrize("spec", COMMANDS)
def test_a_human_on_either_side(capsys, monkeypatch, spec):
    game = make_game(spec)
    secret = 4
    words = []
    guesser = make_guesser("entropy")
    # the human guesser types entropy's guesses; the human chooser types the secret's replies
    tree = grow_tree(game, guesser)
    node, replies = tree.root, []
    while True:
        words.append(game.guesses[node.guess])
        reply = game.reply(node.guess, secret)
        replies.append(game.reply_label(reply))
        if game.finished(reply):
            break
        node = node.children[reply]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(words) + "\n"))
    rc, out, err = run(capsys, "play", spec, "--secret", game.secrets[secret])
    assert rc == 0 and f"Solved in {len(words)} guess" in out, err
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(replies) + "\n"))
    rc, out, err = run(capsys, "play", spec, "--guesser", "entropy", "--chooser", "human")
    assert rc == 0 and f"Solved in {len(words)} guess" in out, err


def test_human_guesser_is_told_when_a_guess_breaks_hard_mode(capsys, monkeypatch):
    spec = "wordle:hard=true,first=40,guesses=wordle"
    typed = "salet\ncrane\nabbey\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    rc, out, err = run(capsys, "play", spec, "--secret", "abbey")
    assert rc == 0, err
    assert "  hard mode: letter 4 must be E (green in guess 1, salet .Y.G.)" in out.splitlines()
    assert "Solved in 2 guesses." in out


@pytest.mark.parametrize("spec", ["wordle:first=8", "wordle:hard=true,first=8", "jotto:positions=true,first=8"])
def test_equilibrium_and_optimal_on_small_instances(capsys, spec):
    rc, out, err = run(capsys, "equilibrium", spec, "--json")
    assert rc == 0, err
    rc, out, err = run(capsys, "equilibrium", spec, "--guessers", "minimax,entropy,lowest", "--json")
    assert rc == 0, err
    pool = ["--pool", "consistent"] if "hard" in spec else []  # see test_optimal_in_hard_mode below
    rc, out, err = run(capsys, "optimal", spec.replace("first=8", "first=20"), *pool, "--json")
    assert rc == 0 and '"total"' in out, err


def test_the_consistent_optimum_is_legal_in_hard_mode(capsys, tmp_path):
    """The exact search's consistent pool is legal in hard mode (consistent guesses always are):
    its saved tree replays through the hard-mode referee."""
    saved = tmp_path / "t.json"
    rc, out, err = run(capsys, "optimal", "wordle:hard=true,first=20", "--pool", "consistent", "--save", str(saved))
    assert rc == 0, err
    rc, out, err = run(capsys, "evaluate", "wordle:hard=true,first=20", f"tree:file={saved}")
    assert rc == 0, err


def test_a_tiny_tournament(capsys, tmp_path):
    config = tmp_path / "t.toml"
    config.write_text(
        'title = "tiny"\nseed = 1\nrepeat = 2\n'
        'games = ["wordle:first=12", "wordle:hard=true,first=12", "jotto:positions=true,first=12"]\n'
        'choosers = ["uniform", "evil"]\nguessers = ["minimax", "entropy", "lowest"]\n'
    )
    rc, out, err = run(capsys, "run", str(config), "--cells")
    assert rc == 0, err
    assert "wordle:hard=true,first=12" in out and "jotto:positions=true,first=12" in out
    assert "lowest  wordle:hard=true,first=12     evil        4.0    4.00       4" in out
