"""The notebooks in examples/ run from top to bottom, quickly, and are stored executed, with
the outputs their code prints.

Their code cells are run in order in one namespace, in a fresh directory, with matplotlib
drawing off screen: no Jupyter kernel needed (a notebook is JSON). The last expression of a
cell is evaluated as Jupyter would display it, so a cell that ends on a broken expression fails
too; what each cell prints must be what the stored notebook shows (timings aside), so a stored
output that drifted fails. Where the `notebooks` extra is installed (nbclient, ipykernel), each
notebook is also executed by a real Jupyter kernel.

To store them executed again after a change: `python tests/test_notebooks.py` (the
`notebooks` extra; Graphviz's dot draws the tree in guesser_study).
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import json
import re
import time
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NOTEBOOKS = sorted(p.name for p in EXAMPLES.glob("*.ipynb"))
#: All of them together, on a loaded 2-core machine, stay well under this.
BUDGET = 30.0
spent: list[float] = []
TIMING = re.compile(r"\b\d+(?:\.\d+)? s\b")


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
    shown, printed = [], []
    for source in code_cells(name):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            shown.append(run_cell(source, names))
        printed.append(out.getvalue())
    plt.close("all")
    spent.append(time.perf_counter() - start)
    assert any(s is not None for s in shown)  # the notebooks end cells on a table or a figure
    assert sum(spent) < BUDGET, f"the notebooks took {sum(spent):.1f} s together"
    for k, (now, stored) in enumerate(zip(printed, stored_prints(name)), 1):
        assert TIMING.sub("T s", now) == TIMING.sub("T s", stored), f"{name}, code cell {k} now prints\n{now}"


def stored_prints(name: str) -> list[str]:
    """What each code cell of the stored notebook printed (its stdout stream)."""
    data = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    return [
        "".join("".join(o["text"]) for o in c["outputs"] if o["output_type"] == "stream" and o["name"] == "stdout")
        for c in data["cells"]
        if c["cell_type"] == "code"
    ]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_notebook_is_stored_executed(name):
    data = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    cells = [c for c in data["cells"] if c["cell_type"] == "code"]
    assert [c["execution_count"] for c in cells] == list(range(1, len(cells) + 1)), "run it top to bottom"
    assert all(c["outputs"] for c in cells), "every code cell shows what it made"
    assert not [o for c in cells for o in c["outputs"] if o["output_type"] == "error"]
    kinds = {kind for c in cells for o in c["outputs"] for kind in o.get("data", {})}
    assert "image/png" in kinds  # its plots are stored, not only its code


KERNEL = all(importlib.util.find_spec(m) for m in ("nbclient", "nbformat", "ipykernel"))


@pytest.mark.skipif(not KERNEL, reason="the notebooks extra is not installed (pip install -e '.[notebooks]')")
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_jupyter_kernel_runs_the_notebook(name, tmp_path):
    notebook = execute(name, tmp_path)
    printed = [
        "".join("".join(o["text"]) for o in c.outputs if o.output_type == "stream" and o.name == "stdout")
        for c in notebook.cells
        if c.cell_type == "code"
    ]
    assert [TIMING.sub("T s", p) for p in printed] == [TIMING.sub("T s", p) for p in stored_prints(name)]


def execute(name: str, where: Path):
    """The notebook executed top to bottom by a Jupyter kernel, in the directory `where`."""
    import nbclient  # lazy: heavy
    import nbformat  # lazy: heavy

    notebook = nbformat.read(EXAMPLES / name, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", record_timing=False, resources={"metadata": {"path": str(where)}}
    )
    client.execute()
    return notebook


if __name__ == "__main__":  # python tests/test_notebooks.py: store every notebook executed
    import tempfile

    import nbformat

    for name in NOTEBOOKS:
        with tempfile.TemporaryDirectory() as where:
            notebook = execute(name, Path(where))
        notebook.metadata.pop("widgets", None)
        for k, cell in enumerate(notebook.cells):  # nbformat 4.5 names every cell
            cell.setdefault("id", f"cell-{k}")
        nbformat.write(notebook, EXAMPLES / name)
        print(f"stored {name} executed")
