"""`P chooses X in LIST where C as NAME`: P picks an item of LIST (those passing C); `P publicly chooses ...` is
said aloud, every player seeing the option taken (docs/language.md, "Private knowledge").

The decision's instruction and its site are the compiler's shared decision machinery
(``compiler.choices.item_decision``); a step played in place asks it through that instruction's parts.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.lang import nodes as n
from rulelang.lang.types import BOOL

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Decisions, Instructions, Wording


@statement
class ChooseIn(n.Stmt):
    BINDS = ('target',)
    player: n.Expr
    public: bool                    # `P publicly chooses`: every player sees the option taken
    target: n.Expr
    source: n.Expr
    cond: n.Expr | None
    name: str | None = None         # `as NAME`: the decision's own name

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.decider(self.player, scope)
        item = ck.iterable(self.source, scope)
        ck.choice_target(self.target, item, scope)
        if self.cond is not None and isinstance(self.target, n.Name):
            ck.expect(self.cond, scope, BOOL, "the filter")
        elif self.cond is not None:
            ck.error("a filtered choice must choose into a local name", self.target.span)

    def instruction(self, sc: Decisions, b: Instructions) -> None:
        sc.item_decision(self, b)

    def words(self, w: Wording) -> str:
        cond = f" such that {w.phrase(self.cond)}" if self.cond is not None else ""
        return w.acts(self.player, 'choose', 'chooses') + f" {w.phrase(self.target)} " \
            f"from {w.phrase(self.source)}{cond}."
