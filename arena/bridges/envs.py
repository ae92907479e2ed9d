"""Any guessing game as a PettingZoo or Gymnasium environment (the optional extra:
`pip install 'guessing-arena[envs]'`).

    from arena.bridges.envs import aec_env, guesser_env
    env = aec_env("mastermind:pegs=2,colors=4")           # PettingZoo AEC: agents chooser, guesser
    env = guesser_env("jotto:first=50", chooser="evil")   # Gymnasium: the guesser against a chooser

Both play the game move by move as arena.play.moves.Play does: replies come from the game's feedback
table (or from a chooser of the registry, every reply checked by the referee's own check), a game
ends where the referee ends it, and the rewards add up to what the game costs (arena.core.costs:
guesses, Hangman's misses, or a lost game), paid as it is counted: -1 to the guesser (+1 to
the chooser) for each guess, or each miss.

Observations carry action masks. The guesser's mask marks its *useful* guesses (those that may
hit or split the candidates: arena.play.moves.useful_guesses); any guess the rules allow is
accepted, but one outside the mask costs a guess and tells nothing, and a game is truncated
after arena.play.match.MAX_TURNS guesses. The chooser's mask marks the secrets, or the replies that
leave a secret possible.

The chooser of `aec_env` plays one of two ways (`chooser_moves`):

- "secret" (the default): it picks the secret as its first move and the replies follow from the
  table: the zero-sum game `arena equilibrium` and arena.bridges.openspiel solve;
- "replies": it keeps no secret and answers each guess with a reply that leaves a secret
  possible, as the evil and minimax choosers do (games with one opening: give Hangman `length=`).

`guesser_env(spec, chooser=SPEC)` plays the chooser itself: any chooser of the registry
(`uniform`, `evil`, `minimax`, `equilibrium`, a `module:Class`), started with a seed drawn
from the environment's generator, so `reset(seed=k)` replays the same games. Openings that leave
one secret (a Hangman word alone of its length) need no guess and are left out.

Like the command line, this is a front module: it turns chooser specs into agents.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents import make_chooser

from ..core.errors import ArenaError, RuleBreak, choices
from ..core.game import Game
from ..core.players import ChooserProtocol
from ..core.state import State
from ..games import make_game
from ..play.match import MAX_TURNS, checked_reply
from ..play.moves import Play, history_string, mask_of

INSTALL = "pip install 'guessing-arena[envs]'"
MOVES = ("secret", "replies")


def _spaces() -> Any:
    try:
        from gymnasium import spaces  # lazy: heavy (the optional extra)
    except ImportError:
        raise ArenaError(f"arena.bridges.envs needs Gymnasium (and PettingZoo for aec_env): {INSTALL}") from None
    return spaces


def _game(spec: str | Game) -> Game:
    return spec if isinstance(spec, Game) else make_game(spec)


def consistent_replies(game: Game, candidates: np.ndarray, guess: int) -> np.ndarray:
    """The replies to `guess` that leave a candidate possible (a mask over the reply codes)."""
    return mask_of(np.unique(game.table[guess, candidates]), game.n_codes)


# --- PettingZoo -----------------------------------------------------------------------------


def aec_env(spec: str | Game, cost: str | None = None, chooser_moves: str = "secret") -> Any:
    """The game `spec` as a PettingZoo AEC environment with the agents `chooser` and `guesser`
    (see the module docstring); `cost` is what the chooser wins (default: the game's own)."""
    try:
        from pettingzoo import AECEnv  # lazy: heavy (the optional extra)
    except ImportError:
        raise ArenaError(f"arena.bridges.envs.aec_env needs PettingZoo: {INSTALL}") from None
    if chooser_moves not in MOVES:
        raise ArenaError(f"chooser_moves={chooser_moves!r}: one of {choices(MOVES)}")
    game = _game(spec)
    if chooser_moves == "replies" and len(game.openings(game.all_secrets)) > 1:
        raise ArenaError(
            f"{game.spec}: a chooser who answers move by move plays one opening; give one (Hangman: length=)"
        )

    class GuessingAEC(GuessingMoves, AECEnv):  # the moves first: they override AECEnv's stubs
        pass

    return GuessingAEC(game, cost, chooser_moves)


class GuessingMoves:
    """The moves of `aec_env`'s environment, without PettingZoo: mixed into its AECEnv (which
    holds `_was_dead_step` and `_accumulate_rewards`), so that loading this module needs no
    PettingZoo."""

    metadata = {"name": "arena_guessing_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: Game, cost: str | None, chooser_moves: str) -> None:
        super().__init__()
        self.game, self.cost, self.moves = game, cost, chooser_moves
        self.possible_agents = ["chooser", "guesser"]
        self.render_mode = "ansi"
        spaces = _spaces()
        size = len(game.secrets)
        chooser_actions = size if chooser_moves == "secret" else game.n_codes
        self._action = {"chooser": chooser_actions, "guesser": len(game.guesses)}
        seen = {"chooser": 2 * size + len(game.guesses), "guesser": size}
        self.observation_spaces = {
            a: spaces.Dict(
                {"observation": spaces.MultiBinary(seen[a]), "action_mask": spaces.MultiBinary(self._action[a])}
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self._action[a]) for a in self.possible_agents}
        self.pending: int | None = None  # the guess the chooser answers ("replies")

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        game = self.game
        self.agents = list(self.possible_agents)
        self.play = Play.start(game, self.cost)
        if self.moves == "replies":
            self.play.open(*game.openings(game.all_secrets)[0])
        self.pending = None
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = "chooser" if self.moves == "secret" else "guesser"

    def _mask(self, agent: str) -> np.ndarray:
        play, game = self.play, self.game
        if agent == "guesser":
            return mask_of(play.legal(), len(game.guesses))
        if play.done:
            return np.zeros(self._action[agent], dtype=np.int8)
        if self.moves == "secret":
            return mask_of(game.all_secrets if play.secret is None else [], len(game.secrets))
        if self.pending is None:
            return np.zeros(self._action[agent], dtype=np.int8)
        return consistent_replies(game, play.candidates, self.pending)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        play, size = self.play, len(self.game.secrets)
        seen = mask_of(play.candidates, size)
        if agent == "chooser":  # the candidates, its secret, the guess to answer
            secret = mask_of([] if play.secret is None else [play.secret], size)
            guess = mask_of([] if self.pending is None else [self.pending], len(self.game.guesses))
            seen = np.concatenate([seen, secret, guess])
        return {"observation": seen, "action_mask": self._mask(agent)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # type: ignore[attr-defined]  # AECEnv's
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        before = self.play.payoff()
        if agent == "chooser":
            self._chooser_moves(action)
        else:
            self._guesser_moves(action)
        paid = self.play.payoff() - before
        self.rewards = {"chooser": paid, "guesser": -paid}
        if self.play.done:
            self.terminations = {a: True for a in self.agents}
        elif self.play.guesses >= MAX_TURNS:
            self.truncations = {a: True for a in self.agents}
        self._accumulate_rewards()  # type: ignore[attr-defined]  # AECEnv's

    def _chooser_moves(self, action: int | None) -> None:
        """The chooser picks the secret ("secret"), or answers the pending guess ("replies")."""
        game = self.game
        if self.moves == "secret":
            if not (action is not None and 0 <= int(action) < len(game.secrets)):
                raise ArenaError(f"the chooser's secret must be 0..{len(game.secrets) - 1}, got {action!r}")
            self.play.choose(int(action))
        else:
            reply, guess = action, self.pending
            if reply is None or guess is None or not (0 <= reply < game.n_codes and self._mask("chooser")[reply]):
                raise RuleBreak(f"the chooser's reply {action!r} is not one that leaves a secret possible")
            self.play.guess(guess, int(reply))
            self.pending = None
        self.agent_selection = "guesser"

    def _guesser_moves(self, action: int | None) -> None:
        """The guesser's guess, answered by the table ("secret") or left to the chooser."""
        guess = _checked(self.game, self.play, action)
        if self.moves == "secret":
            self.play.guess(guess)
        else:
            self.pending, self.agent_selection = guess, "chooser"

    def render(self) -> str:
        return history_string(self.play, True)

    def close(self) -> None:
        pass


def _checked(game: Game, play: Play, action: Any) -> int:
    """The guess `action`, if it is one the rules allow now (else an ArenaError in one line)."""
    if action is None or not (0 <= int(action) < len(game.guesses)):
        raise ArenaError(f"a guess of {game.spec} is 0..{len(game.guesses) - 1}, got {action!r}")
    reason = game.refusal(int(action), play.history)
    if reason:
        raise ArenaError(f"guess {game.guesses[int(action)]}: {reason}")
    return int(action)


# --- Gymnasium ------------------------------------------------------------------------------


def guesser_env(
    spec: str | Game, chooser: str | ChooserProtocol = "uniform", cost: str | None = None, allow_import: bool = False
) -> Any:
    """The guesser's side of the game `spec` as a Gymnasium environment, against `chooser` (a
    chooser spec of the registry, or a chooser itself such as an agents.learned.PolicyChooser;
    `allow_import` lets a `module:Class` spec import its module):
    observations {"candidates", "action_mask"} (arena.play.moves.observe), the mask also in `info`
    and `action_masks()`, reward minus what each guess costs (see the module docstring)."""
    try:
        import gymnasium  # lazy: heavy (the optional extra)
    except ImportError:
        raise ArenaError(f"arena.bridges.envs.guesser_env needs Gymnasium: {INSTALL}") from None
    game = _game(spec)
    agent = make_chooser(chooser, allow_import=allow_import) if isinstance(chooser, str) else chooser
    agent.check(game)
    playable = [part for _, part in game.openings(game.all_secrets) if not game.determined(part)]
    if not playable:
        raise ArenaError(f"{game.spec}: every secret is known before the first guess; nothing to play")
    secrets = np.sort(np.concatenate(playable))
    spaces = _spaces()

    class GuesserEnv(gymnasium.Env):
        metadata = {"render_modes": ["ansi"]}

        def __init__(self) -> None:
            self.game, self.chooser = game, agent
            self.render_mode = "ansi"
            self.action_space = spaces.Discrete(len(game.guesses))
            self.observation_space = spaces.Dict(
                {
                    "candidates": spaces.MultiBinary(len(game.secrets)),
                    "action_mask": spaces.MultiBinary(len(game.guesses)),
                }
            )
            self.play = Play.start(game, cost)

        def reset(self, *, seed: int | None = None, options: dict | None = None):
            super().reset(seed=seed)
            self.chooser.start(game, secrets, int(self.np_random.integers(0, 2**63)))
            self.play = Play.start(game, cost)
            if self.chooser.secret is not None:
                self.play.choose(self.chooser.secret)
            else:
                openings = [(label, part) for label, part in game.openings(secrets)]
                self.play.open(*openings[self.chooser.opening(game, openings)])
            observation = self.play.observe()
            return observation, {"action_mask": observation["action_mask"]}

        def action_masks(self) -> np.ndarray:
            """The useful guesses now, as booleans (sb3-contrib's MaskablePPO asks this)."""
            return self.play.observe()["action_mask"].astype(bool)

        def step(self, action: int):
            guess = _checked(game, self.play, action)
            state = State(self.play.candidates, tuple(self.play.history))
            reply, _ = checked_reply(game, self.chooser, state, guess, self.play.guesses + 1)
            before = self.play.payoff()
            self.play.guess(guess, reply)
            observation = self.play.observe()
            truncated = not self.play.done and self.play.guesses >= MAX_TURNS
            info = {"action_mask": observation["action_mask"], "reply": game.reply_label(reply)}
            return observation, before - self.play.payoff(), self.play.done, truncated, info

        def render(self) -> str:
            return history_string(self.play, False)

    return GuesserEnv()
