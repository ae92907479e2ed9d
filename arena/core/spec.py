"""Spec strings: `name:key=value,key=value`, the one syntax for games and agents.

A component (game or agent) declares its parameters as `Param`s; `parse_spec` splits the
string and `bind` checks every key and converts every value, so that a typo gets a message
naming the parameter and the valid choices instead of a traceback deep inside the code.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ArenaError, ArenaTypeError, choices


@dataclass(frozen=True)
class Param:
    """One declared parameter: its type (int, float, str, bool or a tuple of choices),
    its default, and a line of help."""

    name: str
    kind: Any
    default: Any
    help: str = ""

    def convert(self, text: str, owner: str) -> Any:
        """The value of `text` for this parameter, or an ArenaError naming what was expected."""
        where = f"{owner}: parameter {self.name}={text!r}"
        if isinstance(self.kind, tuple):
            if text not in self.kind:
                raise ArenaError(f"{where} must be one of {choices(self.kind)}")
            return text
        if self.kind is bool:
            low = text.lower()
            if low in ("true", "yes", "1", "on"):
                return True
            if low in ("false", "no", "0", "off"):
                return False
            raise ArenaError(f"{where} must be true or false")
        if self.kind is int or self.kind is float:
            # Python's int() and float() also take full-width and other scripts' digits, digit
            # groups (1_000) and, for float, nan and inf: a spec's number is ASCII digits only
            number = _INTEGER if self.kind is int else _NUMBER
            if not number.fullmatch(text.strip()):
                raise ArenaError(
                    f"{where} must be {'an integer' if self.kind is int else 'a number'} written in the digits 0-9"
                )
            return self.kind(text)
        if callable(self.kind) and self.kind is not str:
            return self.kind(text, where)
        return text

    def describe(self) -> str:
        kind = "|".join(self.kind) if isinstance(self.kind, tuple) else getattr(self.kind, "__name__", "str")
        default = _show(self.default) if self.default not in (None, "", ()) else "-"
        return f"{self.name:<9} {kind:<18} default {default:<11} {self.help}".rstrip()


_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split `name:key=value,key=value` into the name and a dict of raw values.

    >>> parse_spec("minimax:pool=all,small=3")
    ('minimax', {'pool': 'all', 'small': '3'})
    """
    if not isinstance(spec, str):
        raise ArenaTypeError(
            f"a spec is a str, name or name:key=value,key=value (such as 'mastermind:pegs=3'), "
            f"got {spec!r} ({type(spec).__name__})"
        )
    if not spec.strip():
        raise ArenaError(f"empty spec {spec!r}: write name or name:key=value,key=value")
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if not name:
        raise ArenaError(f"spec {spec!r} has no name before ':'")
    params: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ArenaError(f"spec {spec!r}: {item!r} is not of the form key=value")
        key = key.strip()
        if key in params:
            raise ArenaError(f"spec {spec!r}: parameter {key} given twice")
        params[key] = value.strip()
    return name, params


def bind(owner: str, declared: Mapping[str, Param], raw: Mapping[str, str]) -> dict[str, Any]:
    """Every declared parameter's value: the raw ones converted, the others defaulted."""
    unknown = sorted(set(raw) - set(declared))
    if unknown:
        valid = choices(declared) if declared else "none"
        raise ArenaError(f"{owner}: unknown parameter {unknown[0]!r}; valid parameters: {valid}")
    return {name: (p.convert(raw[name], owner) if name in raw else p.default) for name, p in declared.items()}


def canonical(name: str, declared: Mapping[str, Param], values: Mapping[str, Any]) -> str:
    """The spec string that rebuilds these values, listing only the non-default ones."""
    parts = [f"{k}={_show(values[k])}" for k, p in declared.items() if values[k] != p.default]
    return name + (":" + ",".join(parts) if parts else "")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return "+".join(map(str, value))
    return str(value)


Converter = Callable[[str, str], Any]


def plus_list(text: str, where: str) -> tuple[str, ...]:
    """`A+B+C` as a tuple of strings (the syntax for fixed openers)."""
    items = tuple(t.strip() for t in text.split("+"))
    if not all(items):
        raise ArenaError(f"{where} must be items joined by '+', like 1122+3344")
    return items


plus_list.__name__ = "A+B"


#: The fixed first guesses a guesser may be given (every Guesser declares it; the `optimal`
#: agent's spec, arena.optimal.params, names it).
OPENERS = Param("openers", plus_list, (), "fixed first guesses, joined by + (e.g. 1122+3344)")
