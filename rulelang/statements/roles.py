"""What a statement kept in one home may use of the stages that call it, as structural types.

The checker, the compiler, the code generator and the rulebook import this package (their tables name
its node classes); so a statement cannot import them back. It names instead the few methods it calls on
each, here, and those stages' own classes fit these shapes (each stage's ``_fits_statement_roles`` has
mypy check that). The checker is below this package, so a statement takes ``check.checker.Checker`` itself.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from rulelang.errors import Span
from rulelang.lang import nodes as n

#: A compiled expression or statement: ``f(state, locals)``.
Fn = Callable[[Any, dict], Any]


class Expressions(Protocol):
    """The expression compiler (``compiler.expressions``): an expression to its closure."""

    def expr(self, e: n.Expr) -> Fn: ...


class Compiler(Protocol):
    """The statement compiler (``compiler.statements.StmtCompiler``)."""

    @property
    def ec(self) -> Expressions: ...

    @property
    def game(self) -> Any: ...


class Decisions(Compiler, Protocol):
    """The statement compiler's shared decision machinery (``compiler.choices``, ``compiler.plays``): the
    instructions that ask a decision, with its site and name, kept in one place for every statement that
    asks one, so that saved games, decision names and logs stay as they are."""

    def number_decision(self, s: Any, b: Instructions) -> None: ...

    def item_decision(self, s: Any, b: Instructions) -> None: ...

    def branch_decision(self, s: Any, b: Instructions) -> None: ...

    def secret_decision(self, s: Any, b: Instructions) -> None: ...

    def card_play(self, s: Any, b: Instructions) -> None: ...


class Instructions(Protocol):
    """A procedure's instructions being built (``compiler.statements.Builder``)."""

    def emit(self, op: Callable, span: Span | None) -> int: ...


class Unit(Protocol):
    """The generated module a function is written into (``compiler.codegen.Unit``)."""

    def constant(self, value: Any, about: str = "") -> str: ...


class Lines(Protocol):
    """A generated function's body (``compiler.codegen.Body``)."""

    @property
    def unit(self) -> Unit: ...

    def line(self, text: str, span: Span | None = None) -> None: ...


class ExpressionSource(Protocol):
    """Expressions as Python source (``compiler.source_expr``)."""

    def src(self, e: n.Expr, u: Any) -> str: ...


class Source(Protocol):
    """Straight-line statements as Python lines (``compiler.source_stmt.StmtSource``)."""

    def e(self, e: n.Expr, out: Any) -> str: ...


class InPlace(Protocol):
    """A step played in place (``compiler.direct.DirectCompiler``)."""

    @property
    def xs(self) -> ExpressionSource: ...

    def unwound(self, span: Span | None, out: Any) -> None: ...


class DecisionsInPlace(InPlace, Protocol):
    """How a step played in place writes out a decision (``compiler.direct_decisions``)."""

    def number_choice(self, s: Any, out: Any) -> None: ...

    def choose_one(self, s: Any, out: Any) -> None: ...

    def secret_choice_in_place(self, s: Any, out: Any) -> None: ...


class Wording(Protocol):
    """The rulebook's words (``rulebook.words.Words``): a statement's sentence is made from these."""

    def phrase(self, node: n.Expr | None) -> str: ...

    def subject(self, who: n.Expr | None) -> tuple[str, bool]: ...

    def acts(self, who: n.Expr | None, verb: str, verbs: str) -> str: ...

    def with_parts(self, text: str, parts: list[Any]) -> Any: ...

    def among(self, var: str | None, source: n.Expr | None, cond: n.Expr | None) -> str: ...

