"""A value at a path of a spec's loaded data has one home (spec/document.py), not a copy in each stage."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang.spec.document import value_at, value_or_none

ROOT = Path(__file__).resolve().parents[2]

data = st.recursive(st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
                    max_leaves=12)
keys = st.lists(st.integers(0, 3) | st.text(max_size=2), max_size=4)


@given(data, keys)
def test_the_lenient_walk_agrees_with_the_strict_one_wherever_the_path_leads(value, path) -> None:
    try:
        found = value_at(value, path)
    except (KeyError, IndexError, TypeError):
        assert value_or_none(value, path) is None or not all(isinstance(k, (int, str)) for k in path)
        return
    if all(isinstance(k, str) for k in path) or not path:
        assert value_or_none(value, path) == found


def test_a_missing_key_is_none_when_lenient_and_an_error_when_strict() -> None:
    spec = {"phases": [{"steps": [{"name": "draw"}]}]}
    assert value_at(spec, ("phases", 0, "steps", 0, "name")) == "draw"
    assert value_or_none(spec, ("phases", 3, "steps")) is None
    with pytest.raises(IndexError):
        value_at(spec, ("phases", 3))


def _walks_a_path(node: ast.FunctionDef) -> bool:
    """A function that walks data down a path: a `for key in path:` loop whose one statement indexes with the key.

    (A walk that does more at each step, such as naming the items it passes, is another concept; so is a walk
    down a tree of nodes by attribute.)
    """
    return any(isinstance(stmt, ast.For) and isinstance(stmt.iter, ast.Name) and stmt.iter.id == "path"
               and len(stmt.body) == 1 and any(isinstance(sub, ast.Subscript) for sub in ast.walk(stmt))
               and not any(isinstance(sub, ast.Name) and sub.id == "getattr" for sub in ast.walk(stmt))
               for stmt in node.body)


def test_no_module_but_the_document_walks_a_data_path_by_itself() -> None:
    walkers = []
    for file in sorted((ROOT / "rulelang").rglob("*.py")):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and _walks_a_path(node):
                walkers.append(f"{file.relative_to(ROOT)}:{node.name}")
    assert walkers == ["rulelang/spec/document.py:value_at", "rulelang/spec/document.py:value_or_none"]
