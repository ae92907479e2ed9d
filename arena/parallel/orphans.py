"""Worker processes that never outlive their parent, whatever ends it (a signal, SIGKILL).

A worker calls `die_with_parent(parent)` first thing: on Linux the kernel then kills it when
the parent dies (PR_SET_PDEATHSIG), elsewhere a watchdog thread notices the parent is gone. So
a run killed by SIGTERM, SIGHUP or SIGKILL leaves no worker behind holding its pipes (the
tournament's pool, the exact search's root split).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_WATCH_SECONDS = 0.5  # how often the fallback watchdog looks for its parent


def die_with_parent(parent: int) -> None:
    """Make this process end when `parent` does, so a killed run leaves no worker behind."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # the parent died before the kernel was told to watch it
        os._exit(1)
    if not armed:
        threading.Thread(target=_watch, args=(parent,), name="arena-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    """The fallback where prctl is missing: poll for the parent; once orphaned, exit at once."""
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(1)
