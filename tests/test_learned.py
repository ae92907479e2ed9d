"""Learned agents in tournaments (agents/learned.py, agents/learning.py): a policy trained
elsewhere plays as a guesser or chooser, a saved table's contents key the tasks that read it,
and the worked example (tabular Q-learning, numpy only) learns a sound guesser in seconds."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import make_chooser, make_guesser
from agents.learned import PolicyChooser, PolicyGuesser, save_table, walk
from agents.learning import train
from arena import make_game
from arena.core.errors import ArenaError
from arena.play.moves import candidates_key, count_histories, useful_guesses
from arena.study.config import Cell
from arena.study.tournament.tasks import expand

SPEC = "mastermind:pegs=2,colors=3"


class Lowest(PolicyGuesser):
    """The lowest code still possible (Mastermind's guesses are its secrets, in one order):
    `lowest`, as a policy of the observation alone."""

    def act(self, observation):
        return int(np.flatnonzero(observation["action_mask"] & observation["candidates"])[0])


class Largest(PolicyChooser):
    """The reply that keeps the most secrets (the evil rule, from the observation alone)."""

    def act(self, observation):
        return int(np.flatnonzero(observation["action_mask"])[0])


def test_a_policy_of_the_observation_plays_as_a_guesser_and_a_chooser():
    game = make_game(SPEC)
    assert game.evaluate(Lowest()).total == game.evaluate(make_guesser("lowest")).total
    played = game.evaluate(Lowest(), chooser=Largest())
    assert played.games()[0]["guesses"] == played.total >= 2


def test_the_learner_learns_the_same_table_from_the_same_seed_and_finds_the_optimum():
    """Monte-Carlo control over candidate sets, 3,000 games against the uniform chooser: the
    same seed learns the same policy, and on Mastermind 2x4 it is an optimal one (seeds 0-2:
    45 guesses over the 16 codes, the exact optimum; 1,000 games were not always enough)."""
    game = make_game("mastermind:pegs=2,colors=4")
    first, costs = train(game, make_chooser("uniform"), episodes=3000, seed=5)
    again, _ = train(game, make_chooser("uniform"), episodes=3000, seed=5)
    assert walk(game, first.act) == walk(game, again.act)
    assert len(costs) == 3000 and costs.min() >= 1
    assert game.optimal().value == 45
    for seed in range(3):
        learner, _ = train(game, make_chooser("uniform"), episodes=3000, seed=seed)
        assert game.evaluate(_Table(learner)).total == 45


class _Table(PolicyGuesser):
    def __init__(self, learner):
        super().__init__()
        self.learner = learner

    def act(self, observation):
        return self.learner.act(observation)


def test_a_saved_table_plays_back_what_was_learned(tmp_path):
    game = make_game("mastermind:pegs=2,colors=4")
    learner, _ = train(game, make_chooser("uniform"), episodes=1000, seed=2)
    path = tmp_path / "policy.json"
    positions = save_table(game, learner.act, path)
    data = json.loads(path.read_text())
    assert data["game"] == game.spec and len(data["table"]) == positions
    played = make_guesser(f"learned:table={path}")
    played.check(game)
    assert game.evaluate(played).total == game.evaluate(_Table(learner)).total
    # every position an adversary can lead it to is in the table: the game against evil is
    # the table's game on the secret evil ends on
    against_evil = game.evaluate(played, chooser="evil").games()[0]
    by_secret = game.evaluate(played).guesses[0]
    assert against_evil["guesses"] == by_secret[game.secrets.index(against_evil["secret"])]


def test_a_saved_tables_contents_key_the_tasks_that_read_it(tmp_path):
    game = make_game(SPEC)
    path = tmp_path / "policy.json"
    save_table(game, Lowest().act, path)
    cell = Cell("learned", SPEC, f"learned:table={path}", chooser="evil")
    before = expand([cell])[0]
    assert (str(path), before.files[0][1]) in before.files
    data = json.loads(path.read_text())
    first = next(iter(data["table"]))
    data["table"][first] = game.guesses[-1]  # a retrained policy: another first move
    path.write_text(json.dumps(data))
    after = expand([cell])[0]
    assert after.key != before.key and after.slot == before.slot


def test_what_a_table_lacks_is_refused_in_one_line_or_played_by_the_fallback(tmp_path):
    game = make_game(SPEC)
    path = tmp_path / "policy.json"
    save_table(game, Lowest().act, path)
    data = json.loads(path.read_text())
    del data["table"][candidates_key(game.all_secrets)]  # the first move
    path.write_text(json.dumps(data))
    with pytest.raises(ArenaError, match="the table has no move for 9 secrets possible .* give fallback=GUESSER"):
        make_guesser(f"learned:table={path}").check(game)
    fallback = make_guesser(f"learned:table={path},fallback=lowest")
    fallback.check(game)
    assert game.evaluate(fallback).total == game.evaluate(make_guesser("lowest")).total
    other = make_game("mastermind:pegs=2,colors=4")
    with pytest.raises(ArenaError, match="the table was learned on mastermind:pegs=2,colors=3, not"):
        make_guesser(f"learned:table={path}").check(other)
    (tmp_path / "bad.json").write_text("{}")
    (tmp_path / "cut.json").write_text('{"format": ')
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    for bad, message in [
        ("bad.json", "is not a policy table"),
        ("none.json", "cannot read"),
        ("cut.json", "not JSON"),
        ("deep.json", "nests too deeply"),
    ]:
        with pytest.raises(ArenaError, match=message):
            make_guesser(f"learned:table={tmp_path / bad}")
    with pytest.raises(ArenaError, match="learned:table=PATH"):
        make_guesser("learned")


def test_a_policy_that_tells_nothing_is_refused():
    game = make_game(SPEC)
    with pytest.raises(ArenaError, match="its games would never end"):
        walk(game, lambda observation: 8 if observation["candidates"][8] == 0 else 0)
    with pytest.raises(ArenaError, match="not a guess of"):
        walk(game, lambda observation: 99)


@pytest.mark.parametrize(
    ("spec", "histories"),
    [
        ("jotto:first=6", 209),
        ("mastermind:pegs=2,colors=3", 3019),
        ("hangman:words=sgb,length=5,first=5", 3213),
        ("wordle:first=8,hard=true", 865),
    ],
)
def test_the_move_tree_is_counted_and_its_moves_are_useful(spec, histories):
    """arena.play.moves, which the OpenSpiel game and the environments play by: each count is
    that of the tree walked one history at a time, and every useful guess splits or may hit."""
    game = make_game(spec)
    assert count_histories(game) == histories
    assert count_histories(game, limit=histories - 1) is None

    def walked(candidates, history):
        total = len(candidates)
        for g in useful_guesses(game, candidates, history).tolist():
            classes = game.partition(g, candidates)
            assert len(classes) >= 2 or game.is_candidate(candidates)[g]
            for reply, part in classes.items():
                over = game.finished(reply) or game.determined(part)
                total += len(part) if over else walked(part, history + ((g, reply),))
        return total

    assert 1 + sum(walked(part, ()) for _, part in game.openings(game.all_secrets)) == histories


#: A Python in which the optional extras are not installed: their imports fail as they would.
WITHOUT_EXTRAS = """
import sys

class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"pyspiel", "open_spiel", "gymnasium", "pettingzoo", "cvxpy", "ecos"}:
            raise ModuleNotFoundError(f"No module named {name!r}")

sys.meta_path.insert(0, NotInstalled())
import arena.play.moves, arena.bridges.envs, arena.bridges.openspiel, agents.learned, agents.learning
from arena.core.errors import ArenaError

for call in (arena.bridges.openspiel.load_game, arena.bridges.envs.guesser_env, arena.bridges.envs.aec_env):
    try:
        call("jotto:first=6")
    except ArenaError as e:
        print(e)
"""


def test_the_extras_are_optional():
    """Without OpenSpiel, PettingZoo and Gymnasium every module imports, and each bridge says in
    one line which extra to install."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", WITHOUT_EXTRAS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "arena.bridges.openspiel needs OpenSpiel: pip install 'guessing-arena[openspiel]'",
        "arena.bridges.envs.guesser_env needs Gymnasium: pip install 'guessing-arena[envs]'",
        "arena.bridges.envs.aec_env needs PettingZoo: pip install 'guessing-arena[envs]'",
    ]


def test_a_game_move_by_move():
    """arena.play.moves.Play, the state the OpenSpiel game and the environments hold."""
    import copy

    from arena.play.moves import Play, history_string

    game = make_game(SPEC)
    play = Play.start(game, secret=game.secrets.index("12"))
    twin = copy.deepcopy(play)
    assert twin.game is game and twin.history is not play.history  # the table is shared, never copied
    play.guess(game.guesses.index("11"))
    assert history_string(play, True) == "secret=12 | 11:1,0" and history_string(play, False) == "11:1,0"
    assert twin.history == [] and not play.done and play.payoff() == 1
    play.guess(game.guesses.index("12"))
    assert play.done and play.payoff() == 2 and len(play.legal()) == 0
    with pytest.raises(ArenaError, match="the game is over"):
        play.guess(0)
    adaptive = Play.start(game)
    with pytest.raises(ArenaError, match="no secret chosen and no reply given"):
        adaptive.guess(0)
    adaptive.open(*game.openings(game.all_secrets)[0])
    with pytest.raises(ArenaError, match="leaves no secret possible"):
        adaptive.guess(0, game.hit + 1)  # 11 cannot get 2,1 from a code of two pegs
    seen = play.observe()
    assert seen["candidates"].tolist() == [0, 1, 0, 0, 0, 0, 0, 0, 0] and not seen["action_mask"].any()
    hard = Play.start(make_game("wordle:first=8,hard=true"), secret=0)
    hard.guess(int(hard.legal()[0]))
    assert set(hard.legal().tolist()) <= set(hard.game.allowed_guesses(hard.history).tolist())
    lost = Play.start(make_game("hangman:words=sgb,length=5,first=5,strikes=1"), "lost", secret=0)
    lost.guess(lost.game.guesses.index("z"))  # a miss: the one strike, and the game is lost
    assert lost.done and lost.payoff() == 1 and lost.misses == 1


def test_the_learner_plays_an_adaptive_chooser_too():
    """Against evil (no secret: it answers move by move) every game ends on a secret left
    possible, and a position never seen gets the first useful guess."""
    game = make_game(SPEC)
    learner, costs = train(game, make_chooser("evil"), episodes=200, seed=0)
    assert costs.min() >= 2 and costs[-50:].mean() <= costs[:50].mean()
    unseen = {"candidates": np.zeros(9, dtype=np.int8), "action_mask": np.array([0, 0, 1, 1, 0, 0, 0, 0, 0])}
    assert learner.act(unseen) == 2
