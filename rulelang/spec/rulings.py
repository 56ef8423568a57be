"""A game's declared rulings, and the `rule:` entries of its spec that name them.

Where a rulebook is silent or unclear, a spec follows a ruling and says so with
`rule: FS-7`. The game declares its rulings under `rulings:` (an id, what it
decides, the rulebook section). Checking every `rule:` against that
declaration turns a mistyped or forgotten id into a located error, and keeps
`validate` inside the game folder: nothing outside it is read to know the ids.

Where `rule:` may appear is read from the game schema (every place whose
schema is ``#/$defs/rule``), so a new entry that takes a `rule:` is checked
without a change here.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulelang.errors import SpecError, did_you_mean
from rulelang.spec.document import Document

RULE_REF = "#/$defs/rule"
_DEFS_PREFIX = "#/$defs/"


def ruling_errors(doc: Document, schema: dict) -> list[SpecError]:
    """One located error for each `rule:` name the game does not declare under `rulings:`."""
    rulings = doc.data.get("rulings") if isinstance(doc.data, dict) else None
    if rulings is not None and not isinstance(rulings, dict):
        return []                       # the schema reports the wrong shape; nothing to compare with
    declared = [str(key) for key in (rulings or {})]
    errors: list[SpecError] = []
    for path, name in rule_references(schema, doc.data):
        if name not in declared:
            errors.append(SpecError(f"unknown ruling '{name}'", doc.span(path), _unknown_hint(name, declared)))
    return errors


def _unknown_hint(name: str, declared: list[str]) -> str:
    close = did_you_mean(name, declared)
    if close:
        return f"{close} (a new ruling is declared under 'rulings:')"
    if declared:
        return f"the game declares {', '.join(declared)}; add '{name}' under 'rulings:' if it is a new one"
    return f"declare it under 'rulings:' in game.yaml, as {name}: {{text: what it decides, section: rulebook section}}"


def rule_references(schema: dict, data: Any) -> Iterator[tuple[tuple, str]]:
    """Every ruling name a spec gives under a `rule:` key, with the path of the name in the data."""
    for path, value in _rule_values(schema, schema, data, ()):
        if isinstance(value, str):
            yield path, value
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, str):
                    yield path + (index,), item


def _rule_values(root: dict, sub: Any, value: Any, path: tuple) -> Iterator[tuple[tuple, Any]]:
    """Walk the data beside its schema; yield the values whose schema is the `rule` definition."""
    if not isinstance(sub, dict):
        return
    ref = sub.get("$ref")
    if ref == RULE_REF:
        yield path, value
        return
    if isinstance(ref, str) and ref.startswith(_DEFS_PREFIX):
        sub = root.get("$defs", {}).get(ref[len(_DEFS_PREFIX):], {})
    if isinstance(value, dict):
        properties = sub.get("properties", {})
        others = sub.get("additionalProperties")
        for key, item in value.items():
            child = properties.get(key) if isinstance(key, str) and key in properties else others
            yield from _rule_values(root, child, item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _rule_values(root, sub.get("items"), item, path + (index,))
