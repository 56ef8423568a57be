"""The TextMate injection grammar (editors/vscode) marks exactly the rule texts of the YAML files.

Each rule text of every game, example and mod is found by composing the YAML, and
the grammar's patterns, run line by line as an editor runs them, must mark the
same lines: a block scalar from the line after its key to its last line, a plain
one-line value on its key's line; prose (``text:``) is never marked.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from rulelang.lsp.index import keywords

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = json.loads((ROOT / "editors" / "vscode" / "syntaxes" / "rulelang.injection.tmLanguage.json")
                     .read_text(encoding="utf-8"))
RULES = GRAMMAR["repository"]
KEYS = re.search(r"\((\w+(?:\|\w+)+)\)", RULES["block"]["begin"]).group(1).split("|")
SPECS = sorted([*ROOT.glob("games/*/*.yaml"), *ROOT.glob("examples/*/*.yaml"), *ROOT.glob("examples/mods/*/*.yaml")])


def rule_texts(node, found: list) -> list:
    """(key line, style, last line) of every string under a rule-text key of a block mapping, 0-based lines."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(value, yaml.ScalarNode) and key.value in KEYS and value.tag.endswith(":str") \
                    and not node.flow_style:          # a flow mapping's values ({to: x}) are not marked
                last = value.end_mark.line - (value.end_mark.column == 0)
                found.append((key.start_mark.line, value.style, last))
            rule_texts(value, found)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            rule_texts(item, found)
    return found


def marked_block(lines: list[str], row: int) -> tuple[int, int] | None:
    """The rows a block pattern marks after a key on ``row``: (first, last non-blank), as an editor would."""
    for name in ("block-in-item", "block"):
        begin = re.match(RULES[name]["begin"], lines[row])
        if begin:
            end = re.compile(RULES[name]["end"].replace("\\1", re.escape(begin.group(1))))
            last = row
            for next_row in range(row + 1, len(lines)):
                if end.match(lines[next_row]):
                    break
                if lines[next_row].strip():
                    last = next_row
            return row + 1, last
    return None


def test_the_grammar_names_every_word_of_the_language():
    words = set()
    for pattern in RULES["keyword"]["patterns"]:
        words |= set(re.findall(r"[a-z_]+", pattern["match"].split("(", 1)[1]))
    assert set(keywords()) <= words


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_grammar_marks_exactly_the_rule_texts(spec: Path):
    text = spec.read_text(encoding="utf-8")
    lines = text.splitlines()
    for row, style, end in rule_texts(yaml.compose(text), []):
        if style in ("|", ">"):
            last = max(r for r in range(row + 1, end + 1) if lines[r].strip())
            assert marked_block(lines, row) == (row + 1, last), f"{spec.name}:{row + 1}"
        elif style is None:
            assert re.match(RULES["inline"]["begin"], lines[row]), f"{spec.name}:{row + 1}"
    for row, line in enumerate(lines):
        if re.match(r"^\s*(-\s)?(text|name|rule)\s*:", line):
            assert marked_block(lines, row) is None and not re.match(RULES["inline"]["begin"], line)
