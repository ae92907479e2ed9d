"""Tournaments for the command line (`arena run`, `arena report`) and for notebooks: a config
run, its store locked while it is written, its outputs, a stored run read back, and the other
views of it; matrix games exported. Each is the study layer's own function, named here so that
the command line imports only the API."""

from __future__ import annotations

import contextlib

from ..study.config import Config, load_config
from ..study.results.export import equilibrium_game, export_format
from ..study.results.report import Report
from ..study.results.views import check_views, show_views
from ..study.tournament.output import stored_report, write_outputs
from ..study.tournament.run import Execution, run_config
from ..study.tournament.store import DirectoryLock

__all__ = [
    "Config",
    "Execution",
    "Report",
    "check_export_file",
    "check_views",
    "equilibrium_game",
    "load_config",
    "run_config",
    "show_views",
    "stored_report",
    "writing",
    "write_outputs",
]


def writing(out: str | None) -> contextlib.AbstractContextManager:
    """The lock on `out` (one run writes to a directory at a time), held while the store and
    the outputs beside it are written; no directory, nothing to lock."""
    return DirectoryLock(out) if out else contextlib.nullcontext()


def check_export_file(path: str, option: str = "--export") -> None:
    """A matrix game's file (`.nfg` or `.csv`) that can be written, checked before any work."""
    from ..core.outfile import check_output_file

    export_format(path)
    check_output_file(path, option)
