"""The shipped parse tables (rulelang/lang/grammar_tables.json) are what grammar.lark gives, and parse alike.

The tables are plain data that Lark turns back into a parser. If a test here fails after an edit of
grammar.lark (or with another Lark), write the tables afresh: python -m rulelang.lang.parser
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import lark
import pytest
import yaml
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from rulelang.errors import Span
from rulelang.lang import grammar_tables, parser

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
REGENERATE = "grammar_tables.json is out of date: run python -m rulelang.lang.parser"


@functools.lru_cache(maxsize=1)
def grammar() -> str:
    return parser.GRAMMAR.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def analysed() -> Lark:
    """The parser analysed from the grammar's text, as if no tables were shipped."""
    return parser.analysed(grammar())


def shipped() -> Lark:
    loaded = grammar_tables.from_tables(grammar_tables.SHIPPED.read_bytes(), grammar(), parser._BlockIndenter())
    assert loaded is not None, REGENERATE
    return loaded


def test_the_shipped_tables_are_those_of_the_grammar_today() -> None:
    assert grammar_tables.tables_of(analysed(), grammar()) == grammar_tables.SHIPPED.read_bytes(), REGENERATE


def test_the_tables_are_plain_json_after_their_stamp() -> None:
    head, body = grammar_tables.SHIPPED.read_bytes().split(b"\n", 1)
    assert json.loads(head) == {"format": grammar_tables.FORMAT, "grammar": json.loads(head)["grammar"],
                                "lark": lark.__version__}
    assert isinstance(json.loads(body), dict)


def test_the_process_parser_comes_from_the_shipped_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parser, "analysed", lambda text: pytest.fail("the grammar was analysed afresh"))
    parser._lark.cache_clear()
    try:
        assert parser.parse_block("x = 1\n", lambda *a: Span("t.yaml", 1, 1))
    finally:
        parser._lark.cache_clear()


def rule_texts() -> list[str]:
    """Every string of every YAML file of the games and examples: rule texts, and many texts that are not."""
    texts: set[str] = set()
    todo: list[Any] = []
    for folder in ("games", "examples"):
        for path in sorted((ROOT / folder).rglob("*.yaml")):
            try:
                todo.append(yaml.safe_load(path.read_text(encoding="utf-8")))
            except (yaml.YAMLError, UnicodeDecodeError):
                continue
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            texts.add(item if item.endswith("\n") else item + "\n")
        elif isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return sorted(texts)


def outcome(lark_parser: Lark, text: str, start: str) -> Any:
    """The tree with every position, or where and what the parser expected instead."""
    try:
        return plain(lark_parser.parse(text, start=start))
    except UnexpectedInput as error:
        expected = getattr(error, "expected", None) or getattr(error, "allowed", None) or ()
        return ("error", type(error).__name__, error.line, error.column, sorted(expected))


def plain(node: Any) -> Any:
    if isinstance(node, Tree):
        meta = node.meta
        where = None if getattr(meta, "empty", True) else (meta.line, meta.column, meta.end_line, meta.end_column)
        return (str(node.data), where, [plain(child) for child in node.children])
    if isinstance(node, Token):
        return (node.type, str(node), node.line, node.column, node.end_line, node.end_column)
    return node


@pytest.mark.slow      # a sweep: every rule text of the checkout parsed by both parsers from both starts
def test_the_shipped_parser_reads_every_text_of_the_repository_as_the_analysed_one() -> None:
    loaded, fresh = shipped(), analysed()
    texts = rule_texts()
    assert len(texts) > 500
    parsed = 0
    for text in texts:
        for start in ("block", "expression"):
            expected = outcome(fresh, text, start)
            assert outcome(loaded, text, start) == expected, (text, start)
            parsed += expected[0] != "error"
    assert parsed > 300


@examples(150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["x", "1", " ", "\n", "    ", "(", ")", "[", "]", ",", ".", ":", "=", "+", "-",
                                 "and", "not", "if", "for", "in", "me", "pass", "else", "\"s\"", "<", "*"]),
                max_size=25))
def test_the_shipped_parser_agrees_with_the_analysed_one_on_any_text(pieces: list[str]) -> None:
    text = "".join(pieces) + "\n"
    for start in ("block", "expression"):
        assert outcome(shipped_parser(), text, start) == outcome(analysed(), text, start)


@functools.lru_cache(maxsize=1)
def shipped_parser() -> Lark:
    return shipped()


@pytest.mark.parametrize("change", ["grammar", "lark", "format"])
def test_tables_of_another_grammar_or_lark_or_format_are_not_used(monkeypatch: pytest.MonkeyPatch,
                                                                  change: str) -> None:
    raw = grammar_tables.SHIPPED.read_bytes()
    text = grammar()
    if change == "grammar":
        text = text + "\n// an edit\n"
    elif change == "lark":
        monkeypatch.setattr(lark, "__version__", lark.__version__ + ".1")
    else:
        monkeypatch.setattr(grammar_tables, "FORMAT", grammar_tables.FORMAT + 1)
    assert grammar_tables.from_tables(raw, text, parser._BlockIndenter()) is None


@examples(60, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_damaged_tables_give_no_parser_or_a_parser_never_a_crash(data: st.DataObject) -> None:
    raw = bytearray(grammar_tables.SHIPPED.read_bytes())
    head = raw.index(b"\n") + 1
    how = data.draw(st.sampled_from(["cut", "flip", "splice"]))
    where = data.draw(st.integers(head, len(raw) - 1))
    if how == "cut":
        damaged = bytes(raw[:where])
    elif how == "flip":
        raw[where] = data.draw(st.integers(0, 255))
        damaged = bytes(raw)
    else:
        damaged = bytes(raw[:where]) + data.draw(st.sampled_from([b'{"#":1}', b"[[[[", b'{"@":99999}', b"null",
                                                                     b'"__type__":"Lark"', b"1e999"]))
    result = grammar_tables.from_tables(damaged, grammar(), parser._BlockIndenter())
    assert result is None or isinstance(result, Lark)
