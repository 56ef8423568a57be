"""`draw N from ZONE to ZONE`: cards from the top of one zone to another, the source refilled when it runs out.

Where a card move may fire zone triggers, the draw is an instruction of its own so that they run right
after it, unless it is quiet (``quiet``: between named zones that have none). In a game with `before
draw` triggers it is two instructions: the triggers start first (told who draws, the owner of the zone
drawn to, else `me`, the zones drawn from and to, and where the pending draw is kept, ``$draw``), then the
cards are drawn unless one said `cancel draw` (``engine/cancels.py``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.cards import draw_cards
from rulelang.engine.interpreter import Frame
from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind
from rulelang.lang.types import INT, ZONE
from rulelang.model.spec import Event

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope
    from rulelang.engine.rules import ZoneDecl

    from .roles import Compiler, Fn, InPlace, Instructions, Lines, Source, Wording


@statement
class Draw(n.Stmt):
    amount: n.Expr
    source: n.Expr
    dest: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.amount, scope, INT, "the number of cards")
        ck.expect(self.source, scope, ZONE, "the zone drawn from")
        ck.expect(self.dest, scope, ZONE, "the zone drawn to")

    def straight(self, sc: Compiler) -> bool:
        """Joins a run of statements where no `before draw` trigger runs first and it fires no zone trigger."""
        if hooked(sc):
            return False
        return sc.moves_fire_nothing or self.quiet(sc.zone_triggers, sc.game.zones)

    def quiet(self, zone_triggers: frozenset[str] | None, zones: list[ZoneDecl]) -> bool:
        """True for a draw between zones named here (``zone_named``) that have no `enter` or `leave` triggers.

        The destination must not keep one-of-a-kind slots: an evicted card is discarded to a pile
        this cannot see. (Refilling the source moves no card through ``move_card``.)
        """
        if zone_triggers is None:
            return False
        src, dst = zone_named(self.source), zone_named(self.dest)
        if src is None or dst is None or src in zone_triggers or dst in zone_triggers:
            return False
        return not next(z for z in zones if z.name == dst).unique

    def closure(self, sc: Compiler) -> Fn:
        amount, src, dst = sc.ec.expr(self.amount), sc.ec.expr(self.source), sc.ec.expr(self.dest)
        return lambda st, L: draw_cards(st, amount(st, L), src(st, L), dst(st, L))

    def python(self, ss: Source, out: Lines) -> None:
        out.line(f"_draw_cards(st, {ss.e(self.amount, out)}, {ss.e(self.source, out)}, {ss.e(self.dest, out)})",
                 self.span)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        """In a game with `before draw` triggers, two instructions: they start, then the cards are drawn unless
        one cancelled; otherwise (it may fire zone triggers) the draw is one instruction of its own."""
        if not hooked(sc):
            sc.emit_straight([self], b)
            return
        amount, src, dst = sc.ec.expr(self.amount), sc.ec.expr(self.source), sc.ec.expr(self.dest)
        hooks, slot = sc.action_hooks[Event.BEFORE_DRAW], sc.fresh("draw")

        def start(st, fr):
            L = fr.locals
            k, source, dest = amount(st, L), src(st, L), dst(st, L)
            owner = st.lay.zones[dest][1]
            drawer = owner if owner is not None else L.get("me")
            L[slot] = [k, source, dest, drawer]
            if k > 0:
                where = [len(st.stack) - 1, slot]
                for proc in hooks:
                    st.fired.append(Frame(proc, 0, {"me": drawer, "source": source, "dest": dest, "$draw": where}))

        def draw(st, fr):
            pending = fr.locals.pop(slot)
            if pending is not None:
                draw_cards(st, pending[0], pending[1], pending[2])

        b.emit(start, self.span)
        b.emit(draw, self.span)

    def in_place(self, dc: InPlace, out: Lines) -> None:
        """Its lines and the zone triggers it fired; a draw `before draw` triggers may cancel runs in frames."""
        if hooked(dc.sc):
            dc.in_frames(self, out)
        else:
            dc.moved_cards(self, out)

    def words(self, w: Wording) -> str:
        amount = w.phrase(self.amount)
        cards = "card" if amount == "1" else "cards"
        return f"draw {amount} {cards} from {w.phrase(self.source)} into {w.phrase(self.dest)}."


def hooked(sc: Compiler) -> bool:
    """Whether the game has `before draw` triggers: then every draw is two instructions."""
    return Event.BEFORE_DRAW in sc.action_hooks


def zone_named(e: n.Expr) -> str | None:
    """The declared zone a zone expression names (`tree_deck`, `me.hand`), or None if it is computed."""
    ref = getattr(e, "ref", None)
    if isinstance(e, n.Name) and ref and ref.kind == RefKind.ZONE:
        return ref.name
    if isinstance(e, n.Attr) and ref and ref.kind == RefKind.PZONE:
        return e.name
    return None
