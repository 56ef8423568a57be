"""`cancel draw`: said in a `before draw` trigger, the draw does not happen (no card moves, the source is not refilled)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.cancels import cancel_draw
from rulelang.lang import nodes as n

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Instructions, Wording

#: The rule texts `cancel draw` may be said in (``Scope.where`` of a trigger's effect).
CANCELLABLE = "before draw"


@statement
class CancelDraw(n.Stmt):

    def check(self, ck: Checker, scope: Scope) -> None:
        if scope.where != CANCELLABLE:
            ck.error("'cancel draw' is said only in the effect of a 'before draw' trigger", self.span,
                     "add a trigger with 'on: before draw' (and an 'if:' saying when) and cancel the draw there")

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        b.emit(lambda st, fr: cancel_draw(st, fr.locals), self.span)

    def words(self, w: Wording) -> str:
        """The rulebook's sentence for it: what does not happen, since that is all the statement does."""
        return "the draw is cancelled: no card is drawn."
