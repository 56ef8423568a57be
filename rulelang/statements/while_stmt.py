"""`while COND:`: the body again and again while the condition holds; each pass is a unit of work."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.interpreter import FAILURES, located
from rulelang.engine.limits import over_budget
from rulelang.lang import nodes as n
from rulelang.lang.types import BOOL

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, InPlace, Instructions, Lines, Source, Wording


@statement
class While(n.Stmt):
    cond: n.Expr
    body: list[n.Stmt]

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.values_first(self.cond, scope, BOOL, "the condition")
        ck.block(self.body, scope)

    def straight(self, sc: Compiler) -> bool:
        """A closure when its condition uses no procedure's value and its body never waits."""
        return not sc.has_value_calls(self) and all(sc.is_straight(x) for x in self.body)

    def closure(self, sc: Compiler) -> Fn:
        cond = sc.ec.expr(self.cond)
        body, span = sc.body(self.body)

        def loop(st, L):
            while cond(st, L):
                st.work -= 1            # a pass of a loop is work
                if st.work < 0:
                    raise over_budget(st)
                try:
                    body(st, L)
                except FAILURES as error:
                    raise located(error, span) from None
        return loop

    def python(self, ss: Source, out: Lines) -> None:
        """As the closure: the test, a unit of work for the pass (both told at the loop), then the body, each
        statement told at its own line."""
        out.line(f"while {ss.e(self.cond, out)}:", self.span)
        with out.indented():
            out.charge("1", self.span)
        ss.branch(self.body, out)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        top, end = sc.label(), sc.label()
        top.pc = b.here()               # procedures in the condition run again before each test
        sc.emit_value_calls([self.cond], b)
        cond = sc.ec.expr(self.cond)

        def test(st, fr):
            if not cond(st, fr.locals):
                fr.pc = end.pc
                return
            st.work -= 1                # a pass of a loop is work (the instructions count too)
            if st.work < 0:
                raise over_budget(st)

        b.emit(test, self.cond.span)
        sc.block(self.body, b)
        b.emit(sc.goto(top), None)
        end.pc = b.here()

    def in_place(self, dc: InPlace, out: Lines) -> None:
        """As the instructions: the test, then a unit of work for the pass, then the body."""
        out.line("while True:", self.span)
        with out.indented():
            out.line(f"if not ({dc.xs.src(self.cond, out.unit)}):", self.cond.span)
            out.line("    break", self.cond.span)
            out.charge("1", self.cond.span)
        dc.body(self.body, out)

    def words(self, w: Wording) -> object:
        """Its line, and its body's lines under it."""
        return w.heading(f"As long as {w.phrase(self.cond)}:", self.body)
