"""The games as PettingZoo and Gymnasium environments (arena.bridges.envs, the optional extra): each
passes its library's own checker, the rewards add up to what the referee counts, and a seed
replays the same games. Skipped where the extra is not installed (`pip install
'guessing-arena[envs]'`)."""

from __future__ import annotations

import numpy as np
import pytest

from arena import make_game
from arena.core.errors import ArenaError, RuleBreak
from arena.play.match import play_match

gymnasium = pytest.importorskip("gymnasium", reason="Gymnasium is the optional extra [envs]")
pettingzoo = pytest.importorskip("pettingzoo", reason="PettingZoo is the optional extra [envs]")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from agents import make_chooser, make_guesser  # noqa: E402
from arena.bridges.envs import aec_env, guesser_env  # noqa: E402

GAMES = ["mastermind:pegs=2,colors=3", "jotto:first=12", "hangman:words=sgb,length=5,first=20", "hangman:first=40"]


@pytest.mark.parametrize("spec", GAMES[:3])
@pytest.mark.parametrize("moves", ["secret", "replies"])
def test_the_aec_env_passes_pettingzoos_api_test(spec, moves):
    api_test(aec_env(spec, chooser_moves=moves), num_cycles=200)


def test_a_secret_alone_of_its_length_ends_the_game_at_the_choice():
    """Hangman over several word lengths: a word alone of its length is known once chosen."""
    api_test(aec_env(GAMES[3]), num_cycles=300)
    env = aec_env(GAMES[3])
    env.reset(seed=0)
    env.step(0)  # "a", the only word of one letter
    assert all(env.terminations.values()) and env.rewards == {"chooser": 0.0, "guesser": 0.0}


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("chooser", ["uniform", "evil"])
def test_the_guesser_env_passes_gymnasiums_checker(spec, chooser):
    check_env(guesser_env(spec, chooser=chooser), skip_render_check=True)


def play_out(env, guesser, seed):
    """One episode with `guesser` choosing from the env's observations as the referee's state."""
    game = env.game
    observation, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    done = truncated = False
    while not (done or truncated):
        assert np.array_equal(observation["action_mask"], info["action_mask"])
        state = env.unwrapped.play
        from arena.core.state import State

        guess = guesser.guess(game, State(state.candidates, tuple(state.history)))
        assert observation["action_mask"][guess]  # a sensible guesser plays a useful guess
        observation, reward, done, truncated, info = env.step(guess)
        total, steps = total + reward, steps + 1
    return total, steps


@pytest.mark.parametrize(("spec", "chooser"), [("mastermind:pegs=2,colors=4", "evil"), ("jotto:first=20", "minimax")])
def test_rewards_add_up_to_what_the_referee_counts(spec, chooser):
    """Against an adaptive chooser, a deterministic guesser's episode in the env costs what
    the referee's match between the same two agents costs."""
    game = make_game(spec)
    env = guesser_env(spec, chooser=chooser)
    total, _ = play_out(env, make_guesser("knuth"), seed=3)
    match = play_match(game, make_guesser("knuth"), make_chooser(chooser))
    assert -total == match.guesses


def test_a_chooser_object_plays_too():
    """A learned chooser (a policy of the observation) as the guesser's opponent."""
    from agents.learned import PolicyChooser

    class Largest(PolicyChooser):
        def act(self, observation):
            return int(np.flatnonzero(observation["action_mask"])[-1])

    env = guesser_env("mastermind:pegs=2,colors=3", chooser=Largest())
    check_env(env, skip_render_check=True)
    total, steps = play_out(env, make_guesser("knuth"), seed=0)
    assert -total == steps >= 1


def test_a_seed_replays_the_same_games():
    env = guesser_env("jotto:first=20", chooser="uniform")
    secrets = []
    for seed in (1, 2, 1):
        env.reset(seed=seed)
        secrets.append(env.unwrapped.play.secret)
    assert secrets[0] == secrets[2]
    drawn = set()
    for seed in range(20):
        env.reset(seed=seed)
        drawn.add(env.unwrapped.play.secret)
    assert len(drawn) > 5  # the seeds draw different secrets


def test_hangman_costs_misses_and_the_mask_is_the_useful_letters():
    env = guesser_env("hangman:words=sgb,length=5,first=20", chooser="evil")
    observation, _ = env.reset(seed=0)
    game = env.unwrapped.game
    letters = {game.guesses[g] for g in np.flatnonzero(observation["action_mask"])}
    words = [game.secrets[s] for s in np.flatnonzero(observation["candidates"])]
    assert len(words) == 20 and letters <= set("".join(words))  # a letter in no word tells nothing
    total, steps = play_out(env, make_guesser("fewest-misses"), seed=0)
    assert steps > -total >= 0  # the hits cost nothing: only the misses count


def test_the_chooser_of_the_aec_env_wins_what_the_guesser_pays():
    env = aec_env("mastermind:pegs=2,colors=3")
    env.reset(seed=0)
    paid = {"chooser": 0.0, "guesser": 0.0}
    for agent in env.agent_iter():
        observation, reward, done, truncated, _ = env.last()
        paid[agent] += reward
        if done or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert paid["chooser"] == -paid["guesser"] > 0


def test_mistakes_are_one_line():
    with pytest.raises(ArenaError, match="chooser_moves='both': one of"):
        aec_env("mastermind:pegs=2,colors=3", chooser_moves="both")
    with pytest.raises(ArenaError, match="give one .Hangman: length="):
        aec_env("hangman:first=40", chooser_moves="replies")
    with pytest.raises(ArenaError, match="unknown chooser"):
        guesser_env("mastermind:pegs=2,colors=3", chooser="nobody")
    env = guesser_env("mastermind:pegs=2,colors=3")
    env.reset(seed=0)
    with pytest.raises(ArenaError, match="a guess of mastermind:pegs=2,colors=3 is 0..8"):
        env.step(9)
    aec = aec_env("mastermind:pegs=2,colors=3", chooser_moves="replies")
    aec.reset(seed=0)
    aec.step(0)  # the guesser guesses 11
    for reply in (99, int(np.flatnonzero(aec.observe("chooser")["action_mask"] == 0)[0])):
        with pytest.raises(RuleBreak, match="is not one that leaves a secret possible"):
            aec.step(reply)
