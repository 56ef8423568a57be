"""`eliminate P`: P leaves the turn order and the live-player lists (rulelang/engine/elimination.py); P's own turn ends there."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.elimination import eliminate
from rulelang.engine.turns import end_turn
from rulelang.lang import nodes as n
from rulelang.lang.types import PLAYER

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Instructions, Wording


@statement
class Eliminate(n.Stmt):
    player: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.player, scope, PLAYER, "the player to eliminate")

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        who, game = sc.ec.expr(self.player), sc.game

        def op(st, fr):
            if eliminate(st, who(st, fr.locals)) and game.phases[st.phase].by_seat:
                end_turn(st)
        b.emit(op, self.span)

    def words(self, w: Wording) -> str:
        words, you = w.subject(self.player)
        return f"{words} {'are' if you else 'is'} out of the game."
