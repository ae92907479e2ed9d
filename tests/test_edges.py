"""The remaining edges of issue 21, each one line and exit 2 (or clean output): a seed past
what the store holds, a TOML config nested too deeply, a results.sqlite that is a directory,
digits of other scripts in a spec, config agents that can never play their game (refused before
any work), and an agent's print() under --json (kept off stdout)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_run import one_line, run
from hypothesis import given, settings
from hypothesis import strategies as st

SPEC = "mastermind:pegs=2,colors=3"
TESTS = Path(__file__).parent


def config(tmp_path, text: str, name: str = "c.toml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


@pytest.mark.parametrize("seed", ["99999999999999999999999", str(2**63)])
@pytest.mark.parametrize("out", [True, False])
def test_a_seed_past_the_store_is_one_line(capsys, tmp_path, seed, out):
    path = config(tmp_path, f'seed = {seed}\ngames = ["{SPEC}"]\nguessers = ["lowest"]\n')
    rc, _, err = run(capsys, "run", path, *(["--out", tmp_path / "out"] if out else []))
    one_line(rc, err, "seed", "2^63-1")
    ok = config(tmp_path, f'seed = {2**63 - 1}\ngames = ["{SPEC}"]\nguessers = ["lowest"]\n', "ok.toml")
    assert run(capsys, "run", ok, "--out", tmp_path / "ok", "--no-plots")[0] == 0


@pytest.mark.parametrize("depth", [1_000, 5_000, 100_000])
def test_a_config_nested_too_deeply_is_one_line(capsys, tmp_path, depth):
    path = config(tmp_path, "a = " + "[" * depth + "]" * depth + "\n")
    rc, _, err = run(capsys, "run", path)
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("force", [False, True])
def test_a_results_store_that_is_a_directory_is_one_line(capsys, tmp_path, force):
    path = config(tmp_path, f'games = ["{SPEC}"]\nguessers = ["lowest"]\n')
    (tmp_path / "out" / "results.sqlite").mkdir(parents=True)
    rc, _, err = run(capsys, "run", path, "--out", tmp_path / "out", *(["--force"] if force else []))
    one_line(rc, err, "is a directory, not a results store")


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


NEVER = {
    '"fixed:secret=99"': ("choosers", "'99' is not a secret"),
    '"weighted:file=nope"': ("choosers", "weights file nope"),
    '"human"': ("choosers", "plays at the terminal"),
    '"fewest-misses"': ("guessers", "fewest-misses plays games with strikes"),
    '"lookahead"': ("guessers", "hit the secret"),
}


@pytest.mark.parametrize("agent", list(NEVER))
def test_config_agents_that_can_never_play_are_refused_before_any_work(capsys, tmp_path, agent):
    role, needle = NEVER[agent]
    game = "hangman:length=3,first=20" if agent == '"lookahead"' else SPEC
    other = "guessers" if role == "choosers" else "choosers"
    path = config(
        tmp_path,
        f'games = ["{game}"]\n{role} = [{agent}]\n{other} = ["{"uniform" if other == "choosers" else "lowest"}"]\n',
    )
    rc, out, err = run(capsys, "run", path, "--out", tmp_path / "out")
    one_line(rc, err, needle)
    assert not (tmp_path / "out" / "results.sqlite").exists()  # refused before any work


def test_an_agent_s_print_stays_off_stdout_under_json(capsys):
    rc, out, err = run(capsys, "evaluate", SPEC, "rogue_agents:Chatty", "--json", "--allow-import")
    assert rc == 0, err
    assert json.loads(out)["n"] == 9 and "chatty:" in err
    rc, out, err = run(capsys, "evaluate", SPEC, "rogue_agents:Chatty", "--allow-import")
    assert rc == 0 and "chatty:" in out  # without --json, stdout is as ever


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_tournament_s_json_is_clean_whatever_its_agents_print(tmp_path, workers):
    path = config(tmp_path, f'games = ["{SPEC}"]\nguessers = ["rogue_agents:Chatty", "lowest"]\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), str(TESTS.parent)])}
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli.parser", "run", path, "--json", "--allow-import", "--workers", workers],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    json.loads(done.stdout)
    assert "chatty:" in done.stderr
