"""Policies trained elsewhere (in arena.bridges.envs, OpenSpiel or any code), as agents of the arena.

Two routes, both keyed in a tournament's tasks like any agent's code:

- A function of the observation: subclass `PolicyGuesser` (or `PolicyChooser`) in a module
  of your own and write its `act(observation)`; name it `mypkg.mymodule:MyGuesser` in a config
  or on the command line (with --allow-import). The tournament keys each task on the source of
  the module's package (arena.study.tournament.provenance), so a retrained policy is never served
  stale results.
- A saved table: `save_table(game, act, path)` writes what a guesser policy plays at every
  position its own games can reach (one row per candidate set), and the built-in guesser
  `learned:table=PATH` plays it back, in any process. The file is named in the spec, so the
  task is keyed on its contents (arena.study.tournament.tasks.spec_files), as a word list is.

The observation is the one arena.bridges.envs gives the guesser (arena.play.moves.observe):
{"candidates": 0/1 per secret still possible, "action_mask": 0/1 per useful guess}. The
chooser's adds "guess" (0/1 per guess, the one to answer) and masks the replies that leave a
secret possible.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from arena.core.errors import ArenaError
from arena.core.game import Game, Index, Reply
from arena.core.spec import Param
from arena.core.traits import Traits
from arena.play.moves import candidates_key, mask_of, observe, useful_guesses

from .base import Guesser, State
from .chooser import Chooser

#: The format of a saved policy table.
FORMAT = "arena-policy/1"
Observation = Mapping[str, np.ndarray]


class PolicyGuesser(Guesser):
    """A guesser whose move is `act(observation)`, a guess index (see the module docstring).
    Subclass it and write `act`; the guess must be one the rules allow."""

    name = "policy"
    summary = "a guesser policy trained elsewhere: act(observation) -> guess"
    traits = Traits()  # deterministic, and it sees the candidates, not the moves

    def act(self, observation: Observation) -> int:
        """The guess to play, given the observation."""
        raise NotImplementedError

    def choose(self, game: Game, state: State) -> Index:
        legal = useful_guesses(game, state.candidates, state.history)
        return int(self.act(observe(game, state.candidates, legal)))


class PolicyChooser(Chooser):
    """An adaptive chooser whose reply is `act(observation)`, a reply code that leaves a secret
    possible (the referee refuses any other). Subclass it and write `act`."""

    name = "policy"
    summary = "a chooser policy trained elsewhere: act(observation) -> reply"
    traits = Traits()  # adaptive (it keeps no secret) and deterministic

    def act(self, observation: Observation) -> int:
        """The reply to give, given the observation."""
        raise NotImplementedError

    def reply(self, game: Game, state: State, guess: Index) -> Reply:
        replies = np.unique(game.table[guess, state.candidates])
        observation = {
            "candidates": mask_of(state.candidates, len(game.secrets)),
            "guess": mask_of([guess], len(game.guesses)),
            "action_mask": mask_of(replies, game.n_codes),
        }
        return int(self.act(observation))


def walk(game: Game, act: Callable[[Observation], int]) -> dict[str, str]:
    """What the guesser policy `act` plays at each position its own games reach, over every
    secret: candidates key (arena.play.moves.candidates_key) -> guess label."""
    table: dict[str, str] = {}

    def visit(candidates: np.ndarray, history: tuple) -> None:
        legal = useful_guesses(game, candidates, history)
        guess = int(act(observe(game, candidates, legal)))
        if not 0 <= guess < len(game.guesses):
            raise ArenaError(f"the policy played {guess!r}, not a guess of {game.spec} (0..{len(game.guesses) - 1})")
        table[candidates_key(candidates)] = game.guesses[guess]
        for reply, part in game.partition(guess, candidates).items():
            if len(part) == len(candidates) and not game.finished(reply):
                raise ArenaError(
                    f"the policy plays {game.guesses[guess]} where it tells nothing "
                    f"({len(candidates)} secrets possible): its games would never end"
                )
            if not (game.finished(reply) or game.determined(part)):
                visit(part, history + ((guess, reply),))

    for _, part in game.openings(game.all_secrets):
        if not game.determined(part):
            visit(part, ())
    return table


def save_table(game: Game, act: Callable[[Observation], int], path: str | Path) -> int:
    """Write the guesser policy `act` as a table file for `learned:table=PATH`: its move at
    every position its own games reach (so it plays every game against any chooser). Returns
    the number of positions."""
    table = walk(game, act)
    data = {"format": FORMAT, "game": game.spec, "role": "guesser", "table": table}
    Path(path).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return len(table)


def read_table(path: str, owner: str) -> dict[str, Any]:
    """A saved policy table, checked; an ArenaError in one line if it is missing or not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise ArenaError(f"{owner}: cannot read {path}: {e.strerror}") from None
    except ValueError as e:
        raise ArenaError(f"{owner}: {path} is not JSON ({e})") from None
    except RecursionError:
        raise ArenaError(f"{owner}: {path} nests too deeply to be a policy table") from None
    if not (isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("table"), dict)):
        raise ArenaError(f"{owner}: {path} is not a policy table ({FORMAT}, written by agents.learned.save_table)")
    return data


class TableGuesser(Guesser):
    """Plays a policy saved by `save_table`: the guess its table holds for the candidates."""

    name = "learned"
    summary = "play a learned policy saved as a table (agents.learned.save_table)"
    params = {
        "table": Param("table", str, "", "the saved table (JSON, agents.learned.save_table)"),
        "fallback": Param("fallback", str, "", "a guesser for positions the table lacks (default: refuse)"),
    }
    traits = Traits()

    @classmethod
    def declared_params(cls):
        return dict(cls.params)  # a table already fixes its first guesses: no openers

    def __init__(self, **values):
        super().__init__(**values)
        if not self.values["table"]:
            raise ArenaError("guesser learned: give the saved table as learned:table=PATH")
        data = read_table(self.values["table"], self.spec)
        self.game_spec, self.table = str(data.get("game", "")), data["table"]
        self.fallback = None
        if self.values["fallback"]:
            from .registry import make_guesser

            self.fallback = make_guesser(self.values["fallback"])

    def check(self, game: Game) -> None:
        if self.game_spec != game.spec:
            raise ArenaError(f"{self.spec}: the table was learned on {self.game_spec}, not {game.spec}")
        if self.fallback is None:  # every position its own games reach must be in the table
            walk(game, lambda o: self._lookup(game, o["candidates"]))

    def _lookup(self, game: Game, candidates: np.ndarray) -> Index:
        label = self.table.get(candidates_key(np.flatnonzero(candidates)))
        if label is None:
            raise ArenaError(
                f"{self.spec}: the table has no move for {int(np.sum(candidates))} secrets possible "
                f"(such as {game.secrets[int(np.flatnonzero(candidates)[0])]}); give fallback=GUESSER"
            )
        return game.guess_index(label)

    def choose(self, game: Game, state: State) -> Index:
        if self.fallback is not None and candidates_key(state.candidates) not in self.table:
            return self.fallback.guess(game, state)
        return self._lookup(game, mask_of(state.candidates, len(game.secrets)))


AGENTS = [TableGuesser]
