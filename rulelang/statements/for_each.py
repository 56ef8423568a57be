"""`for each x in LIST where COND:`: the body once for each item that passes the filter, bound to x.

The items are a copy taken when the loop starts (the body may move them) and each is a unit of work; the
filter is tested just before its item's pass; after the loop, x holds the last item.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulelang.engine.interpreter import FAILURES, located
from rulelang.engine.limits import over_budget
from rulelang.lang import nodes as n
from rulelang.lang.types import BOOL

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, InPlace, Instructions, Jump, Lines, Source, Wording


@statement
class ForEach(n.Stmt):
    BINDS = ('var',)
    var: str
    source: n.Expr
    cond: n.Expr | None
    body: list[n.Stmt]

    def check(self, ck: Checker, scope: Scope) -> None:
        item = ck.iterable(self.source, scope)
        scope.names[self.var] = item
        if self.cond is not None:
            ck.expect(self.cond, scope, BOOL, "the filter")
        ck.block(self.body, scope)

    def straight(self, sc: Compiler) -> bool:
        """A closure when its body never waits."""
        return all(sc.is_straight(x) for x in self.body)

    def closure(self, sc: Compiler) -> Fn:
        items = sc.ec.as_list(self.source, copy=True)
        cond = sc.ec.expr(self.cond) if self.cond is not None else None
        (body, span), var = sc.body(self.body), self.var

        def loop(st, L):
            xs = items(st, L)
            st.work -= len(xs)          # a pass of a loop is work
            if st.work < 0:
                raise over_budget(st)
            try:
                for x in xs:
                    L[var] = x
                    if cond is None or cond(st, L):
                        body(st, L)
            except FAILURES as error:
                raise located(error, span) from None
        return loop

    def python(self, ss: Source, out: Lines) -> None:
        # the closures blame a failing filter on a lone body statement, else on the loop
        filter_span = self.body[0].span if len(self.body) == 1 else self.span
        head = ss.for_items(self, ss.xs.iterable(self.source, out.unit, copy=True), filter_span, out)
        with out.indented(), ss.loop_scope(self, head.x):
            ss.block(self.body, out)
        ss.after_loop(head, self.span, out)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        """A start (the items kept in hidden locals) and a step to the next item that passes, or past the loop."""
        seq, pos = sc.fresh("items"), sc.fresh("i")
        top, end = sc.label(), sc.label()
        if sc.program is not None:
            program, source = sc.program, sc.program.statements_source
            b.emit(program.instruction(lambda out: self.start_lines(source, seq, pos, out), self.span), self.span)
            top.pc = b.emit(program.instruction(lambda out: self.step_lines(source, seq, pos, end, out), self.span),
                            self.span)
        else:
            b.emit(self.start(sc, seq, pos), self.span)
            top.pc = b.emit(self.step(sc, seq, pos, end), self.span)
        sc.block(self.body, b)
        b.emit(sc.goto(top), None)
        end.pc = b.here()

    def start(self, sc: Compiler, seq: str, pos: str) -> Any:
        items = sc.ec.as_list(self.source, copy=True)

        def start(st, fr):
            L = fr.locals
            L[seq] = xs = list(items(st, L))
            L[pos] = 0
            st.work -= len(xs)          # a pass of a loop is work
            if st.work < 0:
                raise over_budget(st)
        return start

    def step(self, sc: Compiler, seq: str, pos: str, end: Jump) -> Any:
        cond = sc.ec.expr(self.cond) if self.cond is not None else None
        var = self.var

        def step(st, fr):
            L = fr.locals
            xs = L[seq]
            while True:
                i = L[pos]
                if i >= len(xs):
                    del L[seq], L[pos]
                    fr.pc = end.pc
                    return
                L[pos] = i + 1
                L[var] = xs[i]
                if cond is None or cond(st, L):
                    return
        return step

    def start_lines(self, ss: Source, seq: str, pos: str, out: Lines) -> None:
        """``start`` as generated Python: keep the items (a copy) and a position in hidden locals; each item is work."""
        out.line(f"L[{seq!r}] = _xs = list({ss.xs.as_list(self.source, out.unit)})")
        out.line(f"L[{pos!r}] = 0")
        out.charge("len(_xs)")

    def step_lines(self, ss: Source, seq: str, pos: str, end: Jump, out: Lines) -> None:
        """``step`` as generated Python: the next item that passes the filter, or past the loop (``end``)."""
        out.line(f"_xs = L[{seq!r}]")
        out.line("while True:")
        out.line(f"    _i = L[{pos!r}]")
        out.line("    if _i >= len(_xs):")
        out.line(f"        del L[{seq!r}], L[{pos!r}]")
        out.line(f"        {ss.frame_pc} = {out.unit.constant(end)}.pc")
        out.line("        return")
        out.line(f"    L[{pos!r}] = _i + 1")
        out.line(f"    L[{self.var!r}] = _xs[_i]")
        if self.cond is None:
            out.line("    return")
        else:
            out.line(f"    if {ss.e(self.cond, out)}:")
            out.line("        return")

    def in_place(self, dc: InPlace, out: Lines) -> None:
        """As the instructions: a copy of the items, each one work, the filter tested just before its item's
        pass, a failing filter told at the loop."""
        ss = dc.source
        head = ss.for_items(self, dc.xs.iterable(self.source, out.unit, copy=True), self.span, out)
        with ss.loop_scope(self, head.x):
            dc.body(self.body, out)
        ss.after_loop(head, self.span, out)

    def words(self, w: Wording) -> object:
        """Its line, and its body's lines under it."""
        return w.heading(f"For each {w.among(self.var, self.source, self.cond)}:", self.body)
