"""The exact solver (arena.optimal) against an independent brute force, and its agents and command.

The brute force below shares nothing with the solver but the feedback table: it tries every
guess at every candidate set, memoised on the set, with no bounds, no symmetry and no closed
forms (only the sum-so-far cut-off, which cannot change a minimum).
"""

from __future__ import annotations

import json
import math
from functools import cache

import numpy as np
import pytest

from agents import make_guesser
from arena import ArenaError, make_game
from arena.cli.parser import main
from arena.optimal import optimal_tree
from arena.optimal.bounds import slot_depths, slot_table, sorted_weight_bound
from arena.optimal.lookahead import Rollout, improve_tree, proven_bound
from arena.optimal.problem import Pool
from arena.optimal.search import Search, stabilizer
from arena.optimal.solve import refine
from arena.play.evaluate import evaluate
from arena.trees.grow import grow_tree
from arena.trees.saved import load_tree


def brute_force(game, pool="all", weights=None, max_guesses=None) -> float:
    """min over trees of sum_s w_s * guesses(s), by exhaustive recursion (inf if no tree fits)."""
    table, hit = game.table.tolist(), game.hit
    n = len(game.secrets)
    w = [1.0] * n if weights is None else [float(x) for x in weights]
    naming = {int(game.same_secret[g]): g for g in range(len(game.guesses)) if game.same_secret[g] >= 0}

    @cache
    def cost(S: tuple, left: int) -> float:
        if len(S) == 1:
            return w[S[0]] if left >= 1 else math.inf
        if left <= 1:
            return math.inf
        best = math.inf
        guesses = range(len(game.guesses)) if pool == "all" else [naming[s] for s in S]
        for g in guesses:
            classes: dict[int, list[int]] = {}
            for s in S:
                classes.setdefault(table[g][s], []).append(s)
            if len(classes) == 1 and hit not in classes:
                continue  # learns nothing
            total = sum(w[s] for s in S)
            for reply, members in classes.items():
                if reply != hit:
                    total += cost(tuple(members), left - 1)
                if total >= best:
                    break
            best = min(best, total)
        return best

    return cost(tuple(range(n)), max_guesses or 64)


def brute_least_depth(game, pool="all") -> int:
    return next(k for k in range(1, 20) if brute_force(game, pool, max_guesses=k) < math.inf)


SMALL = [
    "mastermind:pegs=2,colors=3",
    "mastermind:pegs=2,colors=4",
    "mastermind:pegs=3,colors=3",
    "mastermind:pegs=2,colors=6",
    "mastermind:pegs=2,colors=6,repeats=false",
    "mastermind:pegs=3,colors=4,repeats=false",
    "jotto:first=12",
    "jotto:first=20",
    "jotto:first=30",
]


def check_tree(tree, weights=None):
    """The tree covers every secret once, replays to the same costs, and its value is its cost."""
    game = tree.game
    w = np.ones(len(game.secrets)) if weights is None else np.asarray(weights, dtype=float)
    assert np.all(tree.guesses[tree.secrets] >= 1)
    assert tree.value == pytest.approx(float(tree.guesses @ w))
    assert tree.lower_bound <= tree.value + 1e-9


@pytest.mark.parametrize("spec", SMALL)
@pytest.mark.parametrize("pool", ["all", "consistent"])
def test_optimum_matches_brute_force(spec, pool):
    game = make_game(spec)
    tree = optimal_tree(game, pool=pool)
    assert tree.value == brute_force(game, pool) and tree.exact
    check_tree(tree)


def test_pegs_3_colours_4_matches_brute_force():
    game = make_game("mastermind:pegs=3,colors=4")
    assert optimal_tree(game).value == brute_force(game) == 206


@pytest.mark.parametrize(
    "spec",
    [
        "mastermind:pegs=2,colors=4",
        "mastermind:pegs=3,colors=3",
        "mastermind:pegs=3,colors=4,repeats=false",
        "jotto:first=16",
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_weighted_optimum_matches_brute_force(spec, seed):
    game = make_game(spec)
    rng = np.random.default_rng(seed)
    w = rng.random(len(game.secrets))
    w[rng.random(len(w)) < 0.25] = 0.0  # a chooser's mix often leaves secrets out
    for pool in ("all", "consistent"):
        tree = optimal_tree(game, weights=w, pool=pool)
        assert tree.value == pytest.approx(brute_force(game, pool, w), rel=1e-12)
        check_tree(tree, w)
        assert np.all(tree.guesses >= 1)  # zero-weight secrets are still found


@pytest.mark.parametrize("spec", ["mastermind:pegs=2,colors=4", "mastermind:pegs=3,colors=3", "jotto:first=16"])
def test_depth_limits_and_worst_case_match_brute_force(spec):
    game = make_game(spec)
    w = np.random.default_rng(7).integers(1, 9, len(game.secrets)).astype(float)
    for pool in ("all", "consistent"):
        depth = brute_least_depth(game, pool)
        worst = optimal_tree(game, pool=pool, objective="worst")
        assert worst.guesses.max() == depth and worst.value == brute_force(game, pool, max_guesses=depth)
        for k in (depth, depth + 1):
            tree = optimal_tree(game, weights=w, pool=pool, max_guesses=k)
            assert tree.value == brute_force(game, pool, w, k) and tree.guesses.max() <= k
        with pytest.raises(ArenaError, match="within"):
            optimal_tree(game, pool=pool, max_guesses=depth - 1)


def test_a_subset_of_secrets_with_equal_weights():
    game = make_game("mastermind:pegs=2,colors=6")
    subset = np.arange(0, 36, 2)
    tree = optimal_tree(game, secrets=subset)
    w = np.zeros(36)
    w[subset] = 1.0
    # the brute force over all secrets with weight 0 outside the subset has the same optimum
    assert tree.value == brute_force(game, "all", w) and set(tree.secrets) == set(subset)
    assert np.all(tree.guesses[np.setdiff1d(np.arange(36), subset)] == 0)


def test_mastermind_4x6_figures(mastermind):
    """Koyama & Lai's 5,625 (worst 6) and 5,626 within five guesses; the consistent optimum."""
    best = optimal_tree(mastermind)
    assert (best.value, best.guesses.max(), best.exact) == (5625, 6, True)
    assert mastermind.guesses[best.root.guess] == "1123"
    five = optimal_tree(mastermind, max_guesses=5)
    assert (five.value, five.guesses.max()) == (5626, 5)
    consistent = optimal_tree(mastermind, pool="consistent")
    assert (consistent.value, consistent.guesses.max()) == (5660, 6)
    assert all(node.guess in node.candidates for node in consistent.nodes())  # every guess may be the secret


def test_the_shipped_trees_load_and_the_mastermind_one_is_recomputed(mastermind):
    from agents.optimal import TREES, shipped_trees

    assert shipped_trees(), "no shipped trees"
    for path in TREES.glob("*.json"):
        data = json.loads(path.read_text())
        tree = load_tree(path)
        assert int(tree.guesses.sum()) == data["total"] and int(tree.guesses.max()) == data["worst"]
    shipped = load_tree(shipped_trees()[("mastermind", "optimal")])
    assert int(shipped.guesses.sum()) == 5625  # the solver, run above from scratch, says so too
    result = evaluate(mastermind, make_guesser("optimal"))
    assert (result.total, result.max) == (5625, 6) and result.seconds < 2


def test_time_limit_returns_a_valid_tree_and_a_lower_bound():
    game = make_game("jotto:first=400")
    tree = optimal_tree(game, time_limit=0.5)
    check_tree(tree)
    assert not tree.exact and 0 < tree.lower_bound < tree.value
    assert tree.value <= grow_tree(game, make_guesser("entropy")).guesses.sum()  # at worst the best greedy tree


def test_bounds_never_exceed_the_optimum():
    game = make_game("mastermind:pegs=2,colors=6")
    rng = np.random.default_rng(3)
    table = slot_table(36, 8)
    assert list(table[:5]) == [0, 1, 3, 5, 7]
    for _ in range(20):
        subset = np.sort(rng.choice(36, size=int(rng.integers(3, 20)), replace=False))
        value = optimal_tree(game, secrets=subset).value
        w = np.zeros(36)
        w[subset] = 1
        assert table[len(subset)] <= value
        assert sorted_weight_bound(np.ones(len(subset)), slot_depths(36, 8)) == table[len(subset)]
        search = Search(game, np.ones(36))
        assert proven_bound(search, subset, 2) <= proven_bound(search, subset, 3) <= value


class _Ticks:
    """A clock that moves one tick each time it is read: a deadline in refinements."""

    def __init__(self) -> None:
        self.now = 0

    def perf_counter(self) -> int:
        self.now += 1
        return self.now


def test_a_stopped_level_bound_is_never_below_the_level_it_completed(monkeypatch):
    """LB_3 deepens from LB_2: stopped once LB_2's refinements are done, it is LB_2 (refining
    straight to LB_3, it had spent them on a few guesses and stood below); given every tick
    after, it rises to LB_3 and never falls on the way (Jotto's first 120 words)."""
    import arena.optimal.lookahead as lookahead

    game = make_game("jotto:first=120")
    search = Search(game, np.ones(120))
    S = np.arange(120)
    two, three = proven_bound(search, S, 2), proven_bound(search, S, 3)
    assert two < three
    clock = _Ticks()
    monkeypatch.setattr(lookahead, "time", clock)
    proven_bound(search, S, 2, deadline=10**9)
    refinements = clock.now  # LB_2's loop reads the clock once a refinement
    stopped = []
    for ticks in range(refinements, refinements + 400, 40):
        clock.now = 0
        stopped.append(proven_bound(search, S, 3, deadline=ticks))
    assert stopped[0] == two and stopped == sorted(stopped) and stopped[-1] <= three


def subset_optimum(game, S) -> float:
    """min over trees of the guesses that find every secret of S (equal weights): the brute
    force's recursion, on a subset."""
    table, hit = game.table.tolist(), game.hit

    @cache
    def cost(S: tuple) -> float:
        if len(S) == 1:
            return 1.0
        best = math.inf
        for g in range(len(game.guesses)):
            classes: dict[int, list[int]] = {}
            for s in S:
                classes.setdefault(table[g][s], []).append(s)
            if len(classes) == 1 and hit not in classes:
                continue
            total = float(len(S))
            for reply, members in classes.items():
                if reply != hit:
                    total += cost(tuple(members))
                if total >= best:
                    break
            best = min(best, total)
        return best

    return cost(tuple(int(s) for s in S))


@pytest.mark.parametrize("spec", ["mastermind:pegs=2,colors=6", "mastermind:pegs=3,colors=4"])
def test_small_sets_closures_and_candidates_bound_match_the_brute_force(spec):
    """close_small on random sets of 3 to 30 secrets, told the true most classes of any guess
    (so that sets beyond b + 1 read the slot table): a closed value is the optimum, a bound
    never exceeds it (bounds.py, "The candidates' bound")."""
    game = make_game(spec)
    search = Search(game, np.ones(len(game.secrets)))
    rng = np.random.default_rng(5)
    closed = bounded = beyond = 0
    for _ in range(30):
        S = np.sort(rng.choice(len(game.secrets), size=int(rng.integers(3, 31)), replace=False))
        counts = game.partition_counts(None, S).copy()
        counts[:, game.hit] = 0
        parts = int(np.count_nonzero(counts, axis=1)[counts.max(axis=1) < len(S)].max())
        optimum = subset_optimum(game, S)
        value, guess = search.close_small(S, 64, parts)
        if guess >= 0:
            closed += 1
            assert value == optimum
        else:
            bounded += 1
            beyond += len(S) > parts + 1
            assert value <= optimum
    assert closed and bounded and beyond


def test_symmetry_finds_the_five_first_guesses(mastermind):
    sym = stabilizer(mastermind)
    assert [mastermind.guesses[g] for g in sym.representatives(mastermind.all_guesses)] == [
        "1111",
        "1112",
        "1122",
        "1123",
        "1234",
    ]
    weighted = stabilizer(mastermind, np.ones(1296))  # listed element by element: the same orbits
    assert np.array_equal(weighted.mask(), sym.mask())
    after = sym.after(mastermind.guess_index("1122"))
    assert len(after.representatives(mastermind.all_guesses)) == 39
    lopsided = np.ones(1296)
    lopsided[mastermind.guess_index("1111")] = 2  # colour 1 is now special
    reps = stabilizer(mastermind, lopsided).representatives(mastermind.all_guesses)
    assert {"1111", "2222"} <= {mastermind.guesses[g] for g in reps}


@pytest.mark.parametrize("spec", ["mastermind:pegs=3,colors=3", "mastermind:pegs=2,colors=6"])
def test_symmetric_weights_use_the_symmetry_and_agree_with_the_brute_force(spec):
    game = make_game(spec)
    w = np.where(game.codes_array.min(axis=1) == game.codes_array.max(axis=1), 0.0, 1.0)  # no monochrome code
    assert stabilizer(game, w) is not None  # Wiener's chooser is symmetric: the solver uses it
    assert optimal_tree(game, weights=w).value == brute_force(game, "all", w)


def test_lookahead_improves_on_its_greedy_tree_and_repair_on_it():
    game = make_game("jotto:first=300")
    greedy = grow_tree(game, make_guesser("entropy")).guesses.sum()
    rollout = Rollout(game, "entropy", width=3, exact=12)
    tree = rollout.tree()
    assert tree.guesses.sum() <= greedy
    repaired, _ = improve_tree(tree, 40, search=rollout.search)
    assert repaired.guesses.sum() <= tree.guesses.sum()
    assert evaluate(game, make_guesser("lookahead:width=3,exact=12")).total == tree.guesses.sum()
    better = refine(game, repaired, time_limit=0.5)
    assert better.value <= repaired.guesses.sum() and better.lower_bound <= better.value


def test_the_pool_is_a_pool_or_its_name_and_a_bad_one_is_one_line():
    """refine and the rollouts take Pool.CONSISTENT or "consistent" alike; anything else is
    the one-line error that names the valid pools."""
    game = make_game("mastermind:pegs=2,colors=3")
    tree = grow_tree(game, make_guesser("entropy"))
    by_name, by_member = refine(game, tree, pool="consistent"), refine(game, tree, pool=Pool.CONSISTENT)
    assert (by_name.value, by_name.lower_bound, by_name.guesser) == (
        by_member.value,
        by_member.lower_bound,
        by_member.guesser,
    )
    assert (
        Rollout(game, pool="consistent").tree().guesses.tolist()
        == Rollout(game, pool=Pool.CONSISTENT).tree().guesses.tolist()
    )
    for bad in ("some", None, 3):
        with pytest.raises(ArenaError, match=r"^pool must be one of all, consistent, got "):
            refine(game, tree, pool=bad)
        with pytest.raises(ArenaError, match=r"^pool must be one of all, consistent, got "):
            Rollout(game, pool=bad)


def test_the_optimal_agent_off_its_tree_and_its_errors(mastermind):
    opened = evaluate(mastermind, make_guesser("optimal:openers=1122,pool=consistent"))
    assert opened.total == 5752  # the best consistent play after 1122
    small = make_game("mastermind:pegs=2,colors=4")
    assert evaluate(small, make_guesser("optimal:max=4")).total == brute_force(small, max_guesses=4)
    for spec, words in [
        ("optimal:pool=some", "all, consistent"),
        ("optimal:objective=best", "average, worst"),
        ("optimal:max=-1", "max"),
        ("lookahead:metric=luck", "entropy"),
        ("lookahead:width=0", "width"),
    ]:
        with pytest.raises(ArenaError, match=words):
            evaluate(small, make_guesser(spec))
    for kwargs, words in [
        ({"pool": "some"}, "all, consistent"),
        ({"objective": "best"}, "average, worst"),
        ({"max_guesses": 0}, "positive"),
        ({"weights": [1, 2]}, "expected 16"),
        ({"weights": -np.ones(16)}, "non-negative"),
        ({"secrets": [0, 99]}, "not an index of the 16 secrets"),
    ]:
        with pytest.raises(ArenaError, match=words):
            optimal_tree(small, **kwargs)
    with pytest.raises(ArenaError, match="does not fit"):  # Jotto has no misses cost
        optimal_tree(small, cost="misses")
    with pytest.raises(ArenaError, match="no worst-case"):
        optimal_tree(make_game("hangman:length=3,first=20"), cost="lost", objective="worst")


def test_weights_file(tmp_path):
    game = make_game("mastermind:pegs=2,colors=4")
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"11": 3, "12": 1, "34": 2}))
    w = np.zeros(16)
    w[[game.guesses.index(c) for c in ("11", "12", "34")]] = [3, 1, 2]
    ours = evaluate(game, make_guesser(f"optimal:weights={path}"))
    assert float(ours.guesses[0] @ w) == brute_force(game, "all", w)
    path.write_text(json.dumps({"99": 1}))
    with pytest.raises(ArenaError, match="not a secret"):
        evaluate(game, make_guesser(f"optimal:weights={path}"))


def test_the_command(capsys, tmp_path):
    assert main(["optimal", "mastermind:pegs=3,colors=4", "--depth", "1", "--save", str(tmp_path / "t.json")]) == 0
    out = capsys.readouterr().out
    assert "total 206" in out and "proven optimal" in out
    assert json.loads((tmp_path / "t.json").read_text())["exact"] is True
    assert main(["optimal", "jotto:first=200", "--start", "entropy", "--time-limit", "0.3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lower_bound"] <= data["value"] <= data["total"]
    assert main(["optimal", "mastermind:pegs=2,colors=4", "--objective", "longest"]) == 2
    assert "average, worst" in capsys.readouterr().err


def test_the_optimal_table_stops_at_two_guesses_unless_asked(capsys):
    from cli_run import run

    rc, out, _ = run(capsys, "optimal", "mastermind:pegs=3,colors=4")
    assert rc == 0
    lines = out.splitlines()
    assert lines[-1].startswith("... ") and "--full for all" in lines[-1]
    left = int(lines[-1].split()[1])
    rc, full, _ = run(capsys, "optimal", "mastermind:pegs=3,colors=4", "--full")
    table = lambda text: [line for line in text.splitlines() if line.startswith("|") or line.startswith(" ")]
    assert "--full for all" not in full and len(table(full)) == len(table(out)) + left
    assert all(row.count("|") < 2 for row in table(out))  # fewer than two guesses deep: one reply at most


@pytest.mark.parametrize(
    "settings",
    [
        ("all", "average", None, None, ()),
        ("consistent", "worst", 5, "lost", ("ab", "cd")),
        ("all", "average", 0, "guesses", ("1122",)),
    ],
)
def test_agent_spec_names_the_agent_with_its_own_parameters(settings):
    """The solver names the `optimal` agent with the parameters the agent declares (one place,
    arena.optimal.params): the spec builds that agent, which writes it back the same."""
    from arena.optimal.params import agent_spec

    spec = agent_spec(*settings)
    assert make_guesser(spec).label == spec


@pytest.mark.parametrize("workers", [0, 1, 2, 8])
def test_the_seed_trees_grown_side_by_side_are_the_trees_grown_one_by_one(workers, monkeypatch):
    """greedy_trees in forked workers (the split's seed: the first tree here, the others in
    `workers` forked processes; 0: all here) returns each metric's tree, in the metrics' order, each with
    its game, and runs the caller's work once; seed_tree picks the same tree."""
    from arena.core.costs import Guesses
    from arena.optimal import seeds
    from arena.optimal.seeds import best_seed, greedy_trees
    from arena.optimal.solve import SEED_METRICS, seed_tree

    monkeypatch.setattr(seeds, "FORK_AFTER", 0.0)  # forked however quick the first tree
    game = make_game("mastermind:pegs=3,colors=5")
    S, calls = game.all_secrets, []
    alone = greedy_trees(game, S, "all", SEED_METRICS)
    shared = greedy_trees(game, S, "all", SEED_METRICS, workers=workers, meanwhile=lambda: calls.append(1))
    assert calls == [1] and len(shared) == len(SEED_METRICS)
    assert all(tree.game is game for tree in shared)  # sent back without it, given it again here
    for one, other in zip(alone, shared):
        assert np.array_equal(Guesses().of(one), Guesses().of(other))
        assert one.guesser == other.guesser
    w = np.ones(len(S))
    assert (
        Guesses().of(best_seed(shared, S, w, None)).tolist()
        == Guesses().of(seed_tree(game, S, w, "all", None)).tolist()
    )


@pytest.mark.parametrize("spec", ["mastermind:pegs=3,colors=4", "mastermind:colors=4", "jotto:first=30"])
def test_a_guess_limit_no_tree_keeps_is_refused_before_the_search_and_agrees_with_it(spec, monkeypatch):
    """within_limit proves by `fits` that no tree keeps within one guess fewer than the worst
    case, for optimal_tree and the split alike; with the check given no time the search itself
    reaches the same verdict, and at the worst case both find a tree within it."""
    from arena.optimal import solve, split
    from arena.optimal.split import split_root

    game = make_game(spec)
    worst = int(optimal_tree(game, objective="worst").costs.max())
    message = f"no tree finds every secret within {worst - 1} guesses"

    def never(*args, **kwargs):
        raise AssertionError("searched, not refused before")

    with monkeypatch.context() as m:
        m.setattr(solve, "search_below", never)
        m.setattr(split, "greedy_trees", never)
        for run in (
            lambda: optimal_tree(game, max_guesses=worst - 1),
            lambda: split_root(game, workers=1, max_guesses=worst - 1),
        ):
            with pytest.raises(ArenaError, match=message):
                run()
    monkeypatch.setattr(solve, "LIMIT_CHECK_SECONDS", 0.0)  # the check stops at once: the search decides
    with pytest.raises(ArenaError, match=message):
        optimal_tree(game, max_guesses=worst - 1)
    assert optimal_tree(game, max_guesses=worst).costs.max() <= worst


def test_a_node_s_ranked_bounds_are_each_guess_s_classes_sorted():
    """ranked_bounds, every guess's classes with their weights heaviest first in their slots in
    one pass, equals w(S) + the sum of sorted_weight_bound over the guess's non-hit classes, and
    is at least the bound that knows only each class's mass and the set's lightest and heaviest
    weights, sum_d max(0, X - w_max slots(d), w_min (n - slots(d)))."""
    from arena.optimal.bounds import ranked_bounds, slot_capacity

    def mass_bound(x, c, w_max, w_min, b):
        total, depth = 0.0, 0
        while True:
            slots = slot_capacity(b, depth)
            total += max(x - w_max * slots, w_min * (c - slots), 0.0)
            if slots >= c:
                return total
            depth += 1

    rng = np.random.default_rng(7)
    for _ in range(200):
        m, n, codes = int(rng.integers(1, 12)), int(rng.integers(1, 60)), int(rng.integers(2, 9))
        replies = rng.integers(0, codes, size=(m, n))
        w = np.sort(rng.uniform(0.01, 2.0, n) ** int(rng.integers(1, 4)))[::-1]
        hit = int(rng.integers(-1, codes))
        b = max(1, max(len(set(row) - {hit}) for row in replies.tolist()))
        depths = slot_depths(n, b)
        got = ranked_bounds(replies, w, depths, hit)
        for i in range(m):
            classes = [w[replies[i] == r] for r in range(codes) if r != hit and (replies[i] == r).any()]
            expected = w.sum() + sum(sorted_weight_bound(c, depths) for c in classes)
            assert got[i] == pytest.approx(expected, rel=1e-12)
            weaker = w.sum() + sum(mass_bound(c.sum(), len(c), w.max(), w.min(), b) for c in classes)
            assert got[i] >= weaker - 1e-9
