"""The grammar itself: conflict-free LALR, and the shapes it gives the rule texts."""
from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark

from rulelang.errors import Span, SpecError
from rulelang.lang import nodes as n
from rulelang.lang.parser import _BlockIndenter, parse_block, parse_expression
from rulelang.statements.assign import Assign
from rulelang.statements.if_stmt import If
from rulelang.statements.move_cards import MoveCards
from rulelang.statements.move_counter import MoveCounter

GRAMMAR = Path(__file__).resolve().parents[2] / "rulelang" / "lang" / "grammar.lark"


def here(line, col, end_line=None, end_col=None) -> Span:
    return Span("rule", line, col, end_line, end_col)


def test_the_grammar_is_conflict_free_in_strict_mode():
    """strict=True refuses shift/reduce conflicts and colliding terminals instead of resolving them silently."""
    Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", start=["block", "expression"],
         postlex=_BlockIndenter(), strict=True)


def test_blocks_nest_by_indentation_and_comments_do_not_break_them():
    stmts = parse_block("if x > 1:  # the test\n    y = 1\n# a note at the margin\n    z = 2\nw = 3\n", here)
    assert [type(s) for s in stmts] == [If, Assign]
    (cond, body), = stmts[0].branches
    assert [s.target.id for s in body] == ["y", "z"]


def test_comparisons_and_assignment_share_the_equals_sign():
    stmt, = parse_block("p.at = none\n", here)
    assert isinstance(stmt, Assign)
    expr = parse_expression("p.at = none and not p.caught", here)
    assert isinstance(expr, n.BoolOp) and isinstance(expr.left, n.Compare) and expr.left.op == "="


def test_counter_moves_and_card_moves_are_told_apart():
    counters, cards = parse_block("move 1 t.at.resource from t.at to t\nmove first(me.hand) to me.play\n", here)
    assert isinstance(counters, MoveCounter) and isinstance(counters.counter, n.Attr)
    assert isinstance(cards, MoveCards)


def test_filters_read_the_same_in_calls_and_in_parentheses():
    call = parse_expression("count(c in me.hand where c is tool)", here)
    bare = parse_expression("(c in me.hand where c is tool)", here)
    assert call.func == "count" and call.args[0].var == "c"
    assert bare.func == "filter" and bare.args[0].var == "c"


def test_spans_point_into_the_text():
    stmt, = parse_block("x = 1 + foo\n", here)
    assert (stmt.value.right.span.line, stmt.value.right.span.col) == (1, 9)


@pytest.mark.parametrize("text, words", [
    ("x = ", "expected a value"),
    ("if x\n  y = 1\n", "expected ':'"),
    ("move 1 coin frm a to b\n", "'frm'"),
])
def test_syntax_errors_say_what_was_expected(text, words):
    with pytest.raises(SpecError) as caught:
        parse_block(text, here)
    assert words in caught.value.message


@pytest.mark.parametrize("typo, word", [("elimnate me", "eliminate"), ("revael x to me", "reveal"),
                                        ("whle x > 0:\n  pass", "while"), ("creat 1 x in y", "create")])
def test_a_misspelt_statement_word_suggests_the_statement(typo: str, word: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_block(typo + "\n", lambda *a: Span("t.yaml", 1, 1))
    assert caught.value.message.startswith("no statement '")
    assert caught.value.hint == f"did you mean '{word}'?"
