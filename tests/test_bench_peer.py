"""benchmarks/bench_peer_optimal.py refuses, in one line and with status 2, a peer binary that
is not there or a row it does not have, before any timing (issue 33)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_peer_optimal.py"


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=60)


def test_a_missing_peer_binary_is_one_line(tmp_path):
    missing = tmp_path / "mmstrat"
    done = run("--peer", str(missing))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"bench_peer_optimal: no peer binary at {missing} (build mmstrat as this script's docstring says)"
    ]


def test_an_unknown_row_is_one_line(tmp_path):
    peer = tmp_path / "mmstrat"
    peer.write_text("#!/bin/sh\n")
    peer.chmod(0o755)
    done = run("--peer", str(peer), "--rows", "4x9")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "no row '4x9'; the rows are start-up, 4x6" in done.stderr
