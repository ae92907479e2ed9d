"""The worst case of Mastermind two ways: arena's `fits` (depth.py, through solve.least_depth and
`--max K`'s check, within_limit) against experiments/worst_case_check.py, written apart from it
(its own feedback, no symmetry below the first guess), on every instance small enough; and
both against the published f(pegs, colours) (experiments/worst_cases.py's PUBLISHED)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np
import pytest

from arena import make_game
from arena.optimal.problem import Problem
from arena.optimal.solve import least_depth

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


def script(name: str):
    """experiments/NAME.py as a module."""
    spec = importlib.util.spec_from_file_location(name, EXPERIMENTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def arena_worst_case(pegs: int, colors: int) -> int:
    problem = Problem.of(make_game(f"mastermind:pegs={pegs},colors={colors}"))
    return least_depth(problem, problem.secrets, problem.symmetry(), None)[0]


def independent_fits(check, pegs: int, colors: int, k: int) -> bool:
    """Whether some first guess (one a pattern) leaves only classes that fit in k - 1."""
    codes = script("worst_case_check").all_codes(pegs, colors)
    index = {tuple(int(x) for x in code): i for i, code in enumerate(codes)}
    S = np.arange(len(codes))
    patterns = script("worst_case_check").pattern_guesses(pegs, colors)
    return any(all(check.fits(c, k - 1) for c in check.classes(index[p], S)) for p in patterns)


# 4x5 is 17 s of the pure-Python check (CI's budget): ARENA_SLOW_TESTS=1 runs it too.
SLOW = pytest.mark.skipif(not os.environ.get("ARENA_SLOW_TESTS"), reason="17 s: set ARENA_SLOW_TESTS=1")


@pytest.mark.parametrize(
    "pegs, colors",
    [(2, 2), (2, 5), (2, 7), (3, 3), (3, 4), (3, 5), (3, 6), (3, 7), (4, 3), (4, 4), pytest.param(4, 5, marks=SLOW)],
)
def test_the_two_checks_agree_on_the_worst_case(pegs, colors):
    """arena's least depth f: the independent check finds every code within f guesses and not
    within f - 1."""
    checker = script("worst_case_check")
    codes = checker.all_codes(pegs, colors)
    check = checker.Check(checker.feedback_table(codes, colors), pegs * (pegs + 1))
    f = arena_worst_case(pegs, colors)
    assert independent_fits(check, pegs, colors, f)
    assert not independent_fits(check, pegs, colors, f - 1)


def test_the_independent_feedback_is_mastermind_s():
    """Its table is arena's feedback, black and white, code by code (4 pegs, 4 colours)."""
    checker = script("worst_case_check")
    game = make_game("mastermind:colors=4")
    codes = checker.all_codes(4, 4)
    table = checker.feedback_table(codes, 4)
    words = ["".join(str(x + 1) for x in code) for code in codes]
    assert words == list(game.secrets)
    rng = np.random.default_rng(0)
    for g, s in rng.integers(0, len(codes), size=(200, 2)):
        black, white = divmod(int(table[g, s]), 5)
        assert (black, white) == mastermind_reply(words[g], words[s])
        assert game.reply_label(int(game.table[g, s])) == f"{black},{white}"


def mastermind_reply(guess: str, secret: str) -> tuple[int, int]:
    black = sum(a == b for a, b in zip(guess, secret))
    common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return black, common - black


@pytest.mark.parametrize("pegs, colors", [(3, 5), (3, 6), (3, 7), (3, 8), (4, 5), (4, 6), (4, 7)])
def test_arena_s_worst_cases_are_the_published_ones(pegs, colors):
    published = script("worst_cases").PUBLISHED[(pegs, colors)]
    assert published.split()[0] == str(arena_worst_case(pegs, colors))
