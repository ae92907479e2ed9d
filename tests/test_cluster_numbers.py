"""arena.parallel.cluster.ClusterNumbers: the numbers a split's parent shares with a Dask
cluster's workers (the idle count that hurries the pieces, the budgets pushed into running
pieces), read by a worker as forked workers read pool.shared_numbers: what the parent wrote, at
most SHARED_REFRESH seconds old; pickled by name alone; gone from the scheduler once closed."""

from __future__ import annotations

import math
import pickle
import time

import pytest

distributed = pytest.importorskip("distributed")

from arena.parallel import cluster  # noqa: E402
from arena.parallel.cluster import ClusterNumbers  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as local,
        distributed.Client(local) as c,
    ):
        yield c


def gone(client, name: str, seconds: float = 5.0) -> bool:
    """Is the Variable off the scheduler within `seconds`? (A delete is not awaited.)"""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            distributed.Variable(name, client).get(timeout=0.1)
        except TimeoutError:
            return True
    return False


def read_on_worker(numbers: ClusterNumbers) -> tuple[float, float, float]:
    return numbers[0], numbers[1], numbers.value


def test_a_worker_reads_what_the_parent_wrote(client):
    numbers = ClusterNumbers(client, 2, math.inf)
    try:
        assert client.submit(read_on_worker, numbers, pure=False).result() == (math.inf, math.inf, math.inf)
        numbers[1] = 12.5
        numbers.value = 3
        assert numbers[1] == 12.5 and numbers.value == 3.0  # the parent reads what it wrote
        assert client.submit(read_on_worker, numbers, pure=False).result() == (3.0, 12.5, 3.0)
    finally:
        numbers.close()


def test_a_reader_asks_the_scheduler_at_most_every_refresh(client, monkeypatch):
    numbers = ClusterNumbers(client, 1, 1.0)
    try:
        copy = pickle.loads(pickle.dumps(numbers))  # as a worker gets it: the name, no client
        assert copy.client is None and copy.written == [None]
        assert copy[0] == 1.0
        numbers[0] = 2.0
        monkeypatch.setattr(cluster, "SHARED_REFRESH", 3600.0)
        assert copy[0] == 1.0  # read less than the refresh ago: not asked again
        monkeypatch.setattr(cluster, "SHARED_REFRESH", 0.0)
        assert copy[0] == 2.0
    finally:
        numbers.close()


def test_closed_numbers_leave_the_scheduler_and_a_reader_keeps_the_last_value(client, monkeypatch):
    numbers = ClusterNumbers(client, 1, 4.0)
    copy = pickle.loads(pickle.dumps(numbers))
    assert copy[0] == 4.0
    numbers.close()
    assert gone(client, f"{numbers.name}-0")
    monkeypatch.setattr(cluster, "SHARED_REFRESH", 0.0)
    assert copy[0] == 4.0  # nothing on the scheduler: the last value read stands


def test_a_split_on_the_cluster_reads_its_shared_numbers_and_leaves_none_behind(client, monkeypatch):
    """The split on a Dask cluster (in this process: the workers are threads) with hurry and
    push on, as forked workers have them: the workers read the idle count and their pieces'
    budgets, the optimum is the one process's, and the scheduler keeps no shared number after."""
    from arena import make_game
    from arena.optimal import optimal_tree
    from arena.optimal.split import split_root

    reads: list[int] = []
    plain_get = ClusterNumbers.__getitem__

    def counted(self, i):
        if self.client is None:  # a worker's copy
            reads.append(i)
        return plain_get(self, i)

    monkeypatch.setattr(ClusterNumbers, "__getitem__", counted)
    game = make_game("mastermind:colors=5")
    result = split_root(game, workers=2, executor=cluster.Cluster(client), split_after=20)
    assert result.exact and result.value == optimal_tree(game).value
    assert reads  # the pieces looked at what the parent shares
    left = client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.extensions["variables"].variables))
    assert all(gone(client, name) for name in left if name.startswith("arena-shared-"))
