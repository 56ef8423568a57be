"""`remove N from R`: the last N dice rolled leave the roll R (all of them when N is more)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.rolls import change_roll
from rulelang.lang import nodes as n
from rulelang.lang.types import INT

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Wording


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

        def remove(st, L):
            k = min(max(0, amount(st, L)), len(L[var]))
            if k:
                change_roll(st, L, var, die, "removed", list(L[var])[:len(L[var]) - k])
        return remove

    def words(self, w: Wording) -> str:
        return f"take the last {w.phrase(self.amount)} dice out of {w.phrase(self.roll)}."
