"""`move CARDS to ZONE`: each card goes to the zone (and may fire a zone's `enter`/`leave` triggers)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.cards import move_card
from rulelang.lang import nodes as n
from rulelang.lang.types import ZONE

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, InPlace, Instructions, Lines, Source, Wording


@statement
class MoveCards(n.Stmt):
    cards: n.Expr
    dest: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.cards(self.cards, scope)
        ck.expect(self.dest, scope, ZONE, "the destination")

    def straight(self, sc: Compiler) -> bool:
        """Joins a run of statements where no card move can fire a zone trigger (it must run right after)."""
        return sc.moves_fire_nothing

    def closure(self, sc: Compiler) -> Fn:
        cards, dest = sc.ec.as_cards(self.cards), sc.ec.expr(self.dest)

        def move(st, L):
            z = dest(st, L)
            for c in cards(st, L):
                move_card(st, c, z)
        return move

    def python(self, ss: Source, out: Lines) -> None:
        z = out.unit.temp("z")
        out.line(f"{z} = {ss.e(self.dest, out)}", self.span)
        with ss.each_card(self.cards, self.span, out) as c:
            out.line(f"_move_card(st, {c}, {z})", self.span)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        """Where it may fire zone triggers: an instruction of its own, so that they run right after it."""
        sc.emit_straight([self], b)

    def in_place(self, dc: InPlace, out: Lines) -> None:
        dc.moved_cards(self, out)

    def words(self, w: Wording) -> str:
        return f"move {w.phrase(self.cards)} to {w.phrase(self.dest)}."
