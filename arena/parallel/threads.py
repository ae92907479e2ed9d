"""One thread per worker: the numeric libraries' own thread pools held to one thread in each
process, unless the user asked for more.

OpenBLAS (numpy's and scipy's BLAS), MKL, OpenMP and numba's threading layer each start a pool
of threads the size of the machine when they load, whose threads wait by spinning: on a quiet
16-core machine `arena optimal mastermind` took 2.69 s of CPU in 0.77 s (issue 33), and N
forked workers would each bring such a pool, N x 16 threads on 16 cores. (On a 2-core machine,
each process of `arena optimal mastermind --workers 2` ran 3 threads before, 1 now.) Our
work does not need them: its big loops are arena.core.kernels', which share the cores out
themselves (ARENA_THREADS, set in each worker to its share by arena.parallel.pool). So these
pools get one thread each: every process is one worker, whether it is the only one or one of
a pool's, and its CPU time stays its wall time.

The pools are sized when the libraries load, by environment variables, so `arena` sets them
first thing (arena/__init__.py), before numpy is imported, and the processes it forks or starts
inherit them (a Dask worker's nanny sets the same ones to 1 itself). If the user set any of
them (or GOTO_NUM_THREADS, OpenBLAS's older name), arena leaves them all alone: OpenBLAS reads
OPENBLAS_NUM_THREADS before OMP_NUM_THREADS, so setting the others to 1 beside a user's
`OMP_NUM_THREADS=2` would override it. ARENA_NUMERIC_THREADS=keep leaves them alone too.
A program that imported numpy before arena keeps the pools numpy started with.

NUMBA_NUM_THREADS is not set on import: it caps numba's pool for the whole process, so a
user's own `numba.set_num_threads(2)` would fail. Arena's compiled code does not use numba's
threading layer (no `parallel=True`; arena.core.kernels runs its own threads, ARENA_THREADS),
so only the worker processes arena starts get it (`in_worker`, arena.parallel.pool), where an
agent's parallel numba code would otherwise take every core beside the other workers.
(A worker forked after its parent loaded numba keeps the parent's setting: numba reads it once.)
"""

from __future__ import annotations

import os

__all__ = ["POOLS", "KEEP", "one_thread_each", "in_worker"]

#: The variables that size the numeric libraries' thread pools (OpenMP, OpenBLAS, MKL, macOS's
#: Accelerate), set to 1 on import.
POOLS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")

#: numba's threading layer: set to 1 only in worker processes.
NUMBA = "NUMBA_NUM_THREADS"

#: Any of these set by the user means the user sizes the pools: arena sets none of them.
USERS = (*POOLS, "GOTO_NUM_THREADS", NUMBA)

#: The opt-out: ARENA_NUMERIC_THREADS=keep, and arena sets none of the variables.
KEEP = "ARENA_NUMERIC_THREADS"

_chosen: dict[str, str] = {}  # what the import set: workers follow the same decision


def _kept(env) -> bool:
    """Whether the user opted out (KEEP)."""
    return env.get(KEEP, "").strip().lower() == "keep"


def _users(env) -> bool:
    """Whether the user sized the pools (any of USERS set) or opted out (KEEP)."""
    return _kept(env) or any(env.get(name, "").strip() for name in USERS)


def one_thread_each(environ: dict[str, str] | None = None) -> dict[str, str]:
    """Set each of POOLS to 1 (in `environ`, default os.environ), unless the user set any of
    USERS or KEEP: then nothing. The variables it set."""
    env = os.environ if environ is None else environ
    if _users(env):
        return {}
    chosen = dict.fromkeys(POOLS, "1")
    env.update(chosen)
    if environ is None:
        _chosen.update(chosen)
    return chosen


def in_worker(environ: dict[str, str] | None = None, arena_chose: bool | None = None) -> dict[str, str]:
    """In a worker process arena started: NUMBA_NUM_THREADS=1 too, where arena chose the others
    on import (`arena_chose`, default: what this process's import did; not where the user set
    any of them or opted out). The variables it set."""
    env = os.environ if environ is None else environ
    chose = bool(_chosen) if arena_chose is None else arena_chose
    if not chose or _kept(env) or env.get(NUMBA, "").strip():
        return {}
    env[NUMBA] = "1"
    return {NUMBA: "1"}
