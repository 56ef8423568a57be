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

    def as_list(self, e: n.Expr, copy: bool = False) -> Fn: ...

    @property
    def proc_ids(self) -> dict[str, int]: ...

    @property
    def sym(self) -> Any: ...


class Program(Protocol):
    """A game's generated Python (``compiler.program.Program``): an instruction written as Python lines."""

    @property
    def statements_source(self) -> Source: ...

    def instruction(self, fill: Callable[[Any], None], span: Span | None) -> Callable: ...


class Jump(Protocol):
    """A jump target of a procedure's instructions (``compiler.hooks.Label``): its place, once known."""

    pc: int


class Compiler(Protocol):
    """The statement compiler (``compiler.statements.StmtCompiler``)."""

    @property
    def ec(self) -> Expressions: ...

    @property
    def game(self) -> Any: ...

    @property
    def program(self) -> Program | None: ...

    def emit_value_calls(self, exprs: list, b: Any) -> None: ...

    def has_value_calls(self, s: n.Stmt) -> bool: ...

    def is_straight(self, s: n.Stmt) -> bool: ...

    def body(self, stmts: list[n.Stmt]) -> tuple[Fn, Span | None]: ...

    def block(self, stmts: list[n.Stmt], b: Any) -> None: ...

    def label(self) -> Jump: ...

    def fresh(self, what: str) -> str: ...

    def jump_unless(self, cond: n.Expr, label: Any) -> Callable: ...

    def goto(self, label: Any) -> Callable: ...


class Instructions(Protocol):
    """A procedure's instructions being built (``compiler.statements.Builder``)."""

    def emit(self, op: Callable, span: Span | None) -> int: ...

    def here(self) -> int: ...

    @property
    def exit(self) -> Any: ...


class Unit(Protocol):
    """The generated module a function is written into (``compiler.codegen.Unit``)."""

    def constant(self, value: Any, about: str = "") -> str: ...


class Lines(Protocol):
    """A generated function's body (``compiler.codegen.Body``)."""

    @property
    def unit(self) -> Unit: ...

    def line(self, text: str, span: Span | None = None) -> None: ...

    def indented(self) -> AbstractContextManager[Any]: ...

    def charge(self, units: str, span: Span | None = None) -> None: ...


class ExpressionSource(Protocol):
    """Expressions as Python source (``compiler.source_expr``)."""

    aliases: dict[str, str]

    def src(self, e: n.Expr, u: Any) -> str: ...

    def as_list(self, e: n.Expr, u: Any, copy: bool = False) -> str: ...

    def iterable(self, e: n.Expr, u: Any, copy: bool = False) -> str: ...


class Source(Protocol):
    """Straight-line statements as Python lines (``compiler.source_stmt.StmtSource``)."""

    @property
    def xs(self) -> ExpressionSource: ...

    #: where an instruction sets its frame's next instruction (``fr.pc``)
    frame_pc: str

    def e(self, e: n.Expr, out: Any) -> str: ...

    def block(self, stmts: list[n.Stmt], out: Any) -> None: ...

    def branch(self, body: list[n.Stmt], out: Any) -> None: ...

    def for_items(self, s: Any, items: str, filter_span: Span | None, out: Any) -> Any: ...

    def loop_scope(self, s: Any, x: str) -> AbstractContextManager[None]: ...

    def after_loop(self, head: Any, span: Span | None, out: Any) -> None: ...


class InPlace(Protocol):
    """A step played in place (``compiler.direct.DirectCompiler``)."""

    @property
    def xs(self) -> ExpressionSource: ...

    @property
    def sc(self) -> Compiler: ...

    @property
    def source(self) -> Source: ...

    @property
    def game(self) -> Any: ...

    #: the procedures that have a direct function, which a call runs as a Python call
    direct_procs: set[int]
    #: proc index -> its direct function, and its marker on the stack (read when the generated calls run)
    table: list
    markers: list

    def unwound(self, span: Span | None, out: Any) -> None: ...

    def in_frames(self, s: n.Stmt, out: Any) -> None: ...

    def body(self, stmts: list[n.Stmt], out: Any) -> None: ...


class Wording(Protocol):
    """The rulebook's words (``rulebook.words.Words``): a statement's sentence is made from these."""

    def phrase(self, node: n.Expr | None) -> str: ...

    def subject(self, who: n.Expr | None) -> tuple[str, bool]: ...

    def acts(self, who: n.Expr | None, verb: str, verbs: str) -> str: ...

    def among(self, var: str | None, source: n.Expr | None, cond: n.Expr | None) -> str: ...

    def said(self, node: n.Node) -> str: ...

    def humane(self, name: str) -> str: ...

    def listed(self, items: list[str]) -> str: ...

    def heading(self, text: str, body: list[n.Stmt] | None) -> Any: ...

    def chained(self, lines: list[Any]) -> Any: ...

