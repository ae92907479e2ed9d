"""Issue 34, a reviewer's findings on folding bounds in (`--bounds-from`, known.py, verified.py).

A hand-edited journal whose bound records were too high printed 3.25 as mastermind:pegs=3,
colors=4's value, settled (the true value is 219/68): its lower end, above both the upper end
and the uniform chooser's optimum the run proved, was clipped silently. A weights file, a TOML
file or a directory given to --bounds-from got `arena optimal`'s advice (--new-journal, a flag
`arena equilibrium` lacks); --bounds-from X --save X wrote a file that could never be read
back; the Python front door let a TypeError through; and bounds from a saved equilibrium lost
their exact fraction."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from arena import make_game
from arena.cli.parser import main
from arena.core.errors import ArenaError, ArenaTypeError
from arena.equilibrium import double_oracle
from arena.equilibrium.known import KnownBound, folded, journal_bound
from arena.equilibrium.verified import fold
from tests.cli_run import one_line, run

SPEC = "mastermind:pegs=3,colors=4"  # 64 secrets: uniform optimum 206/64, value 219/68


@pytest.fixture(scope="module")
def journal(tmp_path_factory) -> list[str]:
    """The lines of a real split journal of SPEC (its key first, then proofs)."""
    path = tmp_path_factory.mktemp("journal") / "j.jsonl"
    assert main(["optimal", SPEC, "--workers", "2", "--journal", str(path)]) in (None, 0)
    return path.read_text().splitlines()


def forged(tmp_path, key: str, bounds: dict[str, float]):
    """A journal holding the real key and hand-written bound records (one per first guess)."""
    path = tmp_path / "forged.jsonl"
    records = [json.dumps({"guess": g, "bound": b, "exact": False}) for g, b in bounds.items()]
    path.write_text("\n".join([key, *records]) + "\n")
    return path


def test_bound_records_above_the_uniform_optimum_proven_here_are_refused(capsys, tmp_path, journal):
    """Printed `value = 3.250000 guesses`, settled by the forged lower end 3.265625 (209/64)."""
    path = forged(tmp_path, journal[0], {"111": 223.0, "112": 209.0, "123": 209.0})
    rc, out, err = run(capsys, "equilibrium", SPEC, "--time-limit", "0.05", "--bounds-from", path)
    one_line(rc, err, "3.265625", "forged.jsonl", "3.218750", "cannot both be right: a damaged or forged file")
    assert out == ""


def test_a_lower_end_above_an_upper_end_is_refused():
    """folded clipped the lower end to the upper (`min(lower, upper)  # float rounding only`)."""
    eq = double_oracle(make_game("mastermind:pegs=2,colors=3"))
    upper = eq.upper
    too_high = KnownBound("lower", upper + 0.05, None, "from the saved equilibrium a.json", {"equilibrium": "a.json"})
    with pytest.raises(ArenaError, match="cannot both be right") as e:
        folded(eq, [too_high, KnownBound("upper", upper, Fraction(upper), "its own", {"guesser": "own"})])
    assert "a.json" in str(e.value) and "its own" in str(e.value)
    # float rounding alone is no contradiction
    near = KnownBound("lower", upper * (1 + 1e-12), None, "rounded", {"equilibrium": "a.json"})
    assert folded(eq, [near, KnownBound("upper", upper, None, "its own", {"guesser": "own"})]).upper == upper


def test_a_journals_bound_records_are_not_called_proven(tmp_path, journal):
    """`the bound proven against the uniform chooser, read from the journal`: nothing searched it."""
    path = tmp_path / "part.jsonl"
    path.write_text("\n".join(journal[:2]) + "\n")  # the key and one opened first guess: bounds only
    bound = journal_bound(make_game(SPEC), path, "guesses")
    assert bound.exact is None and "proven" not in bound.how, bound.how
    assert "bound records, not searched again here" in bound.how


@pytest.mark.parametrize("kind", ["weights", "toml", "directory", "other game"])
def test_a_file_that_is_neither_is_named_so(capsys, tmp_path, journal, kind):
    """Each got `journal FILE does not match this run: ...; remove it, or give --new-journal`."""
    path = {"weights": tmp_path / "w.json", "toml": tmp_path / "bad.toml", "directory": tmp_path / "dir"}.get(
        kind, tmp_path / "j.jsonl"
    )
    if kind == "weights":
        path.write_text(json.dumps([1.0] * 9))
    elif kind == "toml":
        path.write_text('name = "x"\n')
    elif kind == "directory":
        path.mkdir()
    else:
        path.write_text("\n".join(journal) + "\n")  # a journal of SPEC, read for a smaller game
    rc, out, err = run(capsys, "equilibrium", "mastermind:pegs=2,colors=3", "--bounds-from", path)
    needle = {
        "weights": "is neither a saved equilibrium nor a split's journal",
        "toml": "is neither a saved equilibrium nor a split's journal",
        "directory": "is a directory",
    }.get(kind, f"it is for the game {SPEC}")
    one_line(rc, err, str(path), needle)
    assert "--new-journal" not in err


def test_save_over_the_file_bounds_come_from_is_refused_first(capsys, tmp_path):
    """Wrote a file that named itself: `lean on each other more than 4 deep` when read back."""
    saved = tmp_path / "x.json"
    rc, _, err = run(capsys, "equilibrium", "mastermind:pegs=2,colors=3", "--save", saved)
    assert rc == 0, err
    before = saved.read_text()
    rc, out, err = run(capsys, "equilibrium", "mastermind:pegs=2,colors=3", "--bounds-from", saved, "--save", saved)
    one_line(rc, err, f"--save {saved}", "--bounds-from", "another file")
    assert out == "" and saved.read_text() == before


@pytest.mark.parametrize(
    "given, error, needle",
    [
        ({"bounds_from": 5}, ArenaTypeError, "bounds_from must be a file name or a list of file names, got 5"),
        ({"bogus": 1}, ArenaError, "equilibrium: bogus is not a setting; settings: cost, symmetry"),
        ({"trees": True, "bogus": 1}, ArenaError, "equilibrium: bogus is not a setting; settings: frontier"),
    ],
)
def test_the_front_door_names_a_wrong_keyword(given, error, needle):
    """`.equilibrium(bounds_from=5)` and `.equilibrium(bogus=1)` were TypeError tracebacks."""
    with pytest.raises(error) as e:
        make_game("mastermind:pegs=2,colors=3").equilibrium(**given)
    assert needle in str(e.value)


def test_bounds_from_a_saved_equilibrium_keep_their_fraction(capsys, tmp_path):
    """Settled by a saved equilibrium, `value = 3.220588 guesses` lost its `= 219/68 (exact)`."""
    saved = tmp_path / "full.json"
    rc, out, err = run(capsys, "equilibrium", SPEC, "--save", saved)
    assert rc == 0 and "= 219/68 (exact)" in out, err
    for seconds in ("0.05", "60"):  # stopped, or converged on its own
        rc, out, err = run(capsys, "equilibrium", SPEC, "--time-limit", seconds, "--bounds-from", saved)
        assert rc == 0, err
        assert "value = 3.220588 guesses = 219/68 (exact)" in out, out
        if seconds == "0.05":  # settled by the saved bounds, each named with its fraction
            assert "lower 3.220588 = 219/68" in out and "upper 3.220588 = 219/68" in out, out
        else:  # exact on its own (before the support search, converged in floats and settled by the fold)
            assert "note: exact: the rational guesser mix concedes 219/68" in out, out


def test_a_saved_file_whose_bounds_rest_on_forged_records_is_refused(capsys, tmp_path, journal):
    """verified_value clipped the lower end a forged journal gave to its replayed upper end."""
    saved = tmp_path / "full.json"
    rc, _, err = run(capsys, "equilibrium", SPEC, "--save", saved)
    assert rc == 0, err
    path = forged(tmp_path, journal[0], {"111": 223.0, "112": 209.0, "123": 209.0})
    data = json.loads(saved.read_text())
    data["bounds"] = [*data.get("bounds", []), {"side": "lower", "value": 3.265625, "rests_on": {"journal": str(path)}}]
    saved.write_text(json.dumps(data))
    for argv in (["evaluate", SPEC, "knuth", "--exploitability", "--value-from", saved],
                 ["equilibrium", SPEC, "--time-limit", "0.05", "--bounds-from", saved]):  # fmt: skip
        rc, out, err = run(capsys, *argv)
        one_line(rc, err, str(saved), "3.265625", "3.220588", "cannot both be right")


def test_a_gzipped_journal_is_read_as_it_is_committed(capsys, tmp_path, journal):
    """The project commits its big journals gzipped (experiments/data/*.jsonl.gz): --bounds-from
    and --standing read one as the plain file, and a run asked to resume one is refused in one
    line (a compressed file is not appended to)."""
    import gzip

    plain, packed = tmp_path / "j.jsonl", tmp_path / "j.jsonl.gz"
    plain.write_text("\n".join(journal) + "\n")
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    game = make_game(SPEC)
    read, unpacked = journal_bound(game, packed, "guesses"), journal_bound(game, plain, "guesses")
    assert (read.value, read.exact) == (unpacked.value, unpacked.exact) == (206 / 64, Fraction(206, 64))
    rc, out, err = run(capsys, "optimal", SPEC, "--workers", "2", "--journal", str(packed), "--standing", "--json")
    assert rc == 0 and json.loads(out)["total"] == 206 and json.loads(out)["exact"], err
    rc, out, err = run(capsys, "optimal", SPEC, "--workers", "2", "--journal", str(packed))
    one_line(rc, err, "is compressed (gzip)", "gunzip it to resume it")
    fresh = tmp_path / "new.jsonl.gz"  # a new journal would be plain text under a gzip name
    rc, out, err = run(capsys, "optimal", SPEC, "--workers", "2", "--journal", str(fresh))
    one_line(rc, err, "new.jsonl.gz", "cannot be named .gz", "FILE.jsonl")
    assert not fresh.exists()
    truncated = tmp_path / "cut.jsonl.gz"
    truncated.write_bytes(packed.read_bytes()[:-9])
    rc, out, err = run(capsys, "equilibrium", SPEC, "--time-limit", "0.05", "--bounds-from", str(truncated))
    assert rc == 2 and "cut.jsonl.gz" in err


def test_a_stopped_uniform_search_folds_in_the_two_level_bound():
    """The fold's uniform chooser on a game its search does not finish: the bound is the higher
    of the stopped search's and the level bound (LB_3 deepened from LB_2, best first, as long
    again), a whole number of guesses over the secrets, at least the search's own, and no more
    than LB_3 complete or the optimum (Jotto's first 300 words: optimum 1,422, LB_3 1,391, LB_2
    1,350)."""
    from arena.equilibrium.known import uniform_bound
    from arena.optimal import optimal_tree
    from arena.optimal.lookahead import uniform_level_bound

    game = make_game("jotto:first=300")
    stopped = optimal_tree(game, time_limit=0.3)
    bound = uniform_bound(game, "guesses", 0.3)
    total = round(bound.value * 300)  # a whole number of guesses (1,339 / 300 * 300 is 1,338.9999999999998)
    assert bound.exact is None and abs(bound.value * 300 - total) < 1e-9
    assert stopped.lower_bound <= total <= uniform_level_bound(game, 3) == 1391 < 1422
    hangman = uniform_bound(make_game("hangman:length=4,first=30"), "misses", 0.05)  # no hits: no level bound
    assert "LB_" not in hangman.how


def test_the_fold_adds_the_two_level_bound_where_the_run_already_searched_the_uniform_chooser():
    """A run whose first best response took the fold's whole limit is not searched again (a
    search as long again rarely proves more), and by default nothing else is done (the time
    limit holds); given `uniform_limit`, the level bound, another method, is folded in. Before, Jotto's
    fold after a 300 s run kept the stopped search's 16,623."""
    from dataclasses import replace

    from arena.equilibrium.solution import Step
    from arena.equilibrium.verified import fold

    game = make_game("jotto:first=300")
    eq = double_oracle(game, time_limit=0.3)
    assert eq.uniform is None  # its first best response did not finish
    long_first = replace(eq, steps=(Step(eq.lower, eq.upper, 10_000.0, len(eq.trees)), *eq.steps[1:]))
    assert not any("uniform" in b.rests_on for b in fold(long_first, time_limit=0.3).bounds)
    lower = fold(long_first, time_limit=0.3, uniform_limit=0.3).bounds[0]
    assert lower.side == "lower" and "LB_3" in lower.how and lower.value * 300 <= 1391  # LB_3 complete


def test_the_uniform_limit_is_one_number_of_seconds(capsys):
    """--uniform-limit is checked as every limit is, and only goes with the double oracle."""
    rc, out, err = run(capsys, "equilibrium", "mastermind:pegs=2,colors=3", "--uniform-limit", "-1")
    one_line(rc, err, "uniform_limit")
    with pytest.raises(ArenaError, match="uniform_limit"):
        from arena.api.frontdoor import equilibrium

        equilibrium(make_game("mastermind:pegs=2,colors=3"), guessers=["knuth"], uniform_limit=5)


def test_the_projects_own_journals_of_the_game_are_folded_in_without_being_named(
    capsys, tmp_path, monkeypatch, journal
):
    """`arena equilibrium wordle` printed its own fold's lower end, not the 7,920/2,315 its
    committed journal proves: a journal of the game in a witness directory (a checkout's
    experiments/data, or ARENA_WITNESSES) is now read and checked as --bounds-from reads it.
    Journals of other games or weights are left alone, and so is a file that is no journal;
    one that cannot be read is said in a note."""
    from arena.equilibrium.known import witness_journals
    from arena.optimal.split import split_root

    (tmp_path / "j.jsonl").write_text("\n".join(journal) + "\n")
    split_root(make_game("mastermind:pegs=2,colors=4"), workers=1, journal=tmp_path / "other-game.jsonl")
    split_root(make_game(SPEC), workers=1, journal=tmp_path / "weighted.jsonl", weights=[1.0] * 63 + [2.0])
    (tmp_path / "not-a-journal.jsonl").write_text("hello\n")
    monkeypatch.setenv("ARENA_WITNESSES", str(tmp_path))
    assert witness_journals(make_game(SPEC), "guesses") == [tmp_path / "j.jsonl"]
    eq = double_oracle(make_game(SPEC), time_limit=0.05)
    unproven = replace(eq, uniform=None, lower=0.0)  # as a run whose first best response did not finish
    lower = fold(unproven, time_limit=0.05).bounds[0]
    assert lower.exact == Fraction(206, 64) and "read from the journal" in lower.how and "j.jsonl" in lower.how
    (tmp_path / "broken.jsonl.gz").write_bytes(b"\x1f\x8b" + b"\0" * 10)  # no journal: not even read
    assert witness_journals(make_game(SPEC), "guesses") == [tmp_path / "j.jsonl"]
    monkeypatch.setenv("ARENA_WITNESSES", "")  # none: the fold's own search, as before
    assert witness_journals(make_game(SPEC), "guesses") == []
    assert "journal" not in fold(unproven, time_limit=0.05).bounds[0].how


def test_a_witness_journal_that_cannot_be_read_is_said_and_left_out(tmp_path, monkeypatch, journal):
    from arena.equilibrium.verified import witnessed

    (tmp_path / "damaged.jsonl").write_text(journal[0] + "\n{not json\n")
    monkeypatch.setenv("ARENA_WITNESSES", str(tmp_path))
    found, notes = witnessed(make_game(SPEC), "guesses", [])
    assert found == [] and len(notes) == 1 and "damaged.jsonl was not folded in" in notes[0]
