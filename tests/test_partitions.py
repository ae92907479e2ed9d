"""consistent, partition and partition_counts: invariants, and agreement with each other."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import make_game

SPECS = ["mastermind:pegs=3,colors=4", "mastermind", "jotto:first=500", "mastermind:pegs=3,colors=6,repeats=false"]


@st.composite
def game_and_candidates(draw):
    game = make_game(draw(st.sampled_from(SPECS)))
    n = len(game.secrets)
    chosen = draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=min(n, 300)))
    return game, np.array(sorted(chosen))


@settings(max_examples=60, deadline=None)
@given(game_and_candidates(), st.data())
def test_partition_counts_sum_to_the_candidates_and_match_partition(gc, data):
    game, candidates = gc
    pool = np.array(sorted(data.draw(st.sets(st.integers(0, len(game.guesses) - 1), min_size=1, max_size=40))))
    counts = game.partition_counts(pool, candidates)
    assert counts.shape == (len(pool), game.n_codes)
    assert (counts.sum(axis=1) == len(candidates)).all()
    for i, g in enumerate(pool[:5]):
        parts = game.partition(int(g), candidates)
        assert {r: len(p) for r, p in parts.items()} == {r: int(c) for r, c in enumerate(counts[i]) if c}
        assert np.array_equal(np.sort(np.concatenate(list(parts.values()))), candidates)
        for reply, part in parts.items():
            assert np.array_equal(part, game.consistent(candidates, int(g), reply))


@settings(max_examples=30, deadline=None)
@given(game_and_candidates())
def test_whole_pool_equals_explicit_pool(gc):
    game, candidates = gc
    assert np.array_equal(game.partition_counts(None, candidates), game.partition_counts(game.all_guesses, candidates))


def test_both_counting_methods_agree(jotto):
    """Big blocks with few codes are counted by comparison, small ones by bincount."""
    from arena.core import feedback as engine

    candidates = jotto.all_secrets[::2]
    big = jotto.partition_counts(None, candidates)
    old = engine._BIG_BLOCK
    try:
        engine._BIG_BLOCK = 10**12
        assert np.array_equal(big, jotto.partition_counts(None, candidates))
    finally:
        engine._BIG_BLOCK = old


def test_is_candidate_and_consistent_pool(mastermind):
    candidates = np.array([3, 10, 500])
    mask = mastermind.is_candidate(candidates)
    assert mask.sum() == 3 and mask[[3, 10, 500]].all()
    assert mastermind.guesses_naming(candidates).tolist() == [3, 10, 500]
