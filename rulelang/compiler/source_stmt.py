"""Straight-line statements (those that never wait for a decision) as the lines of a Python function.

Each method mirrors the closure ``StmtCompiler.f_*`` would build: the same values, in
the same order, with the same events, work and errors. Every line is tagged with the
statement it belongs to, so a failure is told there (``codegen.blame``). A statement kept
in one home (``rulelang/statements/``) writes its lines with its own ``python`` method;
every statement that has a closure has one. Only a branch or loop nested past ``MAX_DEPTH``
is called as its closure (Python's own limits on nesting).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind
from rulelang.lang.types import CARD, PLAYER
from rulelang.lang.visitors import Dispatch

from .. import statements as homes  # noqa: F401  (their node classes exist before the table at the end)
from ..statements import roles
from ..statements.for_each import ForEach
from ..statements.if_stmt import If
from ..statements.while_stmt import While
from .codegen import FRAME_PC, READS_LOCALS, Body
from .expressions import local_name
from .naming import spoken
from .source_expr import operand

if TYPE_CHECKING:
    from .source_expr import ExprSource
    from .statements import StmtCompiler


@dataclass
class LoopHead:
    """What ``for_items`` wrote of a `for each`: its name, the Python variables of its items and item, where its
    body starts, the lines that bind its name or track its filter, and the lines that go after it."""

    var: str
    xs: str
    x: str
    body: int
    binds: list[int] = field(default_factory=list)
    after: list[str] = field(default_factory=list)


#: Blocks nested deeper than this run as closures, each body compiled apart: Python allows
#: only 20 nested loops and try blocks in one function, and 100 levels of indentation.
MAX_DEPTH = 12


class StmtSource:
    """Lines of Python for statements; ``block`` is the entry point."""

    #: where an instruction written here sets its frame's next instruction (a jump)
    frame_pc = FRAME_PC

    def __init__(self, sc: StmtCompiler, xs: ExprSource):
        self.sc = sc
        self.xs = xs
        self.game = sc.game

    def block(self, stmts: list[n.Stmt], out: Body) -> None:
        """Lines for statements in order."""
        for s in stmts:
            self.xs.forget(s)
            method = _SOURCES.get(type(s))
            if out.depth > MAX_DEPTH and isinstance(s, (If, ForEach, While)):
                method = None
            if method is None:
                self.fallback(s, out)
            else:
                method(self, s, out)

    def fallback(self, s: n.Stmt, out: Body) -> None:
        outer, self.xs.nesting = self.xs.nesting, 0
        try:
            f = self.sc.closure(s)
        finally:
            self.xs.nesting = outer
        out.line(f"{out.unit.constant(f)}(st, L)", s.span)

    def e(self, e: n.Expr, out: Body) -> str:
        return self.xs.src(e, out.unit)

    #: An expression as the rules write it (``naming.spoken``), and the name if it is just a local name
    #: (``expressions.local_name``), for a statement's home.
    spoken = staticmethod(spoken)
    local_name = staticmethod(local_name)
    #: An operand's source as an operator takes it (``source_expr.operand``); the number an expression writes
    #: out, if one of 0 or more; whether a target is a counter (held at 0 or more): for a statement's home.
    operand = staticmethod(operand)

    @staticmethod
    def count_literal(e: n.Expr) -> int | None:
        return _count_literal(e)

    def changed_roll(self, roll: n.Expr) -> tuple[str, str, int]:
        """The roll a statement changes (its local, its die, the die's highest face), as its closure finds it."""
        return self.sc.changed_roll(roll)

    @staticmethod
    def is_counter(target: n.Expr) -> bool:
        return _is_counter(target)

    @staticmethod
    def is_number(text: str) -> bool:
        """Whether generated source is an integer written out (a counter set to it needs no local)."""
        return _NUMBER.fullmatch(text) is not None

    # -- assignment ---------------------------------------------------------------------------

    def store(self, target: n.Expr, value: str, span, out: Body, in_range: bool = False,
              at_least_0: bool = False) -> None:
        """Store ``value`` (a Python local already computed) where ``target`` names; ``in_range``: it is known
        to be within the number limit, ``at_least_0``: not below 0 either (a counter needs no clamp then)."""
        u = out.unit
        if isinstance(target, n.Name):
            out.line(f"L[{target.id!r}] = {value}", span)
        elif isinstance(target, n.Index):
            self.set_counter(self.xs.holder(target.obj, u), self.e(target.key, out), value, in_range, span, out,
                             at_least_0, spoken(target))
        elif target.ref.kind == RefKind.PVAR:
            self.set_player_var(self.e(target.obj, out), target.name, value, span, out, spoken(target))
        else:
            ci = self.game.counters.index(target.name)
            self.set_counter(self.xs.holder(target.obj, u), str(ci), value, in_range, span, out, at_least_0,
                             spoken(target))

    def set_counter(self, holder: str, counter: str, value: str, in_range: bool, span, out: Body,
                    at_least_0: bool = False, about: str = "") -> None:
        """state.set_counter written out in place, in its order: holder and counter first, then the value kept
        at 0 or more (and within the limit, unless ``in_range``), then the change and its record."""
        u, limit = out.unit, self.game.number_limit
        if _NUMBER.fullmatch(value) and int(value) <= limit:   # a number written out: clamped now, not as it runs
            value, in_range, at_least_0 = str(max(0, int(value))), True, True
        elif not value.isidentifier():      # a local of its own: the clamp below assigns it
            v = u.temp("v")
            out.line(f"{v} = {value}", span)
            value = v
        if not holder.isdigit():
            h = u.temp("h")
            out.line(f"{h} = {holder}", span)
            holder = h
        if not counter.isdigit():
            c = u.temp("c")
            out.line(f"{c} = {counter}", span)
            counter = c
        if not at_least_0:
            out.line(f"if {value} < 0:", span)
            out.line(f"    {value} = 0", span)
        if not in_range:
            out.line(f"{'elif' if not at_least_0 else 'if'} {value} > {limit}:", span)
            out.line(f"    _too_big_now({value}, {limit}, None)", span)
        row = u.temp("row")
        out.line(f"{row} = st.counters[{holder}]", span)
        out.line(f"if {row}[{counter}] != {value}:", span)
        with out.indented():
            u.note(about)
            out.line(f"{row}[{counter}] = {value}", span)
            out.record(f"(_counter_set, st.turn, {holder}, {counter}, {value})", span)

    def set_player_var(self, player: str, name: str, value: str, span, out: Body, about: str = "") -> None:
        """state.set_player_var written out in place (the commonest change of all): player, then value, once each."""
        u, vi = out.unit, self.game.var_names.index(name)
        p, v, row = u.temp("p"), u.temp("v"), u.temp("row")
        out.line(f"{p} = {player}", span)
        out.line(f"{v} = {value}", span)
        out.line(f"{row} = st.vars[{p}]", span)
        out.line(f"if {row}[{vi}] != {v}:", span)
        with out.indented():
            u.note(about)
            out.line(f"{row}[{vi}] = {v}", span)
            out.record(f"(_set_var, st.turn, {p}, {vi}, {v})", span)

    # -- cards and dice ------------------------------------------------------------------------

    @contextmanager
    def each_card(self, cards: n.Expr, span, out: Body) -> Iterator[str]:
        """The lines written inside run for each card of ``cards``, named by the variable given: a loop over a
        list of cards, a test for one card (none: nothing)."""
        c = out.unit.temp("c")
        if cards.type == CARD:
            out.line(f"{c} = {self.e(cards, out)}", span)
            out.line(f"if {c} is not None:", span)
        else:
            out.line(f"for {c} in {self.xs.as_list(cards, out.unit, copy=True)}:", span)
        with out.indented():
            yield c


    # -- control flow ---------------------------------------------------------------------------

    def branch(self, body: list[n.Stmt], out: Body) -> None:
        with out.indented(), self.xs.block_scope():
            if body:
                self.block(body, out)
            else:
                out.line("pass")

    @contextmanager
    def loop_scope(self, s: ForEach, x: str) -> Iterator[None]:
        """A loop's body, where the loop's name is read as its Python variable ``x`` (each pass binds both anew;
        a statement of the body that may bind the name again ends that, ``ExprSource.forget``)."""
        seats = isinstance(s.source, n.Name) and s.source.ref.kind in _SEATS and s.source.type != PLAYER
        with self.xs.block_scope():
            self.xs.keep(s.var, x)
            if seats:                       # each item a seat, never None; known inside this loop only, as
                self.xs.present.add(x)      # another function's temporaries may reuse the name
            try:
                yield
            finally:
                self.xs.present.discard(x)

    def for_items(self, s: ForEach, items: str, filter_span, out: Body) -> LoopHead:
        """The head of a `for each` as a Python `for` over ``items``: each item is a unit of work, tested by
        the filter, then bound to the loop's name (the body goes one level deeper).

        The filter reads the item as the loop's Python variable, and only an item that passes is written
        to ``L``, unless the filter hands ``L`` to code that may read the name (then every item is bound
        first, as the closures bind it). The name keeps the last item after the loop, as the closures leave
        it (``after_loop``).
        """
        u = out.unit
        xs, x = u.temp("xs"), u.temp("x")
        out.line(f"{xs} = {items}", s.span)
        out.charge(f"len({xs})", s.span)                 # a pass of a loop is work
        out.line(f"for {x} in {xs}:", filter_span)
        head = LoopHead(s.var, xs, x, len(out.lines))
        bind = f"L[{s.var!r}] = {x}"
        if s.cond is None:
            head.binds.append(len(out.lines))
            out.line(f"    {bind}", filter_span)
            return head
        test, read_in_l = self.filter_source(s, x, out)
        with out.indented():
            if read_in_l:
                out.line(bind, filter_span)
                out.line(f"if not ({test}):", filter_span)
                out.line("    continue", filter_span)
                return head
            passed = u.temp("ok")
            out.line(f"if not ({test}):", filter_span)
            head.binds.append(len(out.lines))
            out.line(f"    {passed} = False", filter_span)
            out.line("    continue", filter_span)
            head.binds.extend((len(out.lines), len(out.lines) + 1))
            out.line(f"{passed} = True", filter_span)
            out.line(bind, filter_span)
        head.after = [f"if {xs} and not {passed}:", f"    L[{s.var!r}] = {xs}[-1]"]
        return head

    def filter_source(self, s: ForEach, x: str, out: Body) -> tuple[str, bool]:
        """A loop's filter reading its item as ``x``; and whether it hands ``L`` to code that may read the
        loop's name there (then the item must be in ``L`` too)."""
        xs = self.xs
        outer, before = xs.aliases, xs.opaque
        xs.aliases = {**outer, s.var: x}
        try:
            return self.e(s.cond, out), xs.opaque != before
        finally:
            xs.aliases = outer

    def after_loop(self, head: LoopHead, span, out: Body) -> None:
        """After the loop, its name holds the last item. When nothing in the loop reads ``L`` (its body reads
        the item as the Python variable), it is bound there once, after the loop, not at every pass: the
        lines that bound it, and kept track of whether the last item passed the filter, do nothing."""
        binds = set(head.binds)
        if binds and not any(READS_LOCALS.search(line) for k, line in enumerate(out.lines[head.body:], head.body)
                             if k not in binds):
            for index in head.binds:
                out.pass_instead(index, "the name is bound after the loop")
            head.after = [f"if {head.xs}:", f"    L[{head.var!r}] = {head.xs}[-1]"]
            out.late_binds.append(len(out.lines) + 1)
        for line in head.after:
            out.line(line, span)

    # -- instructions of their own: loops and branches that may hold decisions ------------------

    def jump_unless(self, cond: n.Expr, label, out: Body) -> None:
        out.line(f"if not ({self.e(cond, out)}):")
        out.line(f"    {FRAME_PC} = {out.unit.constant(label)}.pc")


#: Each statement class's lines (``g_<Class>``, or a home statement's ``python``), found once; a class
#: with none is called as its closure.
_SOURCES = Dispatch(StmtSource, "g_", n.Stmt, own="python")


#: Names of lists of seats, every item a player.
_SEATS = (RefKind.PLAYERS, RefKind.ROLE, RefKind.TEAM)


#: A whole number written out in generated source (``repr`` of an int).
_NUMBER = re.compile(r"-?\d+")


def _is_counter(target: n.Expr) -> bool:
    """Whether an assignment's target is a counter (held at 0 or more), not a local or a player variable."""
    return isinstance(target, n.Index) or (isinstance(target, n.Attr) and target.ref.kind != RefKind.PVAR)


def _count_literal(e: n.Expr) -> int | None:
    """The number ``e`` writes out, when it is one of 0 or more."""
    if isinstance(e, n.Num) and type(e.value) is int and e.value >= 0:
        return e.value
    return None


def _fits_statement_roles(ss: StmtSource, out: Body) -> tuple[roles.Source, roles.Lines]:
    """Never called: mypy checks here that these classes have what a statement home calls on them."""
    return ss, out
