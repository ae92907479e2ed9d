"""Results stores damaged in random ways: every reader gives the right figures or one line.

A store is built once (two games, a random and a deterministic guesser, a failing one, two
choosers, blocks of repetitions); each case copies it, damages it one way (a tally truncated
or with a field of the wrong type, a huge integer, nesting 100,000 deep or NaN; a task's time,
status or error; the plan; the stored config; the file itself), then reads it with
`Report.from_dir`, `arena report`, `arena report --html` and a resumed `arena run`. Each must
give the undamaged store's figures or exit 2 with one line and no traceback; a resumed run
must end with the undamaged figures (it runs a damaged task again, never adds it in).
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3

import pytest

from arena.cli import main
from arena.errors import ArenaError
from arena.report import Report

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
    kind = rng.choice(["tally", "tally", "tally", "seconds", "status", "error", "plan", "config", "file"])
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
    seen = set()
    for case in range(start, start + 20):
        rng = random.Random(case)
        out = tmp_path / f"case{case}"
        shutil.copytree(stored, out)
        what = f"case {case}: {damage(rng, out)}"
        seen.add(what.split(": ")[1])
        try:
            assert figures(Report.from_dir(out)) == right, what
        except ArenaError as e:
            assert "\n" not in str(e), what
        capsys.readouterr()
        rc = main(["report", str(out)])
        out_text, err = capsys.readouterr()
        if rc != 0:
            refused(rc, err, what)
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
