"""The names a game declares, where each is declared, and what to say about it.

Built from the merged document the checks loaded (so a name declared in an
include fragment or a mod is found in its own file), for hover, go to definition,
completion and document symbols. Each declaration's place is its key (or its
``id:``/``name:`` value) as the document recorded it.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelang.check.types import BUILTINS
from rulelang.errors import Span
from rulelang.lang.bindings import RESERVED_WORDS
from rulelang.spec.document import Document

#: Mappings of the spec whose keys are names, and what each name is.
NAMED_MAPPINGS = {"zones": "zone", "locations": "location", "procedures": "procedure", "functions": "function",
                  "vars": "variable", "counters": "counter", "dice": "die", "tables": "table", "params": "param",
                  "rulings": "ruling", "card_props": "card property"}
#: Lists of the spec whose items are named by a key, and what each item is.
NAMED_LISTS = {("cards",): ("id", "card"), ("roles",): ("name", "role"), ("triggers",): ("name", "trigger"),
               ("end",): ("name", "end condition"), ("turn", "steps"): ("name", "step")}
#: Fields of a declaration shown in its hover (rule texts in full, the rest on one line each).
SHOWN_FIELDS = ("name", "type", "owner", "visibility", "count", "zone", "tags", "sides", "params", "returns",
                "initial", "min", "max", "default", "section", "text", "rule")
RULE_FIELDS = ("value", "effect", "when", "winner", "setup", "play")
#: A name in a rule text, a ruling's id (FS-12), or a step's words.
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[0-9]+)?")


@dataclass(frozen=True)
class Symbol:
    name: str
    kind: str
    span: Span
    hover: str


@functools.cache
def keywords() -> tuple[str, ...]:
    """The language's own words: the grammar's keywords, the bound and global names, the built-in functions."""
    grammar = (Path(__file__).resolve().parent.parent / "lang" / "grammar.lark").read_text(encoding="utf-8")
    words = set(re.findall(r'"([a-z_]+)"', grammar)) | set(RESERVED_WORDS) | set(BUILTINS)
    return tuple(sorted(words))


def symbols(doc: Document) -> list[Symbol]:
    """Every declaration of the document, in file order."""
    data = doc.data if isinstance(doc.data, dict) else {}
    found = list(_mapping_symbols(doc, data)) + list(_list_symbols(doc, data)) + list(_phase_steps(doc, data))
    found += [Symbol(t, "tag", doc.span(("tags", i)), f"tag {t}") for i, t in enumerate(data.get("tags") or [])
              if isinstance(t, str)]
    return sorted(found, key=lambda s: (s.span.file, s.span.line, s.span.col))


def _mapping_symbols(doc: Document, data: dict) -> Iterator[Symbol]:
    for group, kind in NAMED_MAPPINGS.items():
        table = data.get(group)
        if isinstance(table, dict):
            for name, decl in table.items():
                yield Symbol(str(name), kind, doc.key_span((group, name)), describe(kind, str(name), decl))


def _list_symbols(doc: Document, data: dict) -> Iterator[Symbol]:
    for where, (key, kind) in NAMED_LISTS.items():
        items = _at(data, where)
        for i, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict) and isinstance(item.get(key), str):
                yield Symbol(item[key], kind, doc.span(where + (i, key)), describe(kind, item[key], item))


def _phase_steps(doc: Document, data: dict) -> Iterator[Symbol]:
    """The steps of a game played in phases (``phases: [{steps: [...]}]``)."""
    phases = data.get("phases")
    for p, phase in enumerate(phases if isinstance(phases, list) else []):
        steps = phase.get("steps") if isinstance(phase, dict) else None
        for i, step in enumerate(steps if isinstance(steps, list) else []):
            if isinstance(step, dict) and isinstance(step.get("name"), str):
                yield Symbol(step["name"], "step", doc.span(("phases", p, "steps", i, "name")),
                             describe("step", step["name"], step))


def _at(data: Any, path: tuple) -> Any:
    for key in path:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def describe(kind: str, name: str, decl: Any) -> str:
    """A plain-text card about one declaration: what it is, its short fields, its rule texts."""
    lines = [f"{kind} {name}"]
    if not isinstance(decl, dict):
        if decl is not None:
            lines.append(_one_line(decl))
        return "\n".join(lines)
    for field in SHOWN_FIELDS:
        if field in decl and not (field == "name" and decl[field] == name):
            lines.append(f"{field}: {_one_line(decl[field])}")
    for field in RULE_FIELDS:
        value = decl.get(field)
        if isinstance(value, dict):          # a card's `play:` holds its own rule texts
            for sub, text in value.items():
                if isinstance(text, str):
                    lines += ["", f"{field}.{sub}:", text.rstrip("\n")]
        elif isinstance(value, str):
            lines += ["", f"{field}:", value.rstrip("\n")]
    return "\n".join(lines)


def _one_line(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_one_line(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_one_line(v) for v in value) + "]"
    return " ".join(str(value).split())


def word_at(line: str, col: int) -> str | None:
    """The name (or ruling id) under 0-based column ``col`` of ``line``."""
    for match in WORD.finditer(line):
        if match.start() <= col <= match.end():
            return match.group(0)
    return None


def named_values(line: str) -> list[str]:
    """The values of ``key: value`` on a line, the line's own and those of a flow mapping ({step: a step})."""
    found = [value_at(line)] + [v.strip().strip("'\"") for v in re.findall(r"[{,]\s*[A-Za-z_]\w*:\s*([^,}#]+)", line)]
    return [value for value in found if value]


def value_at(line: str) -> str | None:
    """The plain value of a ``key: value`` (or ``- value``) line, for names with spaces such as a step's."""
    match = re.match(r"^\s*(?:-\s+)?(?:[A-Za-z_][\w-]*\s*:\s*)?(.*?)\s*(?:#.*)?$", line)
    value = match.group(1).strip("'\"") if match else ""
    return value or None
