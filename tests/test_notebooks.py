"""The notebooks in examples/ run from top to bottom, quickly.

Their code cells are run in order in one namespace, in a fresh directory, with matplotlib
drawing off screen: no Jupyter kernel needed (a notebook is JSON; nbformat would only read it
for us). The last expression of a cell is evaluated as Jupyter would display it, so a cell that
ends on a broken expression fails too.
"""

from __future__ import annotations

import ast
import json
import time
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NOTEBOOKS = sorted(p.name for p in EXAMPLES.glob("*.ipynb"))
#: All of them together, on a loaded 2-core machine, stay well under this.
BUDGET = 30.0
spent: list[float] = []


def code_cells(name: str) -> list[str]:
    data = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    assert data["nbformat"] == 4
    return ["".join(c["source"]) for c in data["cells"] if c["cell_type"] == "code"]


def run_cell(source: str, names: dict) -> object:
    """Run a cell; the value of its last line if that is an expression (what Jupyter shows)."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), names)
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), names) if last else None


def test_there_are_notebooks():
    assert {"guesser_study.ipynb", "tournament.ipynb", "equilibrium.ipynb"} <= set(NOTEBOOKS)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_notebook_runs(name, tmp_path, monkeypatch):
    import matplotlib  # lazy: heavy

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: heavy

    monkeypatch.chdir(tmp_path)
    start = time.perf_counter()
    names: dict = {"__name__": "__main__"}
    shown = [run_cell(source, names) for source in code_cells(name)]
    plt.close("all")
    spent.append(time.perf_counter() - start)
    assert any(s is not None for s in shown)  # the notebooks end cells on a table or a figure
    assert sum(spent) < BUDGET, f"the notebooks took {sum(spent):.1f} s together"
