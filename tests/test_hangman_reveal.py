"""Hangman's other=reveal is a rule of the game: the characters outside a-z are shown from the
first move (the word's shape, `_-_` for a-b, is told as the length is), in every solver, agent,
referee and printout; words that differ only in shown characters are distinct secrets, told
apart by their shape.

Each solver is checked against a plain brute force on the words themselves, which groups the
words by shape and splits them by the positions of a letter a-z.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from cli_run import run

from agents import make_chooser, make_guesser
from arena import make_game
from arena.equilibrium import double_oracle, solve_enumerated
from arena.optimal import optimal_tree
from arena.play.evaluate import evaluate
from arena.play.match import evaluate_against, play
from arena.trees.grow import grow_tree

#: The issue's lists: the hyphen's place tells a-b, ab- and abc apart; a-b and a'b, café and
#: cafè differ only in a shown character.
LISTS = {
    "hyphen": ["a-b", "ab-", "abc"],
    "shown only": ["a-b", "a'b"],
    "accents": ["café", "cafè", "cafe", "safe"],
    "mixed": ["x-ray", "x-ray's", "o'er", "over", "ever", "e'er", "pre-war", "pre-wax", "prewar"],
}


def shape(word: str) -> str:
    return re.sub("[a-z]", "_", word)


def plain_misses(words: list[str]) -> int:
    """The least total misses until one word is left, each shape its own game (told first)."""

    def classes(S: frozenset, letter: str) -> list[tuple[bool, frozenset]]:
        by: dict = {}
        for w in S:
            by.setdefault(tuple(i for i, c in enumerate(w) if c == letter), set()).add(w)
        return [(not positions, frozenset(C)) for positions, C in by.items()]

    @cache
    def misses(S: frozenset) -> int:
        if len(S) <= 1:
            return 0
        splits = [p for p in (classes(S, c) for c in "abcdefghijklmnopqrstuvwxyz") if len(p) > 1]
        return min(sum(miss * len(C) + misses(C) for miss, C in p) for p in splits)

    return sum(misses(frozenset(w for w in words if shape(w) == t)) for t in {shape(w) for w in words})


def reveal_game(tmp_path, words: list[str], extra: str = ""):
    path = tmp_path / f"w{abs(hash(tuple(words)))}.txt"
    path.write_text("\n".join(words) + "\n")
    return make_game(f"hangman:words={path},other=reveal{extra}")


@pytest.mark.parametrize("name", list(LISTS))
def test_the_exact_search_sees_the_shape(tmp_path, name):
    game = reveal_game(tmp_path, LISTS[name])
    tree = optimal_tree(game)
    assert tree.exact and tree.value == plain_misses(LISTS[name])
    assert len(tree.secrets) == len(LISTS[name])  # every word, those alone in their shape too


def test_the_issue_s_hyphen_list_needs_no_miss(tmp_path, capsys):
    """Was "proven" at a positive number of misses where the hyphen's place tells them apart."""
    game = reveal_game(tmp_path, LISTS["hyphen"])
    assert optimal_tree(game).value == 0
    assert [label for label, _ in game.openings(game.all_secrets)] == ["3 letters", "3 letters _-_", "3 letters __-"]


@pytest.mark.parametrize("trial", range(25))
def test_random_lists_match_the_brute_force(tmp_path, trial):
    rng = random.Random(trial)
    words = sorted({"".join(rng.choice("abc-'") for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(3, 12))})
    words = [w for w in words if re.search("[a-z]", w)]
    if len(words) < 2:
        return
    game = reveal_game(tmp_path, words)
    assert optimal_tree(game).value == plain_misses(words)
    # the exact guesser and a scoring one, evaluated over every word (no IndexError on twins)
    exact = evaluate(game, make_guesser("fewest-misses"))
    assert exact.n == len(words) and int(exact.misses.sum()) == plain_misses(words)
    greedy = evaluate(game, make_guesser("max-frequency"))
    assert greedy.n == len(words) and int(greedy.misses.sum()) >= plain_misses(words)


@pytest.mark.parametrize(
    "guesser", ["lowest", "random", "entropy", "knuth", "max-frequency", "fewest-misses", "optimal"]
)
def test_every_guesser_tells_shown_only_twins_apart(tmp_path, guesser):
    """a-b and a'b crashed evaluate and play (IndexError in agents/simple.py)."""
    game = reveal_game(tmp_path, LISTS["shown only"] + ["abb", "bab"])
    result = evaluate(game, make_guesser(guesser))
    assert result.n == 4
    twins = [game.secrets.index("a-b"), game.secrets.index("a'b")]
    assert result.guesses[0, twins].tolist() == [0, 0]  # alone in its shape: known before any letter
    tree = grow_tree(game, make_guesser(guesser)) if guesser != "random" else None
    assert tree is None or sorted(tree.secrets.tolist()) == list(range(4))


def test_the_referee_and_the_adversaries(tmp_path):
    game = reveal_game(tmp_path, LISTS["mixed"])
    for chooser in ("uniform", "evil", "minimax"):
        result = evaluate_against(game, make_guesser("entropy"), make_chooser(chooser))
        assert result.n >= 1
    transcript = play(game, make_guesser("lowest"), game.secrets.index("x-ray"))
    assert transcript.lines()[-1].split("Reply: ")[1].startswith("x - r a y")


def test_equilibria_see_the_shape(tmp_path):
    game = reveal_game(tmp_path, LISTS["accents"] + ["safé"])
    by_oracle = double_oracle(game)
    by_listing = solve_enumerated(game)
    assert by_oracle.value == pytest.approx(by_listing.value)
    alone = reveal_game(tmp_path, LISTS["hyphen"])  # every shape one word: nothing to guess
    assert double_oracle(alone).value == pytest.approx(0)


def test_play_prints_the_shown_characters_from_the_first_move(tmp_path, capsys):
    """`arena play` printed `_ _ _` for a-b."""
    path = tmp_path / "rev.txt"
    path.write_text("\n".join(LISTS["hyphen"]) + "\n")
    rc, out, err = run(
        capsys, "play", f"hangman:words={path},other=reveal", "--guesser", "lowest", "--chooser", "fixed:secret=a-b"
    )
    assert rc == 0, err
    assert "The word has 3 letters: _ - _ (1 possible)" in out


def test_without_reveal_nothing_changes(tmp_path):
    game = make_game("hangman:length=5,first=40")
    assert [label for label, _ in game.openings(game.all_secrets)] == ["5 letters"]
    mixed = make_game("hangman:first=60")
    labels = [label for label, _ in mixed.openings(mixed.all_secrets)]
    assert all(re.fullmatch(r"\d+ letters?", label) for label in labels)
