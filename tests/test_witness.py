"""Witness files are verified, not trusted (issue 31): a saved equilibrium is keyed by the game,
the contents of the files it reads and the payoff; `--value-from` proves both ends again from
the witnesses inside it; every probability read is checked; `--check` degrades to one line; a
game read back from .nfg or .csv is refused in one line when it cannot be a finite game."""

from __future__ import annotations

import json
import time
from fractions import Fraction

import pytest
from cli_run import one_line, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core.errors import ArenaError
from arena.equilibrium import double_oracle
from arena.equilibrium.certify import verified_value
from arena.equilibrium.witness import checked_mix, fraction
from arena.games import make_game
from arena.study.results.export import from_csv, from_nfg

SMALL = "mastermind:pegs=2,colors=3"  # value 29/12
VALUE = Fraction(29, 12)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """The exact equilibrium of SMALL saved as `arena equilibrium --save` writes it."""
    path = tmp_path_factory.mktemp("witness") / "eq.json"
    double_oracle(make_game(SMALL)).save(path)
    return path, json.loads(path.read_text())


def forged(tmp_path, data: dict, name: str = "forged.json", **edits) -> str:
    data = json.loads(json.dumps(data)) | edits
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_an_honest_file_gives_the_exact_value_proven_again(saved, capsys):
    path, _ = saved
    rc, out, err = run(capsys, "evaluate", SMALL, f"equilibrium:file={path}", "--exploitability", "--value-from", path)
    assert rc == 0, err
    assert "game value: 2.416667 guesses = 29/12 (exact)" in out
    assert "the lower end proven again against its chooser mix" in out
    assert "not re-proven" in out  # the uniform chooser's value is only claimed
    v = verified_value(str(path), make_game(SMALL), "guesses")
    assert v.exact == VALUE and v.lower == v.upper == float(VALUE) and v.lower_exact


@pytest.mark.parametrize(
    "edits, needles",
    [
        ({"value_exact": "1/1000"}, ["1/1000", "29/12"]),
        ({"value_exact": "1e999999999"}, ["not an exact number"]),
        ({"lower": 5, "upper": 1, "settled": False, "value_exact": None}, ["lower end 5", "above its upper end 1"]),
        ({"lower": float("nan")}, ["lower end is not a finite number"]),
        ({"upper": float("inf")}, ["upper end is not a finite number"]),
        ({"lower": 3.0, "upper": 3.0}, ["at least 3.000000", "concedes at most 2.416667"]),
        ({"lower": 1.0, "upper": 2.0}, ["concedes at most 2.000000", "its trees concede 2.416667"]),
        ({"uniform_value": 9.0}, ["uniform chooser"]),
        ({"key": None}, ["without the key"]),
        ({"format": "arena-equilibrium/1"}, ["without the key", "solve it again"]),
    ],
)
def test_forged_claims_are_refused_in_one_line(saved, tmp_path, capsys, edits, needles):
    """Before: "game value: 0.001000 guesses = 1/1000 (exact)", and [5, 1], [nan, inf] printed."""
    path, data = saved
    bad = forged(tmp_path, data, **edits)
    rc, out, err = run(capsys, "evaluate", SMALL, "lowest", "--exploitability", "--value-from", bad)
    one_line(rc, err, *needles)
    assert "exact" not in out


def test_a_claim_beyond_the_proof_is_printed_as_a_claim(saved, tmp_path, capsys):
    """A file whose guesser mix is not optimal: the lower end proven is below its claim."""
    path, data = saved
    data = json.loads(json.dumps(data))
    data["guesser"] = data["guesser"][:1]  # the first tree alone: it concedes more than 29/12
    data["guesser"][0].update(probability=1.0, probability_exact="1")
    bad = forged(tmp_path, data, value_exact=None, settled=False, upper=4.0)
    rc, out, err = run(capsys, "evaluate", SMALL, "lowest", "--exploitability", "--value-from", bad)
    assert rc == 0, err
    assert "(exact)" not in out.split("game value")[1] and "in [2.416667, 2.500000]" in out
    low = tmp_path / "low.json"
    data.update(
        lower=2.5, upper=4.0, value_exact=None, settled=False
    )  # within the bounds proven, above the lower end proven: only a claim
    low.write_text(json.dumps(data))
    rc, out, err = run(capsys, "evaluate", SMALL, "lowest", "--exploitability", "--value-from", low)
    assert rc == 0, err
    assert f"lower end 2.500000 claimed by {low}, not re-proven" in out


def word_list(skip: int, count: int = 10) -> str:
    from arena.core.words import read_words

    words = [w for w in read_words("sgb") if len(set(w)) == len(w)]
    return "\n".join(words[skip : skip + count]) + "\n"


def test_a_file_solved_on_other_words_is_refused(tmp_path, monkeypatch, capsys):
    """Before: the old list's value printed as exact for the new list (the file was keyed by
    the spec's text, not by the contents of the words file)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.txt").write_text(word_list(0))
    spec = "jotto:words=w.txt"
    rc, out, err = run(capsys, "equilibrium", spec, "--save", "eq.json")
    assert rc == 0, err
    rc, out, err = run(capsys, "evaluate", spec, "lowest", "--exploitability", "--value-from", "eq.json")
    assert rc == 0 and "(exact)" in out, err
    (tmp_path / "w.txt").write_text(word_list(2))  # two words out, two in
    for argv in (
        ["evaluate", spec, "lowest", "--exploitability", "--value-from", "eq.json"],
        ["evaluate", spec, "equilibrium:file=eq.json"],
        ["evaluate", spec, "lowest", "--chooser", "equilibrium:file=eq.json"],
        ["optimal", spec, "--weights", "eq.json"],
    ):
        rc, out, err = run(capsys, *argv)
        one_line(rc, err, "eq.json does not fit jotto:words=w.txt", "the contents of w.txt changed")
        assert "exact" not in out
    rc, _, err = run(
        capsys, "evaluate", "jotto:words=w.txt,first=5", "lowest", "--exploitability", "--value-from", "eq.json"
    )
    one_line(rc, err, "it is an equilibrium of jotto:words=w.txt, not of jotto:words=w.txt,first=5")


def test_the_payoff_is_part_of_the_key(tmp_path, capsys):
    spec = "hangman:length=3,first=12"
    path = tmp_path / "lost.json"
    rc, _, err = run(capsys, "equilibrium", spec, "--payoff", "lost", "--save", path)
    assert rc == 0, err
    rc, out, err = run(
        capsys, "evaluate", spec, "lowest", "--exploitability", "--value-from", path, "--payoff", "misses"
    )
    one_line(rc, err, "its payoff is 'lost', not 'misses'")
    # without --payoff, the file's own (issue 34: a lost-games file replays as lost games)
    rc, out, err = run(capsys, "evaluate", spec, "lowest", "--exploitability", "--value-from", path)
    assert rc == 0, err
    assert "lost games" in out


@pytest.mark.parametrize(
    "probabilities, needles",
    [
        ([float("nan"), 1.0], ["probability 1 is not a finite number"]),
        ([0.0, 0.0], ["add up to 0.0, not 1"]),
        ([-1.0, 2.0], ["probability 1 is negative"]),
        ([2.0, 0.0], ["add up to 2.0, not 1"]),
        ([0.5, 0.5], ["probability 1 is 0.5, but its exact value 3/4"]),
        (["0.75", 0.25], ["probability 1 is not a number"]),
        ([True, 0.0], ["probability 1 is not a number"]),
    ],
)
def test_a_guesser_mix_read_from_a_file_is_checked(saved, tmp_path, capsys, probabilities, needles):
    """Before: NaN, all zeros, -1 and 2 were played, and the worst secret printed "(exact)"."""
    path, data = saved
    data = json.loads(json.dumps(data))
    for entry, p in zip(data["guesser"], probabilities):
        entry["probability"] = p
    bad = forged(tmp_path, data)
    rc, out, err = run(capsys, "evaluate", SMALL, f"equilibrium:file={bad}", "--exploitability", "--value-from", path)
    one_line(rc, err, "the guesser's mix", *needles)
    assert "exact" not in out


@pytest.mark.parametrize(
    "exact, needles",
    [(["1/2", "1/4"], ["not non-negative fractions adding up to exactly 1"]), (["-1/4", "5/4"], ["not non-negative"])],
)
def test_exact_probabilities_must_add_up_to_exactly_one(saved, tmp_path, capsys, exact, needles):
    path, data = saved
    data = json.loads(json.dumps(data))
    for entry, x in zip(data["guesser"], exact):
        entry["probability_exact"] = x
    rc, _, err = run(capsys, "evaluate", SMALL, f"equilibrium:file={forged(tmp_path, data)}")
    one_line(rc, err, *needles)


def test_a_chooser_mix_read_from_a_file_is_checked(saved, tmp_path, capsys):
    path, data = saved
    for chooser, needles in [
        ({"11": 2.0}, ["add up to 2.0, not 1"]),
        ({"11": float("nan")}, ["probability of 11 is not a finite number"]),
        ({"11": -0.5, "12": 1.5}, ["negative"]),
    ]:
        bad = forged(tmp_path, data, chooser=chooser)
        rc, _, err = run(capsys, "evaluate", SMALL, "lowest", "--chooser", f"equilibrium:file={bad}")
        one_line(rc, err, *needles)
    rows = json.loads(json.dumps(data["chooser_rows"]))
    rows[0]["probability_exact"], rows[1]["probability_exact"] = "1/4", "3/4"  # the floats say 1/2, 1/2
    bad = forged(tmp_path, data, chooser_rows=rows)
    rc, _, err = run(capsys, "evaluate", SMALL, "lowest", "--exploitability", "--value-from", bad)
    one_line(rc, err, "the chooser's mix", "1/4")


def _edit(data: dict, how: str) -> dict:
    data = json.loads(json.dumps(data))
    if how == "guesser":
        data["guesser"] = {"tree": 1}
    elif how == "tree":
        del data["guesser"][0]["tree"]
    elif how == "twice":
        data["chooser"] = {"11": 0.5, " 11": 0.5}
    elif how == "rows":
        data["chooser_rows"][0]["row"] = "xy"
    elif how == "row floats":
        data["chooser"] = {s: 1 / 9 for s in data["chooser"]}  # the rows' exact 1/2, 1/2 say otherwise
    elif how == "no key":
        data["key"] = "x"
    elif how == "extra file":
        data["key"]["files"] = {"w.txt": "0" * 64}
    elif how == "missing file":
        data["key"]["files"] = {}
        data["key"]["game"] = "jotto:first=5"
    return data


@pytest.mark.parametrize(
    "how, needles",
    [
        ("guesser", ["the guesser's mix is not a list of trees"]),
        ("tree", ["a guesser tree has no 'tree'"]),
        ("twice", ["names the secret  11 twice"]),
        ("rows", ["the chooser's rows are not the rows of"]),
        ("row floats", ["the probability of 11 is 0.111", "row's exact probability gives 1/6"]),
        ("no key", ["without the key"]),
        ("extra file", ["solved on the file w.txt, which this game does not read"]),
    ],
)
def test_damaged_files_are_one_line(saved, tmp_path, capsys, how, needles):
    path, data = saved
    bad = tmp_path / "damaged.json"
    bad.write_text(json.dumps(_edit(data, how)))
    rc, out, err = run(capsys, "evaluate", SMALL, "lowest", "--exploitability", "--value-from", bad)
    one_line(rc, err, *needles)
    assert "exact" not in out


def test_a_file_not_solved_on_a_word_list_the_game_reads(saved, tmp_path, capsys):
    path, data = saved
    bad = tmp_path / "damaged.json"
    bad.write_text(json.dumps(_edit(data, "missing file")))
    rc, out, err = run(capsys, "evaluate", "jotto:first=5", "lowest", "--exploitability", "--value-from", bad)
    one_line(rc, err, "it was not solved on the file sgb")
    huge = tmp_path / "huge.json"
    huge.write_text(path.read_text().replace('"lower": ', '"lower": 1' + "0" * 400 + ', "was": '))
    rc, out, err = run(capsys, "evaluate", SMALL, "lowest", "--exploitability", "--value-from", huge)
    one_line(rc, err, "its lower end is not a finite number")


def test_the_json_says_where_the_value_comes_from(saved, capsys):
    path, _ = saved
    rc, out, err = run(capsys, "evaluate", SMALL, "lowest", "--exploitability", "--value-from", path, "--json")
    assert rc == 0, err
    data = json.loads(out)["exploitability"]
    assert data["value"] == "29/12" and "proven again" in data["value_from"]
    assert data["uniform_claimed_by"] == str(path) and data["claims"] == []


def test_probability_and_fraction_readers():
    assert checked_mix([0.5, 0.5], ["1/2", "1/2"], "m") == [Fraction(1, 2)] * 2
    xs = checked_mix([0.25, 0.75 + 1e-12], [None, None], "m")  # the floats, normalised
    assert sum(xs) == 1 and xs[1] / xs[0] == Fraction(0.75 + 1e-12) / Fraction(0.25)
    with pytest.raises(ArenaError, match="empty"):
        checked_mix([], [], "m")
    assert fraction("29/12", "v") == VALUE and fraction(3, "v") == 3
    for bad in ("1e5", "1/0", "nan", 1.5, True, None, "9" * 500):
        with pytest.raises(ArenaError, match="not an exact number"):
            fraction(bad, "v")


def _mix(weights: list[int]) -> list[Fraction]:
    return [Fraction(w, sum(weights)) for w in weights]


@st.composite
def forgeries(draw) -> list[tuple[str, object]]:
    """Edits of a saved equilibrium of SMALL: a different (valid) guesser or chooser mix, with or
    without its exact fractions, damaged probabilities, and claimed values and bounds."""
    edits: list[tuple[str, object]] = []
    numbers = st.one_of(
        st.floats(min_value=0, max_value=5),
        st.sampled_from([float("nan"), float("inf"), -1.0, 2.4166666666, 2.5, 29 / 12]),
    )
    if draw(st.booleans()):  # another guesser mix over the two trees
        mix = _mix(draw(st.lists(st.integers(0, 9), min_size=2, max_size=2).filter(any)))
        exact = draw(st.booleans())
        edits.append(("guesser", [(float(p), str(p) if exact else None) for p in mix]))
        if draw(st.booleans()):  # a forger who raises the upper end to match
            edits += [("upper", 5.0), ("settled", False)]
    if draw(st.booleans()):  # another chooser mix over the secrets (its exact rows then dropped)
        edits.append(("chooser", _mix(draw(st.lists(st.integers(0, 5), min_size=9, max_size=9).filter(any)))))
    for field in draw(
        st.lists(st.sampled_from(["value_exact", "lower", "upper", "uniform_value", "g", "gx", "c"]), max_size=2)
    ):
        if field == "value_exact":
            edits.append((field, draw(st.sampled_from([None, "29/12", "1/1000", "5/2", "12/5", "2"]))))
        elif field in ("g", "c"):
            edits.append((field, draw(numbers)))
        elif field == "gx":
            edits.append((field, draw(st.sampled_from(["1/2", "3/4", "-1/4", "5/4", "0", None]))))
        else:
            edits.append((field, draw(numbers)))
    return edits


def apply_forgery(data: dict, edits: list[tuple[str, object]]) -> dict:
    data = json.loads(json.dumps(data))
    for field, value in edits:
        if field == "guesser":
            for entry, (p, x) in zip(data["guesser"], value):  # type: ignore[call-overload]
                entry.update(probability=p, probability_exact=x)
        elif field == "chooser":
            data["chooser"] = {s: float(p) for s, p in zip(make_game(SMALL).secrets, value)}  # type: ignore[call-overload]
            for row in data["chooser_rows"]:
                row["probability_exact"] = None
        elif field == "g":
            data["guesser"][0]["probability"] = value
        elif field == "gx":
            data["guesser"][0]["probability_exact"] = value
        elif field == "c":
            data["chooser"]["11"] = value
        else:
            data[field] = value
    return data


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(forgeries())
def test_fuzz_forged_files_never_print_a_wrong_exact_value(saved, tmp_path, edits):
    """Random edits of a saved equilibrium's mixes, probabilities, value and bounds: the file is
    refused in one line, or the bounds proven hold the true value 29/12, and a value proven
    exact is 29/12."""
    path, data = saved
    bad = tmp_path / "fuzz.json"
    bad.write_text(json.dumps(apply_forgery(data, edits)))
    try:
        v = verified_value(str(bad), make_game(SMALL), "guesses")
    except ArenaError as e:
        assert "\n" not in str(e)
        return
    assert v.lower <= float(VALUE) + 1e-12 and float(VALUE) <= v.upper + 1e-12
    assert v.exact is None or v.exact == VALUE


def test_the_fuzz_reaches_both_outcomes(saved, tmp_path):
    """The forgeries above are not all refused: a fixed sample of them, counted."""
    path, data = saved
    accepted = refused = 0
    game = make_game(SMALL)
    for k, edits in enumerate(
        [
            [("guesser", [(0.5, "1/2"), (0.5, "1/2")])],  # concedes more than the upper end claimed
            [("guesser", [(0.5, "1/2"), (0.5, "1/2")]), ("upper", 3.0)],
            [("guesser", [(1.0, None), (0.0, None)]), ("value_exact", None), ("upper", 3.0)],
            [("chooser", _mix([1, 0, 0, 0, 1, 0, 0, 0, 1]))],
            [("chooser", _mix([1, 1, 1, 1, 1, 1, 1, 1, 1])), ("lower", 2.4)],
            [("guesser", [(0.25, "1/4"), (0.75, "3/4")]), ("value_exact", "29/12"), ("upper", 3.0)],
            [("g", float("nan"))],
        ]
    ):
        bad = tmp_path / f"f{k}.json"
        bad.write_text(json.dumps(apply_forgery(data, edits)))
        try:
            v = verified_value(str(bad), game, "guesses")
        except ArenaError:
            refused += 1
            continue
        accepted += 1
        assert v.lower <= float(VALUE) + 1e-12 <= v.upper + 2e-12 and v.exact in (None, VALUE)
    assert (accepted, refused) == (5, 2)


# --- --check: a cross-check that cannot run says so ----------------------------------------


@pytest.mark.parametrize("spec", ["jotto:first=12", "hangman:length=5,first=30"])
def test_check_degrades_to_one_line(capsys, monkeypatch, spec):
    """Before: RuntimeError: nashpy found no equilibrium of a ... game (a traceback)."""
    from arena.equilibrium import letters

    # the payoff matrix nashpy fails on is the one the search over every word finds (Hangman's
    # search on the chooser's support, issue 34, finds other trees, which nashpy solves; so do
    # the trees the flows draw)
    monkeypatch.setattr(letters, "SUPPORT", False)
    rc, out, err = run(capsys, "equilibrium", spec, "--check", "--extra-trees", "greedy")
    assert rc == 0, err
    (line,) = [x for x in out.splitlines() if x.startswith("nashpy check")]
    assert "could not run (nashpy found no equilibrium" in line
    assert "the value rests on the exact check (both rational mixes verified in fractions" in line
    rc, out, err = run(capsys, "equilibrium", spec, "--check", "--json", "--extra-trees", "greedy")
    assert rc == 0 and "exact check" in json.loads(out)["nashpy"]["checked_by"], err


def test_a_failed_check_without_an_exact_solution_names_the_lp_check(monkeypatch):
    import arena.equilibrium.crosscheck as equilibrium
    from arena.equilibrium.solution import check_line

    eq = double_oracle(make_game("mastermind:pegs=1,colors=3"))

    def fails(A):
        raise RuntimeError("nashpy found no equilibrium of a 1x1 game")

    monkeypatch.setattr(equilibrium, "nashpy_solution", fails)
    from dataclasses import replace

    line = check_line(eq, replace(eq, exact=None).cross_check())
    assert line.startswith("nashpy check: could not run") and "linprog's mixes" in line


# --- games read back from .nfg and .csv ------------------------------------------------------

OUTCOMES = 'NFG 1 R "t" { "a" "b" }\n{ { "r1" } { "c1" } }\n""\n{ { "" PAYOFF, 1 } }\nINDEX\n'


@pytest.mark.parametrize(
    "text, needle",
    [
        (OUTCOMES.replace("PAYOFF", "-1").replace("INDEX", "1e999999999"), "out of range"),
        (OUTCOMES.replace("PAYOFF", "1e999999999").replace("INDEX", "1"), "out of range"),
        (OUTCOMES.replace("PAYOFF", "1e-999999999").replace("INDEX", "1"), "out of range"),
        (OUTCOMES.replace("PAYOFF", "-1").replace("INDEX", "1/2"), "not a whole number"),
        ('NFG 1 R "t" { "a" "b" } { 1e8 1e8 }\n1 -1\n', "more than the 10,000,000 payoffs"),
        ('NFG 1 R "t" { "a" "b" } { 100000000 100000000 }\n1 -1\n', "more than the 10,000,000 payoffs"),
        ('NFG 1 R "t" { "a" "b" } { 3 3 }\n1 -1\n', "holds only 2 more numbers"),
        ('NFG 1 R "t" { "a" "b" } { 1 1 }\nnan nan\n', "'nan' is not a number"),
        ('NFG 1 R "t" { "a" "b" } { 1 1 }\n1e999 -1e999\n', "out of range"),
        ('NFG 1 R "t" { "a" "b" } { 1 1 }\n9e308 -9e308\n', "out of range"),
        ('NFG 1 R "t" { "a" "b" } { 1 1 }\n1/0 -1/0\n', "not a number"),
    ],
)
def test_a_game_file_that_cannot_be_a_finite_game_is_one_line(text, needle):
    """Before: an exponent of 1e999999999 hung, 1e8 x 1e8 strategies raised MemoryError, and nan
    or 1e999 payoffs were read and failed later in value()."""
    start = time.perf_counter()
    with pytest.raises(ArenaError, match=needle) as e:
        from_nfg(text, "g.nfg")
    assert "\n" not in str(e.value) and time.perf_counter() - start < 5


@pytest.mark.parametrize("cell", ["nan", "inf", "1e999", "1e999999999", "-infinity"])
def test_a_csv_payoff_that_is_not_finite_is_one_line(cell):
    with pytest.raises(ArenaError, match="line 3: a payoff is not a finite number"):
        from_csv(f"chooser \\ guesser,a,b\nx,1,2\ny,3,{cell}\n", "g.csv")


def test_a_matrix_game_built_with_a_nan_payoff_is_refused():
    from arena.study.results.export import MatrixGame

    with pytest.raises(ArenaError, match="the payoff of 'b' against 'y' is nan; payoffs are finite"):
        MatrixGame("g", ("a", "b"), ("x", "y"), [[1.0, 2.0], [3.0, float("nan")]])


def test_a_finite_game_still_reads_back():
    game = from_nfg('NFG 1 R "t" { "a" "b" } { 1 2 }\n1 -1 3/2 -3/2\n', "g.nfg")
    assert game.exact == ((Fraction(1), Fraction(3, 2)),) and game.value() == 1.0
    big = from_nfg('NFG 1 R "t" { "a" "b" } { 1 1 }\n1.5e2 -150\n', "g.nfg")
    assert big.payoff.tolist() == [[150.0]]
