"""arena/study/results/paired.py: two guessers compared secret by secret (and `arena compare`'s lines)."""

from __future__ import annotations

import numpy as np
import pytest
from cli_run import run
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import ArenaError, make_game
from arena.play.evaluate import Evaluation
from arena.study.results.paired import compare, per_secret

GAME = "mastermind:pegs=3,colors=4"


def made(costs: np.ndarray, name: str) -> Evaluation:
    return Evaluation(GAME, name, np.asarray(costs, dtype=np.int64).reshape(-1, len(costs[0])), 0.0)


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_b_against_a_is_a_against_b_reversed(data):
    n = data.draw(st.integers(2, 40))
    rows = data.draw(st.integers(1, 3))
    cost = st.lists(st.integers(1, 9), min_size=n, max_size=n)
    a = made(np.array([data.draw(cost) for _ in range(rows)]), "a")
    b = made(np.array([data.draw(cost) for _ in range(rows)]), "b")
    ab, ba = compare(a, b, deterministic=rows == 1), compare(b, a, deterministic=rows == 1)
    assert ab.difference == pytest.approx(-ba.difference) and (ab.fewer, ab.more) == (ba.more, ba.fewer)
    assert ab.fewer + ab.same + ab.more == n and ab.p_sign == pytest.approx(ba.p_sign) and 0 <= ab.p_sign <= 1
    assert ab.low <= ab.difference <= ab.high or np.isnan(ab.low)
    assert ab.exact == (rows == 1)
    if rows == 1:  # deterministic: the mean difference is the totals' difference over the secrets
        assert ab.difference * n == pytest.approx(b.guesses.sum() - a.guesses.sum())


def test_a_guesser_against_itself_differs_nowhere():
    one = make_game(GAME).evaluate("knuth")
    same = compare(one, one)
    assert (same.difference, same.fewer, same.more, same.same, same.p_sign) == (0.0, 0, 0, 64, 1.0)


def test_known_counts_and_sign_test():
    a = made(np.array([[3, 3, 3, 3, 3, 3, 3, 3, 3, 3]]), "a")
    b = made(np.array([[2, 2, 2, 2, 2, 2, 2, 2, 2, 3]]), "b")
    paired = compare(a, b, deterministic=True)
    assert (paired.fewer, paired.same, paired.more) == (9, 1, 0) and paired.difference == pytest.approx(-0.9)
    assert paired.p_sign == pytest.approx(2 / 2**9)  # two-sided: 9 of 9 one way
    assert "b - a: -0.9000 guesses a game (exact over these secrets); fewer on 9 secrets" in paired.line()
    assert per_secret(a).tolist() == [3.0] * 10


def test_other_games_are_refused():
    a = make_game(GAME).evaluate("knuth")
    b = make_game("mastermind:pegs=2,colors=3").evaluate("knuth")
    with pytest.raises(ArenaError, match="needs one game"):
        compare(a, b)


def test_arena_compare_prints_each_guesser_against_the_best(capsys):
    rc, out, err = run(capsys, "compare", "mastermind", "knuth", "entropy", "lowest")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[5] == "paired, secret by secret, each against the best (entropy):"
    assert lines[6].startswith("  knuth - entropy: +0.0610 guesses a game (exact over these secrets); fewer on 308")
    assert lines[7].startswith("  lowest - entropy: +1.3495 guesses a game")
    rc, out, err = run(capsys, "compare", "hangman:length=5,first=500", "max-frequency", "entropy")
    assert "entropy - max-frequency: +0.3000 misses a game" in out  # Hangman pairs on its cost, the misses


def test_a_tournament_pairs_its_guessers_from_the_stored_records(tmp_path):
    from arena.study.config import load_config
    from arena.study.results.report import Report
    from arena.study.tournament.run import run_config

    tables = {"games": [GAME], "choosers": ["uniform", "evil"], "guessers": ["knuth", "entropy", "random"], "repeat": 3}
    run_config(load_config(tables), out=str(tmp_path / "run"))
    report = Report.from_dir(tmp_path / "run")
    stored = report.paired(GAME, "knuth", "entropy")
    live = compare(make_game(GAME).evaluate("knuth"), make_game(GAME).evaluate("entropy"), deterministic=True)
    assert stored == live  # the store's per-secret records give the comparison the evaluations give
    noisy = report.paired(GAME, "knuth", "random")
    assert not noisy.exact and noisy.fewer + noisy.same + noisy.more == 64
    with pytest.raises(ArenaError, match="no per-secret records"):
        report.paired(GAME, "knuth", "entropy", chooser="evil")  # an adaptive chooser plays no secret list
    with pytest.raises(ArenaError, match="no measured cell"):
        report.paired(GAME, "knuth", "nobody")


def test_a_random_guesser_played_once_is_no_exact_difference(capsys):
    rc, out, err = run(capsys, "compare", GAME, "knuth", "random")
    assert rc == 0, err
    assert "random - knuth: " in out and "(estimated from the repetitions)" in out
