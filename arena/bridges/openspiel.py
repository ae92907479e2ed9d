"""Any guessing game as an OpenSpiel game (the optional extra: `pip install 'guessing-arena[openspiel]'`).

    from arena.bridges.openspiel import load_game
    game = load_game("mastermind:pegs=2,colors=3")      # a pyspiel.Game
    from open_spiel.python.algorithms import sequence_form_lp
    sequence_form_lp.solve_zero_sum_game(game)[0]       # 2.41667 = 29/12, as `arena equilibrium` prints

The game is the one `arena equilibrium` solves, registered with `pyspiel.register_game` as the
Python game `python_arena_guessing` (its parameters: `spec`, the game spec, percent-encoded
by `quote` in the game's string, and `cost`):

- player 0, the chooser, picks the secret as its one private move (no chance node: a
  deterministic game); player 1, the guesser, then sees only the opening (Hangman: the word's
  length) and the replies, and guesses until the game ends as the referee ends it;
- the chooser wins what the game costs the guesser (arena.core.costs: guesses, Hangman's misses or
  a lost game), the guesser loses it: zero-sum, paid at the end;
- the guesser's legal moves are its useful guesses (arena.play.moves.useful_guesses), which keeps
  the tree finite and the value the same.

Replies come from the game's own feedback table (arena.play.moves.Play), never recomputed here.
OpenSpiel's solvers traverse the whole tree, so `load_game` counts its histories first and
refuses a game with more than `max_histories` (arena.play.moves.MAX_HISTORIES) in one line.

pyspiel is imported when a game is first loaded, so that importing this module (and `arena`)
never needs the extra.
"""

from __future__ import annotations

import urllib.parse
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.costs import cost_for
from ..core.errors import ArenaError
from ..core.game import Game
from ..games import make_game
from ..play.moves import MAX_HISTORIES, Play, count_histories, history_string, mask_of

#: The name the game is registered under (OpenSpiel's Python games start with `python_`).
SHORT_NAME = "python_arena_guessing"
#: The players, in OpenSpiel's order.
ROLES = ("chooser", "guesser")
INSTALL = "pip install 'guessing-arena[openspiel]'"


def _pyspiel() -> Any:
    try:
        import pyspiel  # lazy: heavy (the optional extra)
    except ImportError:
        raise ArenaError(f"arena.bridges.openspiel needs OpenSpiel: {INSTALL}") from None
    return pyspiel


@lru_cache(maxsize=32)
def _arena_game(spec: str) -> Game:
    return make_game(spec)


def load_game(spec: str, cost: str | None = None, max_histories: int = MAX_HISTORIES) -> Any:
    """The `pyspiel.Game` of the game `spec` under `cost` (default: the game's own: guesses, or
    Hangman's misses; "lost" counts lost games), or an ArenaError in one line if its tree has
    more than `max_histories` histories (OpenSpiel's solvers walk them all) or OpenSpiel is
    not installed."""
    pyspiel = _pyspiel()
    game = _arena_game(spec)
    paid = cost_for(game, cost)
    size = count_histories(game, paid, max_histories)
    if size is None:
        raise ArenaError(
            f"{spec}: its OpenSpiel tree has more than {max_histories:,} histories, the limit for "
            f"OpenSpiel's solvers here (max_histories=); try a smaller instance, such as "
            f"mastermind:pegs=2,colors=3, jotto:first=8 or hangman:words=sgb,length=5,first=6"
        )
    register()
    return pyspiel.load_game(SHORT_NAME, {"spec": quote(spec), "cost": paid.name})


def quote(spec: str) -> str:
    """A game spec as OpenSpiel's game strings can hold it (`name(key=value,...)` takes no `,`,
    `=` or brackets inside a value): percent-encoded, `mastermind:pegs%3D2%2Ccolors%3D3`."""
    return urllib.parse.quote(spec, safe=":/._-")


def game_type() -> Any:
    """The GameType every guessing game is registered with: sequential, deterministic (the
    chooser's secret is a move, not chance), imperfect information, zero-sum, paid at the end."""
    pyspiel = _pyspiel()
    kind = pyspiel.GameType
    return kind(
        short_name=SHORT_NAME,
        long_name="Guessing Arena game (chooser against guesser)",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.DETERMINISTIC,
        information=kind.Information.IMPERFECT_INFORMATION,
        utility=kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"spec": "mastermind:pegs=2,colors=3", "cost": ""},
    )


@lru_cache(maxsize=1)
def register() -> None:
    """Register the game with OpenSpiel (once per process): `pyspiel.load_game(SHORT_NAME,
    {"spec": ..., "cost": ...})` then works as `load_game` does, without the size check."""
    pyspiel = _pyspiel()
    kind = game_type()

    class GuessingGame(pyspiel.Game):  # type: ignore[name-defined]
        """The chooser (player 0) picks a secret; the guesser (player 1) guesses until the end."""

        def __init__(self, params: dict | None = None):
            params = dict(params or {})
            # the spec as written or quoted (`quote`): the game's string then loads it again
            spec = urllib.parse.unquote(str(params.get("spec") or "mastermind:pegs=2,colors=3"))
            self.arena = _arena_game(spec)
            self.cost = cost_for(self.arena, str(params.get("cost") or "") or None)
            secrets, guesses = len(self.arena.secrets), len(self.arena.guesses)
            # each useful guess rules out a candidate (or hits): at most one guess per secret
            longest = max(1, secrets if self.arena.rules.hits else min(secrets - 1, guesses))
            worst = float(self.cost.of_rows(np.array([longest]), np.array([longest]))[0])
            info = pyspiel.GameInfo(
                num_distinct_actions=max(secrets, guesses),
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-worst,
                max_utility=worst,
                utility_sum=0.0,
                max_game_length=1 + longest,
            )
            super().__init__(kind, info, {"spec": quote(spec), "cost": self.cost.name})

        def new_initial_state(self):
            return GuessingState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer(self.arena, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), pyspiel)

    class GuessingState(pyspiel.State):  # type: ignore[name-defined]
        def __init__(self, game):
            super().__init__(game)
            self.play = Play.start(game.arena, game.cost)

        def current_player(self):
            if self.play.done:
                return pyspiel.PlayerId.TERMINAL
            return 0 if self.play.secret is None else 1

        def _legal_actions(self, player):
            if self.play.secret is None:
                return list(range(len(self.play.game.secrets)))
            return self.play.legal().tolist()

        def _apply_action(self, action):
            if self.play.secret is None:
                self.play.choose(action)
            else:
                self.play.guess(action)

        def _action_to_string(self, player, action):
            if player == 0:
                return f"secret {self.play.game.secrets[action]}"
            return self.play.game.guesses[action]

        def is_terminal(self):
            return self.play.done

        def returns(self):
            paid = self.play.payoff() if self.play.done else 0.0
            return [paid, -paid]

        def __str__(self):
            return history_string(self.play, True)

    pyspiel.register_game(kind, GuessingGame)


class Observer:
    """OpenSpiel's Python observer: strings of what a player knows (the secret for the chooser,
    or for everyone where the observation type says so; the opening and the moves for both),
    and a tensor of the candidates still possible (and the secret, where it is seen)."""

    def __init__(self, game: Game, iig_obs_type: Any, pyspiel: Any):
        private = iig_obs_type.private_info
        self.sees = {p: private == pyspiel.PrivateInfoType.ALL_PLAYERS for p in (0, 1)}
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            self.sees[0] = True  # only the chooser has private information: the secret
        size = len(game.secrets)
        self.tensor = np.zeros(2 * size, np.float32)
        self.dict = {"candidates": self.tensor[:size], "secret": self.tensor[size:]}

    def set_from(self, state: Any, player: int) -> None:
        play = state.play
        size = len(play.game.secrets)
        self.tensor[:size] = mask_of(play.candidates, size)
        self.tensor[size:] = 0
        if self.sees[player] and play.secret is not None:
            self.tensor[size + play.secret] = 1

    def string_from(self, state: Any, player: int) -> str:
        # the player's name first: OpenSpiel's tabular solvers key one table by these strings,
        # and the chooser's first state and the guesser's must not be the same key
        return f"{ROLES[player]}: {history_string(state.play, self.sees[player])}".rstrip()
