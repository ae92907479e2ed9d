"""Parallelism you can see (arena/optimal/parallelism.py): the split's work (sets searched), its
critical path, their ratio and each worker's busy fraction, in the JSON, the text report and
--standing.

Invariants on real runs: parallelism >= 1, critical path <= work, work = the parent's sets +
the sum over the tasks (openings and pieces), busy fractions in [0, 1], one per worker. Against
the one-process search: the split's root is counted as the one process counts its own (one
set), and with one worker the split's work is at most the one process's sets searched (equal
on most instances: the same search, task by task; 8 against 10 on 3x4, whose one-process
search tries a class the split's opening bounds close); with two workers it may be more (5x4:
about 1,400 against 1,169), since pieces searched side by side start under the budget known
then, and each worker keeps its own cache. So the test asserts `<=` for one worker only.
"""

from __future__ import annotations

import json

import pytest
from cli_run import run

from arena import make_game
from arena.core.errors import ArenaError
from arena.optimal import optimal_tree
from arena.optimal.parallelism import OPENING, UNKNOWN, Work, fewer_workers, journal_work
from arena.optimal.split import AUTO, SPLIT_AFTER, SPLIT_FEWEST, split_after_for, split_root, split_tree

SMALL = "mastermind:pegs=3,colors=4"


def invariants(work: Work, wall: float) -> None:
    assert work.parallelism >= 1
    assert 0 < work.critical_path <= work.total
    assert work.total == work.parent + sum(work.sets.values())
    busy = work.busy(wall)
    assert len(busy) == work.workers and all(0 <= b <= 1 for b in busy)


@pytest.mark.parametrize("spec, workers", [(SMALL, 2), ("mastermind:pegs=5,colors=4", 2), ("jotto:first=40", 3)])
def test_the_split_reports_work_critical_path_parallelism_and_busy_fractions(spec, workers):
    game = make_game(spec)
    result = split_root(game, workers=workers)
    work = result.work
    invariants(work, result.seconds)
    tree = split_tree(result)
    assert work.total == work.parent + tree.searched  # the report's sets searched, and the parent's root
    assert {key[0] for key in work.sets} <= set(result.openings)  # a piece that split itself has a longer key
    figures = tree.figures()
    assert figures["work"] == work.total and figures["critical_path"] == work.critical_path
    assert figures["parallelism"] == round(work.total / work.critical_path, 3) and len(figures["busy"]) == workers
    assert "parallelism " in tree.report() and "workers busy" in tree.report()


@pytest.mark.parametrize("spec", [SMALL, "mastermind:pegs=4,colors=4", "mastermind:pegs=3,colors=5", "jotto:first=40"])
def test_one_worker_does_no_more_work_than_the_one_process_search(spec):
    game = make_game(spec)
    one = optimal_tree(game)
    result = split_root(game, workers=1)
    assert result.value == one.value
    invariants(result.work, result.seconds)
    assert result.work.total <= one.searched


def test_the_critical_path_is_the_parent_then_an_opening_then_its_longest_piece():
    work = Work(sets={(0, OPENING): 5, (0, 1): 10, (0, 2): 30, (1, OPENING): 20, (1, 3): 12, (2, 4): 7})
    work.begin(2, 3)  # the parent: its 3 sets and the root
    assert work.total == 4 + 5 + 10 + 30 + 20 + 12 + 7
    assert work.chain() == (4 + 5 + 30, (0, 2))  # first guess 1's chain, 20 + 12, is shorter
    assert work.parallelism == pytest.approx(work.total / 39)
    empty = Work()
    empty.begin(1, -1)  # nothing searched at all: nothing to share out
    assert empty.parallelism == 1.0 and empty.chain() == (0, ())


def test_busy_fractions_lay_the_tasks_into_one_lane_a_worker():
    work = Work()
    work.begin(2, 0)
    for start, end in [(0, 4), (0, 2), (2, 5), (4, 10), (4.5, 6)]:  # the last overlaps both: counted once
        work.ran(end - start, end)
        work.done((0, 1), False, 3)
    work.done((0,), True, 2)  # an opening of the guess 0
    assert work.busy(10) == [1.0, 0.6]
    assert work.busy(0) == [0.0, 0.0]
    assert work.sets == {(0, 1): 15, (0, OPENING): 2}


def test_standing_reports_the_pieces_work_the_journal_holds_and_what_it_cannot_know(tmp_path, capsys):
    journal = tmp_path / "j.jsonl"
    game = make_game("mastermind:pegs=5,colors=4")
    result = split_root(game, workers=2, journal=journal, split_after=None)  # every class a piece of its own
    pieces = {k: n for k, n in result.work.sets.items() if k[-1] != OPENING}
    standing = split_root(game, workers=1, journal=journal, standing=True).work
    opened = {k for k in result.work.sets if k[-1] == OPENING}  # those that opened with classes, or closed
    assert standing.from_journal and standing.sets == {k: n for k, n in result.work.sets.items() if k in standing.sets}
    assert pieces.items() <= standing.sets.items() and set(standing.sets) - set(pieces) <= opened
    assert standing.total == sum(standing.sets.values())  # the parent's sets are in no record
    rc, out, _ = run(capsys, "optimal", "mastermind:pegs=5,colors=4", "--standing", "--journal", journal, "--json")
    data = json.loads(out)
    assert data["work"] == standing.total and data["parallelism"] >= 1 and "busy" not in data
    assert UNKNOWN in data["work_unknown"]
    text = run(capsys, "optimal", "mastermind:pegs=5,colors=4", "--standing", "--journal", journal)[1]
    assert f"not in the journal: {UNKNOWN}" in text
    lines = journal.read_text().splitlines()
    cut = [json.loads(line) for line in lines[1:]]
    for record in cut:
        record.pop("nodes", None)  # a record without its count of sets
    work = journal_work([(n, json.dumps(r)) for n, r in enumerate(cut, 2)] + [(99, "not json")], game)
    assert work.sets == {} and work.unknown_pieces == len(cut) and "count no sets" in str(work.figures(game, 1.0))


def test_the_command_line_prints_the_figures(capsys):
    rc, out, _ = run(capsys, "optimal", SMALL, "--workers", "2", "--json")
    data = json.loads(out)
    assert data["critical_path"] <= data["work"] and data["parallelism"] >= 1
    assert len(data["busy"]) == data["workers"] == 2 and all(0 <= b <= 1 for b in data["busy"])
    assert data["critical_chain"]["parent"] == 1
    assert data["split_after"] == SPLIT_AFTER  # the default for two workers
    assert (
        json.loads(run(capsys, "optimal", SMALL, "--workers", "2", "--split-after", "7", "--json")[1])["split_after"]
        == 7
    )
    text = run(capsys, "optimal", SMALL, "--workers", "2")[1]
    assert "sets searched, critical path" in text and "workers busy" in text


def test_the_pieces_are_smaller_the_more_workers_share_them():
    """By default a piece splits itself after SPLIT_AFTER sets on one or two workers, fewer the
    more workers there are, never fewer than SPLIT_FEWEST; the split reports the count it used."""
    counts = [split_after_for(w) for w in (1, 2, 3, 4, 8, 16, 32, 64, 1000)]
    assert counts[:2] == [SPLIT_AFTER, SPLIT_AFTER] and counts[-1] == SPLIT_FEWEST
    assert counts == sorted(counts, reverse=True) and counts[5] == 100  # 16 workers
    game = make_game(SMALL)
    assert split_root(game, workers=3).work.split_after == split_after_for(3)
    assert split_root(game, workers=3, split_after=AUTO).work.split_after == split_after_for(3)
    assert split_root(game, workers=3, split_after=None).work.split_after is None
    for wrong in (0, -5, "soon", 2.5, True):
        with pytest.raises(ArenaError, match="split_after is the sets a piece searches"):
            split_root(game, workers=2, split_after=wrong)


def test_fewer_workers_when_the_split_has_fewer_pieces():
    game = make_game(SMALL)
    said: list[str] = []
    openings = [game.guess_index(g) for g in ("111", "112", "123")]
    assert fewer_workers(game, game.all_secrets, openings, 2, said.append) == 2 and not said
    most = fewer_workers(game, game.all_secrets, openings, 1000, said.append)
    assert 3 < most < 1000 and said and f"using {most:,} processes" in said[0]


def test_no_notice_of_fewer_workers_with_nothing_to_search():
    """No first guess left to open (all closed, or read from the journal): one process, and no
    "using 0 processes" notice."""
    game = make_game(SMALL)
    said: list[str] = []
    assert fewer_workers(game, game.all_secrets, [], 1, said.append) == 1 and not said
    assert fewer_workers(game, game.all_secrets, [], 4, said.append) == 1 and not said


def test_the_split_line_says_others_were_read_only_when_some_were(capsys, tmp_path):
    weights, journal = tmp_path / "w.json", tmp_path / "j.jsonl"
    weights.write_text(json.dumps(list(range(1, 10))))
    args = ("optimal", "mastermind:pegs=2,colors=3", "--workers", "1", "--split-after", "0")
    args += ("--weights", weights, "--journal", journal)
    rc, out, err = run(capsys, *args)
    assert rc == 0 and "2 pieces (first guess, reply class) searched (2 in this run); " in out, out + err
    assert "using 0 processes" not in err
    rc, out, err = run(capsys, *args)
    assert rc == 0 and "(0 in this run, the others read from the journal)" in out, out + err
