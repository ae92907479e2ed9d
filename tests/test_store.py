"""The tournament store under real use and faults: task identity (rows that differ only by seed,
repeat, strikes or a file's contents keep their own results), failures as data, one writer per
directory, damaged stores, configs read as data by `arena report`, config mistakes, and runs
killed at random moments that resume to byte-identical results."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from arena.cli.parser import main
from arena.core.errors import ArenaError
from arena.parallel.outcome import TaskResult
from arena.study.config import Cell, Config, load_config, parse_config
from arena.study.tournament import expand, task_seed
from arena.study.tournament.run import run_config
from arena.study.tournament.tasks import MAX_TASKS

ROOT = Path(__file__).resolve().parents[1]
ARENA = [sys.executable, "-m", "arena.cli.parser"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
SMALL = "mastermind:pegs=3,colors=3"


def write(tmp_path, text: str, name: str = "c.toml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


def alone(cell: Cell) -> dict:
    """The figures of a cell run on its own, in a config of one row without a store."""
    return run_config(Config(cell.label, [cell])).results[0].ours


def status(argv: list[str]) -> int:
    """main's exit status, whether returned or raised (--check and --strict exit 1 via sys.exit)."""
    try:
        return main(argv)
    except SystemExit as e:
        return e.code


def stored_tasks(out) -> int:
    try:
        with sqlite3.connect(Path(out) / "results.sqlite") as db:
            return db.execute("SELECT count(*) FROM tasks").fetchone()[0]
    except sqlite3.Error:
        return 0


# --- task identity ------------------------------------------------------------------------------


def test_task_seeds_are_unchanged():
    """Keys changed, seeds did not: every published figure depends on them."""
    assert task_seed(42, "jotto:first=200", "uniform", "random", 3) == 1176000639902900863


@pytest.mark.parametrize("field, first, second", [("seed", 1, 2), ("repeat", 4, 6), ("strikes", 6, 8)])
def test_rows_that_differ_only_by_one_field_keep_their_own_results(tmp_path, capsys, field, first, second):
    game = "hangman:length=4,first=60" if field == "strikes" else SMALL
    path = write(
        tmp_path,
        f"""
        game = "{game}"
        guesser = "random"
        seed = 5
        repeat = 4
        [[rows]]
        label = "first"
        {field} = {first}
        [[rows]]
        label = "second"
        {field} = {second}
        """,
    )
    out = tmp_path / "out"
    assert main(["run", path, "--out", str(out), "--no-plots"]) == 0
    config = load_config(path)
    report = run_config(config, out=str(out))  # every result from the store
    for cell, result in zip(config.cells, report.results):
        assert result.error is None
        assert result.ours == alone(cell)
    assert report.results[0].ours != report.results[1].ours
    assert stored_tasks(out) == len({t.key for t in expand(config.cells, config.block)})
    assert main(["report", str(out)]) == 0
    assert "FAILED" not in capsys.readouterr().out


def test_keys_hash_every_input(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("crane\nslate\nghost\n")
    cell = Cell("x", f"jotto:words={words}", "random", repeat=2, seed=1)

    def key(**change):
        c = Cell(**{**cell.__dict__, **change})
        return expand([c], 5)[0].key

    keys = {key(), key(seed=2), key(repeat=3), key(strikes=(4,)), key(chooser="evil")}
    words.write_text("crane\nslate\nghost\nplumb\n")
    keys.add(key())
    assert len(keys) == 6 and all(len(k) == 64 for k in keys)


def test_a_word_file_edited_between_runs_is_never_mixed_in(tmp_path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("crane\nslate\nghost\nplumb\nfjord\nwaltz\n")
    path = write(tmp_path, f'game = "jotto:words={words}"\nguesser = "lowest"\n')
    out = str(tmp_path / "out")
    assert main(["run", path, "--out", out, "--no-plots"]) == 0
    before = run_config(load_config(path), out=out).results[0].ours
    words.write_text("crane\nslate\nghost\nplumb\n")
    capsys.readouterr()
    assert main(["run", path, "--out", out, "--no-plots"]) == 0  # the task runs again, saying why
    err = capsys.readouterr().err
    assert f"0 tasks reused, 1 to run (1 rerun: {words} changed)" in err
    fresh = run_config(load_config(path)).results[0].ours  # the new list, built afresh in this process
    assert run_config(load_config(path), out=out).results[0].ours == fresh != before


def test_a_word_file_edited_mid_run_stops_the_run_keeping_what_is_stored(tmp_path, capsys, monkeypatch):
    import arena.study.tournament.run as run_module

    words = tmp_path / "words.txt"
    words.write_text("\n".join(["crane", "slate", "ghost", "plumb", "fjord", "waltz"]) + "\n")
    path = write(tmp_path, f'game = "jotto:words={words}"\nguesser = "random"\nrepeat = 6\nblock = 1\n')
    real = run_module.run_tasks

    def edit_after_first(tasks, on_done, **options):
        def done(task, result):
            on_done(task, result)
            words.write_text("crane\nslate\n")  # after the first result is kept

        real(tasks, done, **options)

    monkeypatch.setattr(run_module, "run_tasks", edit_after_first)
    out = tmp_path / "out"
    assert main(["run", path, "--out", str(out), "--no-plots"]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{words} changed during the run" in err and "1 results stored before are kept" in err
    assert len(err.splitlines()) == 1
    assert stored_tasks(out) == 1


# --- failures are data ----------------------------------------------------------------------------


def test_failed_cells_are_rows_in_every_output(tmp_path, capsys):
    from agents import make_guesser
    from arena.games import make_game
    from arena.trees.grow import grow_tree

    tree = tmp_path / "tree.json"  # saved for the first game: it fails (ArenaError) on the second
    grow_tree(make_game("mastermind:pegs=2,colors=3"), make_guesser("lowest")).save(str(tree))
    path = write(
        tmp_path,
        f"""
        seed = 3
        repeat = 3
        games = ["mastermind:pegs=2,colors=3", "{SMALL}"]
        choosers = ["uniform", "evil"]
        guessers = ["lowest", "random", "tree:file={tree}"]
        """,
    )
    out, csv = tmp_path / "out", tmp_path / "extra.csv"
    assert main(["run", path, "--out", str(out), "--csv", str(csv)]) == 0
    shown = capsys.readouterr().out
    assert shown.count("FAILED 'tree:file=") == 2 and "12 cells, 2 failed" in shown
    rows = (out / "results.csv").read_text().splitlines()
    assert rows[0].endswith(",agree,status,error") and len(rows) == 13
    failed = [r for r in rows if ",failed," in r]
    assert len(failed) == 2 and all("was saved for mastermind:pegs=2,colors=3" in r for r in failed)
    assert csv.read_bytes() == (out / "results.csv").read_bytes()
    assert "failed" in (out / "summary.txt").read_text()
    for name in ("heatmap", "histograms"):
        assert (out / f"{name}-mastermind-pegs-3-colors-3.png").stat().st_size > 0
    assert status(["run", path, "--out", str(out), "--no-plots", "--strict"]) == 1  # resumed: failures kept
    assert main(["report", str(out), "--csv", str(tmp_path / "again.csv")]) == 0
    assert (tmp_path / "again.csv").read_bytes() == csv.read_bytes()
    assert status(["report", str(out), "--strict"]) == 1
    with sqlite3.connect(out / "results.sqlite") as db:
        assert db.execute("SELECT count(*) FROM tasks WHERE status = 'failed'").fetchone()[0] == 2


def test_retry_failed_runs_failed_tasks_again(tmp_path, capsys, monkeypatch):
    import arena.study.tournament.run as run_module

    path = write(tmp_path, f'game = "{SMALL}"\nguessers = ["lowest", "random"]\nrepeat = 2\n')
    real = run_module.run_tasks

    def fail_random(tasks, on_done, **options):
        real(tasks, lambda t, r: on_done(t, TaskResult.failed("boom") if t.guesser == "random" else r), **options)

    out = str(tmp_path / "out")
    monkeypatch.setattr(run_module, "run_tasks", fail_random)
    assert main(["run", path, "--out", out, "--no-plots"]) == 0
    monkeypatch.setattr(run_module, "run_tasks", real)
    assert main(["run", path, "--out", out, "--no-plots"]) == 0
    assert "FAILED 'random': boom" in capsys.readouterr().out  # kept by default
    assert main(["run", path, "--out", out, "--no-plots", "--retry-failed"]) == 0
    assert "FAILED" not in capsys.readouterr().out


# --- one writer per directory ------------------------------------------------------------------------

HOLD = """
import sys, time
from arena.study.tournament.store import DirectoryLock
with DirectoryLock(sys.argv[1]):
    print("held", flush=True)
    time.sleep(60)
"""


def test_one_writer_per_directory_and_stale_locks_are_taken_over(tmp_path, capsys):
    path = write(tmp_path, f'game = "{SMALL}"\nguesser = "lowest"\n')
    out = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdout=subprocess.PIPE, text=True, env=ENV)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert main(["run", path, "--out", str(out), "--no-plots"]) == 2
        err = capsys.readouterr().err.strip()
        assert f"pid {holder.pid}" in err and "another arena run" in err and len(err.splitlines()) == 1
        assert main(["report", str(tmp_path / "elsewhere")]) == 2  # nothing stored: one line, no lock asked
    finally:
        holder.kill()
        holder.wait()
    assert (out / "lock").read_text().startswith(f"pid {holder.pid}")  # left behind by a dead holder
    assert main(["run", path, "--out", str(out), "--no-plots"]) == 0  # taken over
    assert not (out / "lock").exists()  # a run that ends removes its lock
    (out / "lock").write_text("pid 999999999: arena run gone.toml\n")
    assert main(["run", path, "--out", str(out), "--no-plots"]) == 0
    assert not (out / "lock").exists()


def test_a_lock_removed_by_its_holder_meanwhile_is_opened_afresh(tmp_path):
    from arena.study.tournament.store import DirectoryLock

    first = DirectoryLock(tmp_path)
    first.acquire()
    stale = os.open(tmp_path / "lock", os.O_RDWR)  # a second writer opened the file before the release
    first.release()
    assert not (tmp_path / "lock").exists()
    from arena.study.tournament.store import _still_named

    assert not _still_named(stale, tmp_path / "lock")  # its lock on the removed file would hold nothing
    os.close(stale)
    with DirectoryLock(tmp_path):
        assert (tmp_path / "lock").read_text().startswith(f"pid {os.getpid()}")
    assert not (tmp_path / "lock").exists()


# --- damaged stores -----------------------------------------------------------------------------------


@pytest.fixture
def stored(tmp_path):
    path = write(tmp_path, f'game = "{SMALL}"\nguessers = ["lowest", "random"]\nrepeat = 3\n')
    out = tmp_path / "out"
    assert main(["run", path, "--out", str(out), "--no-plots"]) == 0
    return path, out


def _one_line_error(capsys, *needles) -> None:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_store_is_one_line_in_run_and_report(stored, capsys, damage):
    path, out = stored
    store = out / "results.sqlite"
    if damage == "garbage":
        store.write_bytes(random.Random(1).randbytes(8192))
    else:
        data = store.read_bytes()
        store.write_bytes(data[: len(data) // 2])
    capsys.readouterr()
    assert main(["report", str(out)]) == 2
    _one_line_error(capsys, str(store), "damaged", "--force")
    assert main(["run", path, "--out", str(out), "--no-plots"]) == 2
    _one_line_error(capsys, str(store), "damaged", "--force")
    assert main(["run", path, "--out", str(out), "--no-plots", "--force"]) == 0


@pytest.mark.parametrize(
    "tally",
    [
        "{",
        '{"games": 1}',
        "[1, 2]",
        '{"games": -1, "repeat": 1, "guesses": 1, '
        '"guesses_sq": 1, "worst": 1, "histogram": {}, "misses": null, '
        '"misses_worst": null, "lost": {}}',
    ],
)
def test_a_damaged_tally_is_one_line(stored, capsys, tally):
    path, out = stored
    with sqlite3.connect(out / "results.sqlite") as db:
        db.execute("UPDATE tasks SET tally = ? WHERE guesser = 'random'", (tally,))
    capsys.readouterr()
    assert main(["report", str(out)]) == 2
    _one_line_error(capsys, "results.sqlite", "the stored result of cell 2", "bad tally", "run it again")
    # a resumed run runs the damaged task again (never adds it in), keeping the others
    assert main(["run", path, "--out", str(out), "--no-plots"]) == 0
    assert "1 task reused, 1 to run (1 damaged, run again:" in capsys.readouterr().err
    assert main(["report", str(out)]) == 0


def test_a_damaged_stored_config_is_one_line(stored, capsys):
    path, out = stored
    with sqlite3.connect(out / "results.sqlite") as db:
        db.execute("UPDATE meta SET value = 'title = [' WHERE key = 'config'")
    capsys.readouterr()
    assert main(["report", str(out)]) == 2
    _one_line_error(capsys, "results.sqlite", "stored config is not valid TOML", "--force")
    with sqlite3.connect(out / "results.sqlite") as db:
        db.execute("UPDATE meta SET value = 'gmae = 1' WHERE key = 'config'")
    assert main(["report", str(out)]) == 2
    _one_line_error(capsys, "unknown key 'gmae'", "--force")


def test_a_store_of_the_old_layout_is_refused_not_misread(tmp_path, capsys):
    path = write(tmp_path, f'game = "{SMALL}"\nguesser = "lowest"\n')
    out = tmp_path / "out"
    out.mkdir()
    with sqlite3.connect(out / "results.sqlite") as db:
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE tasks (key TEXT PRIMARY KEY, status TEXT NOT NULL);"
        )
    assert main(["run", path, "--out", str(out), "--no-plots"]) == 2
    _one_line_error(capsys, "another version of arena", "--force")
    assert main(["report", str(out)]) == 2
    _one_line_error(capsys, "--force")
    assert main(["run", path, "--out", str(out), "--no-plots", "--force"]) == 0


# --- configs are data on the report side ----------------------------------------------------------------

PAYLOAD = """
from pathlib import Path
Path(__file__).with_name("MARKER").write_text("imported")
from agents import Guesser


class X(Guesser):
    name = "x"
"""


def test_report_never_imports_an_agent_named_in_the_stored_config(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, f'game = "{SMALL}"\nguessers = ["lowest", "random"]\nrepeat = 2\n')
    out = tmp_path / "out"
    assert main(["run", path, "--out", str(out), "--no-plots"]) == 0
    (tmp_path / "payload.py").write_text(PAYLOAD)
    with sqlite3.connect(out / "results.sqlite") as db:  # as if the config had named payload:X
        db.execute("UPDATE meta SET value = replace(value, '\"random\"', '\"payload:X\"') WHERE key = 'config'")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    assert "payload:X" in capsys.readouterr().out
    assert not (tmp_path / "MARKER").exists()
    assert "payload" not in sys.modules


def test_parse_config_checks_spec_syntax_without_building_agents():
    config = parse_config(
        {"game": SMALL, "guessers": ["payload:X", "no.such.module:Thing:depth=2"], "chooser": "not-a-chooser"}
    )
    assert [c.guesser for c in config.cells] == ["payload:X", "no.such.module:Thing:depth=2"]
    with pytest.raises(ArenaError, match="cfg.toml: guesser 'entropy:pool': 'pool' is not of the form key=value"):
        parse_config({"game": SMALL, "guesser": "entropy:pool"}, "cfg.toml")


# --- config mistakes ------------------------------------------------------------------------------------


def test_config_encodings(tmp_path, capsys):
    latin = tmp_path / "latin.toml"
    latin.write_bytes(f'title = "caf\xe9"\ngame = "{SMALL}"\nguesser = "lowest"\n'.encode("latin-1"))
    assert main(["run", str(latin)]) == 2
    _one_line_error(capsys, str(latin), "not UTF-8", "line 1")
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf" + f'title = "caf\xe9"\ngame = "{SMALL}"\nguesser = "lowest"\n'.encode())
    assert main(["run", str(bom)]) == 0
    assert capsys.readouterr().out.startswith("caf\xe9")


def test_too_many_tasks_are_refused_before_any_is_built(tmp_path, capsys):
    path = write(tmp_path, f'game = "{SMALL}"\nguesser = "random"\nrepeat = 100000000\n')
    start = time.perf_counter()
    assert main(["run", path]) == 2
    assert time.perf_counter() - start < 10
    _one_line_error(capsys, "20,000,000 tasks", f"{MAX_TASKS:,}", "block = 501")
    from arena.study.tournament.tasks import check_task_count

    assert check_task_count([100_000_000], 501) <= MAX_TASKS  # the suggested block fits


def test_workers(tmp_path, capsys):
    path = write(tmp_path, f'game = "{SMALL}"\nguesser = "lowest"\n')
    assert main(["run", path, "--workers", "0"]) == 2
    _one_line_error(capsys, "--workers must be at least 1")
    assert main(["run", path, "--workers", "100000"]) == 0
    err = capsys.readouterr().err
    assert f"using {os.cpu_count()}" in err and "--oversubscribe" in err


def test_task_timeout_from_the_config_and_the_command_line(tmp_path, capsys, monkeypatch):
    import arena.study.tournament.run as run_module

    seen = []
    real = run_module.run_tasks

    def recording(tasks, on_done, timeout=None, **options):
        seen.append(timeout)
        real(tasks, on_done, **options)

    monkeypatch.setattr(run_module, "run_tasks", recording)
    path = write(tmp_path, f'game = "{SMALL}"\nguesser = "lowest"\ntask_timeout = 30\n')
    assert main(["run", path]) == 0
    assert main(["run", path, "--task-timeout", "2.5"]) == 0  # the command line wins
    assert seen == [30.0, 2.5]
    for bad in ("0", "-1", '"x"', "nan", "true"):
        assert (
            main(["run", write(tmp_path, f'game = "{SMALL}"\nguesser = "lowest"\ntask_timeout = {bad}\n', "bad.toml")])
            == 2
        )
        _one_line_error(capsys, "task_timeout", "seconds > 0")
    for bad in ("0", "x", "inf"):
        with pytest.raises(SystemExit) as exit_:
            main(["run", path, "--task-timeout", bad])
        assert exit_.value.code == 2


# --- killed at random moments, resumed to the same bytes ------------------------------------------------

KILLED = f"""
title = "killed and resumed"
seed = 11
repeat = 60
block = 2
games = ["{SMALL}", "jotto:first=50"]
guessers = ["random", "lowest", "entropy"]
"""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_killed_at_random_moments_resumes_to_identical_results(tmp_path, workers):
    config = write(tmp_path, KILLED)
    total = len(expand(load_config(config).cells, 2))
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    command = ARENA + ["run", config, "--no-plots", "--workers", workers, "--out"]
    assert main(command[3:] + [str(whole)]) == 0  # uninterrupted, in this process
    rng = random.Random(int(workers))
    kills = 0
    for _ in range(8):  # up to 8 starts for 4 kills: a fast run may finish before its kill
        before = stored_tasks(killed)
        if before >= total or kills == 4:
            break
        run = subprocess.Popen(
            command + [str(killed)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=ENV,
            start_new_session=True,
        )
        target = before + rng.randint(1, max(1, (total - before) // 8))
        deadline = time.time() + 60
        while time.time() < deadline and run.poll() is None and stored_tasks(killed) < target:
            time.sleep(0.01)
        time.sleep(rng.uniform(0, 0.05))  # a random moment: mid-task, mid-commit or between
        if run.poll() is None:
            if kills == 0:  # a reader while a writer holds the store (paused, so it cannot finish meanwhile)
                os.killpg(run.pid, signal.SIGSTOP)
                assert main(["report", str(killed)]) in (0,)
            os.killpg(run.pid, signal.SIGKILL)
            kills += 1
        run.wait()
    assert kills >= 3, "the run should have been killed mid-way at least three times"
    assert main(command[3:] + [str(killed)]) == 0  # the last resume
    assert (whole / "results.csv").read_bytes() == (killed / "results.csv").read_bytes()
    assert stored_tasks(killed) == total  # no task lost or stored twice
