"""A game from a third-party package, through the `arena.games` entry point group: the whole
command line works on it (evaluate, rank, tree, play, solve, optimal, equilibrium, a
tournament), and a broken plug-in is one line naming it.

The game, `bits`: secrets and guesses are the numbers 0..2^bits-1, and the reply to a guess is
the bits it shares with the secret (g & s), or `hit` (2^bits) for the secret itself. With the
default 7 bits that is 129 reply codes: more than the 64 up to which partition counts have a
column per code, so `arena rank` reads its columns through `reply_counts`.
"""

from __future__ import annotations

import sys

import pytest
from cli_run import one_line, run
from plugin_package import install_package

PLUGIN = {
    "pyproject.toml": """
        [build-system]
        requires = ["setuptools"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "arena-bits-game"
        version = "0.1"

        [project.entry-points."arena.games"]
        bits = "bits_game:GAME"
        broken = "bits_game_missing:GAME"
        """,
    "bits_game.py": '''
        import numpy as np

        from arena.core.game import Game, GameType
        from arena.core.spec import Param

        PARAMS = {"bits": Param("bits", int, 7, "bits of the secret number")}


        class Bits(Game):
            """Guess a number; the reply is the bits the guess shares with it."""

            name = "bits"

            def __init__(self, spec, bits=7):
                n = 2**bits
                numbers = np.arange(n)
                table = numbers[:, None] & numbers[None, :]
                np.fill_diagonal(table, n)  # naming the secret: the hit
                labels = [str(i) for i in range(n)]
                super().__init__(spec, labels, labels, table.astype(np.uint16), n, numbers)

            def reply_label(self, reply):
                return "hit" if reply == self.hit else str(reply)

            def parse_reply(self, text):
                return self.hit if text.strip() == "hit" else super().parse_reply(text)


        GAME = GameType("bits", Bits, PARAMS, "a number; reply = the bits it shares with the guess")
        ''',
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The plug-in package installed into a directory of its own (no venv: --target)."""
    return install_package(tmp_path_factory.mktemp("bits"), PLUGIN)


@pytest.fixture
def plugged(site, monkeypatch):
    """The plug-in importable and its entry points visible, here and in worker processes."""
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", str(site) + ":" + ":".join(p for p in sys.path if p))
    return site


def test_the_game_is_listed_and_evaluated(plugged, capsys):
    rc, out, err = run(capsys, "games")
    assert rc == 0, err
    assert "bits: a number; reply = the bits it shares with the guess" in out
    assert "broken" in out and "failed to load" in out  # one line, the others still listed
    rc, out, err = run(capsys, "evaluate", "bits", "minimax")
    assert rc == 0, err
    assert "128 secrets" in out


def test_rank_reads_the_columns_of_129_reply_codes(plugged, capsys):
    rc, out, err = run(capsys, "rank", "bits", "minimax", "--top", "2")
    assert rc == 0, err
    lines = out.splitlines()
    header = lines[1].split("replies ", 1)[1].split()
    best = lines[2].split()
    assert best[1] == "127"  # every bit: the reply names the secret
    row = dict(zip(header, best[-len(header) :]))
    # guess 127 against secret s replies s (and hit for 127 itself): one secret per reply
    assert row["0"] == row["5"] == row["126"] == row["hit"] == "1"
    assert len(header) == 128  # 0..126 and hit (127 & s == 127 only for the secret 127: the hit)


def test_tree_play_and_solve(plugged, capsys):
    rc, out, err = run(capsys, "tree", "bits:bits=4", "minimax")
    assert rc == 0, err
    assert "15" in out
    rc, out, err = run(capsys, "play", "bits", "--guesser", "minimax", "--chooser", "evil")
    assert rc == 0, err
    assert "Solved in" in out
    rc, out, err = run(capsys, "play", "bits", "--guesser", "entropy", "--chooser", "fixed:secret=37")
    assert rc == 0, err
    assert "Guess 2: 37, Reply: hit" in out
    rc, out, err = run(capsys, "solve", "bits", "--history", "127=37")
    assert rc == 0, err
    assert "1 secret possible" in out and "37" in out


def test_optimal_and_equilibrium(plugged, capsys):
    rc, out, err = run(capsys, "optimal", "bits:bits=3")
    assert rc == 0, err
    rc, out, err = run(capsys, "equilibrium", "bits:bits=2")
    assert rc == 0, err
    assert "value" in out.lower()


def test_a_tournament_plays_the_game(plugged, capsys, tmp_path):
    config = tmp_path / "bits.toml"
    config.write_text('game = "bits:bits=5"\nguessers = ["minimax", "random"]\nrepeat = 2\n')
    rc, out, err = run(capsys, "run", str(config))
    assert rc == 0, err
    assert "minimax" in out and "FAILED" not in out


def test_a_broken_plugin_is_one_line_naming_it(plugged, capsys):
    rc, out, err = run(capsys, "evaluate", "broken", "minimax")
    one_line(rc, err, "broken", "bits_game_missing", "failed to load")
