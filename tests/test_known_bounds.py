"""Issue 34, every known bound goes in: no interval printed has a lower end below the exact
optimum against the uniform chooser (a chooser strategy, so a bound on the value), and each
folded end is named, saved with what it rests on, and proven again by `--value-from`.

On Wordle's first 100 answers and Jotto's first 60 words the double oracle stopped inside its
first best response (a 1 ms limit) printed 2.66 and 3.3667, below 139/50 and 209/60."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from arena import make_game
from arena.equilibrium import certified_bounds, double_oracle
from arena.equilibrium.verified import fold
from arena.optimal import optimal_tree
from tests.cli_run import one_line, run

SPECS = ["wordle:first=100", "jotto:first=60"]
#: Short enough to stop the double oracle inside its first best response (the uniform chooser's).
STOP = 1e-3


@pytest.fixture(scope="module", params=SPECS)
def uniform(request) -> tuple[str, Fraction]:
    """A game and its exact optimum against the uniform chooser, by arena's exact search."""
    game = make_game(request.param)
    tree = optimal_tree(game)
    assert not tree.stopped and tree.exact
    return request.param, Fraction(int(tree.costs.sum()), len(game.secrets))


def test_the_api_interval_holds_the_uniform_optimum(uniform):
    spec, optimum = uniform
    eq = make_game(spec).equilibrium(time_limit=STOP)
    assert not eq.settled
    assert eq.lower >= float(optimum) - 1e-12 and eq.lower <= eq.upper
    assert eq.bounds[0].exact == optimum and "the exact optimum against the uniform chooser" in eq.bounds[0].how
    assert eq.uniform == pytest.approx(float(optimum))
    assert eq.to_json()["bounds"][0]["exact"] == str(optimum)


def test_the_fold_raises_a_lower_end_below_the_uniform_optimum(uniform):
    spec, optimum = uniform
    game = make_game(spec)
    stopped = double_oracle(game, time_limit=STOP)
    if stopped.uniform is None:  # the first best response was stopped (always, but on a very fast machine)
        assert stopped.lower < float(optimum)  # what was printed before the fold
    raised = fold(stopped, STOP)
    assert raised.lower == float(optimum) and raised.upper <= stopped.upper + 1e-12
    assert raised.bounds[1].exact is not None and float(raised.bounds[1].exact) == raised.upper  # replayed


def test_certified_bounds_hold_the_uniform_optimum(uniform):
    spec, optimum = uniform
    eq = certified_bounds(make_game(spec), time_limit=3 * STOP, response_limit=STOP)
    assert eq.lower >= float(optimum) - 1e-12


def test_the_command_prints_the_same_folded_interval_and_where_each_end_comes_from(uniform, capsys):
    spec, optimum = uniform
    rc, out, err = run(capsys, "equilibrium", spec, "--time-limit", str(STOP))
    assert rc == 0, err
    assert f"bounds: {float(optimum):.6f} <= value" in out
    assert f"  lower {float(optimum):.6f} = {optimum}, the exact optimum against the uniform chooser" in out
    assert "  upper " in out and "replayed: its worst secret" in out
    # every gap printed is the folded interval's (a note written before the fold said the old one)
    lower, upper = (float(x) for x in out.split("bounds: ")[1].split(";")[0].split(" <= value <= "))
    gaps = re.findall(r"gap ([0-9.e+-]+)", out)
    assert gaps and all(g == f"{max(0.0, upper - lower):.2g}" for g in gaps), gaps
    rc, out, err = run(capsys, "equilibrium", spec, "--time-limit", str(STOP), "--response-limit", str(STOP), "--json")
    data = json.loads(out)
    assert rc == 0 and data["lower"] == float(optimum) == make_game(spec).equilibrium(time_limit=STOP).lower
    assert [b["side"] for b in data["bounds"]] == ["lower", "upper"]


def test_value_from_proves_the_folded_bounds_again(uniform, capsys, tmp_path):
    spec, optimum = uniform
    path = tmp_path / "eq.json"
    rc, _, err = run(capsys, "equilibrium", spec, "--time-limit", str(STOP), "--save", path)
    assert rc == 0, err
    rc, out, err = run(capsys, "evaluate", spec, f"equilibrium:file={path}", "--exploitability", "--value-from", path)
    assert rc == 0, err
    assert f"game value: in [{float(optimum):.6f}," in out
    assert "the lower end the exact optimum against the uniform chooser" in out
    assert "not re-proven" not in out  # every end proven again, none taken from the file

    # a file claiming more than its bounds prove: printed as its claim, never as proven
    data = json.loads(path.read_text())
    data["lower"] = data["upper"] - 0.01
    path.write_text(json.dumps(data))
    rc, out, err = run(capsys, "evaluate", spec, f"equilibrium:file={path}", "--exploitability", "--value-from", path)
    assert (
        rc == 0 and f"game value: in [{float(optimum):.6f}," in out and "claimed by" in out and "not re-proven" in out
    )


def test_a_bound_resting_on_nothing_known_is_refused_in_one_line(capsys, tmp_path):
    spec = "jotto:first=20"
    path = tmp_path / "eq.json"
    rc, _, err = run(capsys, "equilibrium", spec, "--time-limit", str(STOP), "--save", path)
    assert rc == 0, err
    data = json.loads(path.read_text())
    for bad in ({"trust": "me"}, {}, "uniform"):
        data["bounds"] = [{"side": "lower", "value": 9.0, "rests_on": bad}]
        path.write_text(json.dumps(data))
        rc, _, err = run(capsys, "evaluate", spec, "knuth", "--exploitability", "--value-from", path)
        one_line(rc, err, "rests on")
    data["bounds"] = {"lower": 9.0}
    path.write_text(json.dumps(data))
    rc, _, err = run(capsys, "evaluate", spec, "knuth", "--exploitability", "--value-from", path)
    one_line(rc, err, "bounds")


def test_a_journal_and_a_saved_equilibrium_fold_in_and_are_read_again(capsys, tmp_path):
    spec = "jotto:first=60"
    journal, saved, again = tmp_path / "j.jsonl", tmp_path / "a.json", tmp_path / "b.json"
    rc, out, err = run(capsys, "optimal", spec, "--workers", "1", "--journal", journal, "--json")
    assert rc == 0 and json.loads(out)["total"] == 209, err
    rc, _, err = run(capsys, "equilibrium", spec, "--time-limit", "1", "--response-limit", "0.05", "--save", saved)
    assert rc == 0, err
    upper = json.loads(saved.read_text())["upper"]
    rc, out, err = run(
        capsys, "equilibrium", spec, "--time-limit", str(STOP), "--bounds-from", journal, "--bounds-from", saved,
        "--save", again, "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert rc == 0 and data["lower"] == 209 / 60 and data["upper"] <= upper + 1e-12
    assert "read from the journal" in data["bounds"][0]["how"]
    assert data["bounds"][0]["rests_on"] == {"journal": str(journal)}
    rc, out, err = run(capsys, "evaluate", spec, "knuth", "--exploitability", "--value-from", again)
    assert rc == 0 and "game value: in [3.483333," in out and "read from the journal" in out, err
    data = json.loads(again.read_text())
    data["bounds"][0]["rests_on"] = {"journal": journal.name}  # a bare name: looked for beside the file
    again.write_text(json.dumps(data))
    rc, out, err = run(capsys, "evaluate", spec, "knuth", "--exploitability", "--value-from", again)
    assert rc == 0 and "read from the journal" in out, err
    journal.rename(tmp_path / "gone.jsonl")  # what the bound rests on is gone: not read as proven
    rc, out, err = run(capsys, "evaluate", spec, "knuth", "--exploitability", "--value-from", again)
    assert rc == 0 and "read from the journal" not in out, err
    (tmp_path / "gone.jsonl").rename(journal)
    eq = make_game(spec).equilibrium(time_limit=STOP, bounds_from=str(journal))
    assert eq.lower == 209 / 60 and "journal" in eq.bounds[0].rests_on
    rc, _, err = run(capsys, "equilibrium", spec, "--time-limit", "1", "--bounds-from", tmp_path / "none.jsonl")
    one_line(rc, err, "none.jsonl")
    rc, _, err = run(capsys, "equilibrium", spec, "--guessers", "knuth", "--bounds-from", journal)
    one_line(rc, err, "--bounds-from")


def test_a_saved_equilibrium_naming_itself_is_refused(capsys, tmp_path):
    spec = "jotto:first=20"
    path = tmp_path / "eq.json"
    rc, _, err = run(capsys, "equilibrium", spec, "--time-limit", str(STOP), "--save", path)
    assert rc == 0, err
    data = json.loads(path.read_text())
    data["bounds"] = [{"side": "upper", "value": 1.0, "rests_on": {"equilibrium": str(path)}}]
    path.write_text(json.dumps(data))
    rc, _, err = run(capsys, "evaluate", spec, "knuth", "--exploitability", "--value-from", path)
    one_line(rc, err, "deep")


def test_exploitability_prints_the_folded_interval(uniform, capsys):
    spec, optimum = uniform
    rc, out, err = run(capsys, "evaluate", spec, "knuth", "--exploitability", "--time-limit", str(STOP))
    assert rc == 0, err
    assert f"game value: in [{float(optimum):.6f}," in out
    assert "the lower end the exact optimum against the uniform chooser" in out


def test_a_file_saved_before_the_fold_gets_the_uniform_chooser_searched(capsys, tmp_path):
    spec = "jotto:first=60"
    path = tmp_path / "eq.json"
    rc, _, err = run(capsys, "equilibrium", spec, "--time-limit", str(STOP), "--save", path)
    data = json.loads(path.read_text())
    del data["bounds"]
    data["lower"] = 3.0
    path.write_text(json.dumps(data))
    for limit, proven in ((str(STOP), False), ("30", True)):
        rc, out, err = run(
            capsys, "evaluate", spec, "knuth", "--exploitability", "--value-from", path, "--time-limit", limit
        )
        assert rc == 0, err
        line = next(line for line in out.splitlines() if "game value: in [" in line)
        lower = float(line.split("[")[1].split(",")[0])
        assert lower <= 209 / 60 + 1e-6 and (not proven or lower == pytest.approx(209 / 60))
