"""`reveal CARDS to P` / `reveal CARDS to all`: the cards are shown to P, or to every player, until each moves."""
from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rulelang.engine.names import NAMES
from rulelang.engine.reveals import reveal_cards, revealed_to_nobody
from rulelang.lang import nodes as n
from rulelang.lang.types import PLAYER

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Lines, Source, Wording


@statement
class Reveal(n.Stmt):
    """Show cards to one player (``to``), or to all (None), until each card moves."""
    FORMS: ClassVar[dict[str, tuple[str, ...]]] = {"reveal_all": ("cards",)}
    cards: n.Expr
    to: n.Expr | None = None

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.cards(self.cards, scope)
        if self.to is not None:
            ck.expect(self.to, scope, PLAYER, "whom the cards are shown to")

    def closure(self, sc: Compiler) -> Fn:
        cards = sc.ec.as_cards(self.cards)
        to = sc.ec.expr(self.to) if self.to is not None else None

        def reveal(st, L):
            if to is None:
                reveal_cards(st, list(cards(st, L)), list(range(st.n)), "all")
            else:
                seat = to(st, L)
                if seat is None:
                    revealed_to_nobody()
                reveal_cards(st, list(cards(st, L)), [seat], NAMES[seat])
        return reveal

    def python(self, ss: Source, out: Lines) -> None:
        """As the closure: the player first (none is an error), then the cards."""
        if self.to is None:
            out.line(f"_reveal_cards(st, list({ss.xs.as_cards(self.cards, out.unit)}), list(range(st.n)), 'all')",
                     self.span)
            return
        seat = out.unit.temp("s")
        out.line(f"{seat} = {ss.e(self.to, out)}", self.span)
        out.line(f"if {seat} is None:", self.span)
        out.line("    _revealed_to_nobody()", self.span)
        out.line(f"_reveal_cards(st, list({ss.xs.as_cards(self.cards, out.unit)}), [{seat}], _NAMES[{seat}])",
                 self.span)

    def words(self, w: Wording) -> str:
        to = "everyone" if self.to is None else w.phrase(self.to)
        return f"reveal {w.phrase(self.cards)} to {to}."
