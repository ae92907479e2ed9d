"""The command line run in-process for tests: its exit status and output, and the check that a
user's mistake is one line on stderr with exit status 2."""

from __future__ import annotations

from arena.cli.parser import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `arena argv...` in this process."""
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
    out, err = capsys.readouterr()
    return rc, out, err


def one_line(rc: int, err: str, *needles: str) -> None:
    """Exit 2, one line on stderr, no traceback, and every needle in it."""
    assert rc == 2, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    for needle in needles:
        assert needle in err, err
