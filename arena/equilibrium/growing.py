"""The double oracle over a growing set of the chooser's words: Hangman on long lists.

On a list of thousands of words the whole-game LP (oracle.py: every word a row) chases the words
its few trees happen to play badly, and each best response to such a mix is cheap but proves
little. Here the LP keeps only a set R of rows, and both sides grow:

1. the LP of R against the trees found gives the chooser's mix q over R and the guesser's mix y;
2. the guesser's best response to (a smoothed) q, searched on its support (letters.py), proves
   the lower end: q is a mix of the whole game's chooser, and against a mix on R the whole
   game's best response costs what R's does (letters.py: one word left of the support, its own
   letters finish it with no miss);
3. y, a mix of trees of the whole list, is replayed on every word: its worst word is the upper
   end, and the words it pays more for than R's value join R (the chooser's best responses),
   the most expensive first. R starts from the largest families (`families`: words alike but
   for one position, _ight) and the words the greedy tree pays most for, and before the loop
   the chooser's uniform mixes on the largest families and their unions are searched
   (`probes`): the best of them is the first lower end, and the mix the LP's is smoothed toward.

With a state file (`--state`, resume.py) the trees, R and the best chooser mix are written
every SAVE_EVERY seconds and at the end, and a run goes on from them: the trees replayed on every
word, the claimed lower end's mix searched again first.

The value of the game on R is a lower end for every R, and the game's value is the value on the
equilibrium's support, so the ends meet once R holds it. The loop's own R grows every round and
its LP's mixes spread over hundreds of words, whose searches prove little; so every so often a
*core* (`_core_words`: CORE words, from the last core's chooser, the mix the lower end rests on
and the LP's mixes averaged over the rounds) is solved to the end on its own, rows fixed, each
of its best responses exact on a few dozen words: the value of the game on the core, proven (on
the Wordle answers' lost games a core of 60 words proves 2/5 where the loop's mixes had proven
0.297 in an hour). A resumed run solves a core of its state's mix first, and searches that
mix again only where the core proved less than the state claims. What limits the width is how many
trees the upper end needs: a tree is searched on the support only and completed on the other
words by a quick rule (letters.greedy_letter), so the words outside R cost what that rule
costs until they join R.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.game import Game
from ..optimal.problem import Problem
from ..optimal.search import STOP
from ..trees.tree import Tree
from . import flows, letters, support_search
from .matrix import solve_matrix_game
from .resume import Resumed, load_state, save_state, state_key
from .solution import Equilibrium, Step
from .symmetry import no_symmetry

#: The rows the LP starts from: the largest families, then the words the greedy tree pays most for.
FIRST_ROWS = 60
#: Families searched before the loop, alone and in unions (`probes`).
PROBES = 8
#: At most this many words join the rows a round.
ADDED = 20
#: The state file (--state) is written when a round ends this many seconds after the last write,
#: and at the end: a long list's trees take a second or more to write.
SAVE_EVERY = 30.0
#: After a flows step, this many quick trees aimed at its duals' mix (letters.mass_tree), in
#: as many tie-breaking orders.
AIMED = 4
#: A core's words (`_core_words`).
CORE = 60
#: A core is solved once the loop has run this share of the time limit since the last one
#: (CORE_EVERY seconds without a limit), for at most as long again.
CORE_SHARE = 0.25
CORE_EVERY = 600.0
#: The completions' tie-breaking orders, one a round in turn.
RANKS = [None, *letters.ranks(26)[1:]]


@dataclass
class _Grow:
    """The loop's state: the trees and their costs on every word, the rows, both ends and their
    witnesses."""

    game: Game
    problem: Problem
    start: float
    trees: list[Tree] = field(default_factory=list)
    costs: list[np.ndarray] = field(default_factory=list)
    seen: set = field(default_factory=set)
    rows: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    lower: float = -np.inf
    upper: float = np.inf
    chooser: np.ndarray | None = None  # the mix the lower end is proven against
    guesser: tuple[tuple[int, ...], np.ndarray] = ((), np.zeros(0))  # the upper end's trees and mix
    steps: list[Step] = field(default_factory=list)
    stops: int = 0
    state: str | Path | None = None  # the state file (resume.py), written as the loop goes
    resumed: Resumed | None = None
    flow_steps: flows.FlowSteps = field(default_factory=flows.FlowSteps)  # the flows' steps ("flows" in extra)
    encoded: flows.StateTrees = field(default_factory=flows.StateTrees)  # the trees as the state file holds them
    saved_at: float = 0.0
    notes: list[str] = field(default_factory=list)
    core_ended: float | None = None  # when the last core's solve ended (None: no core yet)
    played: np.ndarray | None = None  # the sum of the LP's chooser mixes over the rounds, on every word
    core_chooser: np.ndarray | None = None  # the last core's best chooser mix
    cores: list[str] = field(default_factory=list)  # each core, in words, for the notes
    smoothing: float = 0.5  # how far a round's mix is pulled toward the best one (grow_oracle's)

    def add(self, tree: Tree) -> bool:
        cost = np.asarray(self.problem.cost.of(tree), dtype=np.float64)
        key = cost.tobytes()
        if key in self.seen:
            return False
        self.seen.add(key)
        self.trees.append(tree)
        self.costs.append(cost)
        return True

    def grow_rows(self, words: np.ndarray) -> None:
        self.rows = np.union1d(self.rows, words).astype(np.intp)


def grow_oracle(
    problem: Problem,
    time_limit: float | None = None,
    tolerance: float = 1e-7,
    initial: tuple[Tree, ...] = (),
    smoothing: float = 0.5,
    progress=None,
    state: str | Path | None = None,
    extra: tuple[str, ...] = ("flows",),
) -> Equilibrium:
    """The value of a Hangman game (misses or lost games) by the double oracle over growing rows
    (module docstring), within `time_limit` seconds: an Equilibrium whose lower end is proven
    against its chooser mix and whose upper end is its guesser mix's worst word. `state`: a
    file the loop writes its trees, rows and best chooser mix to (resume.py) and goes on from.
    `extra` with "flows": trees drawn from the guesser that randomises at every state (flows.py)
    join the columns now and then, and the mix of every tree over every word is an upper end;
    with "closure" too, each step's graph also tries every letter at every state (flows.py)."""
    game = problem.game
    loop = _Grow(game, problem, time.perf_counter(), state=state, smoothing=smoothing)
    loop.flow_steps.closure = "closure" in extra
    loop.add(letters.greedy_tree(game))
    for tree in initial:
        loop.add(tree)
    loop.grow_rows(first_rows(game, np.asarray(loop.costs[0])))
    best_q: np.ndarray | None = None
    again = _resume(loop)
    best_q, again = _resumed_core(loop, again, time_limit, tolerance)
    if loop.resumed is not None and "flows" in extra:
        # a state keeps the searched trees only: the drawn ones, and the upper end they gave,
        # come back first (the lower end's search may take the whole first round)
        _flow_trees(loop, time_limit)
    probing = time.perf_counter()
    for probe in again + probes(game):
        left = None
        if time_limit is not None:  # the probes get a quarter of the time after the state's trees
            # are read at most, the resumed mix what is left
            now = time.perf_counter()
            left = time_limit - (now - loop.start)
            if not again or probe is not again[0]:
                left = min(left, time_limit / 4 - (now - probing))
        if left is not None and left <= 0:
            break
        searched = letters.support_mix(probe)
        tree, bound = letters.solved(game, searched, problem.cost, left)
        loop.add(tree)
        if bound > loop.lower:
            loop.lower, loop.chooser, best_q = bound, searched, searched
    alpha, settled, stopped = (0.0 if best_q is None else smoothing), False, False
    while True:
        C = np.array(loop.costs)
        solution = solve_matrix_game(C[:, loop.rows].T)
        q, y, inner = solution.row, solution.column, solution.value
        paid = y @ C
        worst = float(paid.max())
        if worst < loop.upper:
            played = np.flatnonzero(y > 0)
            loop.upper, loop.guesser = worst, (tuple(played.tolist()), y[played])
        outside = np.setdiff1d(np.flatnonzero(paid > inner + tolerance), loop.rows)
        mix = np.zeros(len(game.secrets))
        mix[loop.rows] = q
        loop.played = mix if loop.played is None else loop.played + mix
        own = best_q is None or alpha == 0.0  # a response to the LP's own mix
        target = mix if best_q is None or own else alpha * best_q + (1 - alpha) * mix
        left = None if time_limit is None else max(time_limit - (time.perf_counter() - loop.start), 1e-3)
        searched = letters.support_mix(target)
        # each round's completion breaks ties in another order (letters.ranks): the trees then
        # try a family's letters in different orders, which the guesser's mix spreads
        rank = RANKS[len(loop.steps) % len(RANKS)]
        tree, bound = letters.solved(game, searched, problem.cost, left, rank)
        stopped = tree.stopped
        loop.stops += stopped
        if bound > loop.lower:
            loop.lower, loop.chooser, best_q = bound, searched, searched
        improves = float(q @ np.asarray(problem.cost.of(tree), dtype=np.float64)[loop.rows]) < inner - tolerance
        new = loop.add(tree)
        if len(outside):
            loop.grow_rows(outside[np.argsort(-paid[outside], kind="stable")][:ADDED])
        if "flows" in extra:
            _flow_trees(loop, time_limit)
        if _core_due(loop, time_limit):
            raised = _core(loop, _core_words(loop), _core_budget(loop, time_limit), tolerance)
            best_q = best_q if raised is None else raised
        loop.steps.append(Step(loop.lower, loop.upper, time.perf_counter() - loop.start, len(loop.trees)))
        _save(loop)
        if progress:
            progress(loop.steps[-1])
        settled = loop.upper - loop.lower <= tolerance
        over = time_limit is not None and time.perf_counter() - loop.start > time_limit
        if settled or over or STOP.asked or (own and not new and not len(outside) and not improves):
            break
        alpha = smoothing if improves else 0.0
    _save(loop, at_end=True)
    return _equilibrium(loop, settled, stopped, time_limit)


def _resumed_core(
    loop: _Grow, again: list[np.ndarray], time_limit: float | None, tolerance: float
) -> tuple[np.ndarray | None, list[np.ndarray]]:
    """A resumed run's first core, of its state's mix (`again`), before that mix is searched
    again (its search may take the whole run): the core goes on from the mix where it has at
    most CORE words, and the mix is left out of the probes where the core proved what the
    state claims. Returns the mix the core raised the lower end with (or None) and the probes."""
    if not again or CORE <= 0:
        return None, again
    if np.count_nonzero(again[0]) <= CORE:  # a core's own mix: the core goes on from it
        loop.core_chooser = again[0]
    raised = _core(loop, _core_words(loop, again[0]), _core_budget(loop, time_limit), tolerance)
    claim = loop.resumed.claimed_lower if loop.resumed is not None else None
    if claim is not None and loop.lower >= claim - tolerance:
        loop.notes.append(
            f"the state's mix is not searched again: a core proved {loop.lower:.6f}, its claim {claim:.6f}"
        )
        return raised, []
    return raised, again


def _core_due(loop: _Grow, time_limit: float | None) -> bool:
    """Whether a core is due: once the loop has run CORE_SHARE of the time limit (CORE_EVERY
    seconds without one) since the last core ended, or since it began."""
    if CORE <= 0:
        return False
    return time.perf_counter() - (loop.start if loop.core_ended is None else loop.core_ended) >= _core_share(time_limit)


def _core_budget(loop: _Grow, time_limit: float | None) -> float | None:
    """A core's seconds: its share (`_core_share`), within what is left of the time limit."""
    if time_limit is None:
        return _core_share(time_limit)
    left = time_limit - (time.perf_counter() - loop.start)
    return max(min(_core_share(time_limit), left), 1e-3)


def _core_share(time_limit: float | None) -> float:
    """The seconds between cores and the most a core takes: CORE_SHARE of the time limit,
    CORE_EVERY without one."""
    return CORE_EVERY if time_limit is None else CORE_SHARE * time_limit


def _core_words(loop: _Grow, guide: np.ndarray | None = None) -> np.ndarray:
    """The next core, CORE words: those of the last core's chooser (so a core proves no less
    than the last), then the heaviest of the mix the lower end rests on, then the heaviest of
    the LP's chooser mixes averaged over the rounds. One round's LP mix is a poor guide (it
    weighs the words the trees so far play badly); the mix the lower end rests on has been
    pulled toward the best mixes round after round, and the average, as in fictitious play,
    weighs the words the chooser keeps coming back to. `guide`: a mix to take in place of the
    lower end's (a resumed state's, before it is proven again)."""
    last = [] if loop.core_chooser is None else np.flatnonzero(loop.core_chooser > 0).tolist()
    order = list(last)
    for mix in (loop.chooser if guide is None else guide, loop.played):
        if mix is not None:
            weighed = np.flatnonzero(mix > 0)
            order += weighed[np.argsort(-mix[weighed], kind="stable")].tolist()
    core = list(dict.fromkeys(order))[: max(CORE, len(last))]
    return np.array(sorted(core), dtype=np.intp)


def _core(loop: _Grow, core: np.ndarray, budget: float | None, tolerance: float) -> np.ndarray | None:
    """The double oracle on the words `core` alone (rows fixed), from the last core's chooser
    (or the core's uniform mix), until its best response to the LP's own mix proves the LP's
    value (the game's value on the core, a lower end of the whole game's) or `budget` seconds
    pass. Every tree joins the loop's columns; the lower end is raised where a search proves
    more. Returns the chooser's mix the core's best bound rests on where it raised the loop's
    lower end, else None."""
    game, cost = loop.game, loop.problem.cost
    begin = time.perf_counter()
    if not len(core):
        return None
    anchor = np.zeros(len(game.secrets))
    anchor[core] = 1.0 / len(core)
    if loop.core_chooser is not None and set(np.flatnonzero(loop.core_chooser).tolist()) <= set(core.tolist()):
        anchor = loop.core_chooser  # from where the last core got to (searched again: proven again)
    q, value = _core_lp(loop, core)
    target, best, raised, rounds = anchor, -np.inf, None, 0
    while not STOP.asked:
        left = None if budget is None else budget - (time.perf_counter() - begin)
        if left is not None and left <= 0:
            break
        searched = letters.support_mix(target)
        tree, bound = letters.solved(game, searched, cost, left, RANKS[rounds % len(RANKS)])
        rounds += 1
        loop.add(tree)
        if bound > best:
            best, anchor = bound, searched
        if bound > loop.lower:
            loop.lower, loop.chooser, raised = bound, searched, searched
        # as the loop does: pulled toward the best mix while the trees still improve on the LP's
        improves = float(q @ np.asarray(cost.of(tree), dtype=np.float64)) < value - tolerance
        q, value = _core_lp(loop, core)
        if best >= value - tolerance:
            break  # the core's value is proven
        target = loop.smoothing * anchor + (1 - loop.smoothing) * q if improves else q
    loop.core_ended = time.perf_counter()
    if not rounds:
        return None  # no time left for a search
    loop.core_chooser = anchor
    solved = "solved" if best >= value - tolerance else "stopped"
    loop.cores.append(
        f"{len(core)} words, {solved} after {rounds} rounds in {loop.core_ended - begin:.0f} s: "
        f"{best:.6f} proven{'' if solved == 'solved' else f', the LP at {value:.6f}'}"
    )
    return raised


def _core_lp(loop: _Grow, core: np.ndarray) -> tuple[np.ndarray, float]:
    """The LP of the words `core` against every tree found: the chooser's mix (on every word)
    and the value."""
    solution = solve_matrix_game(np.array([cost[core] for cost in loop.costs]).T)  # not every word's
    q = np.zeros(len(loop.game.secrets))
    q[core] = solution.row
    return q, float(solution.value)


def _flow_trees(loop: _Grow, time_limit: float | None) -> None:
    """A flows step when one is due (flows.FlowSteps): its trees join the columns, and the LP of
    every tree over every word (not only the rows) gives the upper end where it is lower."""
    elapsed = time.perf_counter() - loop.start
    left = time_limit and time_limit - elapsed
    if not loop.flow_steps.take(loop.game, loop.problem.cost, loop.trees, loop.add, elapsed, left):
        return
    aim = loop.flow_steps.aim()
    if aim is not None:  # new states for the next step
        for rank in RANKS[:AIMED]:
            loop.add(letters.mass_tree(loop.game, aim, rank))
    costs = np.array(loop.costs)
    solution = solve_matrix_game(costs.T)
    worst = float((solution.column @ costs).max())
    if worst < loop.upper:
        played = np.flatnonzero(solution.column > 0)
        loop.upper, loop.guesser = worst, (tuple(played.tolist()), solution.column[played])


def _resume(loop: _Grow) -> list[np.ndarray]:
    """Take in the state file's trees and rows, if it exists (checked: resume.load_state), and
    say so in a note: the mix its lower end was proven against, searched first (so proven again
    here, never read as proven), or nothing (a fresh run)."""
    if loop.state is None:
        return []
    game, payoff = loop.game, loop.problem.cost.name
    resumed = loop.resumed = load_state(loop.state, game, payoff, no_symmetry(game))
    if resumed is None:
        return []
    for tree in resumed.trees:
        loop.add(tree)
    loop.grow_rows(np.array(resumed.rows, dtype=np.intp))
    claim = (
        ""
        if resumed.claimed_lower is None
        else f"; its lower end {resumed.claimed_lower:.6f} is its claim: the mix it rests on is searched again first"
    )
    loop.notes.append(
        f"resumed from {loop.state}: {len(resumed.trees)} trees replayed on every word and {len(resumed.rows):,} "
        f"rows, after {resumed.rounds} rounds and {resumed.seconds:.0f} s{claim}"
    )
    return [] if resumed.claimed_lower is None else [resumed.best_rows]


def _save(loop: _Grow, at_end: bool = False) -> None:
    """Write the state file, if one is named, at the end and every SAVE_EVERY seconds."""
    now = time.perf_counter()
    if loop.state is None or (not at_end and now - loop.saved_at < SAVE_EVERY):
        return
    game, resumed = loop.game, loop.resumed
    n = len(game.secrets)
    chooser = loop.chooser if loop.chooser is not None and np.isfinite(loop.lower) else None
    save_state(
        loop.state,
        state_key(game, loop.problem.cost.name, no_symmetry(game)),
        loop.encoded.of(loop.trees, loop.guesser[0]),
        np.full(n, 1.0 / n) if chooser is None else chooser,
        (None if chooser is None else float(loop.lower), None),
        (len(loop.steps) + (resumed.rounds if resumed else 0), now - loop.start + (resumed.seconds if resumed else 0)),
        loop.rows.tolist(),
    )
    loop.saved_at = now


def families(game: Game) -> list[np.ndarray]:
    """The words alike but for one position (_ight: eight fight light ...) whose letter there
    stands nowhere else in them, each such family of at least two words, the largest first (ties
    in list order): after the letters they share,
    the guesser can only try the one that differs, letter by letter, so they are the chooser's
    first candidates."""
    found = []
    for row in support_search.pure_families(list(game.secrets)):  # pure: nain is not of _ain
        members = np.flatnonzero(row >= 0)
        by_family = members[np.argsort(row[members], kind="stable")]  # each family in list order
        cuts = np.flatnonzero(np.diff(row[by_family])) + 1
        found += [g for g in np.split(by_family, cuts) if len(g) > 1]
    return sorted(found, key=lambda g: (-len(g), int(g[0])))


def probes(game: Game) -> list[np.ndarray]:
    """Chooser mixes worth a search before the loop: uniform on each of the PROBES largest
    families, and on the union of the k largest for k = 2, 3, ... PROBES."""
    found = families(game)[:PROBES]
    mixes = []
    for k, family in enumerate(found):
        for words in (family, np.unique(np.concatenate(found[: k + 1]))):
            mix = np.zeros(len(game.secrets))
            mix[words] = 1.0 / len(words)
            mixes.append(mix)
    return mixes


def first_rows(game: Game, greedy: np.ndarray) -> np.ndarray:
    """The LP's first rows: whole families, the largest first, up to FIRST_ROWS words, then the
    words the greedy tree pays most for up to twice that."""
    rows: list[int] = []
    for family in families(game):
        if len(rows) + len(family) > FIRST_ROWS:
            break
        rows.extend(family.tolist())
    for s in np.argsort(-greedy, kind="stable").tolist():
        if len(set(rows)) >= 2 * FIRST_ROWS:
            break
        rows.append(s)
    return np.unique(np.array(rows, dtype=np.intp))


def _equilibrium(loop: _Grow, settled: bool, stopped: bool, time_limit: float | None) -> Equilibrium:
    """The loop's result, in the double oracle's form."""
    game, paid = loop.game, loop.problem.cost
    played, y = loop.guesser
    responses = len(loop.steps)
    stops = f", {loop.stops} stopped by the time limit" if loop.stops else ""
    method = (
        f"double oracle over growing rows ({len(loop.rows):,} of {len(game.secrets):,} words): "
        f"{responses} best responses{stops} (arena.equilibrium.letters, on the chooser's support) "
        "against linprog (HiGHS) mixes"
    )
    notes = list(loop.notes)
    if not settled:
        why = "stopped by Ctrl-C" if STOP.asked else f"stopped at the time limit ({time_limit:g} s)"
        if time_limit is None or not stopped and time.perf_counter() - loop.start <= time_limit:
            why = "stopped: the trees found no better response"
        # no gap here: bounds folded in later narrow it (the report's bounds line says it)
        notes.append(f"{why}, not converged: the value lies between the bounds")
    if loop.cores:
        notes.append(f"cores solved on their own ({len(loop.cores)}): " + "; ".join(loop.cores[-4:]))
    flow_note = loop.flow_steps.note()
    if flow_note:
        notes.append(flow_note)
    notes.append(
        "the chooser's mix is the one the lower bound is proven against; "
        "the guesser's mix is the LP's over the rows, replayed on every word for the upper bound"
    )
    chooser = loop.chooser if loop.chooser is not None else np.full(len(game.secrets), 1.0 / len(game.secrets))
    return Equilibrium(
        game,
        method,
        loop.upper if settled else (loop.lower + loop.upper) / 2,
        max(loop.lower, 0.0),
        loop.upper,
        chooser,
        tuple(loop.trees[k] for k in played),
        np.asarray(y, dtype=np.float64),
        no_symmetry(game),
        time.perf_counter() - loop.start,
        None,
        None,
        tuple(loop.steps),
        tuple(notes),
        paid.name,
    )
