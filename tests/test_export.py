"""Matrix games exported (arena/study/results/export.py): Gambit's .nfg and the CSV payoff matrix, written
and read back to the same game and value; pygambit, where it installs, solves the exported
game to the same value."""

import importlib.util
import sys
from fractions import Fraction

import numpy as np
import pytest
from cli_run import one_line, run
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import ArenaError, make_game
from arena.equilibrium import solve_enumerated
from arena.study.config import Cell
from arena.study.results.export import MatrixGame, equilibrium_game, from_nfg, meta_game, read_matrix_game
from arena.study.results.report import Result


@pytest.fixture(scope="module")
def jotto_eq():
    return solve_enumerated(make_game("jotto:first=8"))


def test_an_equilibriums_game_has_its_value_exactly(jotto_eq):
    game = equilibrium_game(jotto_eq)
    assert len(game.rows) == 8 and len(game.columns) == len(jotto_eq.trees)
    assert game.value() == pytest.approx(jotto_eq.value, abs=1e-9)
    assert all(isinstance(x, Fraction) for row in game.exact for x in row)


@pytest.mark.parametrize("suffix", [".nfg", ".csv"])
def test_a_game_written_reads_back_the_same(jotto_eq, tmp_path, suffix):
    game = equilibrium_game(jotto_eq)
    back = read_matrix_game(game.save(tmp_path / f"game{suffix}"))
    assert back.rows == game.rows and back.columns == game.columns
    assert np.array_equal(back.payoff, game.payoff)
    assert back.value() == pytest.approx(jotto_eq.value, abs=1e-9)
    if suffix == ".nfg":
        assert back.exact == game.exact and back.title == game.title


def test_code_types_are_rows_with_exact_averages(tmp_path):
    from arena.equilibrium import double_oracle

    eq = double_oracle(make_game("mastermind:pegs=2,colors=3"))
    game = equilibrium_game(eq)
    assert game.rows == ("aa (3 secrets)", "ab (6 secrets)")
    back = read_matrix_game(game.save(tmp_path / "m.nfg"))
    assert back.value() == pytest.approx(eq.value, abs=1e-9) and back.exact == game.exact
    assert any(x.denominator > 1 for row in back.exact for x in row)


labels = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=8)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_any_game_round_trips_through_both_formats(m, n, data):
    values = data.draw(
        st.lists(
            st.lists(st.fractions(-1000, 1000, max_denominator=50), min_size=n, max_size=n), min_size=m, max_size=m
        )
    )
    rows = tuple(data.draw(st.lists(labels, min_size=m, max_size=m, unique=True)))
    columns = tuple(data.draw(st.lists(labels, min_size=n, max_size=n, unique=True)))
    exact = tuple(tuple(row) for row in values)
    game = MatrixGame('a "title" \\ with quotes', rows, columns, np.array(values, dtype=float), exact)
    from arena.study.results.export import from_csv, to_csv, to_nfg

    back = from_nfg(to_nfg(game))
    assert (back.title, back.rows, back.columns, back.exact) == (game.title, rows, columns, exact)
    plain = from_csv(to_csv(game))
    assert plain.rows == rows and plain.columns == columns and np.array_equal(plain.payoff, game.payoff)


def test_gambits_payoff_version_is_read_too():
    text = 'NFG 1 R "matching pennies" { "Player 1" "Player 2" } { 2 2 }\n\n1 -1 -1 1 -1 1 1 -1\n'
    game = from_nfg(text)
    assert game.payoff.tolist() == [[1, -1], [-1, 1]] and game.value() == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize(
    "text, needle",
    [
        ('NFG 1 R "x" { "a" "b" "c" } { 1 1 1 }\n1 1 1', "3 players"),
        ('NFG 1 R "x" { "a" "b" } { 1 2 }\n1 1 2 -2', "not a zero-sum game"),
        ('EFG 2 R "x" { "a" "b" }', "not a Gambit .nfg file"),
        ('NFG 1 R "x" { "a" "b" } { 1 1 }\n1 x', "not a number"),
    ],
)
def test_files_that_are_not_matrix_games_are_one_line(text, needle):
    with pytest.raises(ArenaError, match=needle):
        from_nfg(text)


def test_a_meta_game_is_the_grid_of_means():
    cells = {
        (c, g): Result(Cell(g, "mastermind", g, c), {"mean": m, "max": 5}, 0.0, None)
        for (c, g), m in {("uniform", "a"): 4.0, ("uniform", "b"): 5.0, ("evil", "a"): 6.0, ("evil", "b"): 5.5}.items()
    }
    game = meta_game("mastermind", ["uniform", "evil"], ["a", "b"], cells)
    assert game.rows == ("uniform", "evil") and game.payoff.tolist() == [[4.0, 5.0], [6.0, 5.5]]
    assert game.value() == pytest.approx(5.5)
    cells["evil", "b"] = Result(cells["evil", "b"].cell, {}, 0.0, None, "boom", status="failed")
    with pytest.raises(ArenaError, match="cannot be exported"):
        meta_game("mastermind", ["uniform", "evil"], ["a", "b"], cells)


def test_arena_equilibrium_exports_the_game_it_solved(tmp_path, capsys):
    rc, out, err = run(capsys, "equilibrium", "jotto:first=8", "--method", "enumerate", "--export", tmp_path / "g.nfg")
    assert rc == 0, err
    value = Fraction(out.split(" = ")[2].split()[0])
    back = read_matrix_game(tmp_path / "g.nfg")
    assert back.value() == pytest.approx(float(value), abs=1e-9)
    rc, _, err = run(capsys, "equilibrium", "jotto:first=8", "--export", tmp_path / "g.xlsx")
    one_line(rc, err, ".nfg", ".csv")


def test_reading_a_file_that_is_not_a_game_is_one_line(tmp_path):
    (tmp_path / "bad.csv").write_text("chooser \\ guesser,a\nx,not-a-number\n")
    with pytest.raises(ArenaError, match="line 2"):
        read_matrix_game(tmp_path / "bad.csv")


@pytest.mark.skipif(
    importlib.util.find_spec("pygambit") is None,
    reason="pygambit is not installed (pip install -e '.[gambit]'; it compiles Gambit from source)",
)
def test_pygambit_solves_the_exported_game_to_the_same_value(jotto_eq, tmp_path):
    import pygambit

    path = equilibrium_game(jotto_eq).save(tmp_path / "g.nfg")
    game = pygambit.read_nfg(str(path))
    result = pygambit.nash.lp_solve(game, rational=True)
    value = result.equilibria[0].payoff("chooser")
    assert Fraction(str(value)) == jotto_eq.exact.value == Fraction(41, 19)  # exact: Gambit's rational LP
    print(f"pygambit {pygambit.__version__}: value {value}", file=sys.stderr)
