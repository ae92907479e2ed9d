"""Results stores damaged in random ways: every reader gives the right figures or one line.

A store is built once (two games, a random and a deterministic guesser, a failing one, two
choosers, blocks of repetitions); each case copies it, damages it one way (a tally truncated
or with a field of the wrong type, a huge integer, nesting 100,000 deep or NaN; a task's time,
status or error; the plan; the stored config; the file itself), then reads it with
`Report.from_dir`, `arena report`, `arena report --html` and a resumed `arena run`. Each must
give the undamaged store's figures (a cell whose result is gone may show as not run) or exit 2
with one line and no traceback; a resumed run must end with the undamaged figures (it runs a
damaged task again, never adds it in).
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3

import pytest

from arena.cli.parser import main
from arena.core.errors import ArenaError
from arena.study.results.report import Report

CONFIG = """\
games = ["mastermind:pegs=2,colors=3", "hangman:length=4,first=20"]
guessers = ["lowest", "random", "rogue_agents:Raise"]
choosers = ["uniform", "evil"]
strikes = [3]
repeat = 3
block = 2
"""

CASES = 120  # damaged stores, each read four ways (the HTML page for one case in 6: it draws plots)
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    where = tmp_path_factory.mktemp("store")
    config = where / "c.toml"
    config.write_text(CONFIG)
    assert main(["run", str(config), "--out", str(where / "out"), "--no-plots", "--allow-import"]) == 0
    return config, where / "out", figures(Report.from_dir(where / "out"))


def honest(found: list, right: list) -> bool:
    """Every cell has its right figures, or is shown as not run (its result is not in the store:
    a damaged key, like a run stopped early, leaves nothing to show, and says so)."""
    return len(found) == len(right) and all(f == r or (f[3] == "not run" and not f[4]) for f, r in zip(found, right))


def tables(text: str) -> list[str]:
    """The printed tables without what a damaged time or error text may change (not figures)."""
    return [line for line in text.splitlines() if not re.search(r"; [\d.]+ s$|^  FAILED ", line)]


def figures(report: Report) -> list:
    """Every cell's figures (a failed cell's error is its agent's text, not a figure)."""
    return [(r.cell.label, r.cell.game, r.cell.chooser, r.status, r.ours) for r in report.results]


# --- damage ---------------------------------------------------------------------------------


def _bad_value(rng: random.Random) -> str:
    """JSON text of a value no tally field holds (or an integer off by one)."""
    return rng.choice(
        ['"x"', "[]", "{}", "null", "true", "1.5", "-1", str(10**400), str(2**63), DEEP, "NaN", "Infinity"]
    )


def _damage_json(rng: random.Random, text: str) -> str:
    """The tally's JSON with one node (at any depth) replaced, or the text cut short."""
    if rng.random() < 0.2:
        return text[: rng.randrange(len(text))]
    data = json.loads(text)
    paths = []

    def walk(node, path):
        paths.append(path)
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for k, v in children:
            walk(v, (*path, k))

    walk(data, ())
    path = rng.choice(paths[1:])
    parent = data
    for k in path[:-1]:
        parent = parent[k]
    old = parent[path[-1]]
    if isinstance(old, int) and not isinstance(old, bool) and rng.random() < 0.3:
        new = str(old + rng.choice([-1, 1]))
    else:
        new = _bad_value(rng)
    parent[path[-1]] = "\x00PLACE\x00"
    return json.dumps(data).replace('"\\u0000PLACE\\u0000"', new)


def damage(rng: random.Random, out) -> str:
    """Damage the store in `out` one random way; what was done."""
    path = out / "results.sqlite"
    kind = rng.choice(["tally", "tally", "tally", "seconds", "status", "error", "plan", "config", "file", "identity"])
    if kind == "file":
        data = path.read_bytes()
        path.write_bytes(data[: rng.randrange(len(data))])
        return kind
    db = sqlite3.connect(path)
    try:
        keys = [k for (k,) in db.execute("SELECT key FROM tasks ORDER BY key")]
        key = rng.choice(keys)
        if kind == "tally":
            (tally,) = db.execute("SELECT tally FROM tasks WHERE key = ?", (key,)).fetchone()
            if tally is None:  # a failed task: give it a tally
                tally = db.execute("SELECT tally FROM tasks WHERE tally IS NOT NULL").fetchone()[0]
            db.execute("UPDATE tasks SET tally = ? WHERE key = ?", (_damage_json(rng, tally), key))
        elif kind == "seconds":
            value = rng.choice(["x", None, -1.0, float("inf"), float("nan"), "1e999", b"\x00"])
            db.execute("UPDATE tasks SET seconds = ? WHERE key = ?", (value, key))
        elif kind == "status":
            db.execute("UPDATE tasks SET status = ? WHERE key = ?", (rng.choice(["", "OK", 1, "failed", "ok"]), key))
        elif kind == "error":
            db.execute("UPDATE tasks SET error = ? WHERE key = ?", (rng.choice(["boom", 3, None, DEEP]), key))
        elif kind == "identity":  # what says why a task reruns: its slot, code and files
            column = rng.choice(["slot", "code", "files"])
            value = rng.choice(["x", None, 7, "[1]", '{"arena": 1}', DEEP, "{"])
            db.execute(f"UPDATE tasks SET {column} = ? WHERE key = ?", (value, key))
            if rng.random() < 0.5:  # and the task runs again: its key is another now
                db.execute("UPDATE tasks SET key = ? WHERE key = ?", ("0" * 64, key))
        elif kind == "plan":
            column = rng.choice(["key", "cell", "block"])
            value = rng.choice([-1, 0, 1, 99, "x", None, 2**62, rng.choice(keys)])
            position = rng.randrange(db.execute("SELECT count(*) FROM plan").fetchone()[0])
            if column == "key" and value is None or rng.random() < 0.15:
                db.execute("DELETE FROM plan WHERE position = ?", (position,))
            else:
                db.execute(f"UPDATE plan SET {column} = ? WHERE position = ?", (value, position))
        else:
            (config,) = db.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()
            value = rng.choice([config[: rng.randrange(len(config))], "title = " + DEEP, 7, config.replace("3", "4")])
            db.execute("UPDATE meta SET value = ? WHERE key = 'config'", (value,))
        db.commit()
    finally:
        db.close()
    return kind


# --- the readers ----------------------------------------------------------------------------


def refused(rc: int, err: str, what: str) -> None:
    assert rc == 2, f"{what}: {err}"
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, f"{what}: {err}"


@pytest.mark.parametrize("start", range(0, CASES, 20))
def test_every_reader_of_a_damaged_store_gives_the_figures_or_one_line(original, tmp_path, capsys, start):
    config, stored, right = original
    capsys.readouterr()
    assert main(["report", str(stored)]) == 0
    right_text = tables(capsys.readouterr().out)
    seen = set()
    for case in range(start, start + 20):
        rng = random.Random(case)
        out = tmp_path / f"case{case}"
        shutil.copytree(stored, out)
        what = f"case {case}: {damage(rng, out)}"
        seen.add(what.split(": ")[1])
        try:
            found = figures(Report.from_dir(out))
            assert honest(found, right), what
        except ArenaError as e:
            found = None
            assert "\n" not in str(e), what
        capsys.readouterr()
        rc = main(["report", str(out)])
        out_text, err = capsys.readouterr()
        if rc != 0:
            refused(rc, err, what)
        elif found == right:
            assert tables(out_text) == right_text, what
        if case % 6 == 0:
            rc = main(["report", str(out), "--html", str(tmp_path / f"case{case}.html")])
            err = capsys.readouterr().err
            if rc != 0:
                refused(rc, err, what)
        rc = main(["run", str(config), "--out", str(out), "--no-plots", "--allow-import"])
        err = capsys.readouterr().err
        if rc != 0:
            refused(rc, err, what)
        else:
            assert figures(Report.from_dir(out)) == right, what
        shutil.rmtree(out)
    assert len(seen) >= 4  # the damage is of several kinds in every batch


def test_the_reproductions_of_issue_31(original, tmp_path, capsys):
    """A task's time 'x', a tally with 10**400, a tally nested 100,000 deep: one line naming the
    task and what is wrong in every reader; a resumed run runs the task again."""
    config, stored, right = original
    for name, column, value, needle in [
        ("seconds", "seconds", "x", "its time is 'x'"),
        ("huge", "tally", None, "over the largest count"),
        ("deep", "tally", DEEP, "nested too deeply"),
    ]:
        out = tmp_path / name
        shutil.copytree(stored, out)
        with sqlite3.connect(out / "results.sqlite") as db:
            key, tally = db.execute("SELECT key, tally FROM tasks WHERE guesser = 'random' LIMIT 1").fetchone()
            if value is None:
                value = json.dumps({**json.loads(tally), "guesses": 10**400})
            db.execute(f"UPDATE tasks SET {column} = ? WHERE key = ?", (value, key))
        with pytest.raises(ArenaError, match=needle):
            Report.from_dir(out)
        capsys.readouterr()
        for argv in (["report", str(out)], ["report", str(out), "--html", str(out / "r.html")]):
            rc, err = main(argv), capsys.readouterr().err
            refused(rc, err, name)
            assert "the stored result of cell" in err and needle in err, err
        assert main(["run", str(config), "--out", str(out), "--no-plots", "--allow-import"]) == 0
        assert "1 damaged, run again" in capsys.readouterr().err
        assert figures(Report.from_dir(out)) == right


def test_a_config_nested_too_deeply_is_one_line(original, tmp_path, capsys):
    _, stored, _ = original
    out = tmp_path / "deep"
    shutil.copytree(stored, out)
    with sqlite3.connect(out / "results.sqlite") as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'config'", ("title = " + DEEP,))
    capsys.readouterr()
    refused(main(["report", str(out)]), capsys.readouterr().err, "deep config")


# --- a tally's sums, each checked against the others -------------------------------------------

TALLY = {
    "games": 40, "repeat": 1, "guesses": 209, "guesses_sq": 1263, "worst": 9,
    "histogram": {"2": 4, "3": 8, "4": 2, "5": 8, "6": 6, "7": 5, "8": 5, "9": 2},
    "misses": 109, "misses_worst": 8, "lost": {"3": 18, "6": 5}, "guesses_rep_sq": 43681, "misses_rep_sq": 11881,
    "misses_histogram": {"0": 5, "1": 9, "2": 8, "3": 5, "4": 4, "5": 4, "6": 3, "7": 1, "8": 1},
    "secret_guesses": [9], "secret_misses": [8],
}  # fmt: skip


@pytest.mark.parametrize(
    "change, needle",
    [
        ({"guesses": 210}, "histogram does not add up to its guesses"),
        ({"guesses_sq": 1264}, "sum of squares"),
        ({"worst": 8}, "worst guesses (8) is not its histogram's largest"),
        ({"histogram": {**TALLY["histogram"], "9": 3}}, "counts 41 games, not 40"),
        ({"guesses_rep_sq": 43682}, "per repetition squared"),
        ({"misses_worst": 7}, "worst misses (7)"),
        ({"lost": {"3": 17, "6": 5}}, "lost[3] = 17 is not the games with 3 misses or more"),
        ({"secret_guesses": [8]}, "secret_guesses [8] cannot be its worst secret's"),
        ({"secret_guesses": [9, 9]}, "are not 40 games over 2 secrets"),
        ({"misses": None}, "a tally without misses has a miss figure"),
        (
            {"misses": None, "misses_worst": None, "lost": {}, "misses_rep_sq": None, "misses_histogram": {}},
            "a tally without misses has per-secret misses",
        ),
        ({"histogram": {"x": 40}}, "has the key 'x', not an integer"),
        ({"histogram": {"-2": 40}}, "has the key '-2', not a count"),
        ({"games": 10**30}, "over the largest count"),
        ({"secret_misses": "x" * 100}, "must be a non-empty list of counts, got 'xxxxxxxx"),
    ],
)
def test_a_tally_whose_sums_disagree_is_refused(change, needle):
    from arena.study.tournament.tally import Tally

    Tally.from_json(TALLY)  # as a run stored it: sound
    with pytest.raises(ArenaError) as e:
        Tally.from_json({**TALLY, **change})
    assert needle in str(e.value) and len(str(e.value)) < 300, str(e.value)


def test_blocks_of_other_cells_are_not_added():
    from arena.study.tournament.tally import Tally

    one = Tally.from_json(TALLY)
    other = Tally(2, 1, 4, 8, 2, {2: 2}, secret_guesses=None)
    with pytest.raises(ArenaError, match="40 and 2 games per repetition"):
        one + other


def test_a_huge_stored_value_is_shown_short():
    from arena.core.errors import shown  # what the store's messages show a stored value by (at 40 characters)

    assert shown(DEEP, 40) == repr(DEEP)[:37] + "..."
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert shown(deep, 40) == "a list too large to show"
    assert shown("a message", 200, raw=True) == "a message"
