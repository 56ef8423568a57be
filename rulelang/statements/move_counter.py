"""`move N COUNTER from A to B` (or `move all ...`): counters pass from one holder to another, as many as A has.

A holder is a player, a location, a card or the game; a holder that is none moves nothing. Moving more than
the holder has moves what it has; a receiver past the game's number limit is an error.
"""
from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING

from rulelang.engine import records
from rulelang.engine.limits import too_big
from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind
from rulelang.lang.types import COUNTER, INT

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Lines, Source, Wording


@statement
class MoveCounter(n.Stmt):
    amount: n.Expr | None      # None means all
    counter: n.Expr
    source: n.Expr
    dest: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        if self.amount is not None:
            ck.expect(self.amount, scope, INT, "the amount")
        ck.expect(self.counter, scope, COUNTER, "what is moved")
        ck.holder(self.source, scope)
        ck.holder(self.dest, scope)

    def closure(self, sc: Compiler) -> Fn:
        ec = sc.ec
        amount = ec.expr(self.amount) if self.amount is not None else None
        counter, src, dst = ec.expr(self.counter), ec.holder(self.source), ec.holder(self.dest)
        limit, span = sc.game.number_limit, self.span

        def move(st, L):
            c, a, z = counter(st, L), src(st, L), dst(st, L)
            if c is None or a is None or z is None:
                return
            have = st.counters[a][c]
            k = have if amount is None else max(0, min(amount(st, L), have))
            if k:
                if st.counters[z][c] + k > limit:
                    raise too_big(st.counters[z][c] + k, limit, span)
                st.counters[a][c] = have - k
                st.counters[z][c] += k
                if st.history:
                    st.log.append((records.transferred, st.turn, c, k, a, z))
        return move

    def python(self, ss: Source, out: Lines) -> None:
        u, span, limit = out.unit, self.span, ss.game.number_limit
        have, k = u.temp("have"), u.temp("moved")
        parts = []                      # counter, from, to: in that order; a number written out needs no local
        unknown = []                    # those that may be None
        for what, text, sure in (("c", ss.e(self.counter, out), False),
                                 ("from", ss.xs.holder(self.source, u), ss.xs.is_present_seat(self.source)),
                                 ("z", ss.xs.holder(self.dest, u), ss.xs.is_present_seat(self.dest))):
            if not text.isdigit():
                name = u.temp(what)
                out.line(f"{name} = {text}", span)
                if not sure:
                    unknown.append(name)
                text = name
            parts.append(text)
        c, a, z = parts
        if unknown:
            out.line(f"if {' and '.join(f'{x} is not None' for x in unknown)}:", span)
        with out.indented() if unknown else nullcontext():
            source_words, dest_words = self.counter_words(ss, self.source), self.counter_words(ss, self.dest)
            u.note(source_words)
            out.line(f"{have} = st.counters[{a}][{c}]", span)
            amount = None if self.amount is None else ss.count_literal(self.amount)
            if self.amount is None:
                out.line(f"{k} = {have}", span)
            elif amount is not None:    # a number of 0 or more: at most what there is
                out.line(f"{k} = {amount} if {have} > {amount} else {have}", span)
            else:                       # max(0, min(amount, have)), without the two calls
                out.line(f"{k} = {ss.e(self.amount, out)}", span)
                out.line(f"if {k} > {have}:", span)
                out.line(f"    {k} = {have}", span)
                out.line(f"if {k} < 0:", span)
                out.line(f"    {k} = 0", span)
            out.line(f"if {k}:", span)
            with out.indented():
                out.line(f"if st.counters[{z}][{c}] + {k} > {limit}:", span)
                out.line(f"    _too_big_now(st.counters[{z}][{c}] + {k}, {limit}, {u.constant(span)})", span)
                u.note(source_words)
                out.line(f"st.counters[{a}][{c}] = {have} - {k}", span)
                u.note(dest_words)
                out.line(f"st.counters[{z}][{c}] += {k}", span)
                out.record(f"(_transferred, st.turn, {c}, {k}, {a}, {z})", span)

    def counter_words(self, ss: Source, holder: n.Expr) -> str:
        """A holder's counter in the spec's words, for the listing: ``t.coins``, or ``t[c]`` for a counter held
        in a local."""
        counter = self.counter
        if isinstance(counter, n.Name) and counter.ref is not None and counter.ref.kind == RefKind.COUNTER:
            return f"{ss.spoken(holder)}.{counter.id}"
        return f"{ss.spoken(holder)}[{ss.spoken(counter)}]"

    def words(self, w: Wording) -> str:
        amount = "all" if self.amount is None else w.phrase(self.amount)
        return f"move {amount} {w.phrase(self.counter)} from {w.phrase(self.source)} to {w.phrase(self.dest)}."
