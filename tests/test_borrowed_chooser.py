"""A chooser mix saved for another game, played in this one (verified.borrowed_bound): a
Hangman list's core, solved as a list of its own, proves a lower end on the whole list's value
by its best response searched again in the whole list; a mix weighing a word the game does not
have is refused in one line; a saved bound resting on it is proven again, never read."""

from __future__ import annotations

import gzip
import json
from fractions import Fraction

import pytest

from arena import make_game
from arena.core.errors import ArenaError
from arena.equilibrium import double_oracle
from arena.equilibrium.verified import from_file, reproven
from tests.cli_run import one_line, run

#: 20 four-letter words of web2, value 365/178 misses (tests/test_hangman_values.py), and lists
#: that hold them (the first 40 words) and that do not (the first 10).
CORE, WHOLE, SHORT = "hangman:length=4,first=20", "hangman:length=4,first=40", "hangman:length=4,first=10"
VALUE = Fraction(365, 178)


@pytest.fixture(scope="module")
def core_file(tmp_path_factory):
    eq = double_oracle(make_game(CORE))
    assert eq.exact is not None and eq.exact.value == VALUE
    path = tmp_path_factory.mktemp("borrowed") / "core.json.gz"
    eq.save(path)
    return path


def test_a_core_proves_its_value_on_the_whole_list(core_file):
    """The core's equilibrium mix weighs only its own words, all of them among the first 40: the
    best response to it in the 40-word game needs exactly the core's value (the guesser there
    knows the word is one of the core's, and plays the same letters)."""
    whole = make_game(WHOLE)
    (bound,) = from_file(whole, core_file, "misses", 30.0)
    assert bound.side == "lower" and bound.rests_on == {"chooser_of": str(core_file)}
    assert bound.value == pytest.approx(float(VALUE), abs=1e-9)
    assert bound.exact in (None, VALUE)
    assert CORE in bound.how and WHOLE in bound.how


def test_a_mix_weighing_a_word_the_game_lacks_is_refused(core_file, capsys):
    """The core's mix weighs words past the first 10: no strategy of that list's chooser."""
    weighed = {w for w, p in json.load(gzip.open(core_file, "rt"))["chooser"].items() if p > 0}
    short = make_game(SHORT)
    assert weighed - set(short.secrets), "the test needs a weighed word outside the short list"
    with pytest.raises(ArenaError, match="which is not a secret of"):
        from_file(short, core_file, "misses", 30.0)
    rc, _, err = run(capsys, "equilibrium", SHORT, "--time-limit", "2", "--bounds-from", core_file)
    one_line(rc, err, "not a secret of", str(core_file))


def test_a_saved_bound_resting_on_a_borrowed_mix_is_searched_again(core_file, tmp_path):
    """A file's bound record naming the core's file is proven again from the core's mix (the
    record's value is not read: a false one changes nothing)."""
    record = {
        "side": "lower",
        "value": 99.0,
        "exact": None,
        "how": "forged",
        "rests_on": {"chooser_of": str(core_file)},
    }
    (bound,) = reproven({"bounds": [record]}, str(tmp_path / "saved.json"), make_game(WHOLE), "misses", 30.0)
    assert bound.value == pytest.approx(float(VALUE), abs=1e-9)


def test_the_fold_from_the_command_line(core_file, tmp_path, capsys):
    """`arena equilibrium WHOLE --bounds-from CORE`: the whole list's lower end is at least the
    core's value, and `--value-from` proves the saved file's ends again."""
    saved = tmp_path / "whole.json.gz"
    rc, out, err = run(capsys, "equilibrium", WHOLE, "--time-limit", "5", "--bounds-from", core_file, "--save", saved)
    assert rc == 0, err
    data = json.load(gzip.open(saved, "rt"))
    assert data["lower"] >= float(VALUE) - 1e-9
    rc, out, err = run(
        capsys, "evaluate", WHOLE, f"equilibrium:file={saved}", "--exploitability", "--value-from", saved
    )
    assert rc == 0, err
    assert "game value" in out


def test_a_mastermind_mix_by_code_type_is_played_with_more_colours(tmp_path):
    """Mastermind 2x3's equilibrium (29/12 guesses), saved by code type, played in 2x4: its codes
    are codes there, the guesser has more guesses and gains nothing by them; the file's rows are
    code types, so the bound is the float search's, without a fraction."""
    eq = double_oracle(make_game("mastermind:pegs=2,colors=3"))
    assert eq.exact is not None and eq.exact.value == Fraction(29, 12)
    path = tmp_path / "mm23.json.gz"
    eq.save(path)
    (bound,) = from_file(make_game("mastermind:pegs=2,colors=4"), path, "guesses", 30.0)
    assert bound.value == pytest.approx(29 / 12, abs=1e-9) and bound.exact is None
