"""The guesser randomising at every state: one LP over the states its trees meet, and trees drawn from it.

A mix of trees randomises a whole tree at once, so equalising what every secret pays needs
trees that rotate every small set's guesses together. A guesser may as well randomise at each
state on its own (Kuhn: the same strategies, for a guesser who recalls what it saw), and two
histories that leave the same candidate set F (and, for lost games, the same misses) lead to the
same game from there on. So take the states the trees of a double oracle meet (their nodes, as
candidate sets) and the guesses they play there (the edges), and let the flow

    y(F, g) >= 0   the probability that the guesser reaches F and guesses g there

satisfy   sum_g y(F, g) = 1 at a root (an opening's every secret), and elsewhere
          sum_g y(F, g) = sum of y(P, h) over the edges (P, h) whose reply class is F.

A secret s in F reaches F with probability x(F) = sum_g y(F, g), the same for every secret of F
(its path there is the same guesses and replies), so it pays

    paid(s) = sum over the edges (F, g) with s in F of  c(F, g, s) y(F, g)

where c is what the guess costs s (guesses: 1, and 1 more where s is alone in a class other
than the hit, guessed next; misses: 1 if g misses s; lost games: 1 if that miss is s's last
strike). The LP `min t subject to paid(s) <= t for every s` is the best such guesser. Every mix
of the trees is a flow (each tree's nodes are states of the graph), so t is at most the trees'
own LP value, and the flow may mix at every state independently: on the Wordle double oracle's
627 trees, 3.8789 (the trees' mix) against 3.7425; on Hangman's Wordle answers (152 trees),
5.9316 against 5.5303.

The flows' own strategy is not a witness that the rest of the program reads, so it is turned
into trees (`drawn_trees`): each draws a guess at every state it reaches, in proportion to the
flows there, and the draws of `count` trees at a state are a shuffled systematic sample (each
guess drawn within one of its share of them), so their plain mean is close to the flows' costs
and the LP over them and the trees before gets closer still. Every tree drawn is an ordinary
tree, replayed on every secret like any other column, so the upper end it gives is proven the
same way; only the choice of columns comes from the flows. The drawn trees take only the
edges already in the graph, so a step brings the upper end toward the flows' value on those
states and no further; new states come from new trees. A graph's `closure` also tries every
guess at every state, kept where each class it leaves is a state already (Hangman's letters
played in another order meet the same sets): on the Hangman state of the Wordle answers as
committed at 442757b (636 trees, misses; a scratch script making experiments/flows.py's calls,
without and with --closure) the edges grow from 78,419 to 183,599, the flows from 5.384928 to
5.353641 and the trees with 128 drawn from 5.407829 to 5.390384, their best mix alone 5.420367;
its LP took 1,340 s where the plain one took 100 (beside two other runs on two cores), so it is
asked for ("closure" among a double oracle's extra trees), not the default. The LP's duals on the secrets' rows are
a chooser mix (`Flows.chooser`) against which no guesser on the graph does better than the
flows: the loops aim quick trees at it after each step (`FlowSteps.aim`), whose states the next
step can use.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from ..core.costs import Cost, Guesses, Lost, Misses
from ..core.errors import ArenaError
from ..core.game import Game, Index, Indexes
from ..core.resources import collector_paused
from ..optimal.search import STOP
from ..parallel.outcome import returning
from ..parallel.pool import play_in_child
from ..trees.grow import Spot, grow_roots
from ..trees.tree import Tree
from .matrix import SolverFailure
from .resume import tree_json

#: The guesser's name on the trees drawn from the flows.
DRAWN_NAME = "flows"
#: A state: its candidates (sorted, as bytes) and the misses counted so far (lost games only).
StateKey = tuple[bytes, int]


@dataclass
class StateGraph:
    """The states the trees meet and the guesses they play there (module docstring): `sets[i]`
    the candidates of state i, `misses[i]` its misses so far (lost games; else 0), `edges[e]`
    = (state, guess), `roots[i]` the opening a root state starts, `paid` (secrets x edges) what
    each edge costs each secret, `flow` (states x edges) the conservation rows."""

    game: Game
    cost: Cost
    sets: list[Indexes]
    misses: list[int]
    edges: list[tuple[int, Index]]
    roots: dict[int, str]
    paid: sp.csr_matrix
    flow: sp.csr_matrix
    index: dict[StateKey, int]

    @property
    def out(self) -> dict[int, list[int]]:
        """The edges out of each state, in the order the trees first played them."""
        out: dict[int, list[int]] = {}
        for e, (state, _) in enumerate(self.edges):
            out.setdefault(state, []).append(e)
        return out


@dataclass(frozen=True)
class Flows:
    """The best guesser on a StateGraph: its worst secret's cost `value`, the flow on every
    edge, and the chooser's mix over secrets that the LP's duals give."""

    value: float
    flow: np.ndarray
    chooser: np.ndarray


def fits(game: Game, cost: Cost) -> bool:
    """Do the flows know this cost: guesses on a game a hit ends, misses or lost games on one
    that ends when the secret is determined (Hangman)? Not where the guesses allowed depend on
    the moves so far (Wordle's hard mode): a state is then more than its candidates."""
    if game.rules.restricted:
        return False
    if game.rules.hits:
        return type(cost) is Guesses
    return type(cost) in (Misses, Lost)


def state_graph(
    game: Game,
    cost: Cost,
    trees: Sequence[Tree],
    closure: Sequence[Index] = (),
    stop: Callable[[], bool] = lambda: False,
) -> StateGraph:
    """The graph of every state the trees meet (by candidate set, and misses for lost games)
    and every guess they play there, with what each edge costs each secret. `closure`: guesses
    also tried at every state, each kept as a new edge where every class it leaves is a state
    of the graph already (or ends the game): a move no tree made there, between states the
    trees reach by other orders (Hangman: letters in another order meet the same sets), which
    the flows may then mix in, and the trees drawn may play. `stop` (asked at every state) ends
    the closure early, with the edges added so far (on Hangman it takes about 50 s)."""
    if not fits(game, cost):
        raise ArenaError(
            f"{game.spec}: the flows know guesses on games a hit ends (not in hard mode), misses and lost games on Hangman"
        )
    strikes = cost.strikes if isinstance(cost, Lost) else None
    sets: list[Indexes] = []
    misses: list[int] = []
    index: dict[StateKey, int] = {}
    edge_of: dict[tuple[int, Index], int] = {}
    roots: dict[int, str] = {}

    def state(F: Indexes, missed: int) -> int:
        key = (F.tobytes(), missed if strikes is not None else 0)
        if key not in index:
            index[key] = len(sets)
            sets.append(F)
            misses.append(key[1])
        return index[key]

    for tree in trees:
        for node in tree.nodes():
            F = np.sort(node.candidates)
            if len(F) < 2 and game.rules.hits:
                continue  # one secret left: guessed next, paid on the edge that left it alone
            missed = 0 if strikes is None else min(sum(int(game.is_miss(r)) for r in node.replies), strikes)
            s = state(F, missed)
            if not node.replies:
                roots[s] = node.opening
            edge_of.setdefault((s, int(node.guess)), len(edge_of))
    for s in range(len(sets)) if closure else ():
        if stop():
            break
        for g in closure:
            if (s, int(g)) not in edge_of and _closes(game, sets[s], int(g), misses[s], strikes, index):
                edge_of[(s, int(g))] = len(edge_of)
    edges = list(edge_of)
    paid_rows, paid_cols, paid_vals, flow_rows, flow_cols, flow_vals = [], [], [], [], [], []
    for e, (s, g) in enumerate(edges):
        F = sets[s]
        flow_rows.append(s)
        flow_cols.append(e)
        flow_vals.append(1.0)
        replies = game.table[g, F]
        pay = _edge_costs(game, cost, replies, misses[s])
        for reply, key in _classes(game, F, replies, misses[s], strikes):
            if key is None:
                pay[replies == reply] += 1.0  # alone: guessed next
                continue
            child = index.get(key)
            if child is None:
                raise ArenaError(f"{game.spec}: a tree leaves a class it does not play (not a tree of this game)")
            flow_rows.append(child)
            flow_cols.append(e)
            flow_vals.append(-1.0)
        kept = pay != 0
        paid_rows.extend(F[kept].tolist())
        paid_cols.extend([e] * int(kept.sum()))
        paid_vals.extend(pay[kept].tolist())
    n, E = len(game.secrets), len(edges)
    paid = sp.csr_matrix((paid_vals, (paid_rows, paid_cols)), shape=(n, E))
    flow = sp.csr_matrix((flow_vals, (flow_rows, flow_cols)), shape=(len(sets), E))
    return StateGraph(game, cost, sets, misses, edges, roots, paid, flow, index)


def _classes(game: Game, F: Indexes, replies: np.ndarray, missed: int, strikes: int | None):
    """The classes a guess leaves of F that the game goes on from, as (reply, the class's state
    key), the key None for a secret left alone where a hit ends the game (guessed next); the
    classes the reply ends, or leaves determined, are not among them."""
    for reply in np.unique(replies).tolist():
        part = F[replies == reply]
        if game.finished(reply) or game.determined(part):
            continue
        if len(part) == 1 and game.rules.hits:
            yield reply, None
            continue
        yield reply, (part.tobytes(), _after(missed, reply, game, strikes))


def _closes(game: Game, F: Indexes, g: Index, missed: int, strikes: int | None, index: dict) -> bool:
    """Does guess g split F into classes that are each a state of the graph already (or end)?
    A guess that leaves F whole is no move (its class would be F itself: a state holds two
    secrets or more, so one reply for all of them neither ends nor determines it)."""
    replies = game.table[g, F]
    if (replies == replies[0]).all():
        return False
    return all(key is None or key in index for _, key in _classes(game, F, replies, missed, strikes))


def _edge_costs(game: Game, cost: Cost, replies: np.ndarray, missed: int) -> np.ndarray:
    """What a guess costs each secret of its state, by its reply (module docstring)."""
    if isinstance(cost, Guesses):
        return np.ones(len(replies))
    miss = (replies == game.miss).astype(np.float64)
    if isinstance(cost, Lost):
        return miss if cost.strikes is not None and missed == cost.strikes - 1 else np.zeros(len(replies))
    return miss


def _after(missed: int, reply: int, game: Game, strikes: int | None) -> int:
    """The misses a class starts with (lost games: counted up to the strikes, where they stop mattering)."""
    if strikes is None:
        return 0
    return min(missed + int(game.is_miss(reply)), strikes)


class FlowsStopped(Exception):
    """The flows' LP reached its time limit unsolved, or was stopped (Ctrl-C under a time limit)."""


def solve_flows(graph: StateGraph, time_limit: float | None = None) -> Flows:
    """The best guesser on the graph (module docstring's LP), by HiGHS' interior point method
    (on Wordle's 95,000 edges 49 s, where its simplex took minutes on Hangman's 65,000), within
    `time_limit` seconds (FlowsStopped past it). HiGHS runs in a forked child where the system
    forks: no signal reaches into its call, so Ctrl-C ends the child at once (and reaches the
    caller; under a time limit, where a first Ctrl-C only asks the searches to stop, the child
    ends and the step is FlowsStopped) instead of waiting a minute for the LP."""
    n, E = graph.paid.shape
    S = len(graph.sets)
    A_ub = sp.hstack([graph.paid, -sp.csr_matrix(np.ones((n, 1)))]).tocsr()
    A_eq = sp.hstack([graph.flow, sp.csr_matrix((S, 1))]).tocsr()
    b_eq = np.zeros(S)
    b_eq[list(graph.roots)] = 1.0
    lp = (A_ub, A_eq, b_eq, time_limit)
    if hasattr(os, "fork"):
        # HiGHS keeps its own clock; the child's deadline is only for a call that overran it
        deadline = None if time_limit is None else max(time_limit, 1e-3) + CHILD_SLACK
        # a first Ctrl-C under a time limit only asks the searches to stop (STOP): so does this
        done = play_in_child(functools.partial(returning, _highs), (lp,), deadline, stop=lambda: STOP.asked)
        error = done.error or ""
        if error == "stopped" or (time_limit is not None and error.startswith("timed out")):
            raise FlowsStopped
        status, message, value, x, marginals = done.value_or_raise()
    else:
        status, message, value, x, marginals = _highs(lp)
    if status == 1 and time_limit is not None:
        raise FlowsStopped
    if status != 0:
        raise SolverFailure(f"the flows' LP on {graph.game.spec}: {message}")
    chooser = np.maximum(-marginals, 0.0)
    total = chooser.sum()
    chooser = chooser / total if total > 0 else np.full(n, 1.0 / n)
    return Flows(value, np.maximum(x[:E], 0.0), chooser)


#: Seconds past its time limit that the flows' LP child is given before it is killed.
CHILD_SLACK = 5.0


def _highs(lp: tuple) -> tuple[int, str, float, np.ndarray, np.ndarray]:
    """`min t` over the flows (solve_flows' LP): HiGHS' status, message, value, the solution
    and the duals of the secrets' rows, as plain numbers (they travel back from a child)."""
    A_ub, A_eq, b_eq, time_limit = lp
    c = np.zeros(A_ub.shape[1])
    c[-1] = 1.0
    options = {} if time_limit is None else {"time_limit": max(time_limit, 1e-3)}
    res = linprog(
        c,
        A_ub=A_ub,
        b_ub=np.zeros(A_ub.shape[0]),
        A_eq=A_eq,
        b_eq=b_eq,
        bounds=(0, None),
        method="highs-ipm",
        options=options,
    )
    if res.status != 0:
        return res.status, str(res.message), float("nan"), np.zeros(0), np.zeros(0)
    return 0, str(res.message), float(res.fun), np.asarray(res.x), np.asarray(res.ineqlin.marginals)


def kept(tree: Tree) -> bool:
    """Does a state file keep this tree whatever the mix plays? Not one drawn from the flows:
    the searched trees give the states, a resumed run draws again from them, and every drawn
    tree kept would make the file several times larger (128 a step)."""
    return tree.guesser != DRAWN_NAME


class StateTrees:
    """The trees a state file holds (resume.py), each encoded once: every tree but those drawn
    from the flows, and of those the ones the guesser's mix plays, so that a resumed run starts
    from the upper end it had (a resumed Wordle run without them began 0.017 above it)."""

    def __init__(self) -> None:
        self.encoded: dict[int, str] = {}

    def of(self, trees: Sequence[Tree], playing: Sequence[int] = ()) -> list[str]:
        held = sorted({i for i, t in enumerate(trees) if kept(t)} | {int(i) for i in playing})
        with collector_paused():  # a resumed run's first save encodes every tree: millions of dicts
            for i in held:
                if i not in self.encoded:
                    self.encoded[i] = tree_json(trees[i])
        return [self.encoded[i] for i in held]


def paid_by_flows(graph: StateGraph, flows: Flows) -> np.ndarray:
    """What each secret pays the flows' guesser (the rows of the LP), in floats."""
    return np.asarray(graph.paid @ flows.flow)


def drawn_trees(graph: StateGraph, flows: Flows, count: int, seed: int = 0) -> list[Tree]:
    """`count` trees drawn from the flows (module docstring): at each state, a guess in
    proportion to its flow, the draws of the trees a shuffled systematic sample."""
    rng = np.random.default_rng(seed)
    out = graph.out
    draws: dict[int, list[Index]] = {}

    def draw(s: int) -> Index:
        if not draws.get(s):
            edges = out[s]
            share = flows.flow[edges]
            share = share / share.sum() if share.sum() > 0 else np.full(len(edges), 1.0 / len(edges))
            # a systematic sample of `count` draws, shuffled: each guess drawn about share x count times
            ticks = (rng.random() + np.arange(count)) / count
            picks = np.minimum(np.searchsorted(np.cumsum(share), ticks, side="right"), len(edges) - 1)
            draws[s] = [graph.edges[edges[k]][1] for k in rng.permutation(picks)]
        return draws[s].pop()

    return [_drawn_tree(graph, draw) for _ in range(count)]


def _drawn_tree(graph: StateGraph, draw) -> Tree:
    """One tree: the guess `draw(state)` names at each state it reaches, grown as it is drawn
    (grow_roots: one walk, where a plan drawn first was then replayed)."""
    game, strikes = graph.game, graph.cost.strikes if isinstance(graph.cost, Lost) else None

    def choose_at(opening: str, whole: bool) -> Callable[[Spot], Index]:
        def choose(spot: Spot) -> Index:
            F = spot.candidates
            if len(F) == 1 and game.rules.hits:
                return int(game.secret_guess[F[0]])
            missed = 0 if strikes is None else min(spot.missed, strikes)  # as _after counts them
            return draw(graph.index[(F.tobytes(), missed)])

        return choose

    return grow_roots(game, choose_at, lambda: DRAWN_NAME, DRAWN_NAME, game.all_secrets)


#: Games with at most this many guesses try every guess at every state of a step's graph
#: (state_graph's closure: Hangman's 26 letters); on more, the states times the guesses would
#: outweigh the LP.
CLOSURE_GUESSES = 64


def closure_guesses(game: Game) -> range:
    """The guesses a flows step tries at every state of its graph (none past CLOSURE_GUESSES)."""
    guesses = game.table.shape[0]
    return range(guesses if guesses <= CLOSURE_GUESSES else 0)


#: The trees a flows step draws.
DRAWN = 128
#: The flows' steps take at most this share of a run's time so far (each is one LP and DRAWN
#: trees: on Wordle's 627 trees about a minute, on Hangman's 152 about 45 s).
SHARE = 0.25
#: A step waits for this many trees more than the last one had: the states come from the
#: trees searched, not from the trees drawn (which only take edges already there).
NEW_TREES = 8
#: Graphs of more cells (secrets x edges, summed over the edges' sets) than this are not built.
MAX_CELLS = 1 << 25
#: The cells a step gets through a second, at least (the shared 2-core machine, loaded: Wordle's
#: 5.1 M in about 100 s, Hangman's 2.8 M in 90, Jotto's 6 M in 170): a step that would not fit
#: twice in the time left is not taken.
CELLS_A_SECOND = 30_000


@dataclass
class FlowSteps:
    """When a double oracle takes a flows step: once it has NEW_TREES trees more than after the
    last step; under a time limit also while the steps have taken at most SHARE of the run's time
    so far (without one, nothing depends on the clock: the same run gives the same mixes) and the last
    one's seconds (or the graph's cells at CELLS_A_SECOND, whichever is more) fit twice in what
    is left, and not past MAX_CELLS. `spent`: their seconds; `values`: each step's LP
    value (the guesser the drawn trees approach)."""

    spent: float = 0.0
    closure: bool = False  # each graph also tries every guess at every state (closure_guesses)
    unclosed: bool = False  # closure asked for on a game of too many guesses: not tried
    after: int = -NEW_TREES  # the trees the loop held after the last step's were added
    last: float = 0.0
    values: list[float] = field(default_factory=list)
    chooser: np.ndarray | None = None  # the last step's duals: a chooser mix over secrets

    def due(self, trees: int, elapsed: float, left: float | None, cells: int = 0) -> bool:
        """Is a step due with `trees` trees of `cells` cells (their guesses summed), `elapsed`
        seconds into the run and `left` to go (None: no limit)?"""
        if trees < self.after + NEW_TREES or cells > MAX_CELLS:
            return False
        if left is None:  # no clock: the same steps on every machine, so the same mixes
            return True
        return self.spent <= SHARE * elapsed and left > 2 * max(self.last, cells / CELLS_A_SECOND)

    def step(self, game: Game, cost: Cost, trees: Sequence[Tree], seed: int, left: float | None = None) -> list[Tree]:
        """The trees drawn from the flows on the graph of `trees`, timed; none where the LP
        does not finish within the `left` seconds of a run's time limit."""
        begun = time.perf_counter()
        closure = closure_guesses(game) if self.closure else ()
        self.unclosed = self.closure and not closure

        def out_of_time() -> bool:  # Ctrl-C, or the run's time limit, while the closure is built
            return STOP.asked or (left is not None and time.perf_counter() - begun > left)

        graph = state_graph(game, cost, trees, closure, out_of_time)
        try:
            found = solve_flows(graph, None if left is None else left - (time.perf_counter() - begun))
        except FlowsStopped:
            self.last = time.perf_counter() - begun
            self.spent += self.last
            return []
        drawn = drawn_trees(graph, found, DRAWN, seed)
        self.values.append(found.value)
        self.chooser = found.chooser
        self.last = time.perf_counter() - begun
        self.spent += self.last
        return drawn

    def take(
        self,
        game: Game,
        cost: Cost,
        trees: list[Tree],
        add: Callable[[Tree], bool],
        elapsed: float,
        left: float | None,
        room: Callable[[], bool] = lambda: True,
    ) -> bool:
        """A step, where one is due and the flows know the cost: each tree drawn from the graph
        of `trees` (the loop's own list, which `add` appends to) offered to `add` while `room()`
        says the memory allows; True if any was new. The draws are seeded by the trees held."""
        # the graph's cells are at most the trees' guesses summed (a node's set, once per tree)
        if not fits(game, cost) or not self.due(len(trees), elapsed, left, sum(int(t.guesses.sum()) for t in trees)):
            return False
        added = False
        for tree in self.step(game, cost, trees, seed=len(trees), left=left):
            if not room():
                break
            added = add(tree) or added
        self.after = len(trees)
        return added

    def aim(self) -> np.ndarray | None:
        """The last step's duals' mix, once (None until another step): what the loops aim quick
        trees at, for new states at the next step."""
        chooser, self.chooser = self.chooser, None
        return chooser

    def note(self) -> str | None:
        """What the steps did, in a line of an Equilibrium's notes (None where none was taken)."""
        if not self.values:
            return None
        unclosed = (
            f" (closure not tried: the game has more than {CLOSURE_GUESSES} guesses, so only the trees' own moves)"
            if self.unclosed
            else ""
        )
        return (
            f"flows (arena.equilibrium.flows): {len(self.values)} step{'s' * (len(self.values) != 1)} in "
            f"{self.spent:.0f} s drew {DRAWN} trees "
            f"each from the guesser that randomises at every state its trees meet; that guesser concedes "
            f"{self.values[-1]:.6f} at the last step (the trees drawn approach it){unclosed}"
        )
