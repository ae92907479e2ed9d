from pathlib import Path

import pytest

from arena import make_game


@pytest.fixture(scope="session")
def mastermind():
    return make_game("mastermind")


@pytest.fixture(scope="session")
def jotto():
    return make_game("jotto")


@pytest.fixture(scope="session")
def small_mastermind():
    return make_game("mastermind:pegs=3,colors=4")


# --- the `slow` marker ------------------------------------------------------------------------
# `pytest -m "not slow"` is a developer's inner loop (under a minute on two cores); the full
# suite, slow tests included, is what CI and the README's command run. Which tests are slow is a
# measurement, not a guess: tests/slow.txt lists the tests that took over SLOW_SECONDS in a
# measured run (`python tests/slow_tests.py DURATIONS_LOG` writes it from the output of
# `pytest --durations=0`), so no test file needs editing when a test speeds up or slows down.

SLOW_LIST = Path(__file__).with_name("slow.txt")


def slow_tests() -> set[str]:
    """The node ids tests/slow.txt lists (a line's first word; `#` starts a comment)."""
    if not SLOW_LIST.exists():
        return set()
    lines = (line.split("#", 1)[0].strip() for line in SLOW_LIST.read_text(encoding="utf-8").splitlines())
    return {line for line in lines if line}


def pytest_collection_modifyitems(config, items):
    slow = slow_tests()
    for item in items:
        if item.nodeid in slow or item.nodeid.split("[", 1)[0] in slow:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def plain_loops(monkeypatch):
    """The exact search's compiled loops (tree_kernels.py, tree_cache.py, weighted_kernels.py,
    met_replies.py) as plain Python functions, each njit function's `py_func`, which call each
    other through their modules' names: the source numba compiles, checked without waiting for
    numba; and every game's small sets given to them (branch.COMPILED_CELLS)."""
    from arena.optimal.search import branch, met_replies, tree_cache, tree_kernels, weighted_kernels

    for module in (tree_kernels, tree_cache, weighted_kernels, met_replies):
        for name, value in list(vars(module).items()):
            if hasattr(value, "py_func"):
                monkeypatch.setattr(module, name, value.py_func)
    monkeypatch.setattr(branch, "COMPILED_CELLS", 0)
