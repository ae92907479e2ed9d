"""numba, imported once for the whole engine (arena.core.kernels, arena/games/multisets.py): `njit`,
with numba's start-up cut to what these loops use.

numba's import probes for optional modules it uses only in cases these loops never meet, and
its first compiled call imports scipy.linalg to learn whether compiled np.dot has a BLAS. Both
are skipped here without changing what numba does for these loops; everything skipped is
imported as usual by whoever asks for it later. Imported only by instances big enough to need
compiled code (arena.core.feedback.COMPILED_CELLS): small commands never load numba.
"""

from __future__ import annotations

import os
import sys
import types

#: Modules numba's import only probes for, hidden while it imports where no one has loaded them:
#: coverage (installed with the tests: numba reports compiled lines to a running coverage,
#: which would have been imported before us) and yaml (read only for a .numba_config.yaml in
#: the working directory, so kept where one is there). 0.05-0.1 s of CPU of numba's 0.3-0.45 s.
PROBED = ("coverage", "yaml")


def _import_numba():
    """numba's njit, imported without the optional modules of PROBED that nothing here uses."""
    hidden = [name for name in PROBED if name not in sys.modules]
    if os.path.exists(".numba_config.yaml") and "yaml" in hidden:
        hidden.remove("yaml")
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # import raises ImportError
    try:
        from numba import njit  # lazy: heavy
    finally:
        for name in hidden:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]
    return njit


njit = _import_numba()


def _numba_without_scipy_linalg() -> None:
    """Load numba's array functions without importing scipy.linalg: numba's first compiled call
    imports numba.np.arraymath, which imports scipy.linalg (0.2-0.5 s, most of numba's start-up
    here) only to learn whether a BLAS exists for compiled np.dot; these loops use none. A
    placeholder for scipy.linalg.cython_blas during that one import passes the check; it is
    removed at once, so a later import (nashpy, compiled linear algebra) loads the real module."""
    name = "scipy.linalg.cython_blas"
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules or name in sys.modules:
        return
    sys.modules[name] = types.ModuleType(name)
    try:
        import numba.np.arraymath  # noqa: F401  # lazy: heavy
    except Exception:  # a numba that reads more of the placeholder: import it plainly, later
        sys.modules.pop("numba.np.arraymath", None)
    finally:
        del sys.modules[name]


_numba_without_scipy_linalg()
