"""Exact expected-case optima of Mastermind instances, beside the published values.

    python experiments/mastermind_optima.py                 # every instance, writes mastermind_optima.md
    python experiments/mastermind_optima.py --limit 300     # seconds an instance may take (default 300)
    python experiments/mastermind_optima.py --only 4x5      # some rows only (pegs x colours), printed

Each instance's figures are kept in experiments/data/mastermind_optima.json: a run solves only
the instances not proven there yet (or stopped under a smaller limit), so a second run with a
larger --limit finishes what the first one could not, and the table is written from the file.

Each instance is one `arena optimal SPEC --json --time-limit LIMIT --save FILE` in a fresh
process (wall time includes start-up). A row is written only when the search proved its tree
optimal (total equal to the proven lower bound); an instance the limit stopped is listed as
skipped with the best total found and the bound proven. Within a family (pegs fixed, colours
growing, or the reverse) the instances grow, so once one is stopped the bigger ones of that
family are skipped without running; instances known to run for hours (MM(4,8), MM(5,6) and
beyond: issue 23) are skipped by size.

Published values (shared/REFERENCES.md): Koyama and Lai (1993) 4x6, 5,625 over 1,296 codes;
Ville (2013) 4x7, 11,228 over 2,401; Bulls and Cows (4 of 10 digits, no repeats) 26,274 over
5,040. Goddard ("Mastermind revisited", 2004) tabulates the average for 2 pegs with 2 to 7
colours and for 3x3 up to 5x4 (and exact values for 2 pegs); his figures were not available to this project when the table
was written, so those rows say so instead of printing a figure from memory.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Each instance's figures, kept between runs.
KEPT = HERE / "data" / "mastermind_optima.json"
ARENA = str(Path(sys.executable).with_name("arena"))
#: Codes beyond which an instance is not started (Bulls and Cows, 5,040, is the biggest that
#: finishes in minutes).
MAX_CODES = 5040
#: Instances known to run for hours (issue 23: MM(4,8) is the lead's multi-hour run; MM(5,6) unsolved).
LONG = {
    (4, 8, True): "MM(4,8), 4,096 codes: 20,471 proven by issue 23's run (732 s on a loaded machine, "
    "experiments/optimal.md), not run again here",
    (5, 6, True): "MM(5,6), 7,776 codes, is open (issue 23)",
}

#: Published totals: (total, secrets, source).
PUBLISHED = {
    (4, 6, True): (5625, 1296, "Koyama & Lai 1993"),
    (4, 7, True): (11228, 2401, "Ville 2013"),
    (4, 10, False): (26274, 5040, "Bulls and Cows (REFERENCES.md)"),
}


def goddard_range(pegs: int, colors: int, repeats: bool) -> bool:
    """Is the instance in Goddard's (2004) range: 2 colours with up to 7 pegs, 2 pegs (he gives
    exact values for 2 positions), or 3x3 to 5x4? (Taken broadly: a row in it is never "new?".)"""
    return repeats and ((colors == 2 and pegs <= 7) or pegs == 2 or (3 <= pegs <= 5 and 3 <= colors <= 4))


@dataclass
class Instance:
    pegs: int
    colors: int
    repeats: bool

    @property
    def spec(self) -> str:
        return f"mastermind:pegs={self.pegs},colors={self.colors}" + ("" if self.repeats else ",repeats=false")

    @property
    def codes(self) -> int:
        return self.colors**self.pegs if self.repeats else math.perm(self.colors, self.pegs)

    @property
    def name(self) -> str:
        kind = "" if self.repeats else (" Bulls and Cows" if self.colors == 10 else " no repeats")
        return f"{self.pegs}x{self.colors}{kind}"


def families() -> list[list[Instance]]:
    """The instances, as families that grow: each is stopped at its first instance over the limit."""
    out = [[Instance(p, c, True) for c in range(2, 11)] for p in range(2, 11)]
    out += [[Instance(p, c, False) for c in range(p, 11)] for p in range(2, 6)]
    return out


def solve(instance: Instance, limit: float) -> dict:
    """`arena optimal SPEC --json` on the instance, with its wall time and first guess."""
    with tempfile.TemporaryDirectory() as scratch:
        saved = Path(scratch) / "tree.json"
        argv = [ARENA, "optimal", instance.spec, "--json", "--time-limit", str(limit), "--save", str(saved)]
        started, cpu = time.perf_counter(), children_cpu()
        done = subprocess.run(argv, capture_output=True, text=True, timeout=limit * 2 + 120)
        wall, cpu = time.perf_counter() - started, children_cpu() - cpu
        if done.returncode != 0:
            return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
        figures = json.loads(done.stdout)
        figures["wall"], figures["cpu"] = wall, cpu
        figures["first_guess"] = json.loads(saved.read_text())["root"]["guess"]
    return figures


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def published_cell(instance: Instance, total: int | None) -> tuple[str, str]:
    """(published figure, agreement) for the table."""
    key = (instance.pegs, instance.colors, instance.repeats)
    if key in PUBLISHED:
        value, n, source = PUBLISHED[key]
        agrees = "" if total is None else ("agrees" if total == value else f"**differs** ({total:,} here)")
        return f"{value:,} / {n:,} = {value / n:.4f} ({source})", agrees
    if instance.pegs == 2:
        return "formula for 2 pegs (Chen & Lin; Peczarski 2018), not at hand", "not checked"
    if goddard_range(*key):
        return "in Goddard's 2004 table (figure not at hand)", "not checked"
    return "none known to us", "**new?**"


def run(
    limit: float, only: set[str] | None, kept: dict, solving: bool = True
) -> list[tuple[Instance, dict | None, str]]:
    """Every instance's figures (kept from an earlier run, or solved now unless not `solving`),
    with why one was not run."""
    rows = []
    for family in families():
        stopped = ""
        for instance in family:
            if only is not None and instance.name.split()[0] not in only:
                continue
            if instance.codes > MAX_CODES or (instance.pegs, instance.colors, instance.repeats) in LONG:
                why = LONG.get(
                    (instance.pegs, instance.colors, instance.repeats),
                    f"{instance.codes:,} codes, beyond what finishes in minutes",
                )
                rows.append((instance, None, f"not run: {why}"))
                continue
            if stopped:
                rows.append((instance, None, f"skipped: {stopped} was stopped at the limit"))
                continue
            figures = kept.get(instance.spec)
            if figures is None and not solving:
                rows.append((instance, None, "not run yet"))
                continue
            if solving and (figures is None or (not figures.get("exact") and figures.get("limit", 0) < limit)):
                figures = solve(instance, limit) | {"limit": limit}
                kept[instance.spec] = figures
                KEPT.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
                print(
                    instance.name,
                    {k: figures.get(k) for k in ("total", "lower_bound", "exact", "cpu", "wall", "error")},
                    flush=True,
                )
            if "error" in figures or not figures.get("exact"):
                stopped = instance.name
            rows.append((instance, figures, ""))
    return rows


def table(rows, limit: float) -> str:
    lines = [
        "| instance | codes | optimum total | mean | worst | first guess | CPU | wall | sets searched | published | |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    skipped = []
    for instance, figures, why in rows:
        if figures is None:
            skipped.append(f"- {instance.name} (`{instance.spec}`): {why}")
            continue
        if "error" in figures:
            skipped.append(f"- {instance.name} (`{instance.spec}`): failed: {figures['error']}")
            continue
        if not figures["exact"]:
            skipped.append(
                f"- {instance.name} (`{instance.spec}`): stopped at {figures['limit']:g} s with total "
                f"{figures['total']:,}, proven >= {figures['lower_bound']:,.6g}"
            )
            continue
        total = int(figures["total"])
        published, agrees = published_cell(instance, total)
        lines.append(
            f"| {instance.name} | {instance.codes:,} | {total:,} | {figures['mean']:.4f} | {figures['worst']} "
            f"| {figures['first_guess']} | {figures['cpu']:.1f} s | {figures['wall']:.1f} s | {figures['searched']:,} | {published} "
            f"| {agrees} |"
        )
    return "\n".join(lines) + ("\n\nSkipped:\n\n" + "\n".join(skipped) if skipped else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--limit",
        type=float,
        default=300,
        help="seconds (wall) an instance may take (default 300; an instance stopped under a smaller "
        "limit before is run again)",
    )
    parser.add_argument("--only", default=None, help="comma-separated PxC names (e.g. 4x5,3x6); printed, not written")
    parser.add_argument("--out", default=str(HERE / "mastermind_optima.md"))
    parser.add_argument("--write", action="store_true", help="only write the table from the figures kept")
    args = parser.parse_args()
    only = None if args.only is None else set(args.only.split(","))
    kept = json.loads(KEPT.read_text()) if KEPT.exists() else {}
    rows = run(args.limit, only, kept, solving=not args.write)
    text = table(rows, args.limit)
    if only is not None:
        print(text)
        return
    cpu = sum(f.get("cpu", 0.0) for f in kept.values())
    limit = max([f.get("limit", args.limit) for f in kept.values()] or [args.limit])
    Path(args.out).write_text(HEADER.format(limit=limit, seconds=cpu) + text + "\n")
    print(f"wrote {args.out}")


HEADER = """# Exact expected-case optima of Mastermind

Made by `python experiments/mastermind_optima.py --limit {limit:g}` ({seconds:,.0f} CPU seconds
in all on this project's shared 2-core machine): one `arena optimal SPEC --json --time-limit
LIMIT` per row (each instance's figures kept in `experiments/data/mastermind_optima.json`, so a
run with a larger limit finishes only what an earlier one could not), SPEC `mastermind:pegs=P,colors=C` (`,repeats=false` for the
rows without repeats; 4 pegs of 10 digits without repeats is Bulls and Cows). Every total below
is proven optimal (it equals the lower bound the search proved); "wall" is the whole command,
start-up included, on a machine shared with other work (inflated: the load average was
several times the 2 cores while this ran); "CPU" is the command's own user + system time,
which the sharing inflates much less.

"new?" marks an instance with no published value that we know of: outside the references the
project holds (Koyama-Lai, Ville, Bulls and Cows) and outside Goddard's range (taken broadly: 2 colours
with up to 7 pegs, 2 pegs, 3x3 to 5x4) and not of 2 pegs (Chen and Lin give formulas for 2 pegs,
with and without repeats, proven by Peczarski 2018). Ville (2013) lists optimal strategies or bounds for further instances
that we could not check, so "new?" is a question, not a claim. Goddard's figures were not
available when this table was made; the rows in his range say "not checked".

"""


if __name__ == "__main__":
    main()
