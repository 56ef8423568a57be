"""`TARGET += N` / `TARGET -= N`: a number changed by an amount, an error past the game's number limit.

An amount that calls a procedure runs that procedure's frame first: the statement is then instructions of
its own (the frame, then the change); otherwise it is a closure that joins its run.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.limits import too_big
from rulelang.lang import nodes as n
from rulelang.lang.types import INT, UNKNOWN

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Instructions, Lines, Source, Wording


@statement
class AugAssign(n.Stmt):
    BINDS = ('target',)
    target: n.Expr
    op: str                  # "+=" / "-="
    value: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        kind = ck.assignable(self.target, scope)
        if kind not in (INT, UNKNOWN):
            ck.error(f"'{self.op}' needs a number to change, not {ck.describe(kind)}", self.target.span)
        ck.values_first(self.value, scope, INT, "the amount")

    def straight(self, sc: Compiler) -> bool:
        """A closure, unless the amount calls a procedure (whose frame must run first)."""
        return not sc.has_value_calls(self)

    def closure(self, sc: Compiler) -> Fn:
        store, current, amount = sc.setter(self.target), sc.ec.expr(self.target), sc.ec.expr(self.value)
        sign = 1 if self.op == "+=" else -1
        limit, span = sc.game.number_limit, self.span

        def change(st, L):
            v = current(st, L) + sign * amount(st, L)
            if not -limit <= v <= limit:
                raise too_big(v, limit, span)
            store(st, L, v)
        return change

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        sc.emit_value_calls([self.value], b)
        sc.emit_straight([self], b)

    def python(self, ss: Source, out: Lines) -> None:
        v, limit = out.unit.temp("v"), ss.game.number_limit
        sign = "+" if self.op == "+=" else "-"
        out.line(f"{v} = {ss.operand(ss.e(self.target, out))} {sign} {ss.operand(ss.e(self.value, out))}", self.span)
        step = ss.count_literal(self.value) if ss.is_counter(self.target) else None
        growing = sign == "+" and step is not None
        shrinking = sign == "-" and step is not None and step <= limit
        # a counter (0 to the limit) plus a number of 0 or more can only pass the top of the range; less a
        # number from 0 to the limit, it cannot leave the range (it may go below 0: the store clamps it)
        if not shrinking:
            out.line(f"if {v} > {limit}:" if growing else f"if not -{limit} <= {v} <= {limit}:", self.span)
            with out.indented():
                out.line(f"_too_big_now({v}, {limit}, {out.unit.constant(self.span)})", self.span)
        ss.store(self.target, v, self.span, out, in_range=True, at_least_0=growing)

    def words(self, w: Wording) -> str:
        if self.op == "+=":
            return f"add {w.phrase(self.value)} to {w.phrase(self.target)}."
        return f"take {w.phrase(self.value)} from {w.phrase(self.target)}."
