"""Every rule text of both games, the examples and the mods parses to the tree recorded in tests/trees/.

The trees were recorded (tests/trees/record_trees.py) before the grammar's terminals were named and the
transformer was rewritten; a tree differing in any class, field or span fails here.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from trees import record_trees

TREES = Path(__file__).parents[1] / "trees"


RECORDED: dict = json.loads((TREES / "trees.json").read_text())


def _parse(key: str):
    start, text = key.split(":", 1)
    parse = record_trees.parser.parse_block if start == "block" else record_trees.parser.parse_expression
    return parse(text, record_trees.here)


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_each_rule_text_parses_to_its_recorded_tree(key: str) -> None:
    assert record_trees.shape(_parse(key)) == RECORDED[key]


def test_the_recording_covers_the_games() -> None:
    """Both kinds of text, and enough of them that a lost game would show."""
    starts = {key.split(":", 1)[0] for key in RECORDED}
    assert starts == {"block", "expression"}
    assert len(RECORDED) >= 90


def test_a_different_tree_is_told_apart() -> None:
    """The comparison sees a changed span and a changed field, not only a changed class."""
    key = next(k for k in sorted(RECORDED) if k.startswith("block:"))
    tree = _parse(key)
    before = record_trees.shape(tree)
    tree[0].span = record_trees.here(99, 1)
    assert record_trees.shape(tree) != before
    renamed = record_trees.shape(record_trees.parser.parse_expression("a + b", record_trees.here))
    assert renamed != record_trees.shape(record_trees.parser.parse_expression("a - b", record_trees.here))
