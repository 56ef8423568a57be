"""`each p in PLAYERS where C secretly chooses p.X in LIST as NAME`: every player that passes C chooses at once
and in secret; the answers are revealed together, then stored in order (docs/language.md, "Private knowledge").

The decision's instruction and its site are the compiler's shared decision machinery
(``compiler.choices.secret_decision``); a step played in place writes a choice among fixed options out, and
asks any other through that instruction's parts (``compiler.direct_decisions.secret_choice_in_place``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.lang import nodes as n
from rulelang.lang.types import BOOL, PLAYER, UNKNOWN

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Decisions, DecisionsInPlace, Instructions, Lines, Wording


@statement
class SecretChoose(n.Stmt):
    BINDS = ('var', 'target')
    var: str
    players: n.Expr
    players_cond: n.Expr | None
    target: n.Expr
    source: n.Expr
    cond: n.Expr | None
    name: str | None = None         # `as NAME`: the decision's own name

    def check(self, ck: Checker, scope: Scope) -> None:
        inner = scope.child()
        item = ck.iterable(self.players, scope)
        if item not in (PLAYER, UNKNOWN):
            ck.error("simultaneous choices are made by a list of players", self.players.span)
        inner.names[self.var] = PLAYER
        if self.players_cond is not None:
            ck.expect(self.players_cond, inner, BOOL, "the filter")
        option = ck.iterable(self.source, inner)
        if not isinstance(self.target, (n.Attr, n.Index)):
            ck.error("a simultaneous choice is stored in a player variable, like p.choice", self.target.span)
            return
        ck.choice_target(self.target, option, inner)        # not a local name: what it holds must be the option
        if self.cond is not None:
            ck.error("filter the options of a simultaneous choice in its list", self.cond.span)

    def instruction(self, sc: Decisions, b: Instructions) -> None:
        sc.secret_decision(self, b)

    def in_place(self, dc: DecisionsInPlace, out: Lines) -> None:
        dc.secret_choice_in_place(self, out)

    def words(self, w: Wording) -> str:
        cond = f" such that {w.phrase(self.cond)}" if self.cond is not None else ""
        return f"In secret and at once, each {w.among(self.var, self.players, self.players_cond)} chooses " \
            f"{w.phrase(self.target)} from {w.phrase(self.source)}{cond}."
