"""Pieces that split themselves (arena/optimal/ledger.py): a piece that has searched
`split_after` sets hands itself back and becomes a node of its own, its guesses opened and
their classes searched as pieces, at any depth.

Whatever the depth of splitting, the split finds the one-process optimum and a tree that costs
it (random instances, weights and guess limits, one and two workers); the journal records the
proofs at every depth ("at"), so a journal cut after any record (a kill at any moment) resumes
to the same optimum, and `--standing` reads what the deep records prove; a deep record that
cannot be right is refused in one line; the critical path follows the chain of tasks down."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from cli_run import run

from arena import make_game
from arena.core.errors import ArenaError
from arena.optimal import optimal_tree
from arena.optimal.parallelism import OPENING, Work
from arena.optimal.pieces import walk
from arena.optimal.problem import Problem
from arena.optimal.split import SplitRun, class_floors, prepare, split_root, split_tree

#: Instances the one-process search solves in well under a second, with classes worth splitting.
INSTANCES = [
    ("mastermind:pegs=3,colors=4", {}),
    ("mastermind:pegs=4,colors=4", {}),
    ("mastermind:pegs=3,colors=5", {"pool": "consistent"}),
    ("mastermind:pegs=2,colors=6", {"weighted": True, "max_guesses": 5}),
    ("mastermind:pegs=3,colors=4", {"weighted": True}),
    ("jotto:first=40", {}),
    ("wordle:first=60", {}),
]


def weights_of(game, seed: int) -> np.ndarray:
    return 1 + np.random.default_rng(seed).integers(0, 5, len(game.secrets)).astype(float)


@pytest.mark.parametrize("seed", range(10))
def test_pieces_split_at_any_depth_find_the_one_process_optimum(seed, tmp_path):
    """Ten random draws of instance, split budget (1 set: every piece that searches at all
    splits, down to the leaves) and workers; every one the one-process optimum, proven, with
    a tree that costs it and keeps the guess limit, and its journal alone proves it."""
    rng = random.Random(seed)
    spec, options = INSTANCES[seed % len(INSTANCES)]
    game = make_game(spec)
    w = weights_of(game, seed) if options.get("weighted") else None
    settings = {k: v for k, v in options.items() if k in ("pool", "max_guesses")}
    plain = optimal_tree(game, weights=w, **settings)
    journal = tmp_path / "j.jsonl"
    split_after, workers = rng.choice([1, 2, 5, 30]), rng.choice([1, 2])
    result = split_root(game, workers=workers, split_after=split_after, weights=w, journal=journal, **settings)
    read = split_root(game, workers=1, weights=w, journal=journal, standing=True, **settings)
    assert read.lower_bound == result.lower_bound, (spec, read.lower_bound, result.lower_bound)
    tree = split_tree(result)
    weights = np.ones(len(game.secrets)) if w is None else w
    assert result.exact and result.value == result.lower_bound == plain.value, (spec, result.value, plain.value)
    assert float(tree.guesses[game.all_secrets] @ weights) == plain.value
    if "max_guesses" in settings:
        assert tree.guesses[game.all_secrets].max() <= settings["max_guesses"]


def test_splitting_keeps_every_worker_busy_on_a_bigger_instance():
    """4x5 with pieces split after 20 sets: deeper tasks in the work, a critical path shorter
    than without splitting, the same optimum."""
    game = make_game("mastermind:colors=5")
    whole = split_root(game, workers=2)
    split = split_root(game, workers=2, split_after=20)
    assert split.value == whole.value == 2463 and split.exact
    assert max(len(key) for key in split.work.sets) > 2  # tasks below the first guesses' classes
    assert split.work.critical_path < whole.work.critical_path and split.work.parallelism > whole.work.parallelism


def records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:] if line.endswith("}")]


def test_a_journal_cut_after_any_record_at_any_depth_resumes_to_the_same_optimum(tmp_path):
    """Every piece splits (split_after 1): the journal holds records below the first guesses'
    classes; resumed from its first k records, for every k, the optimum is the same and
    proven, and the tree costs it."""
    game = make_game("mastermind:pegs=3,colors=5")
    full = tmp_path / "full.jsonl"
    first = split_root(game, workers=1, split_after=1, journal=full)
    deep = [r for r in records(full) if "at" in r]
    assert first.exact and first.value == 451 and deep, "no record below the root"
    lines = full.read_text().splitlines(keepends=True)
    for k in range(1, len(lines) + 1, max(1, len(lines) // 25)):
        cut = tmp_path / f"cut{k}.jsonl"
        cut.write_text("".join(lines[:k]) + (lines[k][:25] if k < len(lines) else ""))
        again = split_root(game, workers=1, split_after=1, journal=cut)
        assert again.exact and again.value == again.lower_bound == 451, k
        assert split_tree(again).value == 451, k
    done = split_root(game, workers=1, split_after=1, journal=full)
    assert done.value == 451 and done.searched == 0  # everything proven is read back, nothing searched


def test_the_standing_of_a_journal_with_deep_records(capsys, tmp_path):
    """--standing reads the records below the root too: the optimum of a finished run, and a
    bound no higher than it from part of one."""
    spec = "mastermind:pegs=3,colors=5"
    journal = tmp_path / "j.jsonl"
    split_root(make_game(spec), workers=1, split_after=1, journal=journal)
    assert any("at" in r for r in records(journal))
    rc, out, err = run(capsys, "optimal", spec, "--standing", "--journal", str(journal), "--json")
    figures = json.loads(out)
    assert rc == 0 and figures["total"] == 451 and figures["exact"], err
    lines = journal.read_text().splitlines(keepends=True)
    part = tmp_path / "part.jsonl"
    part.write_text("".join(lines[: len(lines) // 2]))
    result = split_root(make_game(spec), journal=part, standing=True, workers=1)
    assert result.lower_bound <= 451


@pytest.mark.parametrize(
    "spec, split_after, workers",
    [("jotto:first=80", 1, 1), ("jotto:first=120", 5, 2), ("mastermind:pegs=4,colors=5", 1, 2)],
)
def test_a_finished_run_s_journal_alone_proves_what_the_run_printed(tmp_path, spec, split_after, workers):
    """A piece that split itself is bounded by its node (the least of its guesses' bounds)
    before any guess of it is opened; that bound can close its first guess, so it is journaled
    when the piece splits. Without it --standing read 295 of Jotto's first 80 where the run had
    proven the optimum, 297 (and 2,448 of 4x5's 2,463)."""
    journal = tmp_path / "j.jsonl"
    ran = split_root(make_game(spec), workers=workers, split_after=split_after, journal=journal)
    read = split_root(make_game(spec), workers=1, journal=journal, standing=True)
    assert ran.exact and read.lower_bound == ran.lower_bound == ran.value, (read.lower_bound, ran.value)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda r: r | {"at": r["at"][:1]}, "one reply after each guess"),
        (lambda r: r | {"at": ["zzzz", *r["at"][1:]]}, "is not a guess"),
        (lambda r: r | {"at": [r["at"][0], "4,0", *r["at"][2:]]}, "leaves a class"),
        (lambda r: r | {"bound": 0.5}, "below"),
    ],
)
def test_a_deep_record_that_cannot_be_right_is_refused(tmp_path, edit, message):
    game = make_game("mastermind:pegs=3,colors=5")
    journal = tmp_path / "j.jsonl"
    split_root(game, workers=1, split_after=1, journal=journal)
    lines = journal.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if i and '"at"' in line and '"reply"' in line)
    lines[i] = json.dumps(edit(json.loads(lines[i])))
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(ArenaError, match=message) as refused:
        split_root(game, workers=1, split_after=1, journal=journal)
    assert f"line {i + 1}" in str(refused.value)


def test_a_deep_guess_the_search_never_plays_there_is_refused(tmp_path):
    """A record of an opening below the root at a guess that is no guess of that class's pool
    (one symmetric to a guess the pool keeps: it keeps one of each class), with a bound every
    other check passes, is refused."""
    game = make_game("mastermind:pegs=3,colors=5")
    journal = tmp_path / "j.jsonl"
    split_root(game, workers=1, split_after=1, journal=journal)
    lines = journal.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if i and '"at"' in line and '"classes"' in line)
    record = json.loads(lines[i])
    problem = Problem.of(game)
    sym = problem.symmetry()
    scout = problem.search(symmetry=sym)
    S = game.all_secrets
    b = scout.score_guesses(S, scout.pool(S, sym), scout.limit)[2]
    at = tuple(game.guess_index(x) if k % 2 == 0 else int(game.parse_reply(x)) for k, x in enumerate(record["at"]))
    place = walk(scout, S, sym, at)
    kept = set(scout.pool(place.secrets, place.sym, place.allowed).tolist())
    stranger = next(g for g in range(len(game.guesses)) if g not in kept)
    floors = class_floors(scout, S, sym, b, (*at, stranger))
    bound = len(place.secrets) + sum(floors.values())
    lines[i] = json.dumps({"at": record["at"], "guess": game.guesses[stranger], "bound": bound, "exact": False})
    journal.write_text("\n".join(lines) + "\n")
    with pytest.raises(ArenaError, match="no guess the search plays there"):
        split_root(game, workers=1, split_after=1, journal=journal)


def test_the_critical_path_follows_the_tasks_down():
    """An opening, its pieces, a piece that split itself, its guesses' openings and pieces:
    the longest chain is the parent, then opening g, piece (g, r), opening h there, piece
    (g, r, h, r')."""
    work = Work(parent=1)
    work.sets = {
        (0, OPENING): 2,
        (0, 1): 10,  # split itself after 10 sets
        (0, 2): 30,
        (0, 1, 5, OPENING): 1,
        (0, 1, 5, 3): 40,
        (0, 1, 6, OPENING): 1,
        (1, OPENING): 5,
        (1, 4): 20,
    }
    assert work.chain() == (1 + 2 + 10 + 1 + 40, (0, 1, 5, 3))
    assert work.total == 1 + sum(work.sets.values())


def test_an_opening_without_classes_is_closed_by_its_bound_or_costs_what_it_pays():
    """A worker's opening returns no classes when its bound reached the limit it was handed out
    with (the guess cannot beat it: nothing more to do); below that limit, no classes is a guess
    that leaves none, exact at what it pays, w(N) (not an opening handed out again forever)."""
    game = make_game("mastermind:pegs=3,colors=4")
    split, _, _ = prepare(Problem.of(game), SplitRun(workers=1))
    kind, shut, limit = split.next_task()
    assert kind == "open" and shut.opening and shut.limit == limit
    split.opened(shut, limit, [])
    assert shut.pieces is None and not shut.exact and shut.bound >= limit and not shut.opening
    _, empty, limit = split.next_task()
    split.opened(empty, empty.bound, [])  # below the limit: (as no Mastermind guess does) it leaves no class
    assert empty.pieces == [] and empty.exact and empty.bound == split.root.weight
    assert split.root.lower() == split.root.weight and split.incumbent == split.root.weight


def test_a_waiting_worker_hurries_the_running_task_to_split_itself():
    """pieces.hurry, the progress callback of a task on a forked worker: once a worker waits
    (the shared idle count above 0) and the task has searched its first sets, its node limit
    is reached at once (a piece then splits itself); not while no worker waits, not before
    those sets, and never where no node limit stops it (an opening's bounding, which only a
    deadline stops: a Timeout there would read as the deadline)."""
    from types import SimpleNamespace

    from arena.optimal.pieces import hurry

    def search(nodes, limit):
        return SimpleNamespace(stats=SimpleNamespace(nodes=nodes), node_limit=limit)

    waiting, busy = SimpleNamespace(value=1), SimpleNamespace(value=0)
    s = search(120, 1100)
    hurry(waiting, 150, s)
    assert s.node_limit == 1100  # not yet past its first sets
    hurry(busy, 100, s)
    assert s.node_limit == 1100  # every worker busy
    hurry(waiting, 100, s)
    assert s.node_limit == 120  # reached now: the next set stops it
    s = search(500, None)
    hurry(waiting, 100, s)
    assert s.node_limit is None


@pytest.mark.parametrize("spec", ["mastermind:pegs=3,colors=5", "mastermind:pegs=4,colors=5"])
def test_hurried_pieces_find_the_one_process_optimum(spec):
    """Three workers on pieces that never split by their own count (split_after 10**6): the
    workers left waiting hurry the others' tasks into pieces (how many depends on timing);
    whatever was hurried, the optimum is the one-process optimum, proven, with a tree that
    costs it."""
    game = make_game(spec)
    plain = optimal_tree(game)
    result = split_root(game, workers=3, split_after=10**6)
    assert result.exact and result.value == result.lower_bound == plain.value
    assert split_tree(result).value == plain.value


def test_the_time_limit_covers_reading_the_journal(capsys, tmp_path):
    """A run's --time-limit counts the journal's reading too: past it the records left are not
    read (each record is a proof of its own, so those read prove what they prove), the report
    says how many, and they stay in the journal for the next run, which reads them all."""
    spec = "mastermind:pegs=3,colors=5"
    journal = tmp_path / "j.jsonl"
    split_root(make_game(spec), workers=1, split_after=1, journal=journal)
    lines = len(journal.read_text().splitlines()) - 1
    cut = split_root(make_game(spec), workers=1, split_after=1, journal=journal, time_limit=1e-9)
    assert cut.stopped and cut.journal_unread == lines and cut.lower_bound <= 451 and cut.searched == 0
    rc, out, err = run(capsys, "optimal", spec, "--workers", "1", "--journal", str(journal), "--time-limit", "1e-9")
    assert rc == 0 and f"{lines:,} of its records were not read" in out, (out, err)
    whole = split_root(make_game(spec), workers=1, split_after=1, journal=journal)
    assert whole.journal_unread == 0 and whole.exact and whole.value == 451 and whole.searched == 0


@pytest.mark.parametrize("spec", ["mastermind:colors=5", "mastermind:pegs=5,colors=3"])
def test_budgets_pushed_into_running_pieces_change_no_result(spec, tmp_path):
    """No seed tree, so the first pieces run under no budget and the incumbent falls while they
    run: with the budgets pushed (split.push_rooms) and without, the same proven optimum, and
    the journal written under the pushes proves it alone."""
    game = make_game(spec)
    plain = optimal_tree(game).value
    journal = tmp_path / "pushed.jsonl"
    pushed = split_root(game, workers=2, split_after=20, seed=False, journal=journal)
    unpushed = split_root(game, workers=2, split_after=20, seed=False, push=False)
    assert pushed.exact and unpushed.exact and pushed.value == unpushed.value == plain
    assert split_root(game, workers=1, journal=journal, standing=True).lower_bound == plain


@pytest.mark.parametrize("seed", range(10))
def test_a_target_proves_the_least_of_itself_and_the_optimum(seed, tmp_path):
    """Ten random draws of instance, target (from well below the optimum to above it), split
    budget and workers: the bound proven is min(target, optimum), exact where the target is
    above the optimum, the value always a tree's own cost; the journal it leaves, resumed
    without a target, proves the one-process optimum."""
    rng = random.Random(100 + seed)
    spec, options = INSTANCES[seed % len(INSTANCES)]
    game = make_game(spec)
    w = weights_of(game, seed) if options.get("weighted") else None
    settings = {k: v for k, v in options.items() if k in ("pool", "max_guesses")}
    optimum = optimal_tree(game, weights=w, **settings).value
    target = optimum + rng.choice([-0.05 * optimum, -3, -1, 0, 1, 2]) // 1
    journal = tmp_path / "j.jsonl"
    split_after, workers = rng.choice([1, 5, 30, None]), rng.choice([1, 2])
    run = {"workers": workers, "split_after": split_after, "weights": w, "journal": journal, **settings}
    capped = split_root(game, target=target, **run)
    assert capped.lower_bound == min(target, optimum), (spec, target, optimum, capped.lower_bound)
    assert capped.exact == (target > optimum) and capped.value >= optimum
    held = split_tree(capped)
    weights = np.ones(len(game.secrets)) if w is None else w
    assert float(held.guesses[game.all_secrets] @ weights) == capped.value  # a tree's own cost, never the target
    again = split_root(game, **run)
    assert again.exact and again.value == optimum
