"""`play from ZONE`, `play from ZONE else discard`: the player whose zone it is plays a card of it (choosing the
card and its target), the others may answer it, then it resolves; with `else discard`, a player who can play
none discards one instead.

The instructions (choose, declare, react, resolve, and the `before play` triggers between) and their two
sites are the compiler's shared card-play machinery (``compiler.plays.card_play``); a step played in place
asks the choice there, then runs the rest in one call (``compiler.direct.in_frames``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.lang import nodes as n
from rulelang.lang.types import ZONE

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Decisions, Instructions, Wording


@statement
class Play(n.Stmt):
    zone: n.Expr
    else_discard: bool              # `else discard`: a player who can play no card discards one

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.zone, scope, ZONE, "the zone played from")
        if not any(card.play is not None for card in ck.sym.cards.values()):
            ck.error("no card of this game can be played", self.span, "give cards a 'play:' section")

    def instruction(self, sc: Decisions, b: Instructions) -> None:
        sc.card_play(self, b)

    def words(self, w: Wording) -> str:
        orelse = "; if none can be played, discard one instead" if self.else_discard else ""
        return f"play a card from {w.phrase(self.zone)}{orelse}."
