"""pace.Pace: which kind of round a big game's double oracle runs next, by what each gained."""

import math

import pytest

from arena.equilibrium.pace import PROBE, QUICK, SEARCH, Pace


def test_each_kind_is_measured_once_first_the_search():
    pace = Pace()
    assert not pace.next_quick()  # nothing measured: search
    pace.record(SEARCH, 0.01, 100.0)
    assert pace.next_quick()  # the greedy round not measured yet
    pace.record(QUICK, 0.0, 10.0)
    assert not pace.next_quick()  # it gained nothing: search


def test_the_faster_kind_a_second_is_picked():
    pace = Pace()
    pace.record(SEARCH, 0.01, 100.0)  # 1e-4 a second
    pace.record(QUICK, 0.002, 10.0)  # 2e-4 a second
    assert pace.next_quick()
    pace.record(QUICK, 0.0005, 10.0)  # 5e-5 a second: now slower than the search
    assert not pace.next_quick()


def test_equal_rates_search():
    """A tie goes to the search: it is what guarantees progress (a best response that does not
    beat the LP proves its value)."""
    pace = Pace()
    pace.record(SEARCH, 0.0, 100.0)
    pace.record(QUICK, 0.0, 10.0)
    assert not pace.next_quick()


def test_the_slower_kind_is_tried_again_after_probe_rounds():
    pace = Pace()
    pace.record(QUICK, 0.0, 10.0)
    for _ in range(PROBE):
        assert not pace.next_quick()
        pace.record(SEARCH, 0.01, 100.0)
    assert pace.next_quick()  # PROBE searches in a row: one greedy round again
    pace.record(QUICK, 0.0, 10.0)
    assert not pace.next_quick()  # still slower: back to searching
    assert pace.streak == 1 and pace.last == QUICK


def test_a_fall_from_no_upper_end_is_not_a_rate():
    pace = Pace()
    pace.record(SEARCH, math.inf, 5.0)  # the first LP: from no upper end
    assert SEARCH not in pace.rates and pace.last == SEARCH
    pace.record(SEARCH, -0.5, 5.0)  # the LP only falls; a rise (rounding) counts as nothing
    assert pace.rates[SEARCH] == 0.0


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="kind"):
        Pace().record("greedy", 0.1, 1.0)
