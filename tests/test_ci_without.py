"""`.ci/without`: the PATH on which CI runs the README's test command as on a machine without
Graphviz or Chromium (the named programs gone, every other one found where it was)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

WITHOUT = Path(__file__).parents[1] / ".ci" / "without"


@pytest.mark.skipif(sys.platform == "win32" or shutil.which("bash") is None, reason="a bash script")
def test_the_named_programs_are_off_the_path_and_no_other(tmp_path):
    (tmp_path / "tools").mkdir()
    for name in ("dot", "chromium", "kept"):
        tool = tmp_path / "tools" / name
        tool.write_text("#!/bin/sh\necho " + name + "\n")
        tool.chmod(0o755)
    env = dict(os.environ, PATH=f"{tmp_path / 'tools'}:{os.environ['PATH']}", TMPDIR=str(tmp_path))  # its links here
    path = subprocess.run(
        ["bash", str(WITHOUT), "dot", "chromium"], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert shutil.which("dot", path=path) is None and shutil.which("chromium", path=path) is None
    assert Path(shutil.which("kept", path=path) or "").resolve() == tmp_path / "tools" / "kept"
    assert shutil.which("python", path=path) == shutil.which("python", path=env["PATH"])  # folders kept as they are
