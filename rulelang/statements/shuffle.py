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

    from ..compiler.codegen import Body
    from ..compiler.expressions import Fn
    from ..compiler.source_stmt import StmtSource
    from ..compiler.statements import StmtCompiler


@statement
class Shuffle(n.Stmt):
    zone: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.zone, scope, ZONE, "what is shuffled")

    def closure(self, sc: StmtCompiler) -> Fn:
        zone = sc.ec.expr(self.zone)
        return lambda st, L: shuffle_zone(st, zone(st, L))

    def python(self, ss: StmtSource, out: Body) -> None:
        out.line(f"_shuffle_zone(st, {ss.e(self.zone, out)})", self.span)
