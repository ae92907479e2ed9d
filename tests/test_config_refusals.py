"""Configs and stores `arena run` refuses before any work, each in one line with exit status 2:
a seed past what the store holds, TOML nested too deeply, agents that can never play their
game, a results.sqlite that is a directory."""

from __future__ import annotations

import textwrap

import pytest
from cli_run import one_line, run

SPEC = "mastermind:pegs=2,colors=3"


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
