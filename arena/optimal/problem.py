"""A `Problem`: what an exact search's result depends on, checked once, in one object.

    problem = Problem.of(make_game("mastermind"), pool="consistent", max_guesses=6)
    optimal_tree(problem).value         # the least total over the consistent trees within 6 guesses
    problem.key()                       # its identity, as journals and witness files record it

A problem is the game (hard mode is the game's rules), the secrets covered, their weights,
the guess pool, the objective, the cost (arena.core.costs), the guess limit and fixed first
guesses. `Problem.of` checks each of them and their combinations (the only place that does),
so the solvers (`optimal_tree`, the split, its pieces, the equilibrium's best responses) take a
problem that is known to be valid. How long to search and how (a time limit, workers, a
journal) is not part of the problem: it changes how soon the answer comes, not the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ..core import checks as door
from ..core.costs import Cost, cost_for
from ..core.digests import file_digest, is_file, proof_code, sha256
from ..core.errors import ArenaError, choices
from ..core.game import Game, Index, Indexes
from .inputs import invariant, opener_indexes, secret_set, weight_vector
from .params import Objective, Pool, agent_spec

if TYPE_CHECKING:
    from .search import Search

__all__ = ["Objective", "Pool", "Problem", "SentProblem", "game_identity"]


Choice = TypeVar("Choice", bound=StrEnum)


def enum_choice(kind: type[Choice], name: str, value: Any) -> Choice:
    """`value` (a member or its string) as a member of `kind`, or one ArenaError naming the valid ones."""
    valid = [m.value for m in kind]
    if not isinstance(value, str) or value not in valid:
        raise ArenaError(f"{name} must be one of {choices(valid)}, got {value!r}")
    return kind(value)


def canonical_spec(spec: str) -> str:
    """The game spec with defaults dropped, so `jotto` and `jotto:words=sgb` key alike."""
    from ..core.spec import bind, canonical, parse_spec
    from ..games import GAMES

    name, raw = parse_spec(spec)
    return canonical(name, GAMES[name].params, bind(name, GAMES[name].params, raw)) if name in GAMES else spec


def weights_digest(weights: np.ndarray | None) -> str:
    """ "equal", or the SHA-256 of the weights as float64 in the game's order."""
    if weights is None:
        return "equal"
    return sha256(np.ascontiguousarray(weights, dtype="<f8").tobytes()).hexdigest()


def game_files(spec: str) -> dict[str, str]:
    """File -> SHA-256 for every file a game spec reads: its parameters (defaults included) that
    name a shipped word list or an existing file."""
    from ..core.spec import bind, parse_spec
    from ..core.words import SHIPPED
    from ..games import GAMES

    name, raw = parse_spec(spec)
    if name not in GAMES:
        return {}
    values = [str(v) for v in bind(name, GAMES[name].params, raw).values()]
    return {v: file_digest(v) for v in sorted(set(values)) if v in SHIPPED or is_file(v)}


def game_identity(game: Game) -> dict:
    """The game's part of every key: its canonical spec and the SHA-256 of each file it reads."""
    return {"game": canonical_spec(game.spec), "files": game_files(game.spec)}


#: The modules whose code a split's journal holds the proofs of (the workers' search, the
#: parent's ledger, the journal's checks), with all they import, and the game's own module
#: (`proof_modules`): the journal's key holds their digest (core.digests.proof_code), so a
#: journal survives a change anywhere else in the project (another game's rules included)
#: and is refused after a change to any of them.
PROOF_MODULES = ("arena.optimal.pieces", "arena.optimal.ledger", "arena.optimal.journal", "arena.optimal.subtrees")


def proof_modules(game: Game) -> tuple[str, ...]:
    """PROOF_MODULES and the module that defines the game's rules (a plug-in game's too)."""
    return (*PROOF_MODULES, type(game).__module__)


def check_fewest(game: Game, paid: Cost, weights: Any) -> None:
    """Objective fewest-at-worst counts secrets, on guesses until a hit: refuse the rest."""
    if not game.rules.hits or not paid.pays_every_guess:
        raise ArenaError(
            f"objective fewest-at-worst counts the secrets that need the most guesses on a game a hit ends "
            f"(Jotto, Mastermind, Wordle), not {canonical_spec(game.spec)} with cost {paid.name}"
        )
    if weights is not None:
        raise ArenaError("objective fewest-at-worst counts secrets: it takes no weights")
    if game.rules.restricted:
        raise ArenaError("objective fewest-at-worst is not searched in hard mode (objective worst is)")


@dataclass(frozen=True, eq=False)
class Problem:
    """An exact search's problem (build it with `Problem.of`, which checks it).

    `weights` is the search's vector over every secret of the game (all ones when the covered
    secrets weigh the same; `scale` is then their common weight, by which values are scaled
    back at the end, else None); `weighted` says whether weights were given at all (the
    journal's key tells "equal" from given weights). `openers` are guess indexes."""

    game: Game
    secrets: Indexes
    weights: np.ndarray
    scale: float | None
    weighted: bool
    pool: Pool
    objective: Objective
    cost: Cost
    max_guesses: int | None
    openers: tuple[Index, ...]

    @classmethod
    def of(
        cls,
        game: Game,
        secrets: Sequence[Index] | np.ndarray | None = None,
        weights: Sequence[float] | np.ndarray | None = None,
        pool: Pool | str = Pool.ALL,
        objective: Objective | str = Objective.AVERAGE,
        max_guesses: int | None = None,
        cost: str | Cost | None = None,
        openers: Sequence[Index | str] = (),
    ) -> Problem:
        """The problem, every argument checked (one ArenaError naming the first wrong one):
        `secrets` indexes (default all), `weights` one per secret covered or of the game (>= 0),
        `pool` "all" or "consistent" and `objective` "average" or "worst" (enum members or their
        names), `max_guesses` >= 1 (None: no limit), `cost` a name or a Cost (None: the game's
        own), `openers` words or indexes."""
        door.game(game)
        chosen_pool: Pool = enum_choice(Pool, "pool", pool)
        chosen_objective: Objective = enum_choice(Objective, "objective", objective)
        paid = cost_for(game, cost)
        if max_guesses is not None:
            max_guesses = door.integer(max_guesses, "max_guesses", low=1)
        if not paid.has_worst_case and chosen_objective != Objective.AVERAGE:
            raise ArenaError(
                "the lost-games cost is the chance of losing: it has no worst-case objective "
                "(the worst case is the fewest misses in the worst case: cost misses, objective worst)"
            )
        S = secret_set(game, secrets)
        w, scale = weight_vector(game, S, weights)
        fixed = opener_indexes(game, openers)
        if fixed and not paid.solves_openers:
            raise ArenaError("openers: fixed first guesses are solved for the guesses or misses cost, not lost games")
        if fixed and chosen_objective != Objective.AVERAGE:
            raise ArenaError(
                "openers: fixed first guesses are solved for the average (objective average); "
                f"objective {chosen_objective.value} searches its own first guess"
            )
        if chosen_objective == Objective.FEWEST_AT_WORST:
            check_fewest(game, paid, weights)
        return cls(game, S, w, scale, weights is not None, chosen_pool, chosen_objective, paid, max_guesses, fixed)

    @property
    def unit(self) -> float:
        """What one unit of the search's values is worth in the weights given (1 without a common weight)."""
        return 1.0 if self.scale is None else self.scale

    @property
    def everything(self) -> bool:
        """Every secret of the game covered, all weighing the same."""
        return self.scale is not None and len(self.secrets) == len(self.game.secrets)

    @property
    def hard(self) -> bool:
        """Do the rules narrow the guesses allowed as the game goes (Wordle's hard mode)?"""
        return bool(self.game.rules.restricted)

    @property
    def opener_words(self) -> tuple[str, ...]:
        return tuple(self.game.guesses[g] for g in self.openers)

    @property
    def given_weights(self) -> np.ndarray | None:
        """The weights as given, over every secret (None: none given)."""
        return self.weights * self.unit if self.weighted else None

    def symmetry(self) -> Any:
        """The game's symmetries that keep the covered secrets' weights (None: none)."""
        from .search import stabilizer

        everything = self.everything
        return stabilizer(self.game, None if everything else invariant(self.game, self.secrets, self.weights))

    def search(self, **settings: Any) -> Search:
        """A search of this problem (search.Search.of): `settings` are its limit, symmetry,
        deadline and cache_budget (default: the problem's limit and symmetry, no deadline)."""
        from .search import Search

        return Search.of(self, **settings)

    def label(self) -> str:
        """The `optimal` agent's spec that replays this problem's trees."""
        own = self.cost == cost_for(self.game)
        return agent_spec(
            self.pool, self.objective, self.max_guesses, None if own else self.cost.name, self.opener_words
        )

    def key(self) -> dict:
        """What a result of this problem depends on, as a journal records it: the game (spec and
        files), the pool, objective, cost, guess limit, the weights' digest and the version of
        the code that proves it (PROOF_MODULES and what they import)."""
        return game_identity(self.game) | {
            "pool": self.pool.value,
            "objective": self.objective.value,
            "cost": self.cost.name,
            "max_guesses": self.max_guesses,
            "weights": weights_digest(self.given_weights),
            "version": proof_code(proof_modules(self.game)),
        }

    def sent(self) -> SentProblem:
        """The problem as a worker that did not fork from this process rebuilds it (Dask)."""
        given = self.given_weights
        return SentProblem(self.game.spec, self.pool, weights_digest(given), given, self.max_guesses)


@dataclass(frozen=True, eq=False)
class SentProblem:
    """A problem over every secret of a game, sent to a worker that builds the game from its
    spec: the weights' digest names them (the worker's cache key), the vector is None when equal."""

    spec: str
    pool: Pool
    digest: str
    weights: np.ndarray | None
    max_guesses: int | None

    def cache_key(self) -> tuple:
        return (self.spec, str(self.pool), self.digest, self.max_guesses)

    def built(self) -> Problem:
        """The problem on this worker (the game built from its spec, once: make_game caches it)."""
        from ..games import make_game

        return Problem.of(make_game(self.spec), None, self.weights, self.pool, max_guesses=self.max_guesses)
