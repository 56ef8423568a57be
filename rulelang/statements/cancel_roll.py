"""`cancel roll`: said in a `before roll` trigger, the roll does not happen (no dice, no `after roll`)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.rolls import cancel_roll
from rulelang.lang import nodes as n

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Instructions, Wording

#: The rule texts `cancel roll` may be said in (``Scope.where`` of a trigger's effect).
CANCELLABLE = "before roll"


@statement
class CancelRoll(n.Stmt):

    def check(self, ck: Checker, scope: Scope) -> None:
        if scope.where != CANCELLABLE:
            ck.error("'cancel roll' is said only in the effect of a 'before roll' trigger", self.span,
                     "the roll is not made yet there; after it, change it with 'reroll', 'remove N from "
                     "rolled' or 'change F to V in rolled'")

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        b.emit(lambda st, fr: cancel_roll(st, fr.locals), self.span)

    def words(self, w: Wording) -> str:
        """The rulebook's sentence for it: what does not happen, since that is all the statement does."""
        return "the roll is cancelled: no dice are rolled and nothing that follows a roll happens."
