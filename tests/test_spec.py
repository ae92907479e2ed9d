"""Spec strings (arena/core/spec.py): digits of other scripts are refused, in the Python API and
on the command line, in one line."""

from __future__ import annotations

import pytest
from cli_run import run
from hypothesis import given, settings
from hypothesis import strategies as st

SPEC = "mastermind:pegs=2,colors=3"


#: Unicode decimal digits that are not 0-9 (int() reads them all).
OTHER_DIGITS = st.characters(whitelist_categories=("Nd",)).filter(lambda c: not c.isascii())


@settings(max_examples=120, deadline=None)
@given(st.text(OTHER_DIGITS, min_size=1, max_size=3), st.sampled_from(["agent", "game"]))
def test_digits_of_other_scripts_are_refused_in_specs(digits, where):
    from agents import make_guesser
    from arena import ArenaError, make_game

    with pytest.raises(ArenaError, match="digits 0-9"):
        if where == "agent":
            make_guesser(f"entropy:small={digits}")
        else:
            make_game(f"mastermind:pegs={digits}")


@pytest.mark.parametrize("value", ["１", "1_0", "٣", "nan", "inf", "0x10", ""])
def test_the_issue_s_full_width_digit_is_one_line(capsys, value):
    rc, _, err = run(capsys, "evaluate", SPEC, f"entropy:small={value}")
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
