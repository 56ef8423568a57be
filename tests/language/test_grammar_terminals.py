"""Every terminal has a name the grammar gives it, and only terminals that carry a value reach the tree."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from lark import Token, Tree
from lark.exceptions import VisitError

from rulelang.errors import Span
from rulelang.lang import parser, syntax_errors
from rulelang.lang.to_nodes import ToNodes

RECORDED = json.loads((Path(__file__).parents[1] / "trees" / "trees.json").read_text())
#: The terminals whose text is a value the nodes keep: names, numbers, labels, operators, `all(...)`.
KEPT = {"NAME", "INT", "STRING", "AUGOP", "ADDOP", "MULOP", "ALL"}


def _declared() -> set[str]:
    return {term.name for term in parser._lark().terminals}


def test_no_terminal_has_a_generated_name() -> None:
    assert not [name for name in _declared() if name.startswith("__ANON")]


def test_every_terminal_the_parser_names_is_declared_in_the_grammar() -> None:
    named = (syntax_errors._VALUE_START | syntax_errors._STATEMENT_START | syntax_errors._OPERATORS
             | set(syntax_errors._WORDS) | set(parser._BlockIndenter.OPEN_PAREN_types)
             | set(parser._BlockIndenter.CLOSE_PAREN_types))
    assert named - _declared() == set()


def test_statement_words_are_the_grammar_words_a_statement_starts_with() -> None:
    literals = parser._literals()
    assert {literals[t] for t in syntax_errors._STATEMENT_START} <= set(syntax_errors.STATEMENT_WORDS)


def _tokens(tree: Tree):
    for sub in tree.iter_subtrees():
        yield from (child for child in sub.children if isinstance(child, Token))


def test_no_keyword_or_bracket_reaches_the_tree() -> None:
    """Parsed without the transformer, every rule text of the games keeps only terminals that carry a value."""
    seen: set[str] = set()
    for key in RECORDED:
        start, text = key.split(":", 1)
        tree = parser._lark().parse(text if text.endswith("\n") else text + "\n", start=start)
        seen |= {token.type for token in _tokens(tree)}
    assert seen <= KEPT
    assert {"NAME", "INT", "STRING", "ADDOP"} <= seen


def test_an_optional_part_left_out_is_a_placeholder() -> None:
    """`[WHERE expr]` gives None when missing, so the children keep their places without the keyword."""
    tree = parser._lark().parse("for each c in me.hand:\n    pass\n", start="block")
    loop = next(tree.find_data("for_each"))
    assert [type(c).__name__ for c in loop.children] == ["Token", "Tree", "NoneType", "Tree"]


def test_a_rule_given_one_value_more_than_its_method_names_fails_instead_of_shifting() -> None:
    """Children are taken as named parameters, so an extra value is an error, not a silent shift."""
    def here(line, col, end_line=None, end_col=None):
        return Span("rule", line, col, end_line, end_col)
    name = Tree("name", [Token("NAME", "x")])
    with pytest.raises(VisitError, match="argument"):        # a rule with a method of its own
        ToNodes(here).transform(Tree("neg", [name, name]))
    with pytest.raises(TypeError, match="3 values to Assign's 2 fields"):   # a statement kept in one home
        ToNodes(here).transform(Tree("assign", [name, Tree("int", [Token("INT", "1")]), name]))
