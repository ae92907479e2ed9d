"""arena.moved: the old flat import paths keep working after the modules moved into folders."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys

import pytest

import arena
from arena import moved


@pytest.mark.parametrize("old", sorted(moved.MOVED))
def test_every_old_name_is_the_module_under_its_new_name(old):
    module = importlib.import_module(old)
    assert module is importlib.import_module(moved.MOVED[old])
    assert module.__spec__.name == moved.MOVED[old]  # its own spec, not the old name's


def test_names_below_a_moved_package_move_with_it():
    assert moved.new_name("arena.tournament.store") == "arena.study.tournament.store"
    assert moved.new_name("arena.tournament.pool") == "arena.parallel.pool"  # the longest prefix decides
    assert moved.new_name("arena.commands.optimal") == "arena.cli.optimal"
    assert moved.new_name("arena.optimal.split") is None  # never moved
    assert moved.new_name("arena.games.jotto") is None


def test_the_old_imports_a_user_wrote_still_work():
    from arena.cli.optimal import add_commands as now
    from arena.commands.optimal import add_commands
    from arena.report import Report
    from arena.study.results.report import Report as report_now
    from arena.tournament.store import Store
    from arena.tree import load_tree

    assert add_commands is now and Report is report_now
    assert Store.__module__ == "arena.study.tournament.store" and load_tree.__module__ == "arena.trees.saved"


def test_the_old_tree_modules_names_are_each_the_one_object():
    """arena.tree offered the tree, its nodes and the grower beside the saved trees; each now
    lives in one place (arena.trees.tree, arena.trees.grow), and the old names still import it."""
    from arena.tree import MAX_GUESSES, Node, SavedTree, Tree, grow_tree, load_tree
    from arena.trees import grow, saved, tree

    assert (Node, Tree) == (tree.Node, tree.Tree) and (grow_tree, MAX_GUESSES) == (grow.grow_tree, grow.MAX_GUESSES)
    assert (SavedTree, load_tree) == (saved.SavedTree, saved.load_tree)


def test_a_name_that_never_existed_is_still_an_import_error():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("arena.no_such_module")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("arena.report.no_such_module")


def test_objects_pickle_under_their_new_names():
    from agents import make_guesser
    from arena.games import make_game
    from arena.tree import grow_tree

    tree = grow_tree(make_game("mastermind:pegs=2,colors=3"), make_guesser("knuth"))
    assert type(tree).__module__ == "arena.trees.tree"
    assert pickle.loads(pickle.dumps(tree)).guesses.tolist() == tree.guesses.tolist()


def test_a_fresh_interpreter_finds_an_old_name_first():
    code = "import arena.report, arena.study.results.report as r; print(arena.report is r)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"


def test_installing_twice_puts_one_finder():
    moved.install()
    moved.install()
    assert sum(isinstance(f, moved.MovedFinder) for f in sys.meta_path) == 1
    assert arena.ArenaError  # the package's own names are untouched


def test_names_that_moved_between_modules_still_import_from_their_old_modules():
    """Names a module offered before issue 32 that now live elsewhere: the old module hands on
    the one object (arena.optimal.futures is not among them: its next_done and shut_down went
    into arena.parallel.cluster's ClusterWorkers, with nothing of the same shape to point at)."""
    from arena.equilibrium import verified
    from arena.equilibrium.certify import VerifiedValue
    from arena.optimal import problem
    from arena.optimal.journal import canonical_spec, game_files, weights_digest
    from arena.parallel.outcome import TaskResult
    from arena.study.tournament.store import Result as stored
    from arena.tournament.pool import Result
    from arena.tree import STALL
    from arena.trees import grow

    assert VerifiedValue is verified.VerifiedValue and STALL == grow.STALL
    assert (canonical_spec, game_files, weights_digest) == (
        problem.canonical_spec,
        problem.game_files,
        problem.weights_digest,
    )
    assert Result is stored is TaskResult
    assert moved.new_name("arena.optimal.futures") is None
