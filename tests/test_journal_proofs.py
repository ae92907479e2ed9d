"""The split's journal holds proofs, never decisions (arena/optimal/proofs.py; issue 31).

A record says what was proven (a class's exact value with its subtree, or a bound; a first
guess's bound, with its classes once opened), whatever the incumbent of the run that wrote it;
each run decides afresh what those proofs close under its own incumbent, and --standing says
what they prove by the same rule. The issue's reproductions, then two randomised checks over
journals of real runs on small instances (written under different incumbents, cut at random
points, their records mixed, weakened and damaged): a resumed run never prints an exact total
other than the one-process optimum (or refuses the journal in one line naming the line), and
--standing never proves a bound above the optimum.
"""

from __future__ import annotations

import json
import math
import os
import random
from pathlib import Path

import pytest
from cli_run import one_line, run

from arena import ArenaError, make_game
from arena.optimal.split import split_root

#: Small instances and their optima (the one-process search's, checked in `journals`). The runs
#: give --split-after 0: every class a piece of its own, so the journals hold piece records to edit.
OPTIMA = {
    "mastermind:pegs=2,colors=4": 45,
    "mastermind:pegs=3,colors=4": 206,
    "mastermind:pegs=3,colors=4,repeats=false": 72,
    "jotto:first=25": 71,
}
#: A weighted instance under a guess limit that binds (227 without it): the split's values are
#: then in the weights' units, and a class may be worth inf (no subtree within the limit).
WEIGHTED = "mastermind:pegs=2,colors=5 weighted, max 4"
RANDOMISED = {**OPTIMA, WEIGHTED: 230}
#: The incumbents the journals are written under: none, the optimum (a first guess that only
#: ties is closed by its bound), above it, and below it (no tree costs that: every guess is
#: closed by a bound, all of them still proofs).
INCUMBENTS = (math.inf, 0, 2, -3)
#: Random cut points per journal, and fuzzed journals per instance.
CUTS = 12
FUZZ = 60


def first_run(capsys, tmp_path: Path, spec: str) -> tuple[Path, list[str]]:
    journal = tmp_path / "j.jsonl"
    rc, out, err = run(capsys, "optimal", spec, "--workers", "2", "--split-after", "0", "--journal", journal, "--json")
    assert rc == 0 and json.loads(out)["total"] == OPTIMA[spec], err
    return journal, journal.read_text().splitlines()


def total(capsys, *argv) -> tuple[int, dict | str]:
    rc, out, err = run(capsys, "optimal", *argv, "--json")
    return rc, (json.loads(out) if rc == 0 else err)


# --- the reproductions ----------------------------------------------------------------
def test_a_journal_written_with_a_start_tree_resumes_without_it(capsys, tmp_path):
    """The first run's incumbent (its start tree, 71) closed first guesses whose bound (71) only
    tied it; resumed without the start tree (incumbent 73), those bounds close nothing: 71."""
    journal, spec = tmp_path / "J.jsonl", "jotto:first=25"
    argv = [spec, "--workers", "2", "--split-after", "0", "--journal", journal]
    rc, figures = total(capsys, *argv, "--start", "optimal")
    assert rc == 0 and figures["total"] == 71 and figures["exact"], figures
    assert any('"bound": 71.0' in line and "classes" not in line for line in journal.read_text().splitlines())
    rc, figures = total(capsys, *argv)
    assert rc == 0 and figures["total"] == 71 and figures["exact"], figures
    rc, out, err = run(capsys, "optimal", *argv)
    assert rc == 0 and "total 71 guesses" in out and "proven optimal" in out, err


@pytest.mark.parametrize("record", ['"bound": -1', '"bound": 0', '"bound": -0.0', '"bound": 0, "classes": []'])
def test_a_first_guess_bound_below_what_opening_it_proves_is_refused(capsys, tmp_path, record):
    spec = "mastermind:pegs=3,colors=4"
    journal, lines = first_run(capsys, tmp_path, spec)
    journal.write_text(lines[0] + "\n" + '{"guess": "112", ' + record + ', "exact": false}\n')
    rc, out, err = run(capsys, "optimal", spec, "--workers", "2", "--split-after", "0", "--journal", journal, "--json")
    one_line(rc, err, "line 2", "below 196", "before anything is searched")


@pytest.mark.parametrize("classes", ["", ', "classes": []'])
def test_a_first_guess_bound_alone_closes_nothing(capsys, tmp_path, classes):
    """The issue's record closed 112 whatever its bound ("total": 208, exact); a bound is a
    bound: at the least it can be (196), 112 is opened again and the optimum found."""
    spec = "mastermind:pegs=3,colors=4"
    journal, lines = first_run(capsys, tmp_path, spec)
    journal.write_text(lines[0] + "\n" + '{"guess": "112", "bound": 196, "exact": false' + classes + "}\n")
    rc, figures = total(capsys, spec, "--workers", "2", "--split-after", "0", "--journal", journal)
    assert rc == 0 and figures["total"] == 206 and figures["exact"], figures


def opened_record(lines: list[str]) -> tuple[int, dict]:
    """The first record of a first guess opened with an exact class and an open one."""
    for n, line in enumerate(lines):
        record = json.loads(line)
        kinds = {c["exact"] for c in record.get("classes", [])}
        if kinds == {True, False}:
            return n, record
    raise AssertionError("no first guess opened with exact and open classes")


@pytest.mark.parametrize("second", ["exact", "open"])
def test_a_class_listed_twice_is_refused(capsys, tmp_path, second):
    """Twice exact gave "proven optimal" 208 (206); once exact, once open a traceback."""
    spec = "mastermind:pegs=3,colors=4"
    journal, lines = first_run(capsys, tmp_path, spec)
    n, record = opened_record(lines)
    exact = next(c for c in record["classes"] if c["exact"])
    again = exact if second == "exact" else {"reply": exact["reply"], "bound": exact["bound"], "exact": False}
    record["classes"].append(again)
    record["bound"] += again["bound"]
    lines[n] = json.dumps(record)
    journal.write_text("\n".join(lines) + "\n")
    rc, out, err = run(capsys, "optimal", spec, "--workers", "2", "--split-after", "0", "--journal", journal, "--json")
    one_line(rc, err, f"line {n + 1}", f"the class {exact['reply']} of {record['guess']} is listed twice")


def test_a_class_left_out_or_a_bound_not_its_classes_sum_is_refused(capsys, tmp_path):
    spec = "mastermind:pegs=3,colors=4"
    journal, lines = first_run(capsys, tmp_path, spec)
    n, record = opened_record(lines)
    dropped = dict(record, classes=record["classes"][1:])
    for edited, needle in ((dropped, "leave out"), (dict(record, bound=record["bound"] + 1), "add up to")):
        journal.write_text("\n".join(lines[:n] + [json.dumps(edited)] + lines[n + 1 :]) + "\n")
        rc, out, err = run(capsys, "optimal", spec, "--workers", "2", "--split-after", "0", "--journal", journal)
        one_line(rc, err, f"line {n + 1}", needle)


def test_records_that_contradict_each_other_are_refused(capsys, tmp_path):
    """A class proven to cost at least more than its exact value elsewhere, or exact twice at
    two values: one line naming the later line and the earlier one."""
    spec = "mastermind:pegs=3,colors=4"
    journal, lines = first_run(capsys, tmp_path, spec)
    records = [(n, json.loads(line)) for n, line in enumerate(lines[1:], 1)]
    n, exact = max(((n, r) for n, r in records if "reply" in r and r["exact"]), key=lambda pair: pair[1]["bound"])
    above = {"guess": exact["guess"], "reply": exact["reply"], "bound": exact["bound"] + 1, "exact": False}
    journal.write_text("\n".join(lines + [json.dumps(above)]) + "\n")
    rc, out, err = run(capsys, "optimal", spec, "--workers", "2", "--split-after", "0", "--journal", journal)
    one_line(rc, err, f"line {len(lines) + 1}", f"on line {n + 1}", "cannot both be right")


def test_proofs_of_one_class_merge_to_the_best_and_contradictions_name_both_lines():
    from arena.optimal.proofs import ClassProof, merge

    def where(line: int) -> str:
        return f"line {line}"

    low, high, exact = ClassProof(3, False, None, 2), ClassProof(5, False, None, 3), ClassProof(5, True, [1], 4)
    assert merge(low, high, "c", where) == high and merge(high, low, "c", where) == high
    assert merge(high, exact, "c", where) == exact and merge(exact, low, "c", where) == exact
    assert merge(exact, ClassProof(5 + 1e-12, True, [2], 5), "c", where) == exact  # floats of one value
    with pytest.raises(ArenaError, match=r"line 5: c is solved exactly at 6 here and at 5 on line 4"):
        merge(exact, ClassProof(6, True, [2], 5), "c", where)
    with pytest.raises(ArenaError, match=r"line 6: c is proven to cost at least 7 on line 6 and exactly 5 on line 4"):
        merge(exact, ClassProof(7, False, None, 6), "c", where)


@pytest.mark.parametrize("spec", ["mastermind:pegs=2,colors=4", "mastermind:pegs=3,colors=4,repeats=false"])
def test_the_standing_of_an_ordinary_journal_is_no_more_than_the_optimum(capsys, tmp_path, spec):
    """The issue: 2x4 (45) stood at "proven >= 49", 3x4 without repeats (72) at "proven >= inf"."""
    journal, _ = first_run(capsys, tmp_path, spec)
    rc, out, err = run(
        capsys, "optimal", spec, "--workers", "2", "--split-after", "0", "--journal", journal, "--standing"
    )
    one_line(rc, err, "holds no first guess solved exactly", f"proven >= {OPTIMA[spec]})")


def test_a_fifo_and_a_key_nested_too_deep_are_one_line(capsys, tmp_path):
    spec = "mastermind:pegs=2,colors=4"
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    for extra in ([], ["--standing"]):
        rc, out, err = run(capsys, "optimal", spec, "--workers", "1", "--journal", fifo, *extra)
        one_line(rc, err, "not a regular file")
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "\n")
    rc, out, err = run(capsys, "optimal", spec, "--workers", "1", "--journal", deep)
    one_line(rc, err, "its first line is not its key", "--new-journal")


def test_a_decision_journal_of_an_older_format_is_refused(capsys, tmp_path):
    spec = "mastermind:pegs=2,colors=4"
    journal, lines = first_run(capsys, tmp_path, spec)
    key = json.loads(lines[0]) | {"journal": "arena-journal/2"}
    journal.write_text(json.dumps(key) + '\n{"guess": "12", "bound": 45.0, "exact": false}\n')
    for extra in ([], ["--standing"]):
        rc, out, err = run(capsys, "optimal", spec, "--workers", "1", "--journal", journal, *extra)
        one_line(rc, err, "arena-journal/2", "decisions", "not proofs", "--new-journal")


def test_workers_are_capped_at_the_cpus_and_at_the_pieces(capsys, monkeypatch):
    """--workers 300 forked about 268 processes for 3 first guesses; 100,000 gave no answer."""
    import arena.optimal.split as split_module

    made: list[int] = []
    real = split_module.Pool

    def counted(workers, *args, **kwargs):
        made.append(workers)
        return real(min(workers, 2), *args, **kwargs)

    monkeypatch.setattr(split_module, "Pool", counted)
    spec = "mastermind:pegs=3,colors=4"
    rc, out, err = run(capsys, "optimal", spec, "--workers", "300", "--split-after", "0", "--json")
    assert rc == 0 and json.loads(out)["total"] == 206
    cpus = os.cpu_count() or 1
    assert made[-1] <= cpus and f"--workers 300 is more than the {cpus} CPUs here" in err and "--oversubscribe" in err
    rc, out, err = run(
        capsys, "optimal", spec, "--workers", "100000", "--split-after", "0", "--oversubscribe", "--json"
    )
    assert rc == 0 and json.loads(out)["total"] == 206
    lines = err.strip().splitlines()  # capped at 8 per CPU (or 64), then at the pieces in flight
    assert made[-1] < 100 and "usefully run" in lines[0] and "pieces to search at once" in lines[-1], err
    rc, out, err = run(capsys, "optimal", spec, "--oversubscribe")
    one_line(rc, err, "--workers")


# --- randomised: real journals cut, mixed, weakened and damaged ---------------------------------
def instance(case: str) -> tuple[str, dict]:
    """The game spec of a randomised case, and what split_root takes besides (weights, limit)."""
    if case != WEIGHTED:
        return case, {}
    spec = case.split()[0]
    weights = [1 + (i * 7) % 5 for i in range(len(make_game(spec).secrets))]
    return spec, {"weights": weights, "max_guesses": 4}


@pytest.fixture(scope="module")
def journals(tmp_path_factory) -> dict[str, list[list[str]]]:
    """Per instance, the journals of real runs under each incumbent (INCUMBENTS: the optimum
    plus the offset), seeded or not, with 1 or 2 workers; each ends proven at the optimum."""
    from arena.optimal import optimal_tree

    out: dict[str, list[list[str]]] = {}
    folder = tmp_path_factory.mktemp("journals")
    for case, optimum in RANDOMISED.items():
        spec, more = instance(case)
        game = make_game(spec)
        assert optimal_tree(game, **more).value == optimum
        out[case] = []
        for k, offset in enumerate(INCUMBENTS):
            path = folder / f"{spec}-{k}.jsonl"
            split_root(game, workers=1 + k % 2, journal=path, seed=k == 0, incumbent=optimum + offset, **more)
            out[case].append(path.read_text().splitlines())
    return out


def resume(case: str, path: Path, rng: random.Random, standing: bool = False):
    """The split resumed from `path` under a random incumbent of its own (or its standing)."""
    optimum = RANDOMISED[case]
    spec, more = instance(case)
    if standing:
        return split_root(make_game(spec), workers=1, journal=path, standing=True, **more)
    incumbent = rng.choice([math.inf, optimum, optimum + 1, optimum + 5])
    seed = rng.random() < 0.5
    return split_root(make_game(spec), workers=1, journal=path, seed=seed, incumbent=incumbent, **more)


def check(case: str, result, standing: bool) -> None:
    """No bound above the optimum; an exact total is the optimum; a run ends exact."""
    optimum = RANDOMISED[case]
    assert result.lower_bound <= optimum + 1e-9
    if result.best_guess >= 0 or not standing:
        assert result.value >= optimum - 1e-9
    if result.exact and (result.best_guess >= 0 or result.seed is not None):
        assert result.value == pytest.approx(optimum, rel=1e-9)
    if not standing:
        assert result.exact and result.value == pytest.approx(optimum, rel=1e-9)


@pytest.mark.parametrize("spec", list(RANDOMISED))
def test_a_journal_cut_anywhere_resumes_and_stands_at_no_more_than_the_optimum(journals, tmp_path, spec):
    """Each real journal cut at CUTS random bytes (a run killed there): --standing proves no
    more than the optimum, and a resumed run under any incumbent ends exact at the optimum."""
    rng = random.Random(spec)
    path = tmp_path / "cut.jsonl"
    for lines in journals[spec]:
        text = "\n".join(lines) + "\n"
        for _ in range(CUTS):
            cut = rng.randrange(len(lines[0]) + 1, len(text) + 1)
            for standing in (True, False):
                path.write_text(text[:cut])
                check(spec, resume(spec, path, rng, standing), standing)


def weaker(record: dict, rng: random.Random) -> dict:
    """The record proving less (still true): a lower bound, an exact value as a bound, a first
    guess's classes dropped (its bound alone); may fall below what opening it proves (refused)."""
    record = json.loads(json.dumps(record))
    choice = rng.randrange(4)
    if choice == 0 and "classes" in record:
        del record["classes"]
    elif choice == 3 and any(not c["exact"] for c in record.get("classes", [])):
        c = rng.choice([c for c in record["classes"] if not c["exact"]])
        less = rng.choice([0.5, 1, 2])
        c["bound"] -= less  # a class's bound lowered, and the guess's with it
        record["bound"] -= less
    elif choice == 1 and record.get("exact"):
        record["exact"] = False
        del record["tree"]
    elif not record.get("exact") and "classes" not in record:
        record["bound"] -= rng.choice([0, 0.5, 1, 3])
    return record


def damaged(record: dict, rng: random.Random, pool: list[dict]) -> dict | str:
    """The record broken in one of the ways a damaged file or a hand edit breaks it. A bound is
    raised only where the record carries its witness (an exact subtree, an opened guess's
    classes) or past what any tree costs: a bound raised a little on a record without one (a
    first guess's bound alone, a class's failed search), or moved to another class, is a
    forgery that no reader can tell from a proof without searching again."""
    record = json.loads(json.dumps(record))
    kind = rng.randrange(10)
    if kind == 0:
        del record[rng.choice(sorted(k for k in record if k in ("guess", "bound", "exact", "reply")))]
    elif kind == 1:
        record[rng.choice(["guess", "bound", "exact", "reply"])] = rng.choice([None, "x", 7, True, [], {}, -1.5])
    elif kind == 2 and record.get("classes"):
        record["classes"].append(rng.choice(record["classes"]))  # a class twice
    elif kind == 3 and record.get("classes"):
        record["classes"].pop(rng.randrange(len(record["classes"])))  # a class left out
    elif kind == 4:  # raised: above what its exact subtree costs, its classes add up to, or any tree costs
        witnessed = record.get("tree") or record.get("classes")
        record["bound"] = record["bound"] + (rng.choice([1, 2.5]) if witnessed else 1e6)
    elif kind == 5 and record.get("tree"):
        record["tree"] = record["tree"][:-1] if rng.random() < 0.5 else record["tree"] + record["tree"][:1]
    elif kind == 6:
        other = rng.choice([r for r in pool if r.get("tree")] or [record])
        record |= {"exact": True, "tree": other.get("tree", ["zzz"])}  # another class's subtree
    elif kind == 7:
        return rng.choice(["{", "[]", "null", '"guess"', json.dumps(record)[:20]])
    elif kind == 8:
        record["bound"] = rng.choice([float("nan"), float("inf"), -1e9])
    else:  # a reply that leaves no class, or (an exact record) another class, which its subtree is not of
        record["reply"] = rng.choice(["9,9", "", "x"] + (["0,0", "1,0"] if record.get("tree") else []))
    return record


@pytest.mark.parametrize("spec", list(RANDOMISED))
def test_fuzzed_journals_never_print_a_wrong_exact_total(journals, tmp_path, spec):
    """FUZZ journals per instance: the key, then records drawn from the instance's real
    journals (all true, so they may be mixed), in any order, some repeated, some weakened
    (still true), some damaged. Every one either is refused in one line naming its line, or
    resumes to the one-process optimum, proven; --standing never proves more than it."""
    rng = random.Random(f"fuzz {spec}")
    pool = [json.loads(line) for lines in journals[spec] for line in lines[1:]]
    key = journals[spec][0][0]
    path = tmp_path / "fuzz.jsonl"
    outcomes = {"refused": 0, "resumed": 0}
    for _ in range(FUZZ):
        records: list[dict | str] = [rng.choice(pool) for _ in range(rng.randrange(len(pool) + 1))]
        records = [weaker(r, rng) if isinstance(r, dict) and rng.random() < 0.15 else r for r in records]
        if records and rng.random() < 0.5:
            i = rng.randrange(len(records))
            records[i] = damaged(records[i], rng, pool)  # type: ignore[arg-type]
        text = "\n".join([key] + [r if isinstance(r, str) else json.dumps(r) for r in records]) + "\n"
        for standing in (False, True):
            path.write_text(text)
            try:
                result = resume(spec, path, rng, standing)
            except ArenaError as e:
                assert "\n" not in str(e) and (", line " in str(e) or "holds no" in str(e)), str(e)
                outcomes["refused"] += 1
                continue
            check(spec, result, standing)
            outcomes["resumed"] += 1
    assert outcomes["refused"] >= FUZZ // 10 and outcomes["resumed"] >= FUZZ // 4, outcomes
