"""Record the syntax trees of every rule text that `tests/language/test_parse_trees.py` compares against.

Run: python tests/trees/record_trees.py  (from the checkout's root)

Every rule text of both games, the examples and the mods (the games of `tests/golden/record.py`) is
parsed again with a locate that reports the parser's own positions, and its tree is written out in
full (class, every field, every span), so a change to the grammar or the transformer that gives any
text a different tree fails the test. Re-record only when a tree is meant to change.
"""
from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "golden"))

import record as golden  # noqa: E402

from rulelang import load_game  # noqa: E402
from rulelang.errors import Span  # noqa: E402
from rulelang.lang import parser  # noqa: E402

OUT = Path(__file__).with_name("trees.json")


def here(line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
    """A span that is just the parser's position inside the text."""
    return Span("text", line, col, end_line, end_col)


def shape(value):
    """A node tree as plain JSON: every dataclass field by name (spans included), lists and tuples kept apart."""
    if isinstance(value, Span):
        return [value.line, value.col, value.end_line, value.end_col]
    if dataclasses.is_dataclass(value):
        return {"node": type(value).__name__,
                **{f.name: shape(getattr(value, f.name)) for f in dataclasses.fields(value)}}
    if isinstance(value, tuple):
        return {"tuple": [shape(v) for v in value]}
    if isinstance(value, list):
        return [shape(v) for v in value]
    assert value is None or isinstance(value, (str, int, bool)), value
    return value


def rule_texts() -> dict[str, str]:
    """Every text the games parse, keyed 'block:TEXT' or 'expression:TEXT' (duplicates once)."""
    seen: dict[str, str] = {}
    real = parser._parse

    def spy(text, start, locate):
        seen[f"{start}:{text}"] = start
        return real(text, start, locate)
    parser._parse = spy
    try:
        for folder, mods in golden.GAMES.values():
            load_game(ROOT / folder, mods=[ROOT / m for m in mods])
    finally:
        parser._parse = real
    return seen


def trees() -> dict[str, object]:
    out = {}
    for key, start in sorted(rule_texts().items()):
        text = key[len(start) + 1:]
        tree = parser.parse_block(text, here) if start == "block" else parser.parse_expression(text, here)
        out[key] = shape(tree)
    return out


if __name__ == "__main__":
    table = trees()
    OUT.write_text(json.dumps(table, indent=None, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{len(table)} rule texts written to {OUT}")
