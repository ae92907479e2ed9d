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
first thing (arena/__init__.py), before numpy or numba is imported, and the processes it
forks or starts inherit them (a Dask worker's nanny sets the same ones to 1 itself). A
variable already set is the user's: it is left as it is (`OPENBLAS_NUM_THREADS=8 arena ...`).
A program that imported numpy before arena keeps the pools numpy started with.
"""

from __future__ import annotations

import os

__all__ = ["POOLS", "one_thread_each"]

#: The variables that size the numeric libraries' thread pools (OpenMP, OpenBLAS, MKL, macOS's
#: Accelerate, numba's threading layer).
POOLS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMBA_NUM_THREADS")


def one_thread_each(environ: dict[str, str] | None = None) -> dict[str, str]:
    """Set each of POOLS that is not set already to 1 (in `environ`, default os.environ);
    the variables it set."""
    env = os.environ if environ is None else environ
    chosen = {name: "1" for name in POOLS if not env.get(name, "").strip()}
    env.update(chosen)
    return chosen
