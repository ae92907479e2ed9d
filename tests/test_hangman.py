"""Hangman on the shared engine: feedback, trees checked by hand, losses, level growth."""

import numpy as np
import pytest

import arena.trees.levels as levels
from agents import make_guesser
from arena import ArenaError, make_game
from arena.cli.parser import main
from arena.play.evaluate import evaluate
from arena.trees.grow import grow_tree


@pytest.fixture
def word_file(tmp_path):
    def write(*words):
        path = tmp_path / f"words{len(words)}.txt"
        path.write_text("\n".join(words) + "\n")
        return str(path)

    return write


def positions(letter: str, word: str) -> int:
    return sum(1 << i for i, c in enumerate(word) if c == letter)


def test_feedback_is_the_positions_of_the_letter():
    game = make_game("hangman:length=7,first=400")
    for s in range(0, 400, 13):
        for g, letter in enumerate(game.guesses):
            assert game.masks[game.reply(g, s)] == positions(letter, game.secrets[s])


def test_reply_labels_round_trip():
    game = make_game("hangman:length=7,first=400")
    word = game.secrets.index(next(w for w in game.secrets if w.count(w[0]) > 1))
    letter = game.guess_index(game.secrets[word][0])
    reply = game.reply(letter, word)
    assert game.parse_reply(game.reply_label(reply)) == reply
    assert game.reply_label(0) == "-" and game.parse_reply("miss") == 0
    with pytest.raises(ArenaError, match="positions"):
        game.parse_reply("x.y")


def test_web2_is_234371_words_with_two_skipped():
    game = make_game("hangman")
    assert len(game.secrets) + len(game.skipped) == 234_371
    assert game.skipped == ["jean-christophe", "jean-pierre"]
    assert len(make_game("hangman:other=reveal").secrets) == 234_371
    with pytest.raises(ArenaError, match="outside a-z.*other=skip"):
        make_game("hangman:other=refuse")


def test_a_tree_checked_by_hand(word_file):
    # cat cot cut dog: 'c' and 't' are in 3 words each, the most; the tie goes to 'c'. A miss
    # leaves dog (1 guess, 1 miss); a hit at position 1 leaves cat cot cut, where 't' is now in
    # all three at the same place (useless) and 'a', 'o', 'u' tie: 'a' finds cat (2 guesses,
    # 0 misses) or misses, then 'o' finds cot (3, 1) or misses and leaves cut (3, 2).
    game = make_game(f"hangman:words={word_file('cat', 'cot', 'cut', 'dog')}")
    tree = grow_tree(game, make_guesser("max-frequency:tiebreak=first"))
    root = tree.roots[0]
    assert game.guesses[root.guess] == "c"
    after_c = root.children[game.parse_reply("1")]
    assert game.guesses[after_c.guess] == "a"
    assert game.guesses[after_c.children[0].guess] == "o"
    cost = dict(zip(game.secrets, zip(tree.guesses.tolist(), tree.misses.tolist())))
    assert cost == {"dog": (1, 1), "cat": (2, 0), "cot": (3, 1), "cut": (3, 2)}


def test_losses_are_counted_at_the_strike_limit(word_file):
    game = make_game(f"hangman:strikes=2,words={word_file('cat', 'cot', 'cut', 'dog')}")
    result = evaluate(game, make_guesser("max-frequency:tiebreak=first"), strikes=(1, 2, 3))
    assert [result.lost(k) for k in (1, 2, 3)] == [3, 1, 0]  # misses 1, 0, 1, 2
    assert evaluate(game, make_guesser("max-frequency")).to_json()["lost"] == 1


def test_length_is_told_first():
    game = make_game("hangman:first=3000")
    tree = grow_tree(game, make_guesser("max-frequency"))
    assert {r.opening for r in tree.roots} == {
        f"{n} letter" + "s" * (n != 1)
        for n in set(map(len, game.secrets))
        if sum(len(w) == n for w in game.secrets) > 1
    }
    for root in tree.roots:
        assert len({len(game.secrets[s]) for s in root.candidates}) == 1


@pytest.mark.parametrize("spec", ["hangman:length=5,first=600", "hangman:first=2500", "hangman:length=9,first=900"])
@pytest.mark.parametrize(
    "guesser_spec",
    [
        "max-frequency",
        "expected",
        "minimax",
        "most-parts",
        "entropy:ties=exact",
        "max-frequency:openers=e+s",
        "expected:pool=consistent",
    ],
)
def test_level_growth_gives_the_per_node_tree(spec, guesser_spec, monkeypatch):
    game, guesser = make_game(spec), make_guesser(guesser_spec)
    assert levels.can_grow_by_levels(game, guesser)
    fast = grow_tree(game, guesser)
    with monkeypatch.context() as m:
        m.setattr(levels, "can_grow_by_levels", lambda *a: False)
        slow = grow_tree(game, guesser)
    assert np.array_equal(fast.guesses, slow.guesses) and np.array_equal(fast.misses, slow.misses)
    shape = lambda t: [(n.guess, n.candidates.tolist(), n.replies, n.opening) for n in t.nodes()]
    assert shape(fast) == shape(slow)


def test_sparse_partition_counts_keep_the_miss_first():
    game = make_game("hangman:length=8,first=500")
    candidates = game.all_secrets[::3]
    counts = game.partition_counts(None, candidates)
    assert (counts.sum(axis=1) == len(candidates)).all()
    for g in range(26):
        misses = np.count_nonzero(game.table[g, candidates] == 0)
        assert counts[g, 0] == misses
        assert sorted(counts[g][counts[g] > 0].tolist()) == sorted(
            len(p) for p in game.partition(g, candidates).values()
        )


def test_fewest_misses_is_optimal_on_a_small_dictionary():
    game = make_game("hangman:length=5,first=24")
    exact = evaluate(game, make_guesser("fewest-misses:exact=100"))
    for greedy in ["max-frequency", "expected", "entropy", "minimax", "most-parts"]:
        assert exact.misses.mean() <= evaluate(game, make_guesser(greedy)).misses.mean() + 1e-12


def test_fewest_misses_matches_brute_force(word_file):
    words = ["bat", "cat", "hat", "mat", "rat", "sat", "tab", "tan", "ran", "man"]
    game = make_game(f"hangman:words={word_file(*words)}")

    def brute(cands):  # expected misses, every letter tried at every node
        if len(cands) <= 1:
            return 0.0
        best = np.inf
        for g in range(26):
            parts = game.partition(g, np.array(cands))
            if len(parts) == 1:
                continue
            best = min(best, sum(len(p) / len(cands) * ((r == 0) + brute(p.tolist())) for r, p in parts.items()))
        return best

    result = evaluate(game, make_guesser("fewest-misses"))
    assert result.misses.mean() == pytest.approx(brute(list(range(len(words)))))


def test_hardest_and_compare_commands(capsys, tmp_path):
    assert main(["hardest", "hangman:length=5,first=300", "max-frequency", "--top", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["rank", "secret", "misses", "guesses"] and len(out) == 5
    plot = tmp_path / "d.png"
    assert (
        main(
            [
                "compare",
                "hangman:length=5,first=300",
                "max-frequency",
                "expected",
                "--strikes",
                "3,4",
                "--plot",
                str(plot),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "lost@3" in out and plot.read_bytes()[:4] == b"\x89PNG"


def test_evaluate_json_has_the_hangman_fields(capsys):
    import json

    assert main(["evaluate", "hangman:length=4,first=300", "max-frequency", "--json", "--strikes", "6,9"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"misses_total", "strikes", "lost"} <= set(data) and data["strikes"] == [6, 9]
    assert main(["evaluate", "hangman", "max-frequency", "--strikes", "6,x"]) == 2
