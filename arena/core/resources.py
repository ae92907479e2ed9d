"""Resource limits: how much memory an instance may take, checked before it is built.

Every structure whose size grows with the instance (a feedback table, a tree enumeration, a
block of repetitions) estimates its bytes first and asks `check_memory`, which refuses, in one
line naming the size and the limit, anything over the budget. The budget is a quarter of the
machine's memory unless `ARENA_MEMORY_LIMIT` says otherwise (bytes, or a number with K, M, G
or T: `ARENA_MEMORY_LIMIT=8G`).
"""

from __future__ import annotations

import gc
import mmap
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from .errors import ArenaError

ENV = "ARENA_MEMORY_LIMIT"
#: Caps the threads of one compiled call (arena.core.kernels); a process pool shares the cores out.
THREADS_ENV = "ARENA_THREADS"
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def machine_memory() -> int:
    """The machine's physical memory in bytes (8 GiB where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 8 * 2**30


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def capped_workers(workers: int, oversubscribe: bool, command: str, backend: str = "local") -> int:
    """--workers, capped at the CPU count unless `oversubscribe` (more processes than CPUs only
    slow each other down, and each takes its share of the memory), with one line on stderr
    saying so; a cluster's workers (another backend) are not this machine's."""
    import sys

    from .checks import workers as checked

    workers = checked(workers, "--workers")
    cpus = os.cpu_count() or 1
    most = max(MAX_OVERSUBSCRIBED, 8 * cpus)  # agents that wait (on a network, a disk) may want more
    if backend == "local" and workers > cpus and not oversubscribe:
        print(
            f"{command}: --workers {workers} is more than the {cpus} CPUs here: using {cpus} "
            f"(--oversubscribe to use {min(workers, most)})",
            file=sys.stderr,
        )
        return cpus
    if backend == "local" and workers > most:
        print(
            f"{command}: --workers {workers} is more processes than this machine can usefully run: "
            f"using {most} (8 per CPU, or {MAX_OVERSUBSCRIBED}, whichever is more)",
            file=sys.stderr,
        )
        return most
    return workers


#: The fewest workers --oversubscribe allows whatever the CPU count (a worker is a process).
MAX_OVERSUBSCRIBED = 64


def threads() -> int:
    """How many threads a big compiled call may use: ARENA_THREADS, else every core."""
    text = os.environ.get(THREADS_ENV, "").strip()
    if not text:
        return cores()
    if not (text.isdigit() and int(text) > 0):
        raise ArenaError(f"{THREADS_ENV}={text!r}: give a number of threads, 1 or more")
    return int(text)


def parse_size(text: str) -> int:
    """`8G` as 8 * 2**30 bytes; plain digits are bytes."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text, re.IGNORECASE)
    if not m:
        raise ArenaError(f"{ENV}={text!r}: give bytes or a size such as 512M or 8G")
    size = int(float(m[1]) * _UNITS[m[2].upper()])
    if size <= 0:
        raise ArenaError(f"{ENV}={text!r}: the limit must be positive")
    return size


def memory_limit() -> int:
    """The memory budget in bytes: ARENA_MEMORY_LIMIT, else a quarter of the machine."""
    text = os.environ.get(ENV)
    return parse_size(text) if text else machine_memory() // 4


def human_size(n: float) -> str:
    """Bytes for people: `1.5 GiB`."""
    if n >= 2**70:  # beyond any machine (and, for huge integers, beyond a float)
        return f"about 2^{int(n).bit_length() - 1} bytes"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


def fits_in_memory(nbytes: float) -> bool:
    """Is `nbytes` within the memory budget (what check_memory would accept)?"""
    return nbytes <= memory_limit()


def check_memory(nbytes: float, what: str) -> None:
    """Refuse, before allocating, a structure of `nbytes` over the memory budget.

    `what` names it for the message: "the feedback table of mastermind:pegs=9 (9 x 9 codes)".
    """
    if nbytes >= 2**60:  # exact ints can be astronomically big: say so without converting to float
        raise ArenaError(f"{what} needs about 10^{len(str(int(nbytes))) - 1} bytes, more than any machine has")
    limit = memory_limit()
    if nbytes > limit:
        source = (
            f"set by {ENV}" if os.environ.get(ENV) else f"a quarter of this machine's memory; set {ENV} to change it"
        )
        raise ArenaError(
            f"{what} needs about {human_size(nbytes)}, over the memory limit of {human_size(limit)} ({source})"
        )


#: Arrays of at least this many bytes are mapped on their own with huge pages (`empty_array`).
HUGE_BYTES = 1 << 25


def empty_array(shape: tuple[int, ...], dtype) -> np.ndarray:
    """np.empty, but a big array (a feedback table: 214 MB on Mastermind 4x11) is mapped on its
    own and asks the kernel for huge pages (madvise): filling it then takes a few hundred page
    faults instead of tens of thousands, measured 0.04 s of CPU against 0.18 s (median of 5 runs)
    for 214 MB. Where the system has no such advice the array is numpy's own."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if nbytes < HUGE_BYTES or advice is None:
        return np.empty(shape, dtype=dtype)
    memory = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    try:
        memory.madvise(advice)
    except OSError:  # a kernel without transparent huge pages: ordinary pages
        pass
    return np.frombuffer(memory, dtype=dtype).reshape(shape)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused (then restored as it was): a reader that builds
    millions of small objects that all live on (a saved state's JSON and its trees' nodes)
    makes the collector walk them again at every threshold, over half its time (a Wordle state
    of 1,440 trees: 45 s to read, 20 s paused). Reference counting still frees what dies."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()
