"""Every registered agent keeps the agent contract, on a small instance of every game.

Modelled on Axelrod's per-strategy tests: for each name in the registry (agents.registry,
per role), each guesser finishes every secret within a bound and is reproducible from its
seed; each chooser passes the referee (arena.play.match) against a couple of guessers; and the
traits an agent declares (arena.core.traits.Traits) match what it does: a deterministic agent plays
the same games whatever the seed, a committed chooser's replies are those of one secret.
Interactive agents (a person at the terminal) are listed but not played.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.learned import save_table
from agents.registry import builtin, lookup, make_agent
from arena import ArenaError, RuleBreak, make_game
from arena.core.traits import Traits
from arena.play.evaluate import evaluate
from arena.play.match import evaluate_against, play_match
from arena.trees.grow import grow_tree

GAMES = ["mastermind:pegs=2,colors=3", "jotto:first=20", "hangman:length=4,first=16"]
MM, JOTTO, HANGMAN = GAMES
#: Games an agent declines with an ArenaError by design: the exact solvers behind equilibrium,
#: optimal and lookahead need a guess that hits; fewest-misses needs a game that counts misses.
DECLINES = {("guesser", "lookahead", HANGMAN), ("guesser", "fewest-misses", MM), ("guesser", "fewest-misses", JOTTO)}
#: The guessers each chooser is refereed against.
OPPONENTS = ["lowest", "random:seed=3"]


@pytest.fixture(scope="module")
def games():
    return {spec: make_game(spec) for spec in GAMES}


def names(role: str) -> list[str]:
    return sorted(builtin()[role])


def build(role: str, name: str, game, tmp_path):
    """The agent `name` with whatever parameters it needs for `game` (a file, a secret)."""
    if name == "tree":
        path = tmp_path / "tree.json"
        grow_tree(game, make_agent("entropy")).save(path)
        return make_agent(f"tree:file={path}", role)
    if name == "learned":  # a policy saved as a table: here the first useful guess everywhere
        path = tmp_path / "policy.json"
        save_table(game, lambda observation: int(np.flatnonzero(observation["action_mask"])[0]), path)
        return make_agent(f"learned:table={path}", role)
    if name == "fixed":
        return make_agent(f"fixed:secret={game.secrets[-1]}", role)
    if name == "weighted":
        path = tmp_path / "weights.json"
        path.write_text(json.dumps({s: k + 1 for k, s in enumerate(game.secrets[:5])}))
        return make_agent(f"weighted:file={path}", role)
    return make_agent(name, role)


def declared(role: str, name: str) -> Traits:
    """The traits the class behind a registered name declares (nothing is built)."""
    return lookup(name, role)[0].traits


def playable(role: str, name: str, spec: str) -> None:
    if (role, name, spec) in DECLINES:
        pytest.skip(f"{name} declines {spec} by design")
    if declared(role, name).interactive:
        pytest.skip(f"{name} is interactive: played by `arena play` only")


@pytest.mark.parametrize("role", ["guesser", "chooser"])
def test_every_agent_is_listed_with_its_traits(role):
    assert names(role)
    for name in names(role):
        assert isinstance(declared(role, name), Traits), f"{role} {name}: traits must be a Traits"
    assert declared(role, "human").interactive  # listed, though never played here


@pytest.mark.parametrize("role, name, spec", sorted(DECLINES))
def test_declined_games_are_declined_in_words(role, name, spec, games, tmp_path):
    with pytest.raises(ArenaError):
        evaluate_against(
            games[spec],
            *(
                build(r, n, games[spec], tmp_path)
                for r, n in [
                    ("guesser", name if role == "guesser" else "lowest"),
                    ("chooser", name if role == "chooser" else "uniform"),
                ]
            ),
        )


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("name", names("guesser"))
def test_guesser_finishes_every_secret_and_is_reproducible(name, spec, games, tmp_path):
    playable("guesser", name, spec)
    game = games[spec]
    guesser = build("guesser", name, game, tmp_path)
    first = evaluate(game, guesser, repeat=2, seed=5)
    bound = len(game.guesses)  # a guesser that learns never needs more guesses than there are
    assert first.guesses.shape[1] == len(game.secrets)
    assert first.guesses.max() <= bound
    again = evaluate(game, build("guesser", name, game, tmp_path), repeat=2, seed=5)
    assert np.array_equal(first.guesses, again.guesses), "the same seed must play the same games"
    if guesser.traits.deterministic:
        other = evaluate(game, guesser, repeat=2, seed=6)
        assert np.array_equal(first.guesses[:1], other.guesses[:1]), "deterministic, yet the seed changed it"


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("name", names("chooser"))
def test_chooser_passes_the_referee(name, spec, games, tmp_path):
    playable("chooser", name, spec)
    game = games[spec]
    for opponent in OPPONENTS:
        chooser = build("chooser", name, game, tmp_path)
        guesser = make_agent(opponent)
        result = evaluate_against(game, guesser, chooser, repeat=2, seed=1)  # RuleBreak if it cheats
        assert result.guesses.max() <= len(game.guesses)
        again = evaluate_against(game, guesser, build("chooser", name, game, tmp_path), repeat=2, seed=1)
        assert np.array_equal(result.guesses, again.guesses), "the same seed must play the same games"
        if chooser.traits.deterministic and make_agent(opponent).traits.deterministic:
            other = evaluate_against(game, guesser, build("chooser", name, game, tmp_path), repeat=1, seed=2)
            assert np.array_equal(result.guesses[:1], other.guesses[:1]), "deterministic, yet the seed changed it"


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("name", names("chooser"))
def test_committed_choosers_answer_one_secret(name, spec, games, tmp_path):
    playable("chooser", name, spec)
    game = games[spec]
    chooser = build("chooser", name, game, tmp_path)
    if not chooser.traits.committed:
        pytest.skip(f"{name} is adaptive: it holds no secret")
    for seed in range(3):
        match = play_match(game, make_agent("random:seed=7").seeded(seed, 0), chooser, seed=seed)
        assert match.secret is not None
        assert all(t.reply == game.reply(t.guess, match.secret) for t in match.turns), (
            f"{name} declared committed, but its replies fit no single secret"
        )


def test_the_referee_refuses_a_lying_chooser(games):
    """The contract test would catch a chooser that breaks the rules (the referee is the judge)."""
    from agents.chooser import Chooser

    class Liar(Chooser):
        name = "liar"
        traits = Traits(adversary=True)

        def reply(self, game, state, guess):
            return int(game.codes[0])

    with pytest.raises(RuleBreak):
        evaluate_against(games[GAMES[0]], make_agent("lowest"), Liar())


@pytest.mark.parametrize("role, name", [(r, n) for r in ("guesser", "chooser") for n in names(r)])
def test_an_agent_keeps_no_game_alive_once_dropped(role, name, tmp_path):
    """Per-game caches are keyed by the game's spec (Agent.per_game, shared_by_game_spec), so a
    game is freed when the last user lets go of it, however long an agent lives or however many
    games it played."""
    import gc
    import weakref

    import arena.games

    spec = MM
    playable(role, name, spec)
    arena.games._build.cache_clear()  # make_game's own cache of built games
    game = make_game(spec)
    agent = build(role, name, game, tmp_path)
    if role == "guesser":
        evaluate(game, agent, repeat=1, seed=1)
    else:
        evaluate_against(game, make_agent("lowest"), agent, repeat=1, seed=1)
    alive = weakref.ref(game)
    arena.games._build.cache_clear()
    del game, agent
    gc.collect()
    assert alive() is None, f"{role} {name} keeps its game alive after it is dropped"


def test_a_shared_cache_is_keyed_by_spec_and_bounded():
    """arena.core.caches.shared_by_game_spec: one value per (game spec, args), shared by games of the
    same spec, the least recently used dropped beyond maxsize, and no game kept."""
    import gc
    import weakref

    import arena.games
    from arena.core.caches import shared_by_game_spec

    calls = []

    @shared_by_game_spec(maxsize=2)
    def size(game, extra):
        calls.append((game.spec, extra))
        return len(game.secrets) + extra

    arena.games._build.cache_clear()
    game = make_game(MM)
    assert size(game, 0) == size(game, 0) == 9 and calls == [(MM, 0)]
    size(game, 1)
    size(game, 2)  # evicts (MM, 0), the least recently used
    size(game, 0)
    assert calls == [(MM, 0), (MM, 1), (MM, 2), (MM, 0)]
    alive = weakref.ref(game)
    arena.games._build.cache_clear()
    del game
    gc.collect()
    assert alive() is None
