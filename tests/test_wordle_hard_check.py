"""experiments/wordle_hard.py: Wordle's hard mode over every first guess, checked against the
published list (Selby's 101 best first guesses within six guesses)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("wordle_hard", ROOT / "experiments" / "wordle_hard.py")
assert _spec is not None and _spec.loader is not None
wordle_hard = importlib.util.module_from_spec(_spec)
sys.modules["wordle_hard"] = wordle_hard  # its dataclass looks its module up
_spec.loader.exec_module(wordle_hard)
Standing = wordle_hard.Standing


def test_the_published_list_is_read_best_first():
    totals = wordle_hard.published_totals()
    assert len(totals) == 101 and list(totals)[:3] == ["salet", "least", "reast"]
    assert list(totals.values()) == sorted(totals.values()) and totals["salet"] == 8122


def test_the_shipped_hard_mode_tree_is_the_published_best():
    shipped = json.loads((ROOT / "experiments" / "data" / "wordle-hard-max-6.json").read_text())
    assert shipped["first_guess"] == "salet" and shipped["total"] == wordle_hard.published_totals()["salet"]


def test_each_kind_of_disagreement_is_found():
    published = {"salet": 8122, "least": 8127, "reast": 8134}
    agree = {
        "salet": Standing("salet", 8122, True, True),  # solved exactly, same total
        "least": Standing("least", 8125, False, True),  # a bound below the published total
        "reast": Standing("reast", 7000, False, False),  # open
        "zzzzz": Standing("zzzzz", 8200, True, True),  # solved, left out, above the list's last
    }
    assert wordle_hard.disagreements(agree, published) == []
    wrong = agree | {
        "salet": Standing("salet", 8123, True, True),
        "least": Standing("least", 8128, False, True),
        "zzzzz": Standing("zzzzz", 8130, True, True),
    }
    found = wordle_hard.disagreements(wrong, published)
    assert len(found) == 3 and [line.split(":")[0] for line in found] == ["salet", "least", "zzzzz"]
    missing = wordle_hard.disagreements({k: v for k, v in agree.items() if k != "reast"}, published)
    assert missing == ["reast: published, but not a first guess of this search"]
    rows = wordle_hard.table(agree, published)
    assert rows[2] == "| salet | 8,122 | 8,122, solved exactly | yes |" and "(open)" in rows[4]


def test_a_missing_journal_is_one_line(tmp_path, capsys):
    assert wordle_hard.main([str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("wordle_hard.py: error: journal ") and "does not exist" in err and "Traceback" not in err
