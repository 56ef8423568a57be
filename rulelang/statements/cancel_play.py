"""`cancel play`: said in a `before play` trigger, the chosen card is not played (docs/language.md "Hooks").

The card stays where it was (the hand it was chosen from), nobody is asked to answer it, its effect does
not run, and the `play` statement that chose it is over: the step goes on after it, so the player does not
choose again (a player whose every card is refused would otherwise be asked forever).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.cancels import cancel_play
from rulelang.lang import nodes as n

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Instructions, Wording

#: The rule texts `cancel play` may be said in (``Scope.where`` of a trigger's effect).
CANCELLABLE = "before play"


@statement
class CancelPlay(n.Stmt):

    def check(self, ck: Checker, scope: Scope) -> None:
        if scope.where != CANCELLABLE:
            ck.error("'cancel play' is said only in the effect of a 'before play' trigger", self.span,
                     "once the card is declared, only an answer cancels it; before, a trigger with "
                     "'on: before play' (and an 'if:' naming the card) may cancel its play")

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        b.emit(lambda st, fr: cancel_play(st, fr.locals), self.span)

    def words(self, w: Wording) -> str:
        """The rulebook's sentence for it: what does not happen, since that is all the statement does."""
        return "the play is cancelled: the card stays in the hand and its player's play is over."
