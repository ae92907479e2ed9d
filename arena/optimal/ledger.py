"""The split's ledger: what the parent knows of the top of the search tree, and which task is next.

The split (split.py) searches the optimum as a tree of tasks. At the root, and at every class
whose piece split itself, a *node* is the class's guesses, each an *opening*, whose *pieces* are
the classes it leaves:

    C(N) = min over guesses h of N of  w(N) + sum over h's non-hit replies r of C(N_r(h))

A piece is searched by a worker under a budget (pieces.py). One that has searched `split_after`
sets hands itself back unsolved, and the parent makes it a node of its own (`expand`): its
guesses scored as the root's are (one per symmetry class, best bound first), each opened by a
worker and its classes searched as pieces, and so on down. Bounds flow up,

    bound(opening h of N) = w(N) + sum of its pieces' bounds       exact when every piece is
    bound(piece)          = min over its node's openings' bounds   exact when the least is

and budgets flow down: a node's openings are searched under

    limit(N) = min(budget(N), the least exact opening of N)        the root's: the incumbent
    budget(piece r of h)  = limit(N) - (bound(h) - bound(r))

Bounds only rise and the incumbent only falls, so budgets only fall: an opening whose bound
reaches its node's limit stays closed, and a node's least bound is at any moment a lower bound
on its class, whatever budgets its tasks were searched under. Which tasks are handed out is a
decision; the bounds are proofs, and the journal records them at every depth (journal.py).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..core.errors import ArenaError
from ..core.game import Game, Index, Indexes
from .bounds import INF
from .journal import Journal
from .parallelism import Work
from .pieces import Classes, Path, Scored, node_guesses, walk
from .proofs import ClassProof, GuessProof, lower_bound, path_words
from .search import Search


@dataclass
class Piece:
    """One class an opening leaves: the secrets replying `reply` to `guess`, its best proven
    bound, and once solved its exact value and best subtree (guesses in pre-order); `node`: its
    own guesses, once it split itself."""

    guess: Index
    reply: int
    secrets: Indexes
    bound: float
    exact: bool = False
    tree: list[Index] | None = None
    flying: bool = False
    path: Path = ()  # (g1, r1, ..., guess, reply): (guess, reply) at the root
    node: Node | None = None

    def __post_init__(self) -> None:
        if not self.path:
            self.path = (int(self.guess), int(self.reply))


@dataclass
class Opening:
    """What is known of one guess at a node: its best lower bound, its pieces once opened, and
    whether it is closed (every piece exact, or a bound at least its node's limit)."""

    guess: Index
    bound: float
    exact: bool = False
    closed: bool = False
    seconds: float = 0.0
    nodes: int = 0
    pieces: list[Piece] | None = None  # None: not opened yet
    opening: bool = False  # being opened by a worker
    limit: float = INF  # what it had to beat when it was last handed out to be opened
    at: Path = ()  # the class it is played at: () the root, else its piece's path

    @property
    def path(self) -> Path:
        return (*self.at, int(self.guess))


@dataclass
class Node:
    """A class whose guesses the parent hands out (the root, or a piece that split itself):
    its openings by guess, the order they are taken in, and the least exact one so far.

    The parent looks at its nodes once a task (thousands a second on many workers), so each
    keeps what makes that cheap: `live`, the order less the openings found closed (they stay
    closed), and a heap of the openings' bounds for the least of them."""

    path: Path
    secrets: Indexes
    weight: float
    openings: dict[Index, Opening]
    order: list[Index]
    piece: Piece | None = None  # the piece it stands for (None: the root)
    incumbent: float = INF
    best_guess: Index = -1
    live: list[Index] = field(default_factory=list)
    passed: int = 0  # the closed openings the last look at `live` passed over
    bounds: list[tuple[float, Index]] = field(default_factory=list)  # a heap; an entry is stale when its opening rose

    def __post_init__(self) -> None:
        self.live = list(self.order)
        self.heap_again()

    def heap_again(self) -> None:
        """The heap of bounds afresh (an exact value summed below its bound lowers it: rare)."""
        self.bounds = [(o.bound, g) for g, o in self.openings.items()]
        heapq.heapify(self.bounds)

    def lower(self) -> float:
        """What is proven of the class's cost (proofs.lower_bound). Bounds only rise, so a
        stale entry on top is pushed again with its opening's bound until the top is current."""
        heap = self.bounds
        while heap and self.openings[heap[0][1]].bound != heap[0][0]:
            heapq.heapreplace(heap, (self.openings[heap[0][1]].bound, heap[0][1]))
        return lower_bound((heap[0][0] if heap else INF,), self.incumbent)

    def exact(self) -> bool:
        return self.best_guess >= 0 and self.incumbent <= self.lower()


class Split:
    """The parent's bookkeeping: the nodes and their pieces, the incumbent; which task to hand
    out next, and what a task's result implies (module docstring)."""

    def __init__(
        self,
        game: Game,
        scout: Search,
        S: Indexes,
        b: int,
        sym,
        openings: dict[Index, Opening],
        order: list[Index],
        incumbent: float,
    ):
        self.game, self.scout, self.S, self.b, self.sym = game, scout, S, b, sym
        self.root = Node((), S, scout.weight(S), openings, order, incumbent=incumbent)
        self.nodes: dict[Path, Node] = {(): self.root}
        self.given = "given"  # where an incumbent no first guess has beaten came from
        self.held = incumbent  # the cost of the tree held where no first guess has beaten it (a target is no tree)
        self.records: dict[Path, ClassProof] = {}  # from the journal, used as an opening opens
        self.opened_records: dict[Path, GuessProof] = {}  # openings below the root, from the journal
        self.below: dict[Path, list[Path]] = {}  # the classes those openings are played at, and the openings
        self.pieces_closed = 0
        self.log: Journal | None = None
        self.journaled: set[Path] = set()  # openings the journal holds opened
        self.split_pieces = 0  # pieces that split themselves, in this run or before it
        self.work = Work()

    # the root's figures, by their old names
    @property
    def openings(self) -> dict[Index, Opening]:
        return self.root.openings

    @property
    def order(self) -> list[Index]:
        return self.root.order

    @property
    def incumbent(self) -> float:
        return self.root.incumbent

    @incumbent.setter
    def incumbent(self, value: float) -> None:
        self.root.incumbent = value

    @property
    def best_guess(self) -> Index:
        return self.root.best_guess

    @property
    def weight(self) -> float:
        return self.root.weight

    def lower_bound(self) -> float:
        """min(incumbent, the least bound of a first guess): proofs.lower_bound."""
        return self.root.lower()

    def closed(self) -> int:
        return sum(1 for o in self.openings.values() if o.closed or o.bound >= self.incumbent)

    def next_task(self) -> tuple[str, Opening | Piece, float] | None:
        """The next task to hand out: ("open", an opening, what it must beat) or ("piece", a
        class, its budget), depth first: each node's openings in order of their bound, each
        one's classes smallest first; None when every task left is in flight or waits on one."""
        return next(self.tasks(), None)

    def tasks(self) -> Iterator[tuple[str, Opening | Piece, float]]:
        """The tasks next_task would give one after another, in one pass over the nodes (each is
        marked in flight as it is given): take what is wanted before the ledger hears anything."""
        return self._tasks(self.root, INF)

    def _tasks(self, node: Node, budget: float) -> Iterator[tuple[str, Opening | Piece, float]]:
        limit = min(budget, node.incumbent)
        if 4 * node.passed > len(node.live):  # drop the closed openings once they are many
            node.live = [g for g in node.live if not node.openings[g].closed]
        node.passed, elder = 0, False  # elder: an opening before this one is still open
        for g in node.live:
            o = node.openings[g]
            if not o.closed and o.bound >= limit:
                o.closed = True
            if o.closed:
                node.passed += 1
                continue
            if o.pieces is None:
                # below the root, the first open guess is solved before its brothers are opened: the
                # search would know its value before it tried them, which likely prunes them
                if node.best_guess < 0 and node.piece is not None and elder:
                    return
                if not o.opening:
                    o.opening, o.limit = True, limit
                    yield "open", o, limit
            else:
                yield from self._piece_tasks(o, limit)
            elder = elder or not o.closed

    def _piece_tasks(self, o: Opening, limit: float) -> Iterator[tuple[str, Opening | Piece, float]]:
        """The tasks among an opened guess's pieces (closing the guess when one cannot fit)."""
        for piece in o.pieces or []:
            if piece.exact or piece.flying:
                continue
            room = room_under(limit, o, piece)
            if room <= piece.bound:  # this guess cannot beat the limit
                o.closed = True
                return
            if piece.node is not None:
                yield from self._tasks(piece.node, room)
                continue
            piece.flying = True
            yield "piece", piece, room

    def node_of(self, o: Opening) -> Node:
        return self.nodes[o.at]

    def opening_of(self, piece: Piece) -> Opening:
        return self.nodes[piece.path[:-2]].openings[piece.guess]

    def room(self, piece: Piece) -> float:
        """The budget `piece` would be handed out with now (`_piece_tasks`): its node's limit
        less what its guess's other classes are proven to cost. It only falls, as the
        incumbent and every node's best fall and the classes' bounds rise: split.push_rooms
        pushes it into the piece while it runs."""
        node = self.nodes[piece.path[:-2]]
        return room_under(self.limit(node), node.openings[piece.guess], piece)

    def limit(self, node: Node) -> float:
        """What a node's guesses must beat now (`_tasks`): the least of its own best and the
        room of the piece it stands for (the root: the incumbent)."""
        return min(INF if node.piece is None else self.room(node.piece), node.incumbent)

    def opened(self, o: Opening, total: float, classes: Classes, effort: tuple[float, int] = (0.0, 0)) -> None:
        """An opening opened by a worker: its bound, and its pieces with what the journal holds
        of them (no classes and a bound at the limit it was opened with, `o.limit`: it cannot
        beat this run's, since limits only fall; below it, a guess that leaves no class, whose
        cost is what it pays); `effort`: the opening's seconds and sets."""
        o.opening = False
        o.bound = max(o.bound, total)
        if self.log is not None and o.path not in self.journaled:
            self.log.append_opened(self.game, o.path, total, classes, *effort)
            if classes:
                self.journaled.add(o.path)
        node = self.node_of(o)
        if not classes and total >= o.limit:
            self.update(o)
            return
        pieces = []
        for r, bound, exact, tree in classes:
            C = self.game.consistent(node.secrets, o.guess, r)
            piece = Piece(o.guess, r, C, bound, exact, tree, path=(*o.path, int(r)))
            record = self.records.get(piece.path)
            if record is not None and not piece.exact:
                piece.bound = max(piece.bound, record.bound)
                piece.exact, piece.tree = record.exact, record.tree
            pieces.append(piece)
        o.pieces = pieces
        for piece in pieces:
            if not piece.exact and self.has_records_below(piece.path):
                self.expand(piece)
        self.update(o)

    def has_records_below(self, path: Path) -> bool:
        """Does the journal hold an opening below the class at `path` (it split itself)?"""
        return path in self.below

    def expand(self, piece: Piece, guesses: Scored | None = None) -> Node:
        """The piece as a node of its own: its guesses (pieces.node_guesses: one per symmetry
        class, those that can find every secret in the guesses left, scored and ordered as the
        root's; `guesses` as the worker that split the piece scored them, else scored here),
        each an opening with what the journal holds of it."""
        search = self.scout
        place = walk(search, self.S, self.sym, piece.path)
        scored = node_guesses(search, place) if guesses is None else guesses
        openings = {g: Opening(g, x, at=piece.path) for g, x in scored}
        order = [g for g, _ in scored]
        node = Node(piece.path, place.secrets, search.weight(place.secrets), openings, order, piece)
        piece.node, piece.flying = node, False
        self.nodes[piece.path] = node
        self.split_pieces += 1
        for o in openings.values():
            proof = self.opened_records.get(o.path)
            if proof is None:
                continue
            o.bound = max(o.bound, proof.bound)
            if proof.opened:
                self.journaled.add(o.path)
                self.opened(o, o.bound, [(r, c.bound, c.exact, c.tree) for r, c in sorted(proof.classes.items())])
        stray = [p for p in self.below.get(piece.path, []) if p[-1] not in openings]
        if stray:
            raise ArenaError(
                f"the journal opens {' '.join(path_words(self.game, stray[0]))}, which is no guess the search plays there: "
                "the record cannot be right"
            )
        self.settle(node)
        return node

    def resume(self, proofs: dict[Path, GuessProof]) -> None:
        """What the journal proves (proofs.combine), as this run's bounds: a first guess whose
        classes the journal lists gets its pieces (closed when every one is exact, or when
        their bounds reach this run's incumbent), and each piece with records below it is made a
        node again with them; one with a bound alone keeps it, and is opened again if it is below
        the incumbent; the pieces of a guess not opened wait until it is."""
        self.opened_records = {path: proof for path, proof in proofs.items() if len(path) > 1}
        self.below = {}
        for path in self.opened_records:
            self.below.setdefault(path[:-1], []).append(path)
        for path, proof in self.opened_records.items():  # the classes of openings not opened below
            self.records.update(((*path, r), c) for r, c in proof.classes.items())
        for path, proof in proofs.items():
            if len(path) > 1:
                continue
            g = path[0]
            o = self.openings[g]
            o.bound = max(o.bound, proof.bound)
            if not proof.opened:
                self.records.update(((g, r), c) for r, c in proof.classes.items())
                continue
            self.journaled.add(path)
            o.pieces = [
                Piece(g, r, self.game.consistent(self.S, g, r), c.bound, c.exact, c.tree)
                for r, c in proof.classes.items()
            ]
            for piece in o.pieces:
                if not piece.exact and self.has_records_below(piece.path):
                    self.expand(piece)
            self.update(o)

    def update(self, o: Opening) -> None:
        """o's bound from its pieces; o exact when every piece is (the node's incumbent if
        below it), closed at the root when its bound reaches the incumbent; then what that
        changes for the piece its node stands for, up to the root."""
        node = self.node_of(o)
        if o.pieces is not None:
            o.bound = max(o.bound, node.weight + sum(p.bound for p in o.pieces))
            if all(p.exact for p in o.pieces):
                o.exact, o.closed = True, True
                value = node.weight + sum(p.bound for p in o.pieces)
                o.bound, lowered = value, value < o.bound
                if lowered:  # floats summed in another order: a bound came down, which the heap does not expect
                    node.heap_again()
                if o.bound < node.incumbent:
                    node.incumbent, node.best_guess = o.bound, o.guess
        if not o.exact and node is self.root and o.bound >= node.incumbent:
            o.closed = True
        if node.piece is not None:
            self.settle(node)

    def settle(self, node: Node) -> None:
        """The piece a node stands for takes the node's bound, and its value and subtree once
        the node is exact; its opening is updated in turn."""
        piece = node.piece
        assert piece is not None
        lower = node.lower()
        if piece.exact or lower <= piece.bound and not node.exact():
            return
        piece.bound = max(piece.bound, lower)
        if node.exact():
            piece.exact, piece.tree = True, self.node_tree(node)
        self.update(self.opening_of(piece))

    def node_tree(self, node: Node) -> list[Index]:
        """The best opening's tree at a node, its guesses in pre-order (the pieces' in reply order)."""
        if node.best_guess < 0:
            return []
        o = node.openings[node.best_guess]
        assert o.pieces is not None
        out = [node.best_guess]
        for piece in sorted(o.pieces, key=lambda p: p.reply):
            out += piece.tree or []
        return out

    def closed_piece(self, piece: Piece, value: float, exact: bool, tree: list[Index] | None) -> None:
        piece.flying = False
        if not piece.exact:
            piece.bound = max(piece.bound, value)
            piece.exact, piece.tree = exact, tree if exact else None
        self.pieces_closed += 1
        self.update(self.opening_of(piece))

    def best_tree(self) -> list[Index]:
        """The best first guess's tree, its guesses in pre-order (the pieces' in reply order)."""
        return self.node_tree(self.root)

    def status(self, start: float) -> str:
        """One line: pieces and first guesses closed, the incumbent, the proven bound, the time."""
        best = (
            f"best {self.incumbent:,.6g} ({self.game.guesses[self.best_guess]})"
            if self.best_guess >= 0
            else f"best {self.held:,.6g} ({self.given})"
            if self.held < INF
            else "no tree yet"
        )
        if self.best_guess < 0 and self.incumbent < self.held:  # searched under a target (split.SplitRun)
            best += f", target {self.incumbent:,.6g}"
        split = f" ({self.split_pieces:,} split)" if self.split_pieces else ""
        return (
            f"{self.pieces_closed:,} pieces{split}, {self.closed():,}/{len(self.openings):,} first guesses closed, "
            f"{best}, proven >= {self.lower_bound():,.6g}, {time.perf_counter() - start:,.0f} s"
        )


def room_under(limit: float, o: Opening, piece: Piece) -> float:
    """A piece's budget: what its node's guesses must beat, less what its guess's other classes
    are proven to cost (the one formula of the tasks handed out and of the budgets pushed)."""
    return limit - (o.bound - piece.bound)


__all__ = ["Node", "Opening", "Piece", "Split"]
