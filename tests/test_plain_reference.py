"""Fast checks of the plain-Python reference implementations in benchmarks/plain.py."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

PLAIN_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "plain.py"
WORDS_PATH = (Path(__file__).parents[1] / ".." / "shared" / "data" / "sgb-words.txt").resolve()


def _load_plain():
    """Import benchmarks/plain.py by path (benchmarks is not a package)."""
    spec = importlib.util.spec_from_file_location("plain_reference", PLAIN_PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


plain = _load_plain()


@pytest.fixture(scope="module")
def words() -> list[str]:
    if not WORDS_PATH.exists():
        pytest.skip(f"word list not found at {WORDS_PATH}")
    return plain.jotto_words(WORDS_PATH)


def test_word_list(words):
    assert len(words) == 2845
    assert all(len(set(w)) == 5 for w in words)
    assert len({frozenset(w) for w in words}) == 2845


def test_jotto_reply():
    assert plain.jotto_reply("ouija", "ouija") == 5
    assert plain.jotto_reply("coder", "decor") == 5
    assert plain.jotto_reply("coder", "hymns") == 0
    assert plain.jotto_reply("stare", "tears") == plain.jotto_reply("tears", "stare") == 5
    assert plain.jotto_reply("abide", "adieu") == 4


def test_partition_counts(words):
    assert plain.partition_counts("ouija", words) == [175, 1848, 755, 65, 1, 1]
    assert plain.partition_counts("coder", words) == [433, 1030, 1014, 327, 40, 1]
    branches = plain.partition("coder", words)
    assert [len(branches.get(r, [])) for r in range(6)] == plain.partition_counts("coder", words)
    assert branches[5] == ["coder"]


def test_metrics():
    assert plain.expectation([1, 1, 2]) == pytest.approx(1.5)
    assert plain.neg_entropy([1, 1, 0, 2]) == pytest.approx(-1.5)
    assert plain.neg_entropy([4]) == 0


def _play(tree, target: str) -> int:
    """Number of guesses to reach target by walking the tree with real replies."""
    n = 1
    while not isinstance(tree, str):
        if tree.guess == target:
            return n
        tree = tree.branches[plain.jotto_reply(tree.guess, target)]
        n += 1
    assert tree == target
    return n


@pytest.mark.parametrize("inconsistent", [False, True])
@pytest.mark.parametrize("metric", ["max", "expectation", "entropy"])
def test_small_tree_depths_match_play(words, metric, inconsistent):
    few = words[:300]
    tree = plain.minimizing_tree(plain.METRICS[metric], few, few, inconsistent)
    depths = plain.tree_depths(tree)
    assert sorted(depths) == sorted(few)
    assert all(depths[t] == _play(tree, t) for t in few)


def test_mastermind_reply():
    assert plain.CODES[0] == "1111" and plain.CODES[-1] == "6666"
    assert len(plain.CODES) == 1296 and plain.CODES == sorted(plain.CODES)
    assert plain.mastermind_reply("1234", "1234") == (4, 0)
    assert plain.mastermind_reply("1234", "4321") == (0, 4)
    assert plain.mastermind_reply("1122", "1212") == (2, 2)
    assert plain.mastermind_reply("1122", "2211") == (0, 4)
    assert plain.mastermind_reply("1111", "1222") == (1, 0)
    assert plain.mastermind_reply("1123", "3111") == (1, 2)
    assert plain.mastermind_reply("5566", "1234") == (0, 0)


def test_lowest_consistent_total():
    depths = plain.lowest_consistent_total()
    assert len(depths) == 1296
    assert sum(depths.values()) == 7471
    assert max(depths.values()) == 9


def test_knuth_choice_small():
    # Two candidates left: a consistent code splits them, and the lower one wins the tie.
    assert plain.knuth_choice(["1234", "5612"]) == "1234"
    # After 1122 -> (1, 0), Knuth's table gives 1344 as the next guess.
    cands = [c for c in plain.CODES if plain.mastermind_reply("1122", c) == (1, 0)]
    assert len(cands) == 256
    assert plain.knuth_choice(cands) == "1344"
