"""tests/coverage_floor.py, the line-coverage floor the README's test command checks."""

from __future__ import annotations

import json

import coverage_floor


def report(tmp_path, covered: int, missing: int):
    path = tmp_path / "coverage.json"
    files = {"arena/a.py": {"summary": {"covered_lines": covered, "missing_lines": missing, "percent_covered": 0.0}}}
    summary = {"covered_lines": covered, "missing_lines": missing}
    path.write_text(json.dumps({"meta": {"timestamp": "t"}, "files": files, "summary": summary}))
    return str(path)


def test_at_or_above_the_floor_passes_and_prints_the_figure(tmp_path, capsys):
    assert coverage_floor.main([report(tmp_path, 990, 10)]) == 0
    assert "line coverage: 99.00% of 1,000 lines (10 never run)" in capsys.readouterr().out


def test_below_the_floor_fails(tmp_path, capsys):
    assert coverage_floor.main([report(tmp_path, 500, 500)]) == 1
    assert "below the floor" in capsys.readouterr().out


def test_no_report_is_a_failure_that_says_what_to_run(tmp_path, capsys):
    assert coverage_floor.main([str(tmp_path / "none.json")]) == 1
    assert "python -m slipcover -m pytest" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text("{}")
    assert coverage_floor.main([str(tmp_path / "bad.json")]) == 1
