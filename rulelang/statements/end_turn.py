"""`end turn`: the turn ends here; the turn loop moves on to the next."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.turns import end_turn
from rulelang.lang import nodes as n

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Instructions, Wording


@statement
class EndTurn(n.Stmt):

    def check(self, ck: Checker, scope: Scope) -> None:
        pass

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        b.emit(lambda st, fr: end_turn(st), self.span)

    def words(self, w: Wording) -> str:
        return "the turn ends here."
