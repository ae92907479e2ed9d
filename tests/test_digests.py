"""arena/core/digests.py: the content key that the results store's task keys are, pinned to
the values stores written before hold, beside the readable key of a journal (Problem.key)."""

from __future__ import annotations

from arena.core.digests import content_key
from arena.games import make_game
from arena.optimal.problem import Problem, game_identity
from arena.study.tournament.tasks import Task

TASK = Task(
    cell=0,
    game="jotto:first=12",
    chooser="uniform",
    guesser="knuth",
    block=2,
    repeat=3,
    seed=12345,
    strikes=(6,),
    cell_seed=7,
    files=(("sgb", "ab" * 32),),
    code=(("arena", "0.1+deadbeef"),),
)


def test_task_keys_are_the_values_stores_hold():
    """A task's key and slot, as the store wrote them before content_key was shared (issue 32)."""
    assert TASK.key == content_key(TASK.identity())
    assert TASK.key == "a2dbe958494049fa9d32a6b62f2810d5e12061d0ef265406722bab668cefb735"
    assert TASK.slot == "eadca8a5729507029fdaf144bc5952b01d7cbf1f25fa49800560a79c8e2ecdac"


def test_content_key_ignores_the_order_of_keys():
    assert content_key({"a": 1, "b": [1, 2]}) == content_key({"b": [1, 2], "a": 1})
    assert content_key({"a": 1}) != content_key({"a": 2})


def test_a_problem_and_a_task_name_a_game_alike():
    """Both key the game by its canonical spec (defaults dropped), so `jotto` is `jotto:words=sgb`."""
    game = make_game("jotto:first=12,words=sgb")
    task = Task(0, "jotto:words=sgb,first=12", "uniform", "knuth", 0, 1, 0)
    assert Problem.of(game).key()["game"] == game_identity(game)["game"] == task.identity()["game"]
