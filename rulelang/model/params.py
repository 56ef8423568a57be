"""A game's `params:`: named settings of one game instance, checked against their declarations.

A param is a constant of the instance: the compiler folds its value into the
rule texts that name it, so a Game is compiled once per set of values and
plays as fast as one with the number written in. Values come from outside
(``--param NAME=VALUE``, ``load_game(..., params=...)``, a scenario, a log),
so each is checked: a known name, the declared type, within the bounds.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulelang.errors import UsageError, did_you_mean
from rulelang.spec.inputs import whole_number

Value = int | bool


class ParamError(UsageError, ValueError):
    """A param value the game refuses: a usage mistake, shown in one line (and a ValueError, as it always was)."""


def declarations(data: Mapping[str, Any]) -> dict[str, dict]:
    """The game's declared params, name -> declaration (empty when it declares none)."""
    declared = data.get("params") if isinstance(data, Mapping) else None
    return {k: (v or {}) for k, v in declared.items()} if isinstance(declared, dict) else {}


def bounds_text(decl: Mapping[str, Any]) -> str:
    """The values a param takes, for messages: 'an int from 1 to 10', 'true or false'."""
    if decl.get("type") == "bool":
        return "true or false"
    low, high = decl.get("min"), decl.get("max")
    if low is not None and high is not None:
        return f"a whole number from {low} to {high}"
    if low is not None:
        return f"a whole number of at least {low}"
    if high is not None:
        return f"a whole number of at most {high}"
    return "a whole number"


def declaration_problems(declared: Mapping[str, dict]) -> list[tuple[str, str, str]]:
    """(param, key, message) for each declaration that contradicts itself (a default out of its bounds, say)."""
    problems = []
    for name, decl in declared.items():
        kind, default = decl.get("type"), decl.get("default")
        if kind == "bool" and ("min" in decl or "max" in decl):
            problems.append((name, "min" if "min" in decl else "max", f"param '{name}' is a bool: it has no bounds"))
        elif kind == "bool" and not isinstance(default, bool):
            problems.append((name, "default", f"the default of param '{name}' must be true or false"))
        elif kind == "int" and (isinstance(default, bool) or not isinstance(default, int)):
            problems.append((name, "default", f"the default of param '{name}' must be a whole number"))
        elif kind == "int" and decl.get("min") is not None and decl.get("max") is not None \
                and decl["min"] > decl["max"]:
            problems.append((name, "max", f"param '{name}' has 'max' ({decl['max']}) below 'min' ({decl['min']})"))
        elif kind == "int" and not _within(default, decl):
            problems.append((name, "default",
                             f"the default of param '{name}' ({default}) is not {bounds_text(decl)}"))
    return problems


def _within(value: int, decl: Mapping[str, Any]) -> bool:
    low, high = decl.get("min"), decl.get("max")
    return (low is None or value >= low) and (high is None or value <= high)


def _converted(name: str, raw: Any, decl: Mapping[str, Any]) -> Value:
    """A given value as the param's type: text from a command line is read, other values must match."""
    want = bounds_text(decl)
    if decl.get("type") == "bool":
        if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
            return raw.strip().lower() == "true"
        if isinstance(raw, bool):
            return raw
        raise ParamError(f"param '{name}' must be {want}, not {raw!r}")
    if isinstance(raw, str) and (read := whole_number(raw.strip())) is not None:
        raw = read
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ParamError(f"param '{name}' must be {want}, not {raw!r}")
    if not _within(raw, decl):
        raise ParamError(f"param '{name}' must be {want}, not {raw}")
    return raw


def resolve(declared: Mapping[str, dict], given: Mapping[str, Any] | None) -> dict[str, Value]:
    """Every declared param's value for this instance: the given ones checked, the rest their defaults."""
    given = dict(given or {})
    for name in given:
        if name not in declared:
            hint = did_you_mean(name, declared)
            known = ", ".join(sorted(declared)) or "none"
            raise ParamError(f"the game has no param '{name}' (its params: {known})"
                             + (f"; {hint}" if hint else ""))
    return {name: _converted(name, given[name], decl) if name in given else decl.get("default")
            for name, decl in declared.items()}


def parse_assignments(items: Sequence[str]) -> dict[str, str]:
    """`NAME=VALUE` strings from the command line as a mapping (the values are checked by `resolve`)."""
    given: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ParamError(f"--param takes NAME=VALUE, not {item!r}")
        if name.strip() in given:
            raise ParamError(f"--param {name.strip()} is given twice")
        given[name.strip()] = value
    return given


def cache_key(values: Mapping[str, Value]) -> tuple:
    """A hashable key for a set of param values, for caches of compiled games."""
    return tuple(sorted(values.items()))
