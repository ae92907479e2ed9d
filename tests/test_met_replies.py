"""The table of reply vectors met at a node (arena/optimal/search/met_replies.py): a guess is
found met before exactly when an earlier guess has the same replies to the node's secrets,
however the table grows and however the hashes collide."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.optimal.search import met_replies


def first_of_each_vector(table: np.ndarray, S: np.ndarray) -> list[bool]:
    """Whether each guess (row) is the first with its replies to S: by comparing the rows."""
    seen: set[bytes] = set()
    firsts = []
    for row in table[:, S]:
        key = row.tobytes()
        firsts.append(key not in seen)
        seen.add(key)
    return firsts


def walk(table: np.ndarray, S: np.ndarray, start: int, kernels) -> list[bool]:
    """Each guess in turn, as tree_kernels.solve_set meets them: a table of room `start`, grown
    as it fills; whether each was new."""
    met = kernels.new_met(start)
    new = []
    for guess in range(len(table)):
        replies = table[guess, S].copy()
        h = kernels.reply_hash(replies)
        met = kernels.met_room(met)
        slot = kernels.met_before(replies, h, S, table, met)
        if slot >= 0:
            kernels.meet(met, slot, h, guess)
        new.append(slot >= 0)
    assert met[3][0] == sum(new) and len(met[0]) >= 2 * met[3][0]
    return new


class PlainLoops:
    """met_replies' functions as plain Python (py_func), the hash replaced where asked."""

    def __init__(self, reply_hash=None):
        for name in ("new_met", "met_room", "meet", "met_before", "reply_hash"):
            setattr(self, name, getattr(met_replies, name).py_func)
        if reply_hash is not None:
            self.reply_hash = reply_hash


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 120),
    st.integers(1, 12),
    st.integers(1, 4),
    st.integers(1, 9),
    st.sampled_from([None, "constant", "two"]),
    st.integers(0, 2**32 - 1),
)
def test_a_guess_is_met_before_exactly_when_an_earlier_one_has_its_replies(
    guesses, secrets, replies, start, hash_, seed
):
    rng = np.random.default_rng(seed)
    table = rng.integers(0, replies, (guesses, secrets + 3)).astype(np.uint8)
    S = np.sort(rng.choice(secrets + 3, secrets, replace=False)).astype(np.int64)
    hashes = {None: None, "constant": lambda r: 7, "two": lambda r: int(r[0]) % 2}
    assert walk(table, S, start, PlainLoops(hashes[hash_])) == first_of_each_vector(table, S)


def test_the_compiled_table_agrees_and_the_hash_is_the_same_compiled_or_not():
    rng = np.random.default_rng(4)
    table = rng.integers(0, 3, (500, 40)).astype(np.uint8)
    S = np.arange(0, 40, 3, dtype=np.int64)
    assert walk(table, S, 1, met_replies) == first_of_each_vector(table, S)
    for row in table[:20]:
        replies = row[S].copy()
        h = met_replies.reply_hash(replies)
        assert h == met_replies.reply_hash.py_func(replies) and 0 <= h <= met_replies.BITS


@pytest.mark.parametrize("most", [1, 2, 3, 8, 1000])
def test_a_new_table_has_room_for_its_vectors_in_a_power_of_two_of_slots(most):
    slots, hashes, firsts, count = met_replies.new_met(most)
    assert len(slots) >= 2 * most and len(slots) & (len(slots) - 1) == 0 and (slots == -1).all()
    assert len(hashes) == len(firsts) == most and count[0] == 0
