"""Tasks: the blocks of repetitions that a config's cells are split into, each with its own seed.

A task's seed is a hash of the tournament seed and the task's identity (game, chooser,
guesser, block), never of its position in a queue, so results are the same whatever the
number of workers, the backend, or the order in which tasks finish.

A task's key (its identity in the results store) is a hash of everything that can change
its result: the game, chooser and guesser specs, the seeds, the block and its size, the
strike limits, the contents of every file the game or the agents read (word lists,
weights, saved trees and equilibria, the shipped word lists), and the code that computes it
(the project's version and source, and any outside agent's source and distribution: see
provenance.py). Two rows of a config that differ in any of these never share a stored
result, and a store never serves a result made from another version of a file or of the code.

A task's `slot` hashes the same identity without the files and the code: the place the task
fills in a study, so a store can say why it reruns a task it held ("first-ten: code changed").
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from agents.registry import make_agent, module_path

from ...core.costs import strikes_in
from ...core.digests import content_key, file_digest, is_file
from ...core.errors import ArenaError
from ...core.spec import bind, canonical, parse_spec
from ...core.words import SHIPPED
from ...games import GAMES
from .provenance import task_code, verify

#: Most tasks a run may have: each is a row in memory and in the store, so a config asking for
#: more (a huge `repeat` in small blocks) is refused before any is built.
MAX_TASKS = 200_000


@dataclass(frozen=True)
class Task:
    """One block of a cell: `repeat` repetitions over every secret, seeded by `seed`."""

    cell: int  # index of the config cell it belongs to
    game: str
    chooser: str
    guesser: str
    block: int
    repeat: int
    seed: int
    strikes: tuple[int, ...] = ()
    cell_seed: int = 0  # the cell's seed, which `seed` is derived from
    files: tuple[tuple[str, str], ...] = ()  # (file as named in a spec, its SHA-256) for every file read
    allow_import: bool = field(default=False, compare=False)  # may module:Class agents be imported
    code: tuple[tuple[str, str], ...] = ()  # (source, digest) of the code it runs: provenance.task_code

    @cached_property
    def key(self) -> str:
        """The task's identity in the results store: a SHA-256 of everything its result depends on."""
        return content_key(self.identity())

    @cached_property
    def slot(self) -> str:
        """The task's place in a study: its key without the files' contents and the code."""
        return content_key({k: v for k, v in self.identity().items() if k not in ("files", "code")})

    def identity(self) -> dict:
        """What the key hashes, readable (the store keeps it beside the result)."""
        return {
            "game": canonical_game(self.game),
            "chooser": self.chooser,
            "guesser": self.guesser,
            "cell_seed": self.cell_seed,
            "seed": self.seed,
            "block": self.block,
            "repeat": self.repeat,
            "strikes": list(self.strikes),
            "files": [list(f) for f in self.files],
            "code": [list(c) for c in self.code],
        }


def task_seed(seed: int, game: str, chooser: str, guesser: str, block: int) -> int:
    """A 63-bit seed from the tournament seed and the task's identity (SHA-256: stable everywhere)."""
    text = f"{seed}\x1f{game}\x1f{chooser}\x1f{guesser}\x1f{block}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


# --- the files a spec reads ------------------------------------------------------------------


@lru_cache(maxsize=1024)
def canonical_game(spec: str) -> str:
    """The game spec with defaults dropped (no game is built); the spec as written if it does not bind."""

    try:
        name, raw = parse_spec(spec)
        return canonical(name, GAMES[name].params, bind(name, GAMES[name].params, raw))
    except (ArenaError, KeyError):
        return spec.strip()


def spec_values(spec: str, kind: str) -> list[str]:
    """Every parameter value of a spec, as text: for a game, its defaults too (the default word
    list is read as surely as a named one); for an agent, the values it was given."""

    try:
        if kind == "game":
            name, raw = parse_spec(spec)
            if name in GAMES:
                return [str(v) for v in bind(name, GAMES[name].params, raw).values()]
            return list(raw.values())
        path = module_path(spec)
        if path:  # module:Class[:params]
            return list(parse_spec("x:" + path[1])[1].values())
        return list(parse_spec(spec)[1].values())
    except ArenaError:
        return []  # a malformed spec fails when its task runs; it reads no file before


def spec_files(spec: str, kind: str) -> list[str]:
    """The files a spec's parameters name: shipped word lists (`sgb`, `web2`) and existing files."""

    return sorted({v for v in spec_values(spec, kind) if v in SHIPPED or is_file(v)})


def files_read(cells) -> dict[str, str]:
    """File -> SHA-256 for every file any cell's game, chooser or guesser reads. (Games and word
    lists are cached per process by these contents too, so nothing built from an older version
    of a file is reused.)"""
    names: set[str] = set()
    for cell in cells:
        names.update(_names(cell))
    return {name: file_digest(name) for name in sorted(names)}


# --- cells into tasks --------------------------------------------------------------------------


def _randomised(spec: str, role: str, allow_import: bool = False) -> bool:
    """Does the agent need repetitions? (Not if deterministic, nor a chooser whose uniform
    secret an evaluation covers by playing every secret once.)"""
    traits = make_agent(spec, role, allow_import=allow_import).traits
    return not traits.deterministic and not traits.every_secret_once


def cell_repeats(cells, allow_import: bool = False) -> list[int]:
    """Repetitions each cell plays: its `repeat` if an agent is random, else one."""
    random: dict[tuple[str, str], bool] = {}

    def is_random(spec: str, role: str) -> bool:
        if (spec, role) not in random:
            random[spec, role] = _randomised(spec, role, allow_import)
        return random[spec, role]

    return [
        cell.repeat if is_random(cell.guesser, "guesser") or is_random(cell.chooser, "chooser") else 1 for cell in cells
    ]


def check_task_count(repeats: list[int], block: int, where: str = "the config") -> int:
    """How many tasks these cells make, counted before any is built; over MAX_TASKS an ArenaError
    suggesting the `block` that fits."""
    count = sum(math.ceil(r / block) for r in repeats)
    if count > MAX_TASKS:
        big = [r for r in repeats if r > 1]
        fits = math.ceil(sum(big) / max(1, MAX_TASKS - len(repeats)))
        raise ArenaError(
            f"{where} makes {count:,} tasks (repeat up to {max(repeats):,} in blocks of {block:,}), "
            f"over the limit of {MAX_TASKS:,}: set block = {max(fits, block + 1):,} or more in the config"
        )
    return count


def expand(
    cells, block: int = 5, files: dict[str, str] | None = None, allow_import: bool = False, where: str = "the config"
) -> list[Task]:
    """Every cell as tasks: one if both agents are deterministic, else its repetitions in
    blocks of `block`. Limits from published lostK figures join the cell's strike limits.

    `files` (file -> SHA-256, as `files_read` gives) are the contents the tasks are keyed on;
    by default they are hashed now.
    """
    repeats = cell_repeats(cells, allow_import)
    check_task_count(repeats, block, where)
    files = files_read(cells) if files is None else files
    codes: dict[tuple[str, str, str], tuple] = {}
    tasks = []
    for i, (cell, repeat) in enumerate(zip(cells, repeats)):
        limits = tuple(sorted({k for k in map(strikes_in, cell.published) if k is not None} | set(cell.strikes)))
        read = tuple((name, files.get(name) or file_digest(name)) for name in _names(cell))
        code = codes.get((cell.game, cell.chooser, cell.guesser))
        if code is None:
            code = codes[cell.game, cell.chooser, cell.guesser] = task_code(cell.game, cell.chooser, cell.guesser)
            verify(code)  # this process holds the code the keys name (not an older import of it)
        for b, start in enumerate(range(0, repeat, block)):
            seed = task_seed(cell.seed, cell.game, cell.chooser, cell.guesser, b)
            tasks.append(
                Task(
                    i,
                    cell.game,
                    cell.chooser,
                    cell.guesser,
                    b,
                    min(block, repeat - start),
                    seed,
                    limits,
                    cell.seed,
                    read,
                    allow_import,
                    code,
                )
            )
    return tasks


def _names(cell) -> Iterable[str]:
    return sorted(
        {*spec_files(cell.game, "game"), *spec_files(cell.chooser, "agent"), *spec_files(cell.guesser, "agent")}
    )
