"""The split's journal is keyed by its inputs and checked as it is read (arena/optimal/journal.py).

A journal written for one word file, weights or arena version is refused under another, in one
line naming what changed; with --new-journal it is set aside and the optimum found is the plain
search's. Each record that cannot be right (not a record, a non-finite bound, a bound above a
known total, an exact value below the proven root bound, a guess of no game) is refused.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from cli_run import one_line, run

from arena import ArenaError, make_game
from arena.optimal import optimal_tree
from arena.optimal.split import split_root

LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Random trials of "change the word file under a journal" (the issue found 9 wrong of 20).
TRIALS = 20


def word_list(rng: random.Random, n: int) -> list[str]:
    words: set[str] = set()
    while len(words) < n:
        words.add("".join(rng.sample(LETTERS[:12], 4)))
    return sorted(words)


def write(path, words) -> None:
    path.write_text("\n".join(words) + "\n")


@pytest.mark.parametrize("trial", range(TRIALS))
def test_a_changed_word_file_never_resumes_a_stale_journal(tmp_path, monkeypatch, trial):
    """The issue's trial: solve, change the words behind the same name, resume. Refused, naming
    the file; set aside, the optimum is the plain search's, proven."""
    monkeypatch.chdir(tmp_path)
    rng = random.Random(trial)
    words = word_list(rng, rng.randint(12, 24))
    write(tmp_path / "w.txt", words)
    spec = "jotto:words=w.txt,length=4"
    first = split_root(make_game(spec), workers=1, journal="j.jsonl")
    assert first.exact and first.value == optimal_tree(make_game(spec)).value
    changed = words[:] if trial % 3 else words[:-2]  # drop two words, or swap one for another
    if trial % 3:
        changed[rng.randrange(len(changed))] = next(w for w in word_list(rng, 40) if w not in words)
    write(tmp_path / "w.txt", changed)
    game = make_game(spec)
    with pytest.raises(ArenaError, match="the contents of w.txt changed"):
        split_root(game, workers=1, journal="j.jsonl")
    again = split_root(game, workers=1, journal="j.jsonl", new_journal=True)
    assert again.exact and again.value == again.lower_bound == optimal_tree(game).value
    assert (tmp_path / "j.jsonl.old").exists()


def test_the_command_line_names_what_changed(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "w.txt", word_list(random.Random(5), 16))
    argv = ["optimal", "jotto:words=w.txt,length=4", "--workers", "2", "--journal", "j.jsonl", "--json"]
    rc, out, err = run(capsys, *argv)
    assert rc == 0, err
    write(tmp_path / "w.txt", word_list(random.Random(6), 16))
    rc, out, err = run(capsys, *argv)
    one_line(rc, err, "j.jsonl", "the contents of w.txt changed", "--new-journal")
    rc, out, err = run(capsys, *argv, "--new-journal")
    assert rc == 0 and json.loads(out)["total"] == optimal_tree(make_game("jotto:words=w.txt,length=4")).value


def test_a_changed_weight_is_refused_and_the_weighted_optimum_found(capsys, tmp_path):
    spec = "mastermind:pegs=2,colors=4"
    game = make_game(spec)
    weights = {s: 1 + (i % 3) for i, s in enumerate(game.secrets)}
    path, journal = tmp_path / "w.json", tmp_path / "j.jsonl"
    path.write_text(json.dumps(weights))
    argv = ["optimal", spec, "--workers", "2", "--journal", journal, "--weights", path, "--json"]
    rc, out, err = run(capsys, *argv)
    w = np.array([weights[s] for s in game.secrets], dtype=float)
    assert rc == 0 and json.loads(out)["value"] == pytest.approx(optimal_tree(game, weights=w).value), err
    weights[game.secrets[0]] = 7
    path.write_text(json.dumps(weights))
    rc, out, err = run(capsys, *argv)
    one_line(rc, err, "its weights differ")
    rc, out, err = run(capsys, *argv, "--new-journal")
    w[0] = 7
    figures = json.loads(out)
    assert rc == 0 and figures["exact"] and figures["value"] == pytest.approx(optimal_tree(game, weights=w).value)
    # and equal weights are another input again
    rc, out, err = run(capsys, "optimal", spec, "--workers", "2", "--journal", journal)
    one_line(rc, err, "its weights differ")


def test_another_project_version_is_refused(tmp_path, monkeypatch):
    game = make_game("mastermind:pegs=2,colors=4")
    split_root(game, workers=1, journal=tmp_path / "j.jsonl")
    import arena.core.digests

    monkeypatch.setattr(arena.core.digests, "project_version", lambda: "999.0")
    with pytest.raises(ArenaError, match=r"written by arena .*, this is arena 999\.0\+"):
        split_root(game, workers=1, journal=tmp_path / "j.jsonl")


def test_another_pool_and_an_old_journal_are_refused(tmp_path):
    game = make_game("mastermind:pegs=2,colors=4")
    split_root(game, workers=1, journal=tmp_path / "j.jsonl")
    with pytest.raises(ArenaError, match="guess pool differs"):
        split_root(game, pool="consistent", workers=1, journal=tmp_path / "j.jsonl")
    old = tmp_path / "old.jsonl"  # the format before keys: the spec alone
    old.write_text(json.dumps({"game": game.spec, "pool": "all", "guess": "11", "bound": 40.0, "exact": True}) + "\n")
    with pytest.raises(ArenaError, match="older arena"):
        split_root(game, workers=1, journal=old)


BAD_RECORDS = {
    "5": "a record is an object",
    "null": "a record is an object",
    "[]": "a record is an object",
    '{"reply": "1,0", "bound": 50, "exact": true}': "a record is an object",
    '{"guess": "12", "reply": "1,0", "bound": 50}': "a record is an object",
    '{"guess": "12", "reply": "1,0", "exact": false}': "a record is an object",
    '{"guess": "12", "bound": 1e9, "exact": false}': "cannot be right",
    '{"guess": "12", "bound": 13, "exact": true}': "cannot be right",
    '{"guess": "12", "reply": "1,0", "bound": "abc", "exact": true}': "finite number",
    '{"guess": "12", "reply": "1,0", "bound": Infinity, "exact": true}': "finite number",
    '{"guess": "12", "reply": "1,0", "bound": NaN, "exact": false}': "finite number",
    '{"guess": "12", "reply": "1,0", "bound": true, "exact": false}': "finite number",
    '{"guess": "12", "reply": "1,0", "bound": 13, "exact": "yes"}': "true or false",
    '{"guess": 12, "reply": "1,0", "bound": 13, "exact": true}': "as text",
    '{"guess": "zz", "reply": "1,0", "bound": 13, "exact": true}': "not a guess",
    '{"guess": "12", "reply": "2,0", "bound": 1, "exact": true}': "leaves a class",
    '{"guess": "12", "reply": "0,3", "bound": 1, "exact": true}': "leaves a class",
    '{"guess": "12", "reply": 10, "bound": 1, "exact": true}': "as text",
    '{"guess": "12", "reply": "1,0", "bound": 1e9, "exact": false}': "cannot be right",
    '{"guess": "12", "reply": "1,0", "bound": 13, "exact": true}': "carries its subtree",
    '{"guess": "12", "reply": "1,0", "bound": 12, "exact": true, "tree": ["13", "22", "42", "32", "11", "14"]}': "costs 13, not its value 12",
    '{"guess": "12", "reply": "1,0", "bound": 13, "exact": true, "tree": ["13", "22", "42", "32", "11"]}': "no tree",
    '{"guess": "12", "reply": "1,0", "bound": 13, "exact": true, "tree": ["13", "22", "42", "32", "11", "14", "14"]}': "no tree",
    '{"guess": "12", "reply": "1,0", "bound": 13, "exact": true, "tree": ["34", "22", "42", "32", "11", "14"]}': "splits nothing",
    '{"guess": "12", "bound": 40, "exact": false, "classes": 5}': "must be a list",
    '{"guess": "12", "bound": 40, "exact": false, "classes": [{"reply": "1,0", "bound": 12, "exact": true, '
    '"tree": ["13", "22", "42", "32", "11", "14"]}]}': "costs 13, not its value 12",
    '{"guess": "12", "bound": 40, "exact": false, "classes": [{"reply": "1,0", "exact": true}]}': "a class is an object",
    "{not json": "not a JSON record",
    "[" * 100_000: "not a JSON record",
}


@pytest.mark.parametrize("line", list(BAD_RECORDS), ids=range(len(BAD_RECORDS)))
def test_a_record_that_cannot_be_right_is_one_line(capsys, tmp_path, line):
    spec = "mastermind:pegs=2,colors=4"
    journal = tmp_path / "j.jsonl"
    argv = ["optimal", spec, "--workers", "1", "--journal", journal]
    assert run(capsys, *argv)[0] == 0
    with journal.open("a") as f:
        f.write(line + "\n")
    lines = len(journal.read_text().splitlines())
    rc, out, err = run(capsys, *argv)
    one_line(rc, err, f"line {lines}", BAD_RECORDS[line])


def test_the_issue_s_infinite_bound_on_mastermind_3x4(capsys, tmp_path):
    """The issue's hand edit: a record "bound": Infinity made mastermind 3x4 "exact" at 208 (206)."""
    spec, journal = "mastermind:pegs=3,colors=4", tmp_path / "j.jsonl"
    rc, out, err = run(capsys, "optimal", spec, "--workers", "2", "--journal", journal, "--json")
    assert rc == 0 and json.loads(out)["total"] == 206
    lines = journal.read_text().splitlines()
    best = json.loads(out)["first_guess"]
    edited = [
        line
        if json.loads(line).get("guess") != best
        else line.replace(f'"bound": {json.loads(line)["bound"]}', '"bound": Infinity')
        for line in lines
    ]
    assert edited != lines
    journal.write_text("\n".join(edited) + "\n")
    rc, out, err = run(capsys, "optimal", spec, "--workers", "2", "--journal", journal, "--json")
    one_line(rc, err, "finite number")


def test_non_utf8_and_a_directory_are_one_line(capsys, tmp_path):
    spec, journal = "mastermind:pegs=2,colors=4", tmp_path / "j.jsonl"
    assert run(capsys, "optimal", spec, "--workers", "1", "--journal", journal)[0] == 0
    with journal.open("ab") as f:
        f.write(b'{"guess": "\xff\xfe", "bound": 1, "exact": true}\n')
    one_line(*run(capsys, "optimal", spec, "--workers", "1", "--journal", journal)[::2], "not UTF-8")
    rc, out, err = run(capsys, "optimal", spec, "--workers", "1", "--journal", tmp_path)
    one_line(rc, err, "is a directory")


def test_a_last_line_cut_by_a_kill_is_dropped_and_cut_off(capsys, tmp_path):
    spec, journal = "mastermind:pegs=2,colors=4", tmp_path / "j.jsonl"
    assert run(capsys, "optimal", spec, "--workers", "1", "--journal", journal)[0] == 0
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:10])  # the last record half written
    rc, out, err = run(capsys, "optimal", spec, "--workers", "1", "--journal", journal, "--json")
    assert rc == 0 and json.loads(out)["exact"], err
    assert all(json.loads(line) for line in journal.read_text().splitlines())


def test_journal_without_workers_is_refused(capsys, tmp_path):
    rc, out, err = run(capsys, "optimal", "mastermind:pegs=2,colors=3", "--journal", tmp_path / "j.jsonl")
    one_line(rc, err, "--workers")


def copy_of_arena(tmp_path) -> Path:
    """A copy of the arena package's sources, to edit."""
    import shutil

    import arena

    root = tmp_path / "arena"
    shutil.copytree(Path(arena.__file__).parent, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_journal_is_keyed_by_the_code_that_proves_it(tmp_path):
    """The journal's version is the digest of the modules the proofs come from (the workers'
    search, the ledger, the journal's checks, the game's rules), followed through their
    imports: an edit to the command line, the reports, the tournaments or another game keeps a
    journal, one to the search, the feedback or the game's rules refuses it."""
    from arena.core.digests import code_digest, import_closure
    from arena.optimal.problem import proof_modules

    root = copy_of_arena(tmp_path)
    modules = proof_modules(make_game("mastermind"))
    files = {p.relative_to(root).as_posix() for p in import_closure(root, modules)}
    proving = {"optimal/search/branch.py", "optimal/search/tree_kernels.py", "core/feedback.py", "games/mastermind.py"}
    assert proving <= files
    assert not any(f.startswith(("cli/", "study/", "api/", "equilibrium/")) for f in files)
    assert "__init__.py" not in files and "games/hangman.py" not in files  # the front door, another game
    before = code_digest(root, modules)
    for edited, kept in [
        ("cli/optimal.py", True),
        ("study/results/report.py", True),
        ("games/hangman.py", True),
        ("optimal/search/branch.py", False),
        ("games/mastermind.py", False),
    ]:
        code_digest.cache_clear()
        (root / edited).write_text((root / edited).read_text() + "\n# an edit\n")
        after = code_digest(root, modules)
        assert (after == before) == kept, edited
        before = after


@pytest.mark.parametrize("spec", ["wordle:first=300", "jotto:first=200", "mastermind:pegs=4,colors=5"])
def test_the_known_total_after_a_guess_is_its_classes_guessed_one_at_a_time(spec):
    """journal.known_total, by array, is the cost of playing g and then each class's secrets
    one at a time in the game's order, summed class by class (random sets, weights, guesses)."""
    from arena.optimal.records import known_total

    game, rng = make_game(spec), np.random.default_rng(7)
    for _ in range(30):
        n = len(game.secrets)
        S = np.sort(rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False))
        w = rng.integers(0, 5, n).astype(float)
        g = int(rng.integers(len(game.guesses)))
        by_class = sum(
            float(w[part].sum()) if game.finished(r) else float(w[part] @ np.arange(2, len(part) + 2))
            for r, part in game.partition(g, S).items()
        )
        assert known_total(game, S, w, g) == pytest.approx(by_class, abs=1e-9)


@pytest.mark.parametrize("weighted", [False, True])
def test_a_class_s_floors_are_the_same_from_its_secrets_or_its_path(weighted):
    """split.class_floors, what a journal's record must reach: given the class its path leads to
    (the journal reader has found it), the same bounds as walking the path again; with equal
    weights read off the class sizes, as pieces.first_bounds' slot table gives them."""
    from arena.optimal.pieces import class_floors, first_bounds, walk
    from arena.optimal.problem import Problem

    game = make_game("mastermind:pegs=3,colors=4")
    n = len(game.secrets)
    rng = np.random.default_rng(4)
    weights = rng.uniform(0.5, 1.5, n) if weighted else None
    scout = Problem.of(game, weights=weights).search()
    S = np.arange(n)
    _, _, b = scout.score_guesses(S, np.arange(len(game.guesses)), scout.limit)
    for _ in range(40):
        path: list[int] = []
        C = S
        for _ in range(int(rng.integers(0, 3))):
            g = int(rng.integers(len(game.guesses)))
            classes = [(r, c) for r, c in game.partition(g, C).items() if not game.finished(r)]
            if not classes:
                break
            r, C = classes[int(rng.integers(len(classes)))]
            path += [g, int(r)]
        path.append(int(rng.integers(len(game.guesses))))
        assert np.array_equal(walk(scout, S, None, tuple(path[:-1])).secrets, C)
        floors = class_floors(scout, S, None, b, tuple(path), C)
        assert floors == class_floors(scout, S, None, b, tuple(path))
        classes, bounds = first_bounds(scout, path[-1], C, b, scout.limit - len(path) // 2)
        assert floors == {r: x for (r, _), x in zip(classes, bounds)}
