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
