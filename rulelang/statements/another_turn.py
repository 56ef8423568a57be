"""`P takes another turn`: the next turn is P's, whoever's turn this one is (turns in seat order only)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine import records
from rulelang.lang import nodes as n

from ..errors import RuleError
from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Instructions, Wording


@statement
class AnotherTurn(n.Stmt):
    player: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.decider(self.player, scope)
        if not ck.sym.seat_turns:
            ck.error("another turn needs turns in seat order (turn: order: seat)", self.span)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        who = sc.ec.expr(self.player)

        def op(st, fr):
            p = who(st, fr.locals)
            if p is None:
                raise RuleError("the player who takes another turn is none")
            st.next_player = p
            if st.history:
                st.log.append((records.another_turn, st.turn, p))
        b.emit(op, self.span)

    def words(self, w: Wording) -> str:
        return w.acts(self.player, 'take', 'takes') + " another turn after this one."
