"""Strategy trees: every secret covered once, tables, JSON round trips, rule breaks."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents import METRICS, make_guesser
from agents.base import Guesser
from arena import ArenaError, RuleBreak, make_game
from arena.play.match import play
from arena.trees.grow import grow_tree
from arena.trees.saved import load_tree

SMALL = [
    "mastermind:pegs=2,colors=3",
    "mastermind:pegs=3,colors=4",
    "jotto:first=60",
    "mastermind:pegs=3,colors=5,repeats=false",
]
GUESSERS = ["lowest", "random:seed=4", *[f"{m}:pool={p}" for m in METRICS for p in ("all", "consistent")]]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SMALL), st.sampled_from(GUESSERS))
def test_every_tree_covers_every_secret_exactly_once(spec, guesser_spec):
    game = make_game(spec)
    guesser = make_guesser(guesser_spec)
    guesser = guesser if guesser.deterministic else guesser.seeded(4, 0)
    tree = grow_tree(game, guesser)
    hits = [int(n.guess) for n in tree.nodes() if game.same_secret[n.guess] in n.candidates]
    hit_secrets = [game.same_secret[g] for g in hits]
    assert sorted(hit_secrets) == list(range(len(game.secrets)))  # each secret is hit at exactly one node
    for node in tree.nodes():
        below = [c.candidates for c in node.children.values()]
        hit = [node.candidates[node.candidates == game.same_secret[node.guess]]]
        assert np.array_equal(np.sort(np.concatenate(below + hit)), node.candidates)
        assert all(len(c.replies) == node.depth + 1 for c in node.children.values())


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(SMALL), st.sampled_from(GUESSERS))
def test_tree_costs_equal_single_games(spec, guesser_spec):
    game = make_game(spec)
    guesser = make_guesser(guesser_spec)
    guesser = guesser if guesser.deterministic else guesser.seeded(4, 0)
    tree = grow_tree(game, guesser)
    for secret in range(0, len(game.secrets), max(1, len(game.secrets) // 10)):
        assert len(play(game, guesser, secret).turns) == tree.guesses[secret]


def test_knuth_table_matches_the_study(mastermind):
    tree = grow_tree(mastermind, make_guesser("knuth"))
    rows = tree.rows()
    assert rows[0] == ("", "1122", 1296, 5801, pytest.approx(4.476, abs=1e-3), 5)
    assert rows[1][:4] == ("|", "3345", 256, 1175) and rows[1][5] == 5
    text = tree.table(depth=2).splitlines()
    assert text[0].split() == ["History", "Guess", "Count", "Total", "Avg", "Max"]
    assert text[2].split() == ["|", "3345", "256", "1,175", "4.59", "5"]
    assert all(r[2] >= 3 for r in rows) and [r[2] for r in rows] == sorted((r[2] for r in rows), reverse=True)


def test_json_round_trip_replays_the_same_costs(tmp_path, mastermind):
    tree = grow_tree(mastermind, make_guesser("knuth"))
    path = tmp_path / "knuth.json"
    tree.save(path)
    data = json.loads(path.read_text())
    assert data["game"] == "mastermind" and data["total"] == 5801 and data["root"]["guess"] == "1122"
    again = load_tree(path)
    assert np.array_equal(again.guesses, tree.guesses)
    replay = grow_tree(mastermind, make_guesser(f"tree:file={path}"))
    assert np.array_equal(replay.guesses, tree.guesses)


def test_replay_refuses_another_game_and_bad_files(tmp_path, mastermind):
    tree = grow_tree(mastermind, make_guesser("knuth"))
    path = tmp_path / "k.json"
    tree.save(path)
    with pytest.raises(ArenaError, match="saved for mastermind"):
        grow_tree(make_game("mastermind:pegs=3,colors=4"), make_guesser(f"tree:file={path}"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ArenaError, match="not a saved strategy tree"):
        make_guesser(f"tree:file={bad}")
    pruned = json.loads(path.read_text())
    pruned["root"]["replies"].pop("0,0")
    path.write_text(json.dumps(pruned))
    with pytest.raises(RuleBreak, match="no guess after replies"):
        load_tree(path)


class Stubborn(Guesser):
    name = "stubborn"

    def choose(self, game, state):
        return 0


class Outside(Guesser):
    name = "outside"

    def choose(self, game, state):
        return 10**6


def test_a_guesser_that_makes_no_progress_is_stopped(small_mastermind):
    with pytest.raises(RuleBreak, match="no progress"):
        grow_tree(small_mastermind, Stubborn())


def test_an_illegal_guess_is_stopped(small_mastermind):
    with pytest.raises(RuleBreak, match="illegal guess"):
        grow_tree(small_mastermind, Outside())


def test_no_progress_is_caught_before_python_recursion_runs_out(jotto):
    with pytest.raises(RuleBreak, match="no progress"):
        grow_tree(jotto, Stubborn())


def test_a_replayed_tree_takes_no_openers(tmp_path, mastermind):
    path = tmp_path / "k.json"
    grow_tree(mastermind, make_guesser("knuth")).save(path)
    with pytest.raises(ArenaError, match="unknown parameter 'openers'"):
        make_guesser(f"tree:file={path},openers=1122")
