"""`discard CARDS`: each card goes to its discard pile (and may fire a zone's `enter`/`leave` triggers)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.cards import discard_card
from rulelang.lang import nodes as n

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, InPlace, Instructions, Lines, Source, Wording


@statement
class Discard(n.Stmt):
    cards: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.cards(self.cards, scope)

    def straight(self, sc: Compiler) -> bool:
        """Joins a run of statements where no card move can fire a zone trigger (it must run right after)."""
        return sc.moves_fire_nothing

    def closure(self, sc: Compiler) -> Fn:
        cards = sc.ec.as_cards(self.cards)

        def discard(st, L):
            for c in cards(st, L):
                discard_card(st, c)
        return discard

    def python(self, ss: Source, out: Lines) -> None:
        with ss.each_card(self.cards, self.span, out) as c:
            out.line(f"_discard_card(st, {c})", self.span)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        """Where it may fire zone triggers: an instruction of its own, so that they run right after it."""
        sc.emit_straight([self], b)

    def in_place(self, dc: InPlace, out: Lines) -> None:
        dc.moved_cards(self, out)

    def words(self, w: Wording) -> str:
        return f"discard {w.phrase(self.cards)}."
