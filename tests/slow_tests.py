"""Write tests/slow.txt from a measured run: the tests whose setup, call and teardown together
took more than SLOW_SECONDS.

    python -m pytest --durations=0 -vv > durations.log
    python tests/slow_tests.py durations.log [--seconds S]

The list is a measurement of this machine at one moment; rerun it when the inner loop
(`pytest -m "not slow"`) grows past a minute. tests/test_slow_list.py checks that every line
still names a test.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

SLOW_SECONDS = 0.5
LINE = re.compile(r"^([\d.]+)s (?:call|setup|teardown)\s+(.+?)\s*$")


def durations(log: str) -> Counter:
    """Seconds per test node id (setup, call and teardown added)."""
    seconds: Counter = Counter()
    for line in log.splitlines():
        found = LINE.match(line)
        if found:
            seconds[found.group(2)] += float(found.group(1))
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--seconds", type=float, default=SLOW_SECONDS)
    args = parser.parse_args()
    seconds = durations(args.log.read_text(encoding="utf-8"))
    slow = sorted(node for node, s in seconds.items() if s > args.seconds)
    head = (
        f"# Tests over {args.seconds:g} s in a measured run (python tests/slow_tests.py LOG; see there).\n"
        f"# {len(slow)} of the {len(seconds)} tests timed, {sum(seconds[n] for n in slow):.0f} of "
        f"{sum(seconds.values()):.0f} s.\n"
    )
    Path(__file__).with_name("slow.txt").write_text(head + "".join(f"{n}\n" for n in slow), encoding="utf-8")
    print(f"{len(slow)} slow tests written to tests/slow.txt")


if __name__ == "__main__":
    main()
