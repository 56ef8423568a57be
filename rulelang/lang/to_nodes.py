"""Lark's parse tree of a rule text to ``nodes`` dataclasses, each with its span in the spec file.

The grammar leaves keywords and brackets out of the tree (see ``grammar.lark``), so a rule's
children are its values in the order written, an optional part missing being None. Each method
takes them as named parameters: a grammar change that adds or drops a value fails loudly here
(a wrong number of arguments) instead of shifting every child after it. A statement kept in one
home (``rulelang/statements/``) has no method here: its node class is built from the rule of its
name, the values given to its fields in order (a NAME as its text, and its place to the keyword field
``<field>_span`` where the class has one; a rule of parts with no method of its own as the list of its
values; a ``bool`` field as whether its part is written), or from another alternative of that rule by its
alias, the values given to the fields that alternative names (``nodes.HOME_FORMS``); or by its ``from_rule``
when the rule's values are not its fields one for one; ``nodes.HOME_STATEMENTS``
has them once ``rulelang.statements`` is imported (the compiler does), so this layer never imports it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from functools import cache
from typing import Any

from lark import Token, Transformer, Tree, v_args

from rulelang.errors import Locate, Span, SpecError
from rulelang.lang import nodes as n
from rulelang.lang.types import INT64, LITERAL_DIGITS


def _name(token: Token | None) -> str | None:
    """The NAME after an optional `as`, or None when the text gives none."""
    return None if token is None else str(token)


@cache
def _token_spans(node_class: type[n.Node]) -> frozenset[str]:
    """The fields whose NAME's place the node keeps too, in a keyword field ``<field>_span`` (an error points there)."""
    keywords = {f.name for f in fields(node_class) if f.kw_only}
    return frozenset(name for name in node_class.SYNTAX_FIELDS if f"{name}_span" in keywords)


@cache
def _flags(node_class: type[n.Node]) -> frozenset[str]:
    """A home statement's fields typed ``bool``: optional words of its rule (``[PUBLICLY]``, or a rule of words
    with no method, ``[else_discard]``), each True when the text writes it."""
    return frozenset(f.name for f in fields(node_class) if not f.kw_only and f.type in ("bool", bool))


def _comparison(op: str) -> Callable[..., n.Compare]:
    """The method for one comparison rule (`eq`, `lt`...): they differ only in the operator."""
    def build(self: ToNodes, meta, left, right) -> n.Compare:
        return n.Compare(op, left, right, span=self._span(meta))
    return build


@v_args(meta=True, inline=True)
class ToNodes(Transformer):
    """Builds the nodes of one rule text; ``locate`` maps the parser's positions into the spec file."""

    def __init__(self, locate: Locate) -> None:
        super().__init__(visit_tokens=False)
        self.locate = locate

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", False):
            return self.locate(1, 1, None, None)
        return self.locate(meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, token: Token) -> Span:
        return self.locate(token.line, token.column, token.end_line, token.end_column)

    def __default__(self, data: str, children: list, meta) -> Any:
        """A rule with no method here: a statement kept in one home (``rulelang/statements/``) of its name."""
        if not n.HOME_STATEMENTS:
            raise RuntimeError("the statements kept in one home are not loaded: import rulelang.statements first")
        node_class = n.HOME_STATEMENTS.get(data)
        if node_class is not None:
            names = node_class.SYNTAX_FIELDS
        elif data in n.HOME_FORMS:
            node_class, names = n.HOME_FORMS[data]
        else:
            return super().__default__(data, children, meta)
        build = getattr(node_class, "from_rule", None)
        if build is not None:           # the rule's values are not its fields one for one (`if` and its clauses)
            return build(*[str(c) if isinstance(c, Token) else c for c in children], span=self._span(meta))
        if len(children) > len(names):
            raise TypeError(f"the rule '{data}' gives {len(children)} values to {node_class.__name__}'s "
                            f"{len(names)} fields")
        values: dict[str, Any] = {}
        spanned, flags = _token_spans(node_class), _flags(node_class)
        for name, child in zip(names, children):
            if name in flags:
                values[name] = child is not None
            elif isinstance(child, Token):
                values[name] = str(child)
                if name in spanned:
                    values[f"{name}_span"] = self._tok_span(child)
            elif isinstance(child, Tree):
                values[name] = list(child.children)
            else:
                values[name] = child
        return node_class(**values, span=self._span(meta))

    # --- blocks --------------------------------------------------------------

    def block(self, meta, *stmts) -> list[n.Stmt]:
        return list(stmts)

    def expression(self, meta, expr) -> n.Expr:
        return expr

    def body(self, meta, *stmts) -> list[n.Stmt]:
        return list(stmts)

    # --- simple statements ---------------------------------------------------

    def all_amount(self, meta) -> None:
        return None             # `move all ...`: a counter move's amount None means all



    # --- compound statements -------------------------------------------------

    def elif_clause(self, meta, cond, body) -> tuple[n.Expr, list[n.Stmt]]:
        return (cond, body)

    def else_clause(self, meta, body) -> list[n.Stmt]:
        return body


    def branch(self, meta, label, option_id, cond, body) -> n.Branch:
        return n.Branch(str(label)[1:-1], cond, body, _name(option_id), span=self._span(meta))

    def branch_each(self, meta, var, source, cond, body) -> n.EachBranch:
        return n.EachBranch(str(var), source, cond, body, span=self._span(meta))

    # --- expressions ---------------------------------------------------------

    def cond_expr(self, meta, then, cond, orelse) -> n.CondExpr:
        return n.CondExpr(cond, then, orelse, span=self._span(meta))

    def or_op(self, meta, left, right) -> n.BoolOp:
        return n.BoolOp("or", left, right, span=self._span(meta))

    def and_op(self, meta, left, right) -> n.BoolOp:
        return n.BoolOp("and", left, right, span=self._span(meta))

    def not_op(self, meta, operand) -> n.Not:
        return n.Not(operand, span=self._span(meta))

    eq, ne, lt, le = _comparison("="), _comparison("!="), _comparison("<"), _comparison("<=")
    gt, ge = _comparison(">"), _comparison(">=")

    def member(self, meta, item, container) -> n.Member:
        return n.Member(item, container, span=self._span(meta))

    def not_member(self, meta, item, container) -> n.Member:
        return n.Member(item, container, negated=True, span=self._span(meta))

    def is_test(self, meta, obj, name) -> n.IsTest:
        return n.IsTest(obj, str(name), span=self._span(meta), name_span=self._tok_span(name))

    def is_not_test(self, meta, obj, name) -> n.IsTest:
        return n.IsTest(obj, str(name), negated=True, span=self._span(meta), name_span=self._tok_span(name))

    def has_test(self, meta, zone, name) -> n.HasTest:
        return n.HasTest(zone, str(name), span=self._span(meta), name_span=self._tok_span(name))

    def binop(self, meta, left, op, right) -> n.BinOp:
        return n.BinOp(str(op), left, right, span=self._span(meta))

    def neg(self, meta, operand) -> n.Neg:
        return n.Neg(operand, span=self._span(meta))

    def attr(self, meta, obj, name) -> n.Attr:
        return n.Attr(obj, str(name), span=self._span(meta))

    def index(self, meta, obj, key) -> n.Index:
        return n.Index(obj, key, span=self._span(meta))

    # --- literals and names --------------------------------------------------

    def int(self, meta, token) -> n.Num:
        digits = str(token).lstrip("0") or "0"
        if len(digits) > LITERAL_DIGITS or int(digits) > INT64:    # never int() of thousands of digits
            raise SpecError(f"this number is too large: a rule may write numbers up to {INT64:,}",
                            self._span(meta), "numbers in a game stay within the signed 64-bit range")
        return n.Num(int(digits), span=self._span(meta))

    def string(self, meta, token) -> n.Text:
        return n.Text(str(token)[1:-1], span=self._span(meta))

    def true(self, meta) -> n.Bool:
        return n.Bool(True, span=self._span(meta))

    def false(self, meta) -> n.Bool:
        return n.Bool(False, span=self._span(meta))

    def none(self, meta) -> n.NoneLit:
        return n.NoneLit(span=self._span(meta))

    def name(self, meta, token) -> n.Name:
        return n.Name(str(token), span=self._span(meta))

    def list(self, meta, *items) -> n.ListLit:
        """`[a, b]`; an empty list gives one None placeholder for its optional items."""
        return n.ListLit([item for item in items if item is not None], span=self._span(meta))

    def tuple(self, meta, *items) -> n.TupleLit:
        return n.TupleLit(list(items), span=self._span(meta))

    def list_comp(self, meta, value, *rest) -> n.ListComp:
        """`[VALUE for x in A ... where COND]`: the loops, then the filter (None when absent)."""
        *loops, cond = rest
        return n.ListComp(value, list(loops), cond, span=self._span(meta))

    def comp_for(self, meta, var, source) -> tuple[str, n.Expr]:
        return (str(var), source)

    # --- calls and their arguments -------------------------------------------

    def call(self, meta, func, *args) -> n.Call:
        """`f(a, b)`; no arguments gives one None placeholder."""
        return n.Call(str(func), [arg for arg in args if arg is not None], span=self._span(meta))

    def arg(self, meta, value) -> n.Arg:
        return n.Arg(value, span=self._span(meta))

    def filter_list(self, meta, head, cond) -> n.Call:
        return n.Call("filter", [self._filter_arg(meta, head, cond)], span=self._span(meta))

    def filtered(self, meta, head, cond) -> n.Arg:
        return self._filter_arg(meta, head, cond)

    def _filter_arg(self, meta, head: n.Expr, cond: n.Expr) -> n.Arg:
        """`x in LIST where COND`: the parser read `x in LIST` as a membership test; take it apart."""
        if isinstance(head, n.Member) and not head.negated and isinstance(head.item, n.Name):
            return n.Arg(n.Name(head.item.id, span=head.item.span), var=head.item.id,
                         source=head.container, cond=cond, span=self._span(meta))
        raise SpecError("a filter reads 'x in LIST where CONDITION'", self._span(meta),
                        hint="name the item first, as in count(c in me.hand where c is tool)")

    def generator(self, meta, value, var, source, cond) -> n.Arg:
        return n.Arg(value, var=str(var), source=source, cond=cond, span=self._span(meta))
