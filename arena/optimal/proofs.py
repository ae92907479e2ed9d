"""What a split's journal proves, put together from its records and checked against each other.

A journal holds proofs, never decisions (journal.py): each record says that a class of a guess
costs exactly a value (with the subtree that costs it), or at least a bound; or that a guess
costs at least a bound (with its classes' bounds when it was opened). The guess is a first
guess, or one played at a class below the root that split itself (ledger.py), named by its path. None of that
depends on the incumbent of the run that wrote it, so every run decides afresh what the proofs
close under its own incumbent (split.py): a first guess whose bound reaches the incumbent, or
whose every class is exact.

`combine` merges the records of each first guess and each class: the best bound wins, an exact
value replaces a bound, and records that cannot all be right are refused in one line naming the
line (a bound proven for a class above an exact value proven for it, or two exact values that
differ). `lower_bound` is the one rule by which a resumed run and `--standing` alike say what
is proven about the optimum.

What no reader can check without searching again: that a bound carried without a witness (a
first guess's bound alone, the bound of a class's search that failed high) is not above the
truth, and that an exact subtree, which is regrown and costed, is a best one. Those records are
taken as the search wrote them; everything else a damaged or edited record can get wrong is
refused (journal.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..core.errors import ArenaError
from ..core.game import Index

#: Relative slack when two bounds written as floats are compared.
TOLERANCE = 1e-9


def slack(x: float) -> float:
    """How far apart two floats near x may be and still be one bound."""
    return TOLERANCE * max(1.0, abs(x)) if math.isfinite(x) else 0.0


def same(a: float, b: float) -> bool:
    """a and b are the same bound (within the slack of floats; inf equals only inf)."""
    return a == b or abs(a - b) <= slack(max(abs(a), abs(b)))


@dataclass(frozen=True)
class ClassProof:
    """What is proven of one class: its exact value and best subtree, or a lower bound; `line`
    is the journal line that proved it (0: none)."""

    bound: float
    exact: bool
    tree: list[Index] | None = None
    line: int = 0


@dataclass
class GuessProof:
    """What is proven of one first guess: the best bound a record gives it, and its classes'
    proofs by reply (`opened`: a record listed all its classes)."""

    bound: float = -math.inf
    opened: bool = False
    classes: dict[int, ClassProof] = field(default_factory=dict)


def merge(known: ClassProof | None, new: ClassProof, what: str, where: Callable[[int], str]) -> ClassProof:
    """Two proofs of one class as one; an ArenaError naming `new`'s line when they contradict."""
    if known is None:
        return new
    if new.exact and known.exact:
        if not same(new.bound, known.bound):
            raise ArenaError(
                f"{where(new.line)}: {what} is solved exactly at {new.bound:g} here and at {known.bound:g} "
                f"on line {known.line}: the records cannot both be right"
            )
        return known
    if new.exact or known.exact:
        exact, bound = (new, known) if new.exact else (known, new)
        if bound.bound > exact.bound + slack(exact.bound):
            raise ArenaError(
                f"{where(new.line)}: {what} is proven to cost at least {bound.bound:g} on line {bound.line} "
                f"and exactly {exact.bound:g} on line {exact.line}: the records cannot both be right"
            )
        return exact
    return new if new.bound > known.bound else known


def combine(
    records: Iterable, where: Callable[[int], str], label: Callable[[tuple[int, ...], int], str]
) -> dict[tuple[int, ...], GuessProof]:
    """Each opening's proofs from the journal's records (journal.GuessRecord, PieceRecord), by
    its path (the class it is played at, then its guess: (g,) for a first guess), in the order
    met; contradicting records are an ArenaError (`merge`). `where(line)` names a line,
    `label(path, reply)` a class."""
    proofs: dict[tuple[int, ...], GuessProof] = {}
    for record in records:
        path = (*record.at, record.guess)
        proof = proofs.setdefault(path, GuessProof())
        if hasattr(record, "classes"):  # a first guess's record
            proof.bound = max(proof.bound, record.bound)
            pieces = record.classes
            proof.opened = proof.opened or bool(pieces)
        else:
            pieces = (record,)
        for piece in pieces:
            new = ClassProof(piece.bound, piece.exact, piece.tree, piece.line)
            known = proof.classes.get(piece.reply)
            proof.classes[piece.reply] = merge(known, new, label(path, piece.reply), where)
    return proofs


def path_words(game, path: tuple[int, ...]) -> list[str]:
    """A path from the root (ledger.py) in words: each guess, then the reply to it."""
    return [game.guesses[x] if i % 2 == 0 else game.reply_label(x) for i, x in enumerate(path)]


def lower_bound(bounds: Iterable[float], incumbent: float) -> float:
    """What is proven about the optimum: it is the least over the first guesses of their costs,
    each at least its proven bound (its exact cost once solved), and at most the incumbent (a
    tree in hand), so it is at least the least of these. Both a resumed split and --standing
    say this, from bounds that no incumbent decided."""
    return min([incumbent, *bounds])
