"""The checking pass: every name resolved, every type checked, before compiling.

The checker walks the syntax trees of a game's rule texts with a ``Symbols``
table built from the YAML declarations. It annotates each node with its type
(``node.type``) and what its names refer to (``node.ref``) so the compiler
never has to guess, and it collects every error it finds with its span.

This module holds the Checker's core (dispatch, reporting, the fit of one type to
another); its statement checks are in ``check_stmts.py``, its expression checks in
``check_exprs.py``, those of hooks in ``check_hooks.py``, and the types and symbol
tables it speaks in ``check_types.py`` (re-exported here, where callers import them).
"""
from __future__ import annotations

from typing import Any

from rulelang.check.exprs import ExpressionChecks
from rulelang.check.hooks import HookChecks
from rulelang.check.stmts import StatementChecks
from rulelang.check.types import AGGREGATES, BUILTINS, NULLABLE, Scope, Symbols, describe, item_of
from rulelang.errors import RulelangError, Span, SpecError
from rulelang.lang import nodes as n
from rulelang.lang.types import (
    ANY,
    BOOL,
    CARD,
    CLASS,
    COUNTER,
    GAME,
    INT,
    LOCATION,
    NONE,
    PLAYER,
    TEXT,
    UNKNOWN,
    VAR_TYPES,
    ZONE,
    Type,
    list_of,
)
from rulelang.lang.visitors import Visitor

__all__ = ["AGGREGATES", "BOOL", "BUILTINS", "CARD", "CLASS", "COUNTER", "GAME", "INT", "LOCATION", "NONE",
           "NULLABLE", "PLAYER", "TEXT", "UNKNOWN", "VAR_TYPES", "ZONE", "Checker", "Scope", "Symbols", "Type",
           "describe", "item_of", "list_of"]


class Checker(StatementChecks, ExpressionChecks, HookChecks, Visitor):
    """Resolves names and checks types; errors are collected, not raised.

    A visitor whose method for a statement class is ``stmt_<Class>`` and for an expression
    class ``expr_<Class>`` (statements and expressions are checked with different results);
    a statement kept in one home (``rulelang/statements/``) carries its own ``check``.
    """

    OWN = "check"

    def __init__(self, symbols: Symbols):
        self.sym = symbols
        self.errors: list[RulelangError] = []
        #: Set when a rule puts counters on cards: moving cards then tends to them.
        self.uses_card_counters = False
        #: True while checking an expression whose procedure calls are run before its statement (see check_hooks).
        self.value_calls = False

    # --- reporting ---------------------------------------------------------

    def error(self, message: str, span: Span, hint: str | None = None) -> Type:
        """Record an error; the unknown type it returns stops follow-on errors."""
        self.errors.append(SpecError(message, span, hint))
        return UNKNOWN

    def expect(self, expr: n.Expr, scope: Scope, wanted: Type, what: str) -> Type:
        return self.expect_kind(expr, self.expr(expr, scope), wanted, what)

    def expect_kind(self, expr: n.Expr, kind: Type, wanted: Type, what: str) -> Type:
        """``expect`` for an expression already checked (its type is ``kind``)."""
        if kind == NONE and wanted in NULLABLE:
            return kind
        if not self.fits(kind, wanted):
            if kind != UNKNOWN:
                self.error(f"{what} must be {describe(wanted)}, not {describe(kind)}", expr.span,
                           _type_hint(kind, wanted))
            return UNKNOWN
        return kind

    @staticmethod
    def fits(kind: Type, wanted: Type) -> bool:
        if kind == UNKNOWN or wanted == UNKNOWN or kind == wanted:     # a wrong type is reported where it is
            return True
        if wanted.is_list and kind == ZONE:
            return wanted == list_of(CARD)
        if wanted == list_of(ANY):
            return item_of(kind) is not None
        return False

    # --- statements --------------------------------------------------------

    def block(self, stmts: list[n.Stmt], scope: Scope) -> None:
        for stmt in stmts:
            self.stmt(stmt, scope)

    @classmethod
    def method_name(cls, node_class: type) -> str:
        return ("stmt_" if issubclass(node_class, n.Stmt) else "expr_") + node_class.__name__

    def generic_visit(self, node: n.Node, *args: Any) -> Any:
        raise TypeError(f"the checker has no check for {type(node).__name__}")

    def stmt(self, s: n.Stmt, scope: Scope) -> None:
        self.visit(s, scope)

    # --- expressions ---------------------------------------------------------

    def expr(self, e: n.Expr, scope: Scope) -> Type:
        kind = self.visit(e, scope)
        e.type = kind
        return kind


def _type_hint(kind: Type, wanted: Type) -> str | None:
    if kind == ZONE and wanted == INT:
        return "count the cards with count(zone)"
    if kind.is_list and wanted == INT:
        return "count a list with count(...)"
    if kind == INT and wanted == BOOL:
        return "compare it, as in x > 0"
    if kind.is_list and wanted == BOOL:
        return "test a list with any(...) or empty(...)"
    return None
