"""`shuffle ZONE`: the zone's cards in a new order from the game's RNG (each card is work)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.cards import shuffle_zone
from rulelang.lang import nodes as n
from rulelang.lang.types import ZONE

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Lines, Source, Wording


@statement
class Shuffle(n.Stmt):
    zone: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.zone, scope, ZONE, "what is shuffled")

    def closure(self, sc: Compiler) -> Fn:
        zone = sc.ec.expr(self.zone)
        return lambda st, L: shuffle_zone(st, zone(st, L))

    def python(self, ss: Source, out: Lines) -> None:
        out.line(f"_shuffle_zone(st, {ss.e(self.zone, out)})", self.span)

    def words(self, w: Wording) -> str:
        return f"shuffle {w.phrase(self.zone)}."
