"""Parallelism you can see: how much of the split's work (split.py) could have run at once,
and how much did.

The split's work is counted in candidate sets searched (Stats.nodes, the unit of `arena
optimal`'s "sets searched"), of three kinds: the parent's own before it hands out any task
(the root, whose first guesses it scores, and what its search counted while it seeded the
incumbent and read the journal), each guess's opening (bounding its classes, solving those
the closed forms solve) and each piece (one class of one guess, searched under its budget).
The tasks depend on each other in one way only:

    the parent's work -> opening g -> piece (g, r) -> opening h at (g, r) -> piece (g, r, h, r') -> ...

A piece is handed out only once its guess is opened (the opening makes its class and its first
bound), and a piece that split itself (ledger.py) is followed by its own guesses' openings and
pieces. Guesses at one class are independent of each other, and so are the pieces of one guess:
the incumbent and the other pieces' bounds only tighten a piece's budget (pruning), so run side
by side they would still be searched, under the bounds known when they start. So the longest
chain of work that could not be split, the critical path, is

    critical path = parent + max over first guesses g of chain(opening g)
    chain(opening h)  = opening(h) + max over h's pieces p of chain(p)
    chain(piece p)    = piece(p) + (once p split itself) max over its guesses h of chain(opening h)

(a task searched twice, in two runs or after a deadline, counts the sum of its searches: they
follow each other; a piece that split itself counts what it searched before it did), `work` is
the sum over every task, and `parallelism` = work / critical path is the speed-up that no
number of workers can exceed for this work (more workers change which pieces are pruned, so
another run's work differs a little). With no set searched at all (every class closed by the
closed forms) the parallelism is 1: there is nothing to share out.

Each worker's busy fraction is measured in the parent: a task's end is when the parent receives
its result, its start that end less the seconds it ran on its worker (TaskResult.seconds,
timed where it ran: the same for forked workers and a Dask cluster's). The parent never has
more tasks in flight than workers, so these intervals are laid into that many lanes, each the
next free one (a lane stands for a worker: the parent cannot tell which process ran a task, nor
needs to); a lane's busy seconds over the split's wall time is its worker's busy fraction.

`--standing` reads a journal and searches nothing: its records carry the sets each piece and
each opening searched (journal.py; openings since issue 33), so it reports the tasks' work and
their critical path; the parent's and how busy the workers were are in no record, and the
report says so.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..core.game import Game, Index, Indexes
from .proofs import path_words

#: The key of a guess's opening among the tasks: its path, and this (a piece's is its reply, never negative).
OPENING = -1

#: A task: the path of the class it searches, (g1, r1, ..., h, r), or of the guess it opens, then OPENING.
TaskKey = tuple[int, ...]


@dataclass
class Work:
    """The split's tasks in one run, as the parent saw them: the sets each searched, keyed by
    its path (a piece's: the guesses and replies that lead to its class; an opening's: the
    path of its guess, then OPENING); the busy intervals (start, end) on the parent's clock;
    the parent's own sets; the workers. `from_journal`: read from a journal by --standing
    (pieces only, no intervals)."""

    workers: int = 0
    parent: int = 0
    sets: dict[TaskKey, int] = field(default_factory=dict)
    intervals: list[tuple[float, float]] = field(default_factory=list)
    from_journal: bool = False
    unknown_pieces: int = 0  # journal records that carry no count of sets (written without one)
    tasks: int = 0  # tasks returned (several to a message: split.deal)
    longest_task: float = 0.0  # the seconds of the longest task, as its worker timed it
    split_after: int | None = None  # the sets a piece searched before it split itself (None: never)

    def begin(self, workers: int, parent: int) -> None:
        """The tasks are about to be handed out to `workers`; the parent's search counted
        `parent` sets. The root, whose first guesses the parent scored, is one more: the
        one-process search counts it (its first node), and so the split's work is comparable."""
        self.workers, self.parent = workers, 1 + parent

    def done(self, path: tuple[int, ...], opening: bool, nodes: int, seconds: float = 0.0) -> None:
        """A task returned, having searched `nodes` sets in `seconds`; `path` its class's, or its
        guess's for an `opening`. (A failed task is not reported: the split stops on it.)"""
        key = (*path, OPENING) if opening else tuple(path)
        self.sets[key] = self.sets.get(key, 0) + int(nodes)
        self.tasks += 1
        self.longest_task = max(self.longest_task, float(seconds))

    def ran(self, seconds: float, now: float) -> None:
        """A worker's message (a batch of tasks) came back at `now`, `seconds` after it began: a busy interval."""
        self.intervals.append((now - seconds, now))

    @property
    def total(self) -> int:
        """The work: the sets searched, summed over the parent and every task."""
        return self.parent + sum(self.sets.values())

    def chain(self) -> tuple[int, TaskKey]:
        """The critical path (module docstring) and the deepest task on it (() where there is none)."""
        below: dict[tuple[int, ...], list[TaskKey]] = {}  # a class or a guess -> its tasks one level down
        for key in self.sets:
            if key[-1] == OPENING:
                below.setdefault(key[:-2], []).append(key)
            else:
                below.setdefault(key[:-1], []).append(key)

        def longest(key: TaskKey) -> tuple[int, TaskKey]:
            """The chain that starts with the task `key`, and its last task."""
            own = self.sets.get(key, 0)
            place = (
                key[:-1] if key[-1] == OPENING else key
            )  # an opening leads to its pieces, a piece to its node's openings
            after = [longest(k) for k in below.get(place, []) if k != key]
            best = max(after, key=lambda c: c[0], default=(0, key))
            return own + best[0], best[1]

        best = max((longest(k) for k in below.get((), [])), key=lambda c: c[0], default=(0, ()))
        return self.parent + best[0], best[1]

    @property
    def critical_path(self) -> int:
        return self.chain()[0]

    @property
    def parallelism(self) -> float:
        """work / critical path: the speed-up no number of workers exceeds (1 with no work)."""
        path = self.critical_path
        return self.total / path if path > 0 else 1.0

    def busy(self, wall: float) -> list[float]:
        """Each worker's busy fraction: its lane's busy seconds over `wall` (module docstring),
        in [0, 1], busiest first."""
        ends = [float("-inf")] * self.workers
        busy = [0.0] * self.workers
        for start, end in sorted(self.intervals):
            free = [i for i, e in enumerate(ends) if e <= start]
            lane = free[0] if free else min(range(self.workers), key=ends.__getitem__)
            busy[lane] += max(0.0, end - max(start, ends[lane]))  # a lane's seconds are never counted twice
            ends[lane] = max(ends[lane], end)
        return sorted((min(1.0, max(0.0, b / wall)) if wall > 0 else 0.0 for b in busy), reverse=True)

    def figures(self, game: Game, wall: float) -> dict:
        """The figures --json prints: work, critical path, parallelism, busy fractions, and the
        chain that makes the critical path."""
        path, last = self.chain()
        out: dict = {
            "work": self.total,
            "critical_path": path,
            "parallelism": round(self.parallelism, 3),
            "critical_chain": chain_json(game, last) | ({} if self.from_journal else {"parent": self.parent}),
        }
        if self.from_journal:
            return out | {
                "work_from": f"the journal's {len(self.sets):,} tasks",
                "work_unknown": UNKNOWN
                + (f"; {self.unknown_pieces:,} records count no sets" if self.unknown_pieces else ""),
            }
        return out | {
            "busy": [round(b, 3) for b in self.busy(wall)],
            "workers": self.workers,
            "split_after": self.split_after,
            "tasks": self.tasks,
            "messages": len(self.intervals),  # batches of tasks (split.deal)
            "longest_task_seconds": round(self.longest_task, 3),  # how stale a budget can get
            "longest_message_seconds": round(self.longest_message(), 3),
        }

    def longest_message(self) -> float:
        """The longest a worker's message (a batch of tasks) took, from hand-out to return."""
        return max((end - start for start, end in self.intervals), default=0.0)

    def line(self, game: Game, wall: float) -> str:
        """One line of the split's report (SolvedTree.report)."""
        path, last = self.chain()
        head = f"parallelism {self.parallelism:,.1f}: work {self.total:,} sets searched, critical path {path:,}"
        where = "" if not last else f" ({chain_text(game, last)})"
        if self.from_journal:
            return f"{head}{where}, over the journal's {len(self.sets):,} tasks; not in the journal: {UNKNOWN}"
        busy = ", ".join(f"{b:.0%}" for b in self.busy(wall)[:8]) + (", ..." if self.workers > 8 else "")
        n = len(self.intervals)
        tasks = (
            f"{self.tasks:,} tasks in {n:,} message{'' if n == 1 else 's'}, the longest task {self.longest_task:.2f} s "
            f"(message {self.longest_message():.2f} s)"
        )
        return f"{head}{where}; {tasks}; workers busy {busy} of {wall:.2f} s"


#: What a journal cannot tell --standing.
UNKNOWN = "the parent's sets, and how busy the workers were"


def chain_json(game: Game, last: TaskKey) -> dict:
    """The critical path's last task as JSON: the first guess, and the path down to it."""
    if not last:
        return {}
    path = last[:-1] if last[-1] == OPENING else last
    out: dict = {"first_guess": game.guesses[path[0]], "path": path_words(game, path), "opening": last[-1] == OPENING}
    if last[-1] != OPENING and len(path) == 2:
        out["reply"] = game.reply_label(path[1])
    return out


def chain_text(game: Game, last: TaskKey) -> str:
    if last[-1] == OPENING:
        return "opening " + " ".join(path_words(game, last[:-1]))
    return f"down to the class {' '.join(path_words(game, last))}"


def journal_work(lines: Iterable[tuple[int, str]], game: Game) -> Work:
    """The tasks' work that a journal's records hold (their "nodes": the sets each piece or
    opening searched), for --standing. The records were checked as they were read (journal.py); a
    count that is not a whole number >= 0 is left out, and counted in `unknown_pieces`."""
    work = Work(from_journal=True)
    for _, text in lines:
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        nodes = data.get("nodes")
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 0:
            work.unknown_pieces += 1
            continue
        at = data.get("at", [])
        path = [game.guess_index(x) if i % 2 == 0 else int(game.parse_reply(x)) for i, x in enumerate(at)]
        guess = game.guess_index(data["guess"])
        key = (*path, guess, int(game.parse_reply(data["reply"]))) if "reply" in data else (*path, guess, OPENING)
        work.sets[key] = work.sets.get(key, 0) + nodes
    return work


def fewer_workers(
    game: Game, S: Indexes, openings: Iterable[Index], workers: int, notice: Callable[[str], None] | None
) -> int:
    """`workers`, or fewer when the split cannot keep that many busy: at most one task a first
    guess (opening it) or a class of one (a piece) is ever in flight, so more processes than
    that only take memory (each forked worker its share of the cache). Said (`notice`) only where
    there is something to search (with nothing, one process is started and never used)."""
    openings = list(openings)
    if workers <= len(openings):
        return workers
    most = sum(max(1, sum(1 for r in game.partition(g, S) if not game.finished(r))) for g in openings)
    if workers <= most:
        return workers
    if notice is not None and most > 0:
        notice(
            f"--workers {workers}: the split has at most {most:,} pieces to search at once: using {most:,} processes"
        )
    return max(1, most)
