"""What a statement kept in one home may use of the stages that call it, as structural types.

The checker, the compiler, the code generator and the rulebook import this package (their tables name
its node classes); so a statement cannot import them back. It names instead the few methods it calls on
each, here, and those stages' own classes fit these shapes (each stage's ``_fits_statement_roles`` has
mypy check that). The checker is below this package, so a statement takes ``check.checker.Checker`` itself.
"""
from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from rulelang.errors import Span
from rulelang.lang import nodes as n

#: A compiled expression or statement: ``f(state, locals)``.
Fn = Callable[[Any, dict], Any]


class Expressions(Protocol):
    """The expression compiler (``compiler.expressions``): an expression to its closure."""

    def expr(self, e: n.Expr) -> Fn: ...

    def holder(self, e: n.Expr) -> Fn: ...

    def as_cards(self, e: n.Expr) -> Fn: ...


class Compiler(Protocol):
    """The statement compiler (``compiler.statements.StmtCompiler``)."""

    @property
    def ec(self) -> Expressions: ...

    @property
    def game(self) -> Any: ...

    def local_name(self, e: n.Expr) -> str | None: ...

    def setter(self, target: n.Expr) -> Callable[[Any, dict, Any], None]: ...

    def has_value_calls(self, s: n.Stmt) -> bool: ...

    def emit_value_calls(self, exprs: list, b: Any) -> None: ...

    def emit_straight(self, stmts: list[n.Stmt], b: Any) -> None: ...

    def call_for_value(self, call: n.Call, store: Callable) -> tuple[Callable, Callable]: ...

    @property
    def moves_fire_nothing(self) -> bool: ...

    @property
    def zone_triggers(self) -> frozenset[str] | None: ...

    @property
    def action_hooks(self) -> dict[Any, list[int]]: ...

    @property
    def roll_hooks(self) -> dict[str, tuple[list, list]]: ...

    def fresh(self, what: str) -> str: ...


class Instructions(Protocol):
    """A procedure's instructions being built (``compiler.statements.Builder``)."""

    def emit(self, op: Callable, span: Span | None) -> int: ...


class Unit(Protocol):
    """The generated module a function is written into (``compiler.codegen.Unit``)."""

    def constant(self, value: Any, about: str = "") -> str: ...

    def temp(self, what: str = "t") -> str: ...

    def note(self, words: str) -> None: ...


class Lines(Protocol):
    """A generated function's body (``compiler.codegen.Body``)."""

    @property
    def unit(self) -> Unit: ...

    def line(self, text: str, span: Span | None = None) -> None: ...

    def record(self, entry: str, span: Span | None = None, note: str = "") -> None: ...

    def indented(self) -> AbstractContextManager[None]: ...


class ExpressionSource(Protocol):
    """Expressions as Python source (``compiler.source_expr``)."""

    def src(self, e: n.Expr, u: Any) -> str: ...

    def local(self, name: str) -> str: ...

    def keep(self, name: str, variable: str) -> None: ...

    def holder(self, e: n.Expr, u: Any) -> str: ...

    def is_present_seat(self, e: n.Expr) -> bool: ...


class Source(Protocol):
    """Straight-line statements as Python lines (``compiler.source_stmt.StmtSource``)."""

    @property
    def xs(self) -> ExpressionSource: ...

    @property
    def game(self) -> Any: ...

    def e(self, e: n.Expr, out: Any) -> str: ...

    def store(self, target: n.Expr, value: str, span: Span | None, out: Any, in_range: bool = False,
              at_least_0: bool = False) -> None: ...

    def set_player_var(self, player: str, name: str, value: str, span: Span | None, out: Any,
                       about: str = "") -> None: ...

    def spoken(self, e: n.Expr) -> str: ...

    def local_name(self, e: n.Expr) -> str | None: ...

    def is_number(self, text: str) -> bool: ...

    def operand(self, text: str) -> str: ...

    def count_literal(self, e: n.Expr) -> int | None: ...

    def is_counter(self, target: n.Expr) -> bool: ...
    def each_card(self, cards: n.Expr, span: Span | None, out: Any) -> AbstractContextManager[str]: ...


class InPlace(Protocol):
    """A step played in place (``compiler.direct.DirectCompiler``)."""

    @property
    def xs(self) -> ExpressionSource: ...

    def unwound(self, span: Span | None, out: Any) -> None: ...

    @property
    def sc(self) -> Compiler: ...

    def moved_cards(self, s: n.Stmt, out: Any) -> None: ...

    def in_frames(self, s: n.Stmt, out: Any) -> None: ...


class Wording(Protocol):
    """The rulebook's words (``rulebook.words.Words``): a statement's sentence is made from these."""

    def phrase(self, node: n.Expr | None) -> str: ...

    def subject(self, who: n.Expr | None) -> tuple[str, bool]: ...

    def acts(self, who: n.Expr | None, verb: str, verbs: str) -> str: ...

    def humane(self, name: str) -> str: ...

