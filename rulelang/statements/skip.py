"""`P skips turn`: P's next turn is passed over; said on P's own turn (in seat order), it ends there."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import nodes as n
from .. import records
from ..turns import end_turn
from . import statement

if TYPE_CHECKING:
    from ..check import Checker, Scope
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
