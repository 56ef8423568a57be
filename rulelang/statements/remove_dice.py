"""`remove N from R`: the last N dice rolled leave the roll R (all of them when N is more)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.rolls import remove_dice
from rulelang.lang import nodes as n
from rulelang.lang.types import INT

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Lines, Source, Wording


@statement
class RemoveDice(n.Stmt):
    BINDS = ('roll',)
    amount: n.Expr
    roll: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.amount, scope, INT, "the number of dice")
        ck.roll_place(self.roll, scope)

    def closure(self, sc: Compiler) -> Fn:
        var, die, _ = sc.changed_roll(self.roll)
        amount = sc.ec.expr(self.amount)

        return lambda st, L: remove_dice(st, L, var, die, amount(st, L))

    def python(self, ss: Source, out: Lines) -> None:
        var, die, _ = ss.changed_roll(self.roll)
        out.line(f"_remove_dice(st, L, {var!r}, {die!r}, {ss.e(self.amount, out)})", self.span)

    def words(self, w: Wording) -> str:
        return f"take the last {w.phrase(self.amount)} dice out of {w.phrase(self.roll)}."
