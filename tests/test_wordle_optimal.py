"""The exact search on Wordle: small instances against a plain brute force, fixed openers, hard
mode (the allowed guesses along the path), and the shipped tree after SALET.

The brute force shares nothing with the solver but the feedback table and the game's own rule
for what hard mode allows (`allowed_guesses(history)`, asked with the whole history): it tries
every allowed guess at every candidate set, memoised on (set, allowed set), with no bounds and
no closed forms.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from cli_run import run

from agents import make_guesser
from arena import ArenaError, make_game
from arena.core.words import read_words
from arena.optimal import optimal_tree
from arena.play.evaluate import evaluate


def brute_force(game, secrets=None, history=(), pool="all") -> float:
    """min over trees of the guesses to find every secret of `secrets` (default all), the
    game having seen `history` (guess, reply) so far. Hard mode: the guesses allowed are the
    game's answer for the whole history; the memo is keyed by (candidates, allowed set), which
    is sound as the rule only narrows move by move: allowed(h + m) = allowed(h) & allowed(m),
    asserted on every path taken."""
    table, hit = game.table.tolist(), game.hit
    naming = {int(game.same_secret[g]): g for g in range(len(game.guesses)) if game.same_secret[g] >= 0}
    everything = frozenset(range(len(game.guesses)))

    def allowed_after(moves: list) -> frozenset:
        allowed = game.allowed_guesses(moves)
        return everything if allowed is None else frozenset(int(g) for g in allowed)

    memo: dict = {}

    def cost(S: tuple, moves: list, allowed: frozenset) -> float:
        if len(S) == 1:
            return 1.0
        if (S, allowed) in memo:
            return memo[S, allowed]
        best = math.inf
        guesses = sorted(allowed) if pool == "all" else [naming[s] for s in S]
        for g in guesses:
            classes: dict[int, list[int]] = {}
            for s in S:
                classes.setdefault(table[g][s], []).append(s)
            if len(classes) == 1 and hit not in classes:
                continue  # learns nothing
            total = float(len(S))
            for reply, members in classes.items():
                if reply != hit:
                    after = moves + [(g, reply)]
                    below = allowed_after(after)
                    assert below == allowed & allowed_after([(g, reply)])
                    total += cost(tuple(members), after, below)
                if total >= best:
                    break
            best = min(best, total)
        memo[S, allowed] = best
        return best

    S = tuple(range(len(game.secrets))) if secrets is None else tuple(int(s) for s in secrets)
    return cost(S, list(history), allowed_after(list(history)))


def brute_after_openers(game, openers: list[str]) -> float:
    """The best tree opening with `openers` (each played whatever the replies), by brute force."""
    fixed = [game.guess_index(o) for o in openers]
    total = 0.0

    def walk(S, history):
        nonlocal total
        turn = len(history)
        if turn == len(fixed):
            total += len(S) * turn + brute_force(game, S, history)
            return
        g = fixed[turn]
        for reply, part in game.partition(g, S).items():
            if reply == game.hit:
                total += len(part) * (turn + 1)
            else:
                walk(part, history + [(g, reply)])

    walk(game.all_secrets, [])
    return total


@pytest.fixture(scope="module")
def guess_file(tmp_path_factory):
    """A guess list of 40 words: the first 10 answers, salet and 29 other accepted words, spread out."""
    answers = list(read_words("wordle-answers")[:10])
    accepted = ["salet"] + [w for w in read_words("wordle-guesses")[::431] if w not in answers + ["salet"]][:29]
    path = tmp_path_factory.mktemp("wordle") / "guesses.txt"
    path.write_text("\n".join(answers + accepted) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def spread_answers(tmp_path_factory):
    """12 answers spread over the list (so they share fewer letters than the first ones)."""
    path = tmp_path_factory.mktemp("wordle") / "answers.txt"
    path.write_text("\n".join(read_words("wordle-answers")[::193][:12]) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def families(tmp_path_factory):
    """Answers of two rhyming families (_ound, _atch) and a few probing guesses: the one instance
    here where hard mode costs a guess more than normal play (43 against 42, brute force)."""
    answers = [w for w in read_words("wordle-answers") if w.endswith(("ound", "atch"))]
    probes = ["bachs", "chams", "crawl", "fraps", "mochs", "schmo", "whams"]
    folder = tmp_path_factory.mktemp("wordle")
    (folder / "answers.txt").write_text("\n".join(answers) + "\n")
    (folder / "guesses.txt").write_text("\n".join(answers + probes) + "\n")
    return f"answers={folder / 'answers.txt'},guesses={folder / 'guesses.txt'}"


def test_hard_mode_costs_more_where_probes_are_ruled_out(families):
    normal, hard = make_game(f"wordle:{families}"), make_game(f"wordle:{families},hard=true")
    assert optimal_tree(normal).value == brute_force(normal) == 42
    assert optimal_tree(hard).value == brute_force(hard) == 43
    for openers in (["crawl"], ["bound"]):
        assert optimal_tree(hard, openers=openers).value == brute_after_openers(hard, openers)


@pytest.mark.parametrize("first", [8, 10, 0])
@pytest.mark.parametrize("hard", [False, True])
def test_small_wordle_matches_brute_force(guess_file, spread_answers, first, hard):
    answers = f"first={first}" if first else f"answers={spread_answers}"
    game = make_game(f"wordle:{answers},guesses={guess_file}" + (",hard=true" if hard else ""))
    tree = optimal_tree(game)
    assert tree.exact and tree.value == brute_force(game) == int(tree.guesses.sum())
    consistent = optimal_tree(game, pool="consistent")
    assert consistent.value == brute_force(game, pool="consistent") >= tree.value


@pytest.mark.parametrize("hard", [False, True])
def test_openers_match_brute_force_and_replay(capsys, guess_file, hard):
    spec = f"wordle:first=10,guesses={guess_file}" + (",hard=true" if hard else "")
    game = make_game(spec)
    two = [[game.guesses[12], game.guesses[3]]]
    if hard:  # hard mode refuses a second opener that some reply to the first rules out
        with pytest.raises(ArenaError, match="openers: abbey breaks the rules after .*hard mode"):
            optimal_tree(game, openers=two.pop())
    for openers in [["salet"], [game.guesses[12]]] + two:
        tree = optimal_tree(game, openers=openers)
        assert tree.exact and tree.value == brute_after_openers(game, openers) == int(tree.guesses.sum())
        assert tree.roots[0].guess == game.guess_index(openers[0]) and tree.guesser.endswith(
            "openers=" + "+".join(openers)
        )
        # the agent with the same openers builds the same tree, and its games replay legally
        result = evaluate(game, make_guesser("optimal:openers=" + "+".join(openers)))
        assert result.total == tree.value
    rc, out, err = run(capsys, "optimal", spec, "--openers", "salet", "--json")
    assert rc == 0, err
    figures = json.loads(out)
    assert figures["total"] == figures["lower_bound"] == brute_after_openers(game, ["salet"]) and figures["exact"]
    assert figures["openers"] == ["salet"] and figures["guesser"] == "optimal:openers=salet"


def test_hard_mode_trees_are_legal_and_need_more_than_normal_play(capsys, tmp_path, guess_file):
    spec = f"wordle:first=10,guesses={guess_file},hard=true"
    saved = tmp_path / "hard.json"
    rc, out, err = run(capsys, "optimal", spec, "--save", str(saved), "--json")
    assert rc == 0, err
    hard = json.loads(out)["total"]
    rc, out, err = run(capsys, "evaluate", spec, f"tree:file={saved}", "--json")  # the referee checks hard mode
    assert rc == 0 and json.loads(out)["total"] == hard, err
    normal = optimal_tree(make_game(spec.replace(",hard=true", ""))).value
    assert hard >= normal


def test_time_limited_openers_keep_a_valid_tree_and_bound():
    game = make_game("wordle:first=400")
    opener = game.guesses[200]
    tree = optimal_tree(game, openers=[opener], time_limit=0.05)
    assert tree.stopped and tree.lower_bound <= tree.value == int(tree.guesses[tree.secrets].sum())
    assert np.all(tree.guesses[tree.secrets] >= 1) and tree.roots[0].guess == 200
    exact = optimal_tree(game, openers=[opener])
    assert exact.exact and tree.lower_bound <= exact.value <= tree.value


def test_openers_refusals():
    game = make_game("wordle:first=10")
    with pytest.raises(ArenaError, match="given twice"):
        optimal_tree(game, openers=["aback", "aback"])
    with pytest.raises(ArenaError, match="not a guess"):
        optimal_tree(game, openers=["zzzzz"])
    with pytest.raises(ArenaError, match="objective worst"):
        optimal_tree(game, openers=["aback"], objective="worst")


def test_the_shipped_trees_after_salet_replay_7920():
    """Proven by `arena optimal wordle --openers salet` (7,920, lower bound 7,920) and, over every
    first guess, by `arena optimal wordle --workers 2 --journal FILE` (the same tree, SALET
    first): shipped, so the agents replay them at once."""
    from agents.optimal import shipped_trees

    game = make_game("wordle")
    for spec in ("optimal:openers=salet", "optimal"):
        assert ("wordle", spec) in shipped_trees()
        result = evaluate(game, make_guesser(spec))
        assert (result.n, result.total, result.max) == (2315, 7920, 5)


def test_lookahead_refuses_every_guess_in_hard_mode(capsys):
    """The rollouts and repairs see a node's candidates, not the moves that restrict the guesses."""
    rc, _, err = run(capsys, "evaluate", "wordle:hard=true,first=30", "lookahead")
    assert rc == 2 and "hard mode" in err and "pool=consistent" in err and len(err.strip().splitlines()) == 1
    rc, out, err = run(capsys, "evaluate", "wordle:hard=true,first=30", "lookahead:pool=consistent,repair=20")
    assert rc == 0, err


# --- the root split (--workers) ---------------------------------------------------------------


@pytest.mark.parametrize("spec", ["mastermind:pegs=3,colors=5", "jotto:first=40", "wordle:first=60,guesses=wordle"])
def test_the_root_split_finds_the_optimum(capsys, tmp_path, spec):
    journal = tmp_path / "j.jsonl"
    rc, out, err = run(capsys, "optimal", spec, "--workers", "2", "--journal", str(journal), "--json")
    assert rc == 0, err
    split = json.loads(out)
    plain = optimal_tree(make_game(spec))
    assert split["total"] == split["lower_bound"] == plain.value and split["exact"]
    assert split["closed"] == split["first_guesses"] and split["guesser"] == "optimal"
    lines = journal.read_text().splitlines()
    pieces = [line for line in lines[1:] if "reply" in json.loads(line)]  # the others: first guesses closed by bound
    assert len(pieces) == split["searched_pieces"]  # after the key, a line per piece searched
    assert split["tasks"] >= (0 if spec.startswith("wordle") else 2)  # wordle's 60 close at once
    # resumed from the journal: nothing is searched again, the same optimum is proven
    rc, out, err = run(capsys, "optimal", spec, "--workers", "1", "--journal", str(journal), "--json")
    again = json.loads(out)
    assert rc == 0 and again["searched_pieces"] == 0 and again["total"] == again["lower_bound"] == plain.value
    assert journal.read_text().splitlines() == lines


def test_the_root_split_stopped_by_the_time_limit_keeps_a_proven_bound(monkeypatch):
    from arena.optimal.search import branch
    from arena.optimal.split import split_root

    # The Python search: the compiled one (tests/test_small_trees.py checks its source) would
    # be compiled here first, 30 s of a fresh clone's test run, for a test of the time limit.
    monkeypatch.setattr(branch, "COMPILED_CELLS", 1 << 62)
    game = make_game("wordle:first=300,guesses=wordle")
    result = split_root(game, workers=2, time_limit=1.5)
    exact = optimal_tree(game, openers=[game.guesses[result.best_guess]]).value if result.best_guess >= 0 else math.inf
    assert result.lower_bound <= result.value == exact
    assert result.stopped or result.exact


def test_the_root_split_refusals(capsys):
    for extra in (["--openers", "salet"], ["--start", "random"], ["--objective", "worst"], ["--workers", "0"]):
        argv = ["optimal", "wordle:first=20", "--workers", "2"] + extra
        rc, out, err = run(capsys, *argv)
        assert rc == 2 and len(err.strip().splitlines()) == 1, (extra, err)
    rc, _, err = run(capsys, "optimal", "hangman:length=3,first=20", "--workers", "2")
    assert rc == 2 and "hit the secret" in err


def test_the_root_split_on_a_dask_cluster(capsys, tmp_path):
    """--backend dask: the first guesses go to the cluster's workers (each builds the game from
    its spec), with the same optimum, proven, and the same journal to resume from."""
    distributed = pytest.importorskip("distributed")
    spec = "mastermind:pegs=3,colors=5"  # with --split-after 1, pieces split below the first guesses' classes
    journal = tmp_path / "j.jsonl"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        rc, out, err = run(
            capsys,
            "optimal",
            spec,
            "--workers",
            "2",
            "--backend",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
            "--journal",
            str(journal),
            "--split-after",
            "1",
            "--json",
        )
    assert rc == 0, err
    split = json.loads(out)
    assert split["total"] == split["lower_bound"] == optimal_tree(make_game(spec)).value and split["exact"]
    records = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    # a piece record for each piece closed, and one for each that split itself (its node's bound)
    assert sum("reply" in r for r in records) == split["searched_pieces"] + split["split_pieces"] >= 2
    assert split["split_pieces"] >= 1 and any("at" in r for r in records)  # tasks below the root, on the cluster
    for argv, words in [
        (("--backend", "dask"), "give --workers"),
        (("--workers", "2", "--backend", "dask"), "--scheduler"),
        (("--workers", "2", "--backend", "spark"), "local or dask"),
    ]:
        rc, _, err = run(capsys, "optimal", spec, *argv)
        assert rc == 2 and words in err and len(err.strip().splitlines()) == 1, (argv, err)
