"""The double oracle's state on disk (arena/equilibrium/resume.py, issue 34): written after every
round, resumed by the same command, a kill losing at most the round in flight; a state of
another game, payoff or symmetry, or a damaged one, is one line and exit status 2."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction

import pytest

from arena import make_game
from arena.core.errors import ArenaError
from arena.equilibrium import certified_bounds, double_oracle
from arena.equilibrium.resume import load_state
from arena.equilibrium.symmetry import symmetry_of
from tests.cli_run import one_line, run

JOTTO = "jotto:first=16"
JOTTO_VALUE = Fraction(79, 30)  # experiments/equilibria.md, the double oracle to convergence
SMALL = "mastermind:pegs=3,colors=4"


class Killed(Exception):
    """Stands for a kill in the middle of a round (raised where the round reports its bounds,
    before its state is written)."""


def kill_at(rounds: int):
    seen = []

    def progress(step):
        seen.append(step)
        if len(seen) == rounds:
            raise Killed

    return progress


def test_a_run_killed_in_a_round_resumes_to_the_unkilled_value(tmp_path):
    game = make_game(JOTTO)
    state = tmp_path / "jotto.json"
    unkilled = double_oracle(game)
    with pytest.raises(Killed):
        double_oracle(game, state=str(state), progress=kill_at(6))
    saved = json.loads(state.read_text())
    assert saved["rounds"] == 5  # the sixth round, in flight, is lost; the five before are not
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    resumed_at = load_state(state, game, "guesses", symmetry_of(game))
    assert resumed_at is not None and len(resumed_at.trees) >= 5
    with pytest.raises(Killed):  # killed again, in the resumed run's third round
        double_oracle(game, state=state, progress=kill_at(3))
    assert json.loads(state.read_text())["rounds"] == 7
    eq = double_oracle(game, state=state)
    assert eq.exact is not None and eq.exact.value == unkilled.exact.value == JOTTO_VALUE
    assert any(n.startswith(f"resumed from {state}: ") and "after 7 rounds" in n for n in eq.notes)
    # fewer best responses than a fresh run: the trees found before are kept
    assert len(eq.steps) < len(unkilled.steps)


def test_certified_bounds_resume_and_gzip(tmp_path):
    game = make_game(SMALL)
    state = tmp_path / "small.json.gz"
    first = certified_bounds(game, time_limit=30, response_limit=30, state=state)
    with gzip.open(state, "rt") as f:
        assert json.load(f)["claimed_lower"] == pytest.approx(first.lower)
    again = certified_bounds(game, time_limit=30, response_limit=30, state=state)
    assert again.lower == pytest.approx(first.lower) and again.upper == pytest.approx(first.upper)
    assert any("resumed from" in n for n in again.notes)


def test_the_state_keeps_an_earlier_claim_this_run_did_not_reach(tmp_path):
    game = make_game(JOTTO)
    state = tmp_path / "jotto.json"
    with pytest.raises(Killed):
        double_oracle(game, state=state, progress=kill_at(10))
    claimed = json.loads(state.read_text())["claimed_lower"]
    # resumed with a time limit that stops its first best response at once: the bound it proves
    # is weaker, and the earlier session's claim (with its mix) stays in the state
    double_oracle(game, state=state, time_limit=1e-6, certify=False)
    assert json.loads(state.read_text())["claimed_lower"] == claimed


def cli_value(capsys, *argv) -> str:
    rc, out, err = run(capsys, "equilibrium", *argv)
    assert rc == 0, err
    return next(line for line in out.splitlines() if line.startswith("value ="))


def test_the_command_line_resumes_and_refuses_a_state_of_another_run(tmp_path, capsys):
    state = tmp_path / "s.json"
    value = cli_value(capsys, SMALL, "--state", state)
    assert value == cli_value(capsys, SMALL, "--state", state)
    rc, _, err = run(capsys, "equilibrium", "mastermind:pegs=3,colors=5", "--state", state)
    one_line(rc, err, str(state), "not a state of this run", "a state of mastermind:pegs=3,colors=4")
    rc, _, err = run(capsys, "equilibrium", SMALL, "--no-symmetry", "--state", state)
    one_line(rc, err, "symmetry")
    rc, _, err = run(capsys, "equilibrium", SMALL, "--payoff", "misses", "--state", state)
    assert rc == 2 and "Traceback" not in err
    rc, _, err = run(capsys, "equilibrium", SMALL, "--method", "enumerate", "--state", state)
    one_line(rc, err, "--state is the double oracle's")


def damaged(data: dict, how: str) -> dict:
    data = json.loads(json.dumps(data))
    if how == "format":
        data["format"] = "arena-equilibrium/2"
    elif how == "rows":
        data["best_rows"] = data["best_rows"][:-1]
    elif how == "mix":
        data["best_rows"] = [0.9] * len(data["best_rows"])
    elif how == "rounds":
        data["rounds"] = -1
    elif how == "guess":
        data["trees"][0]["root"]["guess"] = "999"
    elif how == "plan":  # a node that answers no secret: the replay finds a secret with no guess
        data["trees"][0]["root"]["replies"] = {}
    elif how == "trees":
        data["trees"] = {"not": "a list"}
    elif how == "seconds":
        data["seconds"] = "soon"
    elif how == "key":
        del data["key"]
    return data


@pytest.mark.parametrize("how", ["format", "rows", "mix", "rounds", "guess", "plan", "trees", "seconds", "key"])
def test_a_damaged_state_is_one_line(tmp_path, capsys, how):
    state = tmp_path / "s.json"
    cli_value(capsys, SMALL, "--state", state)
    state.write_text(json.dumps(damaged(json.loads(state.read_text()), how)))
    before = state.read_text()
    rc, _, err = run(capsys, "equilibrium", SMALL, "--state", state)
    one_line(rc, err, str(state))
    assert state.read_text() == before  # nothing already computed is lost


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "[" * 100_000])
def test_an_unreadable_state_is_one_line(tmp_path, capsys, text):
    state = tmp_path / "s.json"
    state.write_text(text)
    rc, _, err = run(capsys, "equilibrium", SMALL, "--state", state)
    one_line(rc, err, str(state))


def test_a_state_that_cannot_be_written_is_one_line(tmp_path):
    game = make_game(SMALL)
    with pytest.raises(ArenaError, match="cannot write the state"):
        double_oracle(game, state=tmp_path / "no-such-folder" / "s.json")


def test_the_python_api_checks_the_state_argument():
    from arena.core.errors import ArenaTypeError

    game = make_game(SMALL)
    with pytest.raises(ArenaTypeError, match="state must be a file name"):
        game.equilibrium(state=3)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_process_killed_at_any_moment_resumes(tmp_path):
    """The real thing: `arena equilibrium` killed by SIGKILL as soon as its state appears, then
    run again to the end: the same exact value as an unkilled run."""
    state = tmp_path / "jotto.json"
    command = [sys.executable, "-m", "arena", "equilibrium", JOTTO, "--state", str(state)]
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 120
    while not state.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"value = {float(JOTTO_VALUE):.6f} guesses = {JOTTO_VALUE} (exact)" in done.stdout


# --- more trees a round (oracle._extra) ------------------------------------------------------------


@pytest.mark.parametrize("extra", [(), ("greedy",), ("worst",), ("worst", "greedy"), ("greedy", "flows")])
@pytest.mark.parametrize("spec", [SMALL, JOTTO])
def test_extra_trees_reach_the_same_exact_value(spec, extra):
    game = make_game(spec)
    eq = double_oracle(game, extra=extra)
    plain = double_oracle(game, extra=())
    assert eq.exact is not None and eq.exact.value == plain.exact.value
    assert eq.lower <= float(eq.exact.value) + 1e-9 <= eq.upper + 2e-9
    assert ("concedes most on" in eq.method) == ("worst" in extra)


def test_the_greedy_tree_is_for_guesses_of_games_with_a_hit():
    # Hangman's misses: no greedy tree (its estimate counts guesses), the worst secrets' best
    # response still; the exact value stands
    game = make_game("hangman:length=4,first=12")
    for extra in [("greedy",), ("worst", "greedy")]:
        eq = double_oracle(game, extra=extra)
        assert eq.exact is not None and eq.exact.value == Fraction(3, 2)


@pytest.mark.parametrize("extra", ["greedy", ("best",), 3])
def test_an_unknown_extra_tree_is_refused(extra):
    with pytest.raises(ArenaError, match="extra: .* is not a tuple of greedy, worst"):
        double_oracle(make_game(SMALL), extra=extra)


def test_the_command_line_names_the_extra_trees(capsys):
    assert cli_value(capsys, SMALL, "--extra-trees", "worst,greedy") == cli_value(
        capsys, SMALL, "--extra-trees", "none"
    )
    rc, _, err = run(capsys, "equilibrium", SMALL, "--extra-trees", "fast")
    one_line(rc, err, "--extra-trees fast", "greedy, worst")


def test_certified_bounds_takes_only_the_oracle_options_it_names():
    from arena.core.errors import ArenaTypeError

    with pytest.raises(ArenaTypeError, match="takes state, extra, split, search_every and uniform_limit"):
        certified_bounds(make_game(SMALL), time_limit=1, response_limit=1, smoothing=0.1)


def test_a_state_run_on_other_words_is_refused(tmp_path, monkeypatch, capsys):
    from tests.test_witness import word_list

    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.txt").write_text(word_list(0, 12))
    spec = "jotto:words=w.txt"
    cli_value(capsys, spec, "--state", "s.json")
    (tmp_path / "w.txt").write_text(word_list(2, 12))  # two words out, two in
    rc, _, err = run(capsys, "equilibrium", spec, "--state", "s.json")
    one_line(rc, err, "s.json is not a state of this run", "the contents of w.txt changed")


def test_a_resumed_runs_first_response_gets_the_response_limit_not_a_third():
    """A fresh run's first best response (to the uniform chooser) may take a third of the time
    limit; a resumed one's proves again a lower end its state claims, so it gets the response
    limit as every other round does."""
    import time
    from types import SimpleNamespace

    from arena.equilibrium.oracle import _response_time

    settings = SimpleNamespace(time_limit=300.0, response_limit=10.0, search_every=1)
    fresh = SimpleNamespace(settings=settings, start=time.perf_counter(), steps=[], resumed=None)
    resumed = SimpleNamespace(settings=settings, start=time.perf_counter(), steps=[], resumed=object())
    assert _response_time(fresh) == pytest.approx(100.0, abs=1.0)
    assert _response_time(resumed) == pytest.approx(10.0)
