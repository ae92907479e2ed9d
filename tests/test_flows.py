"""The guesser that randomises at every state (arena.equilibrium.flows): its LP, what each secret
pays it, the trees drawn from it, and the double oracles that take its trees as columns."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from arena import make_game
from arena.core.costs import cost_for
from arena.core.errors import ArenaError
from arena.equilibrium import double_oracle, flows, growing, letters
from arena.equilibrium.matrix import solve_matrix_game
from arena.trees.greedy import greedy_tree

MASTERMIND = "mastermind:pegs=3,colors=3"
HANGMAN = "hangman:length=4,first=20"
LOST = "hangman:length=4,first=20,strikes=3"


def _trees(spec: str):
    """A few different trees of the game: greedy ones of several metrics, or Hangman's
    completion rule under several tie-breaking ranks."""
    game = make_game(spec)
    if game.rules.hits:
        return game, [greedy_tree(game, m) for m in ("minimax", "expected", "entropy", "most-parts")]
    return game, [letters.greedy_tree(game, rank) for rank in letters.ranks(6)]


def _behaviour_costs(graph: flows.StateGraph, found: flows.Flows) -> np.ndarray:
    """Each secret's expected cost under the strategy that guesses g at state F with probability
    y(F, g) / x(F), walked secret by secret (not through the LP's rows)."""
    game, cost, out = graph.game, graph.cost, graph.out
    strikes = getattr(cost, "strikes", None)
    total = np.zeros(len(game.secrets))
    for s in range(len(game.secrets)):
        for root in graph.roots:
            if s not in graph.sets[root]:
                continue
            walk = [(root, 1.0, 0, 0)]  # state, probability, guesses, misses
            while walk:
                state, p, guesses, missed = walk.pop()
                edges = out[state]
                share = found.flow[edges] / found.flow[edges].sum()
                for e, q in zip(edges, share):
                    if q <= 0:
                        continue
                    g = graph.edges[e][1]
                    reply = int(game.table[g, s])
                    now, miss = guesses + 1, missed + int(game.is_miss(reply))
                    F = graph.sets[state]
                    part = F[game.table[g, F] == reply]
                    if game.finished(reply) or game.determined(part) or (game.rules.hits and len(part) == 1):
                        done = now + (1 if game.rules.hits and not game.finished(reply) else 0)
                        total[s] += p * q * float(cost.of_rows(np.array([done]), np.array([miss]))[0])
                        continue
                    key = (part.tobytes(), min(miss, strikes) if type(cost).__name__ == "Lost" else 0)
                    walk.append((graph.index[key], p * q, now, miss))
    return total


@pytest.mark.parametrize(("spec", "payoff"), [(MASTERMIND, "guesses"), (HANGMAN, "misses"), (LOST, "lost")])
def test_one_tree_is_its_own_flow(spec, payoff):
    """A graph of one tree has one guess a state: every secret pays what the tree costs it."""
    game, trees = _trees(spec)
    cost = cost_for(game, payoff)
    for tree in trees[:2]:
        graph = flows.state_graph(game, cost, [tree])
        found = flows.solve_flows(graph)
        paid = np.asarray(cost.of(tree), dtype=np.float64)
        assert flows.paid_by_flows(graph, found) == pytest.approx(paid, abs=1e-7)
        assert found.value == pytest.approx(paid.max(), abs=1e-7)


@pytest.mark.parametrize(("spec", "payoff"), [(MASTERMIND, "guesses"), (HANGMAN, "misses"), (LOST, "lost")])
def test_flows_lie_between_the_value_and_the_trees_mix(spec, payoff):
    """The flows' guesser concedes at most what the best mix of the same trees concedes, at least
    the game's exact value, and what its LP rows say: each secret's cost walked on its own."""
    game, trees = _trees(spec)
    cost = cost_for(game, payoff)
    graph = flows.state_graph(game, cost, trees)
    found = flows.solve_flows(graph)
    mix = solve_matrix_game(np.array([cost.of(t) for t in trees], dtype=np.float64).T)
    value = double_oracle(game, cost=payoff).exact.value
    assert float(value) - 1e-7 <= found.value <= mix.value + 1e-7
    walked = _behaviour_costs(graph, found)
    assert walked == pytest.approx(flows.paid_by_flows(graph, found), abs=1e-7)
    assert walked.max() == pytest.approx(found.value, abs=1e-6)
    assert found.chooser.sum() == pytest.approx(1.0) and (found.chooser >= 0).all()


def test_flows_mix_where_the_trees_cannot():
    """Eight trees of the completion rule on 30 five-letter words: their best mix concedes 7/3
    misses, the flows on their states 2 (the trees rotate every family's letters together; the
    flows rotate each family on its own), and trees drawn from the flows bring the mix there."""
    game = make_game("hangman:length=5,first=30")
    trees = [letters.greedy_tree(game, rank) for rank in letters.ranks(8)]
    cost = cost_for(game, "misses")
    costs = [np.asarray(cost.of(t), dtype=np.float64) for t in trees]
    graph = flows.state_graph(game, cost, trees)
    found = flows.solve_flows(graph)
    assert solve_matrix_game(np.array(costs).T).value == pytest.approx(7 / 3, abs=1e-7)
    assert found.value == pytest.approx(2.0, abs=1e-7)
    drawn = [np.asarray(cost.of(t), dtype=np.float64) for t in flows.drawn_trees(graph, found, 64)]
    assert solve_matrix_game(np.array(costs + drawn).T).value == pytest.approx(2.0, abs=1e-7)


@pytest.mark.parametrize(("spec", "payoff"), [(MASTERMIND, "guesses"), (HANGMAN, "misses"), (LOST, "lost")])
def test_the_closure_adds_moves_between_states_the_trees_meet(spec, payoff):
    """Every guess tried at every state (`closure`): the edges kept lead only to states of the
    graph (or end), none leaves its state whole, the flows over them concede no more than
    without them and no less than the value, and each secret's cost walked on its own is still
    its LP row; trees drawn from them are trees of the game."""
    game, trees = _trees(spec)
    cost = cost_for(game, payoff)
    plain = flows.state_graph(game, cost, trees)
    graph = flows.state_graph(game, cost, trees, closure=range(game.table.shape[0]))
    assert set(plain.edges) < set(graph.edges) and len(graph.sets) == len(plain.sets)
    for s, g in set(graph.edges) - set(plain.edges):
        replies = game.table[g, graph.sets[s]]
        assert not (replies == replies[0]).all()
    found = flows.solve_flows(graph)
    value = double_oracle(game, cost=payoff).exact.value
    assert float(value) - 1e-7 <= found.value <= flows.solve_flows(plain).value + 1e-7
    assert _behaviour_costs(graph, found) == pytest.approx(flows.paid_by_flows(graph, found), abs=1e-7)
    drawn = flows.drawn_trees(graph, found, 50, seed=1)
    assert all(len(t.secrets) == len(game.secrets) for t in drawn)


def test_the_closure_mixes_where_the_trees_could_not():
    """On 30 five-letter words, the flows on four completion trees' states concede more than
    the game's value (2 misses); with every letter tried at every state they reach it."""
    game = make_game("hangman:length=5,first=30")
    trees = [letters.greedy_tree(game, rank) for rank in letters.ranks(4)]
    cost = cost_for(game, "misses")
    plain = flows.solve_flows(flows.state_graph(game, cost, trees)).value
    closed = flows.solve_flows(flows.state_graph(game, cost, trees, closure=range(26))).value
    assert closed < plain - 0.1 and closed == pytest.approx(2.0, abs=1e-7)


@pytest.mark.parametrize(("spec", "payoff"), [(MASTERMIND, "guesses"), (HANGMAN, "misses"), (LOST, "lost")])
def test_drawn_trees_follow_the_flows(spec, payoff):
    """Trees drawn from the flows play only the graph's guesses, cover every secret, come out the
    same for the same seed, and their plain mean is close to what the flows' secrets pay."""
    game, trees = _trees(spec)
    cost = cost_for(game, payoff)
    graph = flows.state_graph(game, cost, trees)
    found = flows.solve_flows(graph)
    drawn = flows.drawn_trees(graph, found, 400, seed=3)
    played = {(graph.index.get((np.sort(n.candidates).tobytes(), 0)), n.guess) for t in drawn for n in t.nodes()}
    edges = set(graph.edges)
    if payoff != "lost":  # lost games' states also count misses
        assert all(p in edges for p in played if p[0] is not None)
    costs = np.array([cost.of(t) for t in drawn], dtype=np.float64)
    assert all(len(t.secrets) == len(game.secrets) for t in drawn)
    assert np.abs(costs.mean(axis=0) - flows.paid_by_flows(graph, found)).max() < 0.15
    again = flows.drawn_trees(graph, found, 400, seed=3)
    assert [cost.of(t).tolist() for t in again[:20]] == costs[:20].tolist()


def test_the_flows_refuse_what_they_do_not_know():
    """Guesses on Hangman are not a cost the flows know (a letter paid by every word): one line."""
    game = make_game(HANGMAN)
    with pytest.raises(ArenaError, match="the flows know"):
        flows.state_graph(game, cost_for(game, "guesses"), [letters.greedy_tree(game)])


def test_hard_mode_is_not_for_the_flows():
    """In hard mode the guesses allowed depend on the moves, not only on the candidates: the
    flows stand aside (the double oracle runs without them) and refuse a graph in one line."""
    game = make_game("wordle:hard=true,first=30")
    assert not flows.fits(game, cost_for(game, "guesses"))
    with pytest.raises(ArenaError, match="not in hard mode"):
        flows.state_graph(game, cost_for(game, "guesses"), [])


def test_flow_steps_are_spaced_out():
    """A step waits for NEW_TREES more trees and for its share of the time, and not when the
    last step would not fit in what is left."""
    steps = flows.FlowSteps()
    assert steps.due(0, 0.0, None)
    steps.after = 10
    steps.spent, steps.last = 5.0, 5.0
    assert not steps.due(10 + flows.NEW_TREES - 1, 100.0, None)
    assert steps.due(10 + flows.NEW_TREES, 100.0, None)
    assert not steps.due(10 + flows.NEW_TREES, 100.0, 9.0)
    assert not steps.due(10 + flows.NEW_TREES, 10.0, 1000.0)  # past its share of the time
    assert steps.due(10 + flows.NEW_TREES, 10.0, None)  # no time limit: no clock
    # a first step too big for the time left (cells at CELLS_A_SECOND), or for the memory
    fresh = flows.FlowSteps()
    assert fresh.due(0, 0.0, 100.0, cells=flows.CELLS_A_SECOND * 40)
    assert not fresh.due(0, 0.0, 100.0, cells=flows.CELLS_A_SECOND * 60)
    assert not fresh.due(0, 0.0, None, cells=flows.MAX_CELLS + 1)


def test_the_double_oracle_with_flows_keeps_the_exact_value(monkeypatch):
    """The flows' trees as columns, a step every round: the same exact value on Mastermind 3x3
    and on 20 Hangman words (the growing rows forced), and the flows did step."""
    monkeypatch.setattr(flows, "NEW_TREES", 1)
    monkeypatch.setattr(flows, "SHARE", 10.0)
    monkeypatch.setattr(flows, "DRAWN", 16)
    plain = double_oracle(make_game(MASTERMIND), extra=("greedy",))
    with_flows = double_oracle(make_game(MASTERMIND), extra=("greedy", "flows"))
    assert with_flows.exact.value == plain.exact.value
    monkeypatch.setattr(letters, "UNIFORM_WORDS", 5)
    monkeypatch.setattr(growing, "FIRST_ROWS", 6)
    eq = double_oracle(make_game(HANGMAN), time_limit=120, extra=("flows",))
    assert "growing rows" in eq.method
    assert eq.lower - 1e-9 <= 365 / 178 <= eq.upper + 1e-9
    assert eq.upper - eq.lower < 1e-6
    assert any(note.startswith("flows (arena.equilibrium.flows): ") for note in eq.notes)
    assert any(note.startswith("flows (arena.equilibrium.flows): ") for note in with_flows.notes)


def test_the_experiment_prints_the_three_values(tmp_path, capsys):
    """experiments/flows.py on a state a double oracle wrote: the trees' mix, the flows and the
    mix with drawn trees, each on its line, the flows at most the mix."""
    import importlib.util
    from pathlib import Path

    state = tmp_path / "state.json.gz"
    double_oracle(make_game("mastermind:pegs=2,colors=4"), state=state, extra=("greedy",))
    spec = importlib.util.spec_from_file_location(
        "flows_experiment", Path(__file__).parents[1] / "experiments" / "flows.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["mastermind:pegs=2,colors=4", str(state), "--drawn", "8"]) == 0
    out = capsys.readouterr().out
    values = [float(line.split(": ")[1].split()[0]) for line in out.splitlines()[1:]]
    assert len(values) == 3 and values[1] <= values[0] + 1e-9 and values[2] <= values[0] + 1e-9
    assert module.main(["mastermind:pegs=2,colors=4", str(tmp_path / "none.json.gz")]) == 2
    # the duals' mix: no tree held concedes less to it than the flows (their LP's value), and the
    # best response, exact on so small a game, concedes what it proves
    assert module.main(["mastermind:pegs=2,colors=4", str(state), "--drawn", "8", "--duals", "30"]) == 0
    out = capsys.readouterr().out.splitlines()
    held = float(out[-2].split("concedes ")[1])
    assert held >= values[1] - 1e-6 and "(exact" in out[-1]
    tree_cost = float(out[-1].split("conceding ")[1].split(",")[0])
    bound = float(out[-1].split("none below ")[1].split()[0])
    assert abs(tree_cost - bound) < 1e-9 and tree_cost <= held + 1e-9


def test_a_state_file_keeps_the_drawn_trees_its_mix_plays_only(tmp_path, monkeypatch):
    """Of the trees drawn from the flows, --state keeps those the guesser's mix plays (a
    resumed run starts from its upper end and draws the rest again), and the run resumed from
    it reaches the same exact value."""
    import gzip
    import json

    monkeypatch.setattr(flows, "NEW_TREES", 1)
    monkeypatch.setattr(flows, "SHARE", 10.0)
    monkeypatch.setattr(flows, "DRAWN", 16)
    state = tmp_path / "state.json.gz"
    game = make_game(MASTERMIND)
    first = double_oracle(game, state=state, extra=("greedy", "flows"))
    saved = json.loads(gzip.open(state).read())["trees"]
    drawn = [t for t in saved if t["guesser"] == flows.DRAWN_NAME]
    assert len(saved) > len(drawn) == sum(t.guesser == flows.DRAWN_NAME for t in first.trees)
    assert double_oracle(game, state=state, extra=("greedy", "flows")).exact.value == first.exact.value


def test_the_tree_aimed_at_a_mix_plays_the_heavy_words_first():
    """letters.mass_tree: every word played to the end, and a word that holds almost all the
    weight pays no miss (its letters hold the most weight at every set it is in)."""
    game = make_game("hangman:length=5,first=30")
    cost = cost_for(game, "misses")
    for heavy in (0, 7, 29):
        w = np.full(len(game.secrets), 1e-3)
        w[heavy] = 1.0
        tree = letters.mass_tree(game, w / w.sum())
        assert len(tree.secrets) == len(game.secrets) and tree.guesser == "mass-letters"
        assert cost.of(tree)[heavy] == 0


def test_a_resumed_growing_run_draws_again_first(tmp_path, monkeypatch):
    """Hangman's growing rows resumed from a state (which keeps no drawn tree): a flows step
    comes before the first round, so its upper end is back at once; the bounds still hold the
    exact value."""
    monkeypatch.setattr(letters, "UNIFORM_WORDS", 5)
    monkeypatch.setattr(growing, "FIRST_ROWS", 6)
    monkeypatch.setattr(flows, "DRAWN", 16)
    state = tmp_path / "state.json.gz"
    game = make_game(HANGMAN)
    double_oracle(game, time_limit=120, state=state, extra=("flows",))
    again = double_oracle(game, time_limit=120, state=state, extra=("flows",))
    assert any(note.startswith("flows (arena.equilibrium.flows): ") for note in again.notes)
    assert again.lower - 1e-9 <= 365 / 178 <= again.upper + 1e-9


def test_the_time_limit_reaches_into_the_lp(monkeypatch, tmp_path):
    """HiGHS is given what is left of a run's time (its own clock: small LPs are solved in
    presolve before it looks, so its answer at the limit is stood in for here; it runs in a
    child, which writes down what it was asked): past it the LP raises FlowsStopped, and a step
    then draws nothing (its seconds still counted)."""
    from types import SimpleNamespace

    game, trees = _trees(HANGMAN)
    cost = cost_for(game, "misses")
    asked = tmp_path / "asked"

    def at_the_limit(*args, options, **kwargs):
        with open(asked, "a") as f:
            f.write(f"{options['time_limit']}\n")
        return SimpleNamespace(status=1, message="Time limit reached.")

    with monkeypatch.context() as m:
        m.setattr(flows, "linprog", at_the_limit)
        with pytest.raises(flows.FlowsStopped):
            flows.solve_flows(flows.state_graph(game, cost, trees), time_limit=5.0)
        steps = flows.FlowSteps()
        assert steps.step(game, cost, trees, seed=0, left=7.0) == [] and not steps.values and steps.spent > 0
    first, second = (float(x) for x in asked.read_text().split())
    assert first == 5.0 and 0 < second <= 7.0
    assert len(steps.step(game, cost, trees, seed=0, left=60.0)) == flows.DRAWN and len(steps.values) == 1


def _hangs(*args, **kwargs):
    time.sleep(60)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the LP runs in a forked child only where the system forks")
def test_an_lp_past_its_deadline_is_stopped_and_ctrl_c_ends_it_at_once(monkeypatch):
    """No signal reaches into HiGHS' call, so the LP runs in a child: one that overruns its time
    limit (and the slack past it) is killed and the step is FlowsStopped; Ctrl-C during the LP
    reaches the caller within a second, and the child is gone; so does a stop asked by a first
    Ctrl-C under a time limit (FlowsStopped)."""
    game, trees = _trees(HANGMAN)
    graph = flows.state_graph(game, cost_for(game, "misses"), trees)
    monkeypatch.setattr(flows, "linprog", _hangs)
    monkeypatch.setattr(flows, "CHILD_SLACK", 0.5)
    begun = time.perf_counter()
    with pytest.raises(flows.FlowsStopped):
        flows.solve_flows(graph, time_limit=0.5)
    assert time.perf_counter() - begun < 10
    children = set(_children())
    # Ctrl-C's own handler, as an interactive run has it (pytest-xdist's workers ignore SIGINT)
    kept = signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    begun = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            flows.solve_flows(graph)
    finally:
        signal.signal(signal.SIGINT, kept)
    assert time.perf_counter() - begun < 5
    assert set(_children()) <= children  # the LP's child was reaped
    # under a time limit a first Ctrl-C only asks the searches to stop (STOP.asked): the LP's
    # child ends within a poll, and the step is stopped
    from arena.optimal.search import STOP

    threading.Timer(0.5, setattr, (STOP, "asked", True)).start()
    begun = time.perf_counter()
    try:
        with pytest.raises(flows.FlowsStopped):
            flows.solve_flows(graph, time_limit=600.0)
    finally:
        STOP.asked = False
    assert time.perf_counter() - begun < 5
    assert set(_children()) <= children


def _children() -> list[int]:
    """This process's child processes (Linux's /proc; empty elsewhere)."""
    path = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def test_closure_steps_keep_the_exact_value(monkeypatch):
    """The double oracle with "closure" among its extra trees: its flows steps try every guess
    at every state (the graphs grow), and the exact values stay (Mastermind 3x3; 20 Hangman words
    on the growing rows)."""
    monkeypatch.setattr(flows, "NEW_TREES", 1)
    monkeypatch.setattr(flows, "SHARE", 10.0)
    monkeypatch.setattr(flows, "DRAWN", 16)
    tried = []
    graph = flows.state_graph
    monkeypatch.setattr(
        flows,
        "state_graph",
        lambda g, c, t, closure=(), *stop: tried.append(len(closure)) or graph(g, c, t, closure, *stop),
    )
    plain = double_oracle(make_game(MASTERMIND), extra=("greedy",))
    closed = double_oracle(make_game(MASTERMIND), extra=("greedy", "flows", "closure"))
    assert closed.exact.value == plain.exact.value and tried and set(tried) == {27}
    monkeypatch.setattr(letters, "UNIFORM_WORDS", 5)
    monkeypatch.setattr(growing, "FIRST_ROWS", 6)
    tried.clear()
    eq = double_oracle(make_game(HANGMAN), time_limit=120, extra=("flows", "closure"))
    assert eq.lower - 1e-9 <= 365 / 178 <= eq.upper + 1e-9 and eq.upper - eq.lower < 1e-6
    assert tried and set(tried) == {26}


def test_closure_without_flows_is_refused(capsys):
    """ "closure" is a kind of flows step: alone it is refused in one line, from Python and from
    the command line."""
    from arena.cli import main

    with pytest.raises(ArenaError, match="closure is a kind of flows step"):
        double_oracle(make_game(MASTERMIND), extra=("greedy", "closure"))
    assert main(["equilibrium", MASTERMIND, "--extra-trees", "greedy,closure"]) == 2
    assert "closure is a kind of flows step" in capsys.readouterr().err


def test_closure_on_a_game_of_many_guesses_is_said_not_tried(monkeypatch):
    """Past CLOSURE_GUESSES guesses (Wordle's 12,972) a step tries only the trees' own moves,
    and the flows' note says so rather than leaving it silent."""
    monkeypatch.setattr(flows, "CLOSURE_GUESSES", 10)
    monkeypatch.setattr(flows, "NEW_TREES", 1)
    monkeypatch.setattr(flows, "DRAWN", 8)
    eq = double_oracle(make_game(MASTERMIND), extra=("greedy", "flows", "closure"))
    assert any("closure not tried: the game has more than 10 guesses" in note for note in eq.notes)


def test_a_stop_ends_the_closure_early_with_a_graph_that_still_works():
    """state_graph's closure asks `stop` at every state (Ctrl-C or the time limit while it is
    built, about 50 s on Hangman): stopped at once, it adds no edge, and the graph is the plain
    one, which the flows still solve."""
    game, trees = _trees(HANGMAN)
    cost = cost_for(game, "misses")
    plain = flows.state_graph(game, cost, trees)
    stopped = flows.state_graph(game, cost, trees, closure=range(26), stop=lambda: True)
    assert stopped.edges == plain.edges
    assert flows.solve_flows(stopped).value == pytest.approx(flows.solve_flows(plain).value, abs=1e-9)
