"""`add N to R`: N more dice of R's die are rolled into the roll R (none when N is not above 0)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.rolls import add_dice
from rulelang.lang import nodes as n
from rulelang.lang.types import INT

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Lines, Source, Wording


@statement
class AddDice(n.Stmt):
    BINDS = ('roll',)
    amount: n.Expr
    roll: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.amount, scope, INT, "the number of dice")
        ck.roll_place(self.roll, scope)

    def closure(self, sc: Compiler) -> Fn:
        var, die, faces = sc.changed_roll(self.roll)
        amount = sc.ec.expr(self.amount)

        return lambda st, L: add_dice(st, L, var, die, faces, amount(st, L))

    def python(self, ss: Source, out: Lines) -> None:
        var, die, faces = ss.changed_roll(self.roll)
        out.line(f"_add_dice(st, L, {var!r}, {die!r}, {faces}, {ss.e(self.amount, out)})", self.span)

    def words(self, w: Wording) -> str:
        return f"roll {w.phrase(self.amount)} more dice into {w.phrase(self.roll)}."
