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
