"""`create N CARD in ZONE`: up to N of the token CARD's copies leave its supply for ZONE (the top ones first).

A card moved may fire a zone's `enter`/`leave` trigger, and those run right after the statement that fired
them: so where the game may have such a trigger, `create` is an instruction of its own.
"""
from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING

from rulelang.engine.cards import create_tokens
from rulelang.lang import nodes as n
from rulelang.lang.types import INT, ZONE

from ..errors import Span, did_you_mean, did_you_mean_or_list
from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope
    from rulelang.engine.rules import CardType, Rules, ZoneDecl

    from .roles import Compiler, Fn, Instructions, Lines, Source, Wording


@statement
class Create(n.Stmt):
    amount: n.Expr
    card: str
    dest: n.Expr
    card_span: Span | None = field(default=None, repr=False, kw_only=True)

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.amount, scope, INT, "the number of tokens")
        ck.expect(self.dest, scope, ZONE, "where they go")
        card = ck.sym.cards.get(self.card)
        if card is None:
            ck.error(f"unknown card '{self.card}'", self.card_span or self.span,
                     did_you_mean(self.card, ck.sym.cards)
                     or did_you_mean_or_list(self.card, [c for c, k in ck.sym.cards.items() if k.token], "tokens"))
        elif not card.token:
            ck.error(f"card '{self.card}' is not a token", self.card_span or self.span,
                     "only cards declared with 'token: true' are created; other cards are moved or drawn")

    def straight(self, sc: Compiler) -> bool:
        """Fused with the statements around it where no zone trigger can fire (the game has none)."""
        return not sc.has_triggers or sc.zone_triggers == frozenset()

    def token(self, game: Rules) -> tuple[CardType, ZoneDecl]:
        """The token's card type and its supply zone, which the checker made sure of."""
        ctype = next(c for c in game.cards if c.id == self.card)
        return ctype, game.zones[ctype.zone]

    def closure(self, sc: Compiler) -> Fn:
        game = sc.game
        ctype, supply = self.token(game)
        amount, dest = sc.ec.expr(self.amount), sc.ec.expr(self.dest)
        return lambda st, L: create_tokens(st, game, ctype, supply, amount(st, L), dest(st, L))

    def python(self, ss: Source, out: Lines) -> None:
        u, game = out.unit, ss.game
        ctype, supply = self.token(game)
        parts = [u.constant(game, "the game's rules"), u.constant(ctype, f"card {self.card!r}"),
                 u.constant(supply, f"zone {supply.name!r}"), ss.e(self.amount, out), ss.e(self.dest, out)]
        out.line(f"_create_tokens(st, {', '.join(parts)})", self.span)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        """Where a zone trigger may fire: the same work as an instruction of its own, what it fired run after it."""
        sc.emit_straight([self], b)

    def words(self, w: Wording) -> str:
        return f"put {w.phrase(self.amount)} {w.card_name(self.card)} into {w.phrase(self.dest)} (as many as are left)."
