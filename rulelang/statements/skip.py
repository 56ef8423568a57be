"""`P skips turn`: P's next turn is passed over; said on P's own turn (in seat order), it ends there."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import nodes as n
from .. import records
from ..turns import end_turn
from . import statement

if TYPE_CHECKING:
    from ..check import Checker, Scope
    from ..compiler.codegen import Body
    from ..compiler.direct import DirectCompiler
    from ..compiler.statements import Builder, StmtCompiler


@statement
class Skip(n.Stmt):
    player: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.decider(self.player, scope)

    def instruction(self, sc: StmtCompiler, b: Builder) -> None:
        who, game = sc.ec.expr(self.player), sc.game

        def op(st, fr):
            p = who(st, fr.locals)
            st.log.append((records.skipped, st.turn, p))
            if game.phases[st.phase].by_seat and p == st.active:
                end_turn(st)
        b.emit(op, self.span)

    def in_place(self, dc: DirectCompiler, out: Body) -> None:
        """The instruction's lines in a step played in place; on one's own turn, play stops there."""
        u, span = out.unit, self.span
        p = u.temp("skip")
        out.line(f"{p} = {dc.xs.src(self.player, u)}", span)
        out.line(f"st.log.append(({u.constant(records.skipped, 'the record of a skipped turn')}, st.turn, {p}))", span)
        out.line(f"if st.game.phases[st.phase].by_seat and {p} == st.active:", span)
        out.line(f"    {u.constant(end_turn, 'the end of the turn')}(st)", span)
        dc.unwound(span, out)
