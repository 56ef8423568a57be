"""`P chooses X from LO to HI`: P picks a number, LO first, each number an option (``as NAME`` names the decision).

The decision's instruction and its site are the compiler's shared decision machinery
(``compiler.choices.number_decision``); played in place, it is asked by its count alone
(``compiler.direct_decisions.number_choice``), so both keep the decision's name and saved form.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.lang import nodes as n
from rulelang.lang.types import INT

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Decisions, DecisionsInPlace, Instructions, Lines, Wording


@statement
class ChooseRange(n.Stmt):
    BINDS = ('target',)
    player: n.Expr
    target: n.Expr
    low: n.Expr
    high: n.Expr
    name: str | None = None         # `as NAME`: the decision's own name

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.decider(self.player, scope)
        ck.expect(self.low, scope, INT, "the lowest choice")
        ck.expect(self.high, scope, INT, "the highest choice")
        ck.choice_target(self.target, INT, scope)

    def instruction(self, sc: Decisions, b: Instructions) -> None:
        sc.number_decision(self, b)

    def in_place(self, dc: DecisionsInPlace, out: Lines) -> None:
        dc.number_choice(self, out)

    def words(self, w: Wording) -> str:
        return w.acts(self.player, 'choose', 'chooses') + f" a number {w.phrase(self.target)} " \
            f"from {w.phrase(self.low)} to {w.phrase(self.high)}."
