"""tests/slow.txt, the measured list behind the `slow` marker: every line names a test that
exists, and the marker reaches the tests it names."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest
from conftest import SLOW_LIST, slow_tests

ROOT = Path(__file__).resolve().parents[1]


@cache
def functions_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def test_every_slow_test_listed_exists():
    missing = []
    for node in sorted(slow_tests()):
        file, _, rest = node.partition("::")
        name = rest.split("[", 1)[0].split("::")[-1]
        path = ROOT / file
        if not path.exists() or name not in functions_in(path):
            missing.append(node)
    assert not missing, f"{SLOW_LIST.name} names tests that no longer exist (rerun tests/slow_tests.py): {missing}"


def test_the_list_reads_node_ids_and_comments(tmp_path, monkeypatch):
    import conftest

    listed = tmp_path / "slow.txt"
    listed.write_text("# a comment\ntests/test_a.py::test_b[x]  # why\n\ntests/test_c.py::test_d\n")
    monkeypatch.setattr(conftest, "SLOW_LIST", listed)
    assert conftest.slow_tests() == {"tests/test_a.py::test_b[x]", "tests/test_c.py::test_d"}


@pytest.mark.parametrize("seconds, slow", [(0.2, False), (1.5, True)])
def test_the_measurement_is_what_decides(tmp_path, seconds, slow):
    import slow_tests

    log = f"{seconds}s call     tests/test_a.py::test_b\n0.10s setup    tests/test_a.py::test_b\n"
    assert (
        "tests/test_a.py::test_b" in {n for n, s in slow_tests.durations(log).items() if s > slow_tests.SLOW_SECONDS}
    ) == slow
