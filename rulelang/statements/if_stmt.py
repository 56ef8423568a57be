"""`if COND: ... elif COND: ... else: ...`: the first branch whose condition holds runs, else the `else` body."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulelang.engine.interpreter import FAILURES, located
from rulelang.errors import Span
from rulelang.lang import nodes as n
from rulelang.lang.types import BOOL

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, InPlace, Instructions, Lines, Source, Wording


@statement
class If(n.Stmt):
    branches: list[tuple[n.Expr, list[n.Stmt]]]
    orelse: list[n.Stmt] | None

    @classmethod
    def from_rule(cls, cond: n.Expr, body: list[n.Stmt], *rest: Any, span: Span) -> If:
        """The rule gives the first test and body, each `elif` clause as a pair, then the `else` body or None."""
        *elifs, orelse = rest
        node: Any = cls                 # a dataclass, made so by @statement, which mypy cannot see
        return node([(cond, body), *elifs], orelse, span=span)

    def check(self, ck: Checker, scope: Scope) -> None:
        for cond, body in self.branches:
            ck.values_first(cond, scope, BOOL, "a condition")
            ck.block(body, scope)
        if self.orelse:
            ck.block(self.orelse, scope)

    def straight(self, sc: Compiler) -> bool:
        """A closure when its conditions use no procedure's value and none of its bodies waits."""
        if sc.has_value_calls(self):
            return False
        bodies = [body for _, body in self.branches] + [self.orelse or []]
        return all(sc.is_straight(x) for body in bodies for x in body)

    def closure(self, sc: Compiler) -> Fn:
        branches = [(sc.ec.expr(cond),) + sc.body(body) for cond, body in self.branches]
        orelse, else_span = sc.body(self.orelse) if self.orelse else (None, None)

        def choose_branch(st, L):
            for cond, body, span in branches:
                if cond(st, L):
                    try:
                        body(st, L)
                    except FAILURES as error:
                        raise located(error, span) from None
                    return
            if orelse is not None:
                try:
                    orelse(st, L)
                except FAILURES as error:
                    raise located(error, else_span) from None
        return choose_branch

    def python(self, ss: Source, out: Lines) -> None:
        self.lines(ss, out, ss.branch)

    def lines(self, ss: Source, out: Lines, body: Callable[[list[n.Stmt], Any], None], at_conds: bool = False) -> None:
        """`if`/`elif`/`else`, each body written by ``body``; a failing test is told at the `if` (or at
        the test itself, ``at_conds``, as a step played in place tells it where the frames do)."""
        for k, (cond, stmts) in enumerate(self.branches):
            out.line(f"{'if' if k == 0 else 'elif'} {ss.e(cond, out)}:", cond.span if at_conds else self.span)
            body(stmts, out)
        if self.orelse:
            out.line("else:", self.span)
            body(self.orelse, out)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        """Each test jumps past its body when it fails; each body jumps to the end."""
        end = sc.label()
        for cond, body in self.branches:
            skip = sc.label()
            sc.emit_value_calls([cond], b)      # a procedure's value in the condition: run it first
            b.emit(sc.jump_unless(cond, skip), cond.span)
            sc.block(body, b)
            b.emit(sc.goto(end), None)
            skip.pc = b.here()
        if self.orelse:
            sc.block(self.orelse, b)
        end.pc = b.here()

    def in_place(self, dc: InPlace, out: Lines) -> None:
        self.lines(dc.source, out, dc.body, at_conds=True)

    def words(self, w: Wording) -> object:
        """`If ...:` and its body, each `elif` an `Otherwise, if ...:`, the `else` an `Otherwise:`, at one depth."""
        lines = []
        for index, (cond, body) in enumerate(self.branches):
            lead = "If" if index == 0 else "Otherwise, if"
            lines.append(w.heading(f"{lead} {w.phrase(cond)}:", body))
        if self.orelse:
            lines.append(w.heading("Otherwise:", self.orelse))
        return w.chained(lines)
