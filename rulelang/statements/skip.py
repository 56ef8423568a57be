"""`P skips turn`: P's next turn is passed over; said on P's own turn (in seat order), it ends there."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine import records
from rulelang.engine.turns import end_turn
from rulelang.lang import nodes as n

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope
    from rulelang.engine.state import State

    from .roles import Compiler, InPlace, Instructions, Lines, Wording


@statement
class Skip(n.Stmt):
    player: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.decider(self.player, scope)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        who = sc.ec.expr(self.player)

        def op(st, fr):
            skip_turn(st, who(st, fr.locals))
        b.emit(op, self.span)

    def in_place(self, dc: InPlace, out: Lines) -> None:
        """The instruction's work in a step played in place, with no frame; on one's own turn, play stops there."""
        u = out.unit
        skip = u.constant(skip_turn, "the record of a skipped turn, and the end of one's own")
        out.line(f"{skip}(st, {dc.xs.src(self.player, u)})", self.span)
        dc.unwound(self.span, out)

    def words(self, w: Wording) -> str:
        return w.acts(self.player, 'lose', 'loses') + " a turn (the next one is skipped)."


def skip_turn(st: State, p: int | None) -> None:
    """P skips a turn: recorded, and on P's own turn in seat order the turn ends here."""
    if st.history:
        st.log.append((records.skipped, st.turn, p))
    if st.game.phases[st.phase].by_seat and p == st.active:
        end_turn(st)
