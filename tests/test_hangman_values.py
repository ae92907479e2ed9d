"""Hangman as a zero-sum game (issue 34): the best response searched on the chooser's support
(arena.equilibrium.letters), the double oracle over growing rows (growing.py), the lost-games
payoff from the command line and from Python, and the witnesses replayed."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from arena import make_game
from arena.core.costs import cost_for
from arena.equilibrium import double_oracle, growing, letters, support_search
from arena.equilibrium.response import bounded_best_response, mix_problem
from tests.cli_run import one_line, run

#: 20 four-letter words of web2: value 365/178 misses, 2/5 lost games within 3 strikes
#: (experiments/hangman_equilibria.md, by the search over every word).
SMALL = "hangman:length=4,first=20"


def _slow(monkeypatch) -> None:
    monkeypatch.setattr(letters, "SUPPORT", False)


@pytest.mark.parametrize(("spec", "cost"), [(SMALL, "misses"), ("hangman:length=4,first=30,strikes=3", "lost")])
def test_support_search_is_the_search_over_every_word(spec, cost, monkeypatch):
    """12 random mixes, a third of the words at 0, on 20 and 30 words: the support search's
    optimum equals arena.optimal's over every word, and its completed tree costs that much."""
    game = make_game(spec)
    paid = cost_for(game, cost)
    rng = np.random.default_rng(34)
    for _ in range(12):
        w = rng.random(len(game.secrets)) ** 3
        w[rng.random(len(w)) < 1 / 3] = 0.0
        w /= w.sum()
        found = letters.support_response(game, w, paid)
        assert found.exact
        assert float(found.mix @ paid.of(found.tree)) == pytest.approx(found.bound, abs=1e-12)
        with monkeypatch.context() as m:
            _slow(m)
            tree, bound = bounded_best_response(mix_problem(game, found.mix, paid))
        assert not tree.stopped
        assert found.bound == pytest.approx(bound, abs=1e-12)


def test_value_both_ways(monkeypatch):
    """The exact value of 20 four-letter words by the new path and by the search over every word."""
    game = make_game(SMALL)
    fast = double_oracle(game)
    assert fast.exact is not None and fast.exact.value == Fraction(365, 178)
    _slow(monkeypatch)
    slow = double_oracle(game)
    assert slow.exact is not None and slow.exact.value == fast.exact.value


def test_growing_rows_bracket_the_value(monkeypatch):
    """The double oracle over growing rows (forced on a short list) ends with proven bounds that
    hold the exact value, both on misses and on lost games."""
    monkeypatch.setattr(letters, "UNIFORM_WORDS", 5)
    monkeypatch.setattr(growing, "FIRST_ROWS", 6)
    game = make_game(SMALL)
    eq = double_oracle(game, time_limit=120)
    assert "growing rows" in eq.method
    assert eq.lower - 1e-9 <= 365 / 178 <= eq.upper + 1e-9
    assert eq.upper - eq.lower < 1e-6
    lost = double_oracle(make_game("hangman:length=4,first=20,strikes=3"), cost="lost", time_limit=120)
    assert lost.lower - 1e-9 <= 0.4 <= lost.upper + 1e-9
    # the upper end is the saved guesser mix's worst word, the lower end the searched mix's optimum
    paid = cost_for(game, "misses")
    paying = np.array([paid.of(t) for t in eq.trees], dtype=np.float64)
    assert float((eq.guesser @ paying).max() / eq.guesser.sum()) == pytest.approx(eq.upper, abs=1e-9)
    again = letters.support_response(game, eq.chooser, paid)
    assert again.bound >= eq.lower - 1e-9


def test_lost_within_strikes_from_cli_and_python(tmp_path, capsys):
    """Lost games within the strikes: `arena equilibrium --payoff lost` and Python's
    make_game(...).equilibrium(cost="lost") agree, and the saved witnesses replay under the
    file's own payoff (`arena evaluate --exploitability --value-from`)."""
    spec = "hangman:length=4,first=20,strikes=3"
    python = make_game(spec).equilibrium(cost="lost")
    assert python.exact is not None and python.exact.value == Fraction(2, 5)
    path = tmp_path / "lost.json"
    rc, out, err = run(capsys, "equilibrium", spec, "--payoff", "lost", "--save", path)
    assert rc == 0, err
    assert "= 2/5 (exact)" in out
    rc, out, err = run(capsys, "evaluate", spec, f"equilibrium:file={path}", "--exploitability", "--value-from", path)
    assert rc == 0, err
    assert "game value: 0.400000 lost games = 2/5 (exact)" in out
    rc, out, err = run(
        capsys,
        "evaluate",
        spec,
        f"equilibrium:file={path}",
        "--exploitability",
        "--value-from",
        path,
        "--payoff",
        "misses",
    )
    one_line(rc, err, "payoff is 'lost', not 'misses'")
    rc, out, err = run(capsys, "evaluate", spec, "fewest-misses", "--payoff", "lost")
    one_line(rc, err, "--payoff", "--exploitability")


def test_ranks_spread_a_family():
    """Trees completed with the spread ranks try a family's letters in different orders: on the
    seven words of at.txt (bat cat hat ...) the 26 greedy trees mix to the family's value 3."""
    from arena.equilibrium.matrix import solve_matrix_game

    game = make_game(f"hangman:words={Path(__file__).parents[1] / 'experiments' / 'data' / 'at.txt'}")
    paid = cost_for(game, "misses")
    costs = np.array([paid.of(letters.greedy_tree(game, r)) for r in letters.ranks(26)], dtype=np.float64)
    assert len({c.tobytes() for c in costs}) > 1
    assert solve_matrix_game(costs.T).value == pytest.approx(3.0, abs=1e-9)


@pytest.mark.parametrize("cost", ["misses", "lost"])
def test_a_stopped_search_still_proves_its_bound(cost):
    """Past its time limit the support search stops: a complete tree, not called exact, and a
    bound no higher than the optimum (the uniform chooser on 160 five-letter words, 2 strikes)."""
    game = make_game("hangman:length=5,first=160,strikes=2")
    paid = cost_for(game, cost)
    w = np.full(len(game.secrets), 1.0 / len(game.secrets))
    stopped = letters.support_response(game, w, paid, time_limit=1e-9)
    assert not stopped.exact
    assert len(stopped.tree.secrets) == len(game.secrets)
    found = letters.support_response(game, w, paid)
    assert found.exact
    assert stopped.bound <= found.bound + 1e-12
    assert found.bound == pytest.approx(float(w @ paid.of(found.tree)), abs=1e-12)


#: Families that overlap (b_ll holds bell and bill; lull is impure: its l stands elsewhere).
FAMILIES = "bell cell dell fell hell sell tell bill dill fill hill mill pill ball call fall hall bull dull full lull"


@pytest.fixture
def family_game(tmp_path):
    path = tmp_path / "families.txt"
    path.write_text("\n".join(FAMILIES.split()) + "\n")
    return make_game(f"hangman:words={path},length=4,strikes=3")


def test_pure_families():
    """A word joins the family of its pattern at p only where its letter at p stands nowhere
    else in it: nain (n twice) is left out of _ain, and a shown character is never a family's."""
    kin = support_search.pure_families(["bain", "cain", "nain", "a-b", "a-c"])
    assert kin[0, 0] == kin[0, 1] >= 0 and kin[0, 2] == -1
    assert kin[1, 3] == -1 and kin[2, 3] == kin[2, 4] >= 0


@pytest.mark.parametrize("cost", ["misses", "lost"])
def test_family_bounds_and_free_letters_keep_the_optimum(family_game, cost, monkeypatch):
    """On a list made of overlapping families (the case the family floor and the free letters
    speed up), 10 random mixes: the support search's optimum equals arena.optimal's over every
    word, and the family floor never exceeds a class's exact value."""
    game = family_game
    paid = cost_for(game, cost)
    rng = np.random.default_rng(341)
    for _ in range(10):
        w = rng.random(len(game.secrets)) ** 2
        w[rng.random(len(w)) < 0.2] = 0.0
        w /= w.sum()
        found = letters.support_response(game, w, paid)
        assert found.exact
        with monkeypatch.context() as m:
            _slow(m)
            tree, bound = bounded_best_response(mix_problem(game, found.mix, paid))
        assert found.bound == pytest.approx(bound, abs=1e-12)


def test_family_floor_is_below_each_class_value(family_game):
    """The floor of every class under every letter at the root is at most that class's exact
    value, searched alone (misses and lost games with 2 strikes left)."""
    game = family_game
    rng = np.random.default_rng(7)
    w = rng.random(len(game.secrets))
    w /= w.sum()
    words = np.arange(len(game.secrets))
    for strikes in (None, 2):
        opening = support_search.Opening.of(game, words, w)
        search = support_search.LetterSearch(opening, strikes, None)
        everything = (1 << len(words)) - 1
        k = strikes or 0
        for _, _, classes in search.children(everything, k):
            for c, left, lb in classes:
                exact = support_search.LetterSearch(opening, strikes, None).solve(c, left, np.inf)
                assert lb <= exact + 1e-12


def test_growing_rows_resume_from_their_state(tmp_path, monkeypatch):
    """`--state` on a long list (the growing rows, forced on 20 words): a run stopped early
    writes its trees, rows and chooser mix; the next run replays them, proves the lower end
    again (never read as proven: a core of the state's mix proves at least as much), goes on
    to the exact value, and counts the rounds of both; a state whose rows are not words of the
    list is refused in one line."""
    import gzip
    import json

    from arena.core.errors import ArenaError

    monkeypatch.setattr(letters, "UNIFORM_WORDS", 5)
    monkeypatch.setattr(growing, "FIRST_ROWS", 6)
    game = make_game(SMALL)
    path = tmp_path / "state.json.gz"
    first = double_oracle(game, time_limit=0.5, state=path)
    assert "growing rows" in first.method and path.exists()
    saved = json.loads(gzip.open(path, "rt").read())
    assert saved["rows"] and len(saved["trees"]) >= len(first.trees)  # every tree found, not only the mix's
    again = double_oracle(game, time_limit=120, state=path)
    assert any(note.startswith(f"resumed from {path}: {len(saved['trees'])} trees") for note in again.notes)
    # a core of the state's mix proves at least what the mix did, so the mix is not searched again
    assert any(note.startswith("the state's mix is not searched again: a core proved") for note in again.notes)
    assert again.lower >= saved["claimed_lower"] - 1e-9
    assert again.lower - 1e-9 <= 365 / 178 <= again.upper + 1e-9 and again.upper - again.lower < 1e-6
    assert json.loads(gzip.open(path, "rt").read())["rounds"] == saved["rounds"] + len(again.steps)
    saved["rows"] = [len(game.secrets)]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(saved))
    with pytest.raises(ArenaError, match="rows is not a list of secret indexes below 20"):
        double_oracle(game, time_limit=5, state=bad)


@pytest.mark.parametrize("cost", ["misses", "lost"])
def test_a_core_proves_the_value_of_its_words(cost, tmp_path):
    """A core (growing._core: the double oracle on some words alone, rows fixed) proves the
    exact value of the game on those words: that of the list of those words solved as its own
    game (a tree of the whole list, on them, misses no less than the best on them alone, and the
    search on the support finds the one that misses no more); with every word, the game's value."""
    game = make_game("hangman:length=4,first=20,strikes=3")
    paid = cost_for(game, cost)
    core = np.array([1, 3, 4, 6, 8, 9, 11, 12, 15, 17, 18])
    words = tmp_path / "core.txt"
    words.write_text("\n".join(game.secrets[k] for k in core) + "\n")
    alone = double_oracle(make_game(f"hangman:words={words},length=4,strikes=3"), cost=cost)
    assert alone.exact is not None
    for rows, value in ((core, alone.exact.value), (np.arange(20), None)):
        loop = growing._Grow(game, mix_problem(game, np.full(20, 1 / 20), paid), 0.0)
        loop.add(letters.greedy_tree(game))
        raised = growing._core(loop, rows, None, 1e-9)
        assert raised is not None and set(np.flatnonzero(raised)) <= set(rows.tolist())
        assert loop.cores[-1].startswith(f"{len(rows)} words, solved")
        if value is None:
            value = double_oracle(game, cost=cost).exact.value
        assert loop.lower == pytest.approx(float(value), abs=1e-9)
        # the bound rests on the mix saved: searched again, it proves as much
        assert letters.support_response(game, loop.chooser, paid).bound >= loop.lower - 1e-9
    assert growing._core(loop, np.zeros(0, dtype=np.intp), None, 1e-9) is None  # no words, no core
