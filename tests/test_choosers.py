"""Choosers against scripted guessers, with their exact replies asserted (Axelrod style), the
referee's checks, and the issue's figures: what evil, minimax and spoiler force."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from agents import Guesser, make_chooser, make_guesser
from agents.adversary import WorstCase
from agents.chooser import Chooser
from arena import ArenaError, RuleBreak, make_game
from arena.core.traits import Traits
from arena.play.evaluate import evaluate
from arena.play.match import evaluate_against as evaluate_agents
from arena.play.match import play_match
from arena.trees.grow import grow_tree


def evaluate_against(game, guesser, chooser, **options):
    """arena.play.match.evaluate_against, with the agents given as specs (the engine takes agents)."""
    guesser = make_guesser(guesser) if isinstance(guesser, str) else guesser
    chooser = make_chooser(chooser) if isinstance(chooser, str) else chooser
    return evaluate_agents(game, guesser, chooser, **options)


class Script(Guesser):
    """Plays the guesses it is given, in order, whatever the replies; then the lowest consistent."""

    name = "script"

    def __init__(self, *guesses: str):
        super().__init__()
        self.script = guesses

    def choose(self, game, state):
        if state.turn < len(self.script):
            return game.guess_index(self.script[state.turn])
        return int(game.candidate_guesses(state.candidates)[0])


class Liar(Chooser):
    """Answers every guess with the same reply, possible or not."""

    name = "liar"
    traits = Traits(adversary=True)

    def reply(self, game, state, guess):
        return int(game.codes[0])


def replies(game, guesser, chooser, **kw) -> list[str]:
    match = play_match(game, guesser, make_chooser(chooser) if isinstance(chooser, str) else chooser, **kw)
    return [game.reply_label(t.reply) for t in match.turns]


@pytest.fixture
def words(tmp_path):
    def write(*listed: str) -> str:
        path = tmp_path / f"w{len(listed)}.txt"
        path.write_text("\n".join(listed) + "\n")
        return str(path)

    return write


# --- the evil rule, reply by reply ---------------------------------------------------------


def test_evil_mastermind_answers_knuths_line(mastermind):
    script = Script("1122", "3345", "3636", "4544", "5455")
    assert replies(mastermind, script, "evil") == ["0,0", "1,1", "0,0", "0,2", "4,0"]


def test_evil_holds_the_hit_back():
    game = make_game("mastermind:pegs=2,colors=2")
    # 12: {11, 22} answer 1,0, the largest class; 11 then splits {11, 22} into the hit and 0,0:
    # a tie, and the hit reveals most
    assert replies(game, Script("12", "11", "22"), "evil") == ["1,0", "0,0", "2,0"]


def test_evil_hangman_keeps_the_largest_class_then_reveals_least(words):
    game = make_game(f"hangman:words={words('aab', 'bba', 'ccc', 'ddd', 'cdc')}")
    # a: the miss class {ccc, ddd, cdc} is largest
    # c: {ccc} at 1.2.3, {cdc} at 1.3, {ddd} a miss: all of size one, the miss reveals least
    # d: {ddd} is all that is left
    assert replies(game, Script("a", "c", "d"), "evil") == ["-", "-", "1.2.3"]


def test_evil_ties_go_to_fewest_positions_not_lowest_code(words):
    game = make_game(f"hangman:words={words('aab', 'bba')}")
    # a: {aab} shows positions 1.2 (the lower code), {bba} only 3: evil shows less
    assert replies(game, Script("a", "b"), "evil") == ["3", "1.2"]


def test_evil_jotto_keeps_the_largest_class(jotto):
    # ouija splits Norvig's words [175, 1848, 755, 65, 1, 1]: evil answers 1; coder then splits
    # those 1,848 into [280, 641, 646, 243, 37, 1]: evil answers 2
    got = replies(jotto, Script("ouija", "coder"), "evil")
    assert got[:2] == ["1", "2"] and got[-1] == "5"
    after_ouija = jotto.consistent(jotto.all_secrets, jotto.guess_index("ouija"), 1)
    counts = jotto.partition_counts(np.array([jotto.guess_index("coder")]), after_ouija)[0]
    assert counts.tolist() == [280, 641, 646, 243, 37, 1]


# --- the referee -----------------------------------------------------------------------------


def test_a_reply_that_leaves_no_secret_is_refused(mastermind):
    # 0,0 to 1111 .. 5555 is possible (the secret would be 6666); to 6666 it is not
    with pytest.raises(
        RuleBreak, match=r"chooser liar broke the rules: reply 0,0 to guess 6 \(6666\) leaves no secret"
    ):
        play_match(mastermind, Script("1111", "2222", "3333", "4444", "5555", "6666"), Liar())


def test_a_reply_that_is_no_reply_is_refused(mastermind):
    class Junk(Liar):
        name = "junk"

        def reply(self, game, state, guess):
            return 99

    with pytest.raises(RuleBreak, match=r"chooser junk gave 99 to guess 1 \(1122\)"):
        play_match(mastermind, make_guesser("knuth"), Junk())


def test_committed_choosers_play_their_secret(mastermind):
    match = play_match(mastermind, make_guesser("knuth"), make_chooser("fixed:secret=3632"))
    assert [mastermind.guesses[t.guess] for t in match.turns] == ["1122", "1344", "3526", "1462", "3632"]
    assert match.solved and match.guesses == 5
    with pytest.raises(ArenaError, match="'9999' is not a secret of mastermind"):
        play_match(mastermind, make_guesser("knuth"), make_chooser("fixed:secret=9999"))


def test_uniform_against_is_evaluate(mastermind):
    ours = evaluate_against(mastermind, "knuth", "uniform")
    assert ours.total == 5801 and ours.chooser == "uniform"
    random = evaluate_against(mastermind, "random", "uniform", repeat=2, seed=4)
    assert np.array_equal(random.guesses, evaluate(mastermind, make_guesser("random"), repeat=2, seed=4).guesses)


def test_weighted_draws_only_from_its_weights(mastermind, tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("1122 3\n3632 1  # a comment\n")
    result = evaluate_against(mastermind, "knuth", f"weighted:file={path}", repeat=40, seed=1)
    drawn = [g["secret"] for g in result.games()]
    assert set(drawn) == {"1122", "3632"} and drawn.count("1122") > drawn.count("3632")
    assert set(result.guesses.ravel().tolist()) == {1, 5}
    assert result.games() == evaluate_against(mastermind, "knuth", f"weighted:file={path}", repeat=40, seed=1).games()


def test_interactive_agents_are_not_evaluated(mastermind):
    with pytest.raises(ArenaError, match="plays interactively"):
        evaluate_against(mastermind, "human", "uniform")


# --- what the adversaries force: the figures ------------------------------------------


@pytest.mark.parametrize("chooser", ["evil", "minimax", "spoiler"])
def test_knuth_never_needs_more_than_five(mastermind, chooser):
    assert evaluate_against(mastermind, "knuth", chooser).max <= 5


def test_spoiler_makes_knuth_need_five_and_lc_nine(mastermind):
    assert evaluate_against(mastermind, "knuth", "spoiler:against=knuth").guesses.tolist() == [[5]]
    assert evaluate_against(mastermind, "lowest", "spoiler:against=lowest").guesses.tolist() == [[9]]


def test_spoiler_forces_norvigs_worst_case_ten(jotto):
    norvig = "entropy:pool=all,small=3,tiebreak=first"
    assert evaluate_against(jotto, norvig, "spoiler").guesses.tolist() == [[10]]
    named = evaluate_against(jotto, norvig, "spoiler:against=entropy:pool=all;small=3;tiebreak=first", seed=2)
    assert named.guesses.tolist() == [[10]]


def test_spoiler_ties_are_seeded(mastermind):
    def secret(seed):
        return evaluate_against(mastermind, "knuth", "spoiler", seed=seed).games()[0]["secret"]

    worst = {mastermind.secrets[s] for s in np.flatnonzero(grow_tree(mastermind, make_guesser("knuth")).guesses == 5)}
    drawn = {secret(seed) for seed in range(6)}
    assert drawn <= worst and len(drawn) > 1 and secret(3) == secret(3)


@pytest.mark.parametrize("spec", ["hangman:length=5,first=300", "hangman:first=1500"])
def test_hangman_spoiler_is_the_worst_word_and_evil_never_exceeds_it(spec):
    game = make_game(spec)
    guesser = make_guesser("max-frequency:tiebreak=first")
    tree = grow_tree(game, guesser)
    evil = evaluate_against(game, guesser, "evil")
    spoiler = evaluate_against(game, guesser, "spoiler:against=max-frequency")
    minimax = evaluate_against(game, guesser, "minimax")
    for k, (label, secrets) in enumerate(game.openings(game.all_secrets)):
        worst = tree.misses[secrets].max()
        assert spoiler.misses[0, k] == worst, label
        assert evil.misses[0, k] <= worst and minimax.misses[0, k] <= worst, label


def test_hangman_is_played_in_full_but_counted_as_evaluate_counts():
    game = make_game("hangman:length=6,first=400")
    guesser = make_guesser("max-frequency:tiebreak=first")
    tree = grow_tree(game, guesser)
    for secret in range(0, 400, 37):
        match = play_match(game, guesser, make_chooser(f"fixed:secret={game.secrets[secret]}"))
        word = game.secrets[secret]
        hits = [game.guesses[t.guess] for t in match.turns if t.reply]
        assert match.solved and sorted(hits) == sorted(set(word))  # every letter shown, once
        assert (match.guesses, match.misses) == (tree.guesses[secret], tree.misses[secret])


# --- the minimax chooser's search ---------------------------------------------------------


def brute_worst_case(game, candidates) -> int:
    """W(C) by plain recursion over every guess (the definition in agents/adversary.py)."""
    hits = game.hit is not None

    @functools.cache
    def w(key: tuple) -> int:
        c = np.array(key)
        if len(c) <= 1:
            return len(c) if hits else 0
        best = 10**9
        for g in range(len(game.guesses)):
            parts = game.partition(g, c)
            if max(len(p) for p in parts.values()) < len(c):
                best = min(
                    best,
                    max(
                        (1 if hits else int(game.is_miss(r))) + (0 if game.finished(r) else w(tuple(p)))
                        for r, p in parts.items()
                    ),
                )
        return best

    return w(tuple(candidates.tolist()))


@pytest.mark.parametrize("spec", ["mastermind:pegs=2,colors=4", "jotto:first=12", "hangman:length=4,first=40"])
def test_worst_case_search_is_exact(spec):
    game = make_game(spec)
    rng = np.random.default_rng(7)
    for n in (4, 7, 10):
        candidates = np.sort(rng.choice(len(game.secrets), min(n, len(game.secrets)), replace=False))
        assert WorstCase(game, 16).value(candidates, 0) == brute_worst_case(game, candidates)


def test_minimax_chooser_keeps_the_hardest_class_not_the_largest():
    game = make_game("mastermind:pegs=3,colors=3")
    # 112 leaves six codes after 1,0 and six after 2,0; evil takes 1,0 (fewer pegs shown), but
    # the best guesser needs 3 more guesses after 2,0 and only 2 after 1,0
    parts = game.partition(game.guess_index("112"), game.all_secrets)
    one, two = parts[game.parse_reply("1,0")], parts[game.parse_reply("2,0")]
    assert len(one) == len(two) == 6
    assert brute_worst_case(game, one) == 2 and brute_worst_case(game, two) == 3
    knuth = make_guesser("knuth")
    assert replies(game, knuth, "evil") == ["1,0", "0,0", "3,0"]
    assert replies(game, knuth, "minimax") == ["2,0", "1,0", "1,2", "3,0"]


def test_bad_chooser_specs():
    with pytest.raises(ArenaError, match="unknown chooser 'evill'.*evil.*minimax.*spoiler.*uniform"):
        make_chooser("evill")
    with pytest.raises(ArenaError, match="depth"):
        make_chooser("minimax:depth=-1")
    with pytest.raises(ArenaError, match="spoiler:against=GUESSER"):
        play_match(make_game("mastermind"), make_guesser("human"), make_chooser("spoiler"))


@pytest.mark.parametrize(
    "content, needle",
    [
        ("1122 -1\n", "non-negative"),
        ("1122 x\n", "not a number"),
        ("1122\n", "one 'secret weight' a line"),
        ("9999 1\n", "not a secret"),
        ("1122 0\n", "every weight is 0"),
        ('{"1122": "lots"}', "not a number"),
    ],
)
def test_bad_weights_are_named(mastermind, tmp_path, content, needle):
    path = tmp_path / "w.txt"
    path.write_text(content)
    with pytest.raises(ArenaError, match=needle):
        play_match(mastermind, make_guesser("knuth"), make_chooser(f"weighted:file={path}"))
