"""The decisions a step played in place asks (compiler/direct.py): each as its instruction asks it, in place.

A decision of one instruction is asked through that instruction's parts (``interpreter.decide``); a secret
choice among fixed options, a choice of a number and `P chooses one:` are written out, asking the state by
count alone (``State.same_answers_in_place``, ``number_in_place``, ``branch_in_place``) so that no list of
options is built for an agent that only needs their number. ``DirectCompiler`` inherits these methods: they
read its statement compiler (``sc``), expression and statement sources (``xs``, ``source``) and ``body``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulelang.check.types import item_of
from rulelang.engine import records
from rulelang.lang import nodes as n
from rulelang.lang.types import UNKNOWN
from rulelang.model.decisions import branch_id

from .choices import distinct_options, numbers_offered, take_branch
from .codegen import Body
from .sites import CHOICE, target_word

if TYPE_CHECKING:
    from ..statements.choose_one import ChooseOne
    from ..statements.choose_range import ChooseRange
    from ..statements.secret_choose import SecretChoose
    from .source_expr import ExprSource
    from .source_stmt import StmtSource
    from .statements import StmtCompiler


class DirectDecisions:
    """How ``DirectCompiler`` writes out the decisions of a step played in place."""

    sc: StmtCompiler
    xs: ExprSource
    source: StmtSource
    body: Callable[[list[n.Stmt], Body], None]      # a branch's statements, one level deeper
    in_frames: Callable[[n.Stmt, Body], None]       # a statement by its instructions

    def decision(self, op: Callable, span, out: Body) -> None:
        """Ask a decision through the parts of its instruction (``choices``): offer and take, or for a
        secret choice gather and keep."""
        u = out.unit
        if hasattr(op, "gather"):
            out.line(f"_decide_secretly(st, {u.constant(op.gather, 'who chooses secretly, among what')}, "
                     f"{u.constant(op.keep, 'the secret choices revealed and kept')}, L)", span)
        else:
            out.line(f"_decide(st, {u.constant(op.offer, 'the options of a decision')}, "
                     f"{u.constant(op.take, 'the answer of a decision kept')}, L)", span)

    def secret_choice_in_place(self, s: SecretChoose, out: Body) -> None:
        """A secret choice in a step played in place: written out among fixed options, else asked through the
        parts of its instruction."""
        if self.sc.ec.constant(s.source)[0]:
            self.secret_choice(s, out)
        else:
            self.in_frames(s, out)

    def secret_choice(self, s: SecretChoose, out: Body) -> None:
        """A secret choice among fixed options, written out as its instruction (``choices.secret_decision``)
        gathers, asks and keeps it: each player that passes the filter and has more than one option
        chooses; all are revealed at once, then stored in order. The filter and the stores read the chooser
        as a Python variable, unless something they call may read ``L``: then it is written again, each
        player bound in ``L`` as the instruction binds them."""
        text = self.sc.option_text(item_of(s.source.type) or UNKNOWN)
        offered, values = distinct_options(text, list(self.sc.ec.constant(s.source)[1]))
        if len(values) > 1 and not isinstance(s.target, n.Name):
            mark, opaque = out.mark(), self.xs.opaque
            self.write_secret_choice(s, offered, values, out, aliased=True)
            if self.xs.opaque == opaque:
                return
            out.rollback(mark)
        self.write_secret_choice(s, offered, values, out, aliased=False)

    def write_secret_choice(self, s: SecretChoose, offered: list, values: list, out: Body, aliased: bool) -> None:
        """The choice's lines. ``aliased``: the chooser read as ``p`` and the name bound once, after it, to
        what the instruction leaves there (the last chooser, else the last player looked at); otherwise
        every player looked at and every chooser is bound in ``L`` first."""
        u, span, var = out.unit, s.span, repr(s.var)
        text = self.sc.option_text(item_of(s.source.type) or UNKNOWN)
        options = u.constant(offered, "the options of a secret choice")
        values_k = u.constant(values, "the values of a secret choice")
        who, everyone, p, v, answer = u.temp("ch"), u.temp("ev"), u.temp("p"), u.temp("v"), u.temp("an")
        out.line(f"{who} = []", span)
        out.line(f"{everyone} = {self.xs.iterable(s.players, u, copy=True)}", span)
        out.charge(f"len({everyone})", span)
        with self.xs.block_scope():
            if aliased:
                self.xs.keep(s.var, p)
            out.line(f"for {p} in {everyone}:", span)
            with out.indented():
                if not aliased:
                    out.line(f"L[{var}] = {p}", span)
                if s.players_cond is not None:
                    out.line(f"if not ({self.xs.src(s.players_cond, u)}):", span)
                    out.line("    continue", span)
                if len(values) == 1:
                    out.line("if not st.ask_single:", span)
                    with out.indented():
                        self.source.store(s.target, values_k + "[0]", span, out)
                        out.line("continue", span)
                out.line(f"{who}.append({p})" if values else "pass", span)
            out.line(f"if {who}:", span)
            with out.indented():
                name = u.constant(self.sc.sites.name(s.name or target_word(s.target)), 'the name of the decision')
                out.line(f"{answer} = st.same_answers_in_place('secret', {who}, {options}, {values_k}, {name})", span)
                out.line(f"st.log.append(({u.constant(records.revealed_choices, 'the record of choices revealed')}, "
                         f"st.turn, {u.constant(text, 'the names of the options')}, {who}, {answer}))", span)
                out.line(f"for {p}, {v} in zip({who}, {answer}):", span)
                with out.indented():
                    if not aliased:
                        out.line(f"L[{var}] = {p}", span)
                    self.source.store(s.target, v, span, out)
                if aliased:
                    out.late_binds.append(len(out.lines))
                    out.line(f"L[{var}] = {p}", span)
            if aliased:
                out.line(f"elif {everyone}:", span)
                out.late_binds.append(len(out.lines))
                out.line(f"    L[{var}] = {everyone}[-1]", span)

    def number_choice(self, s: ChooseRange, out: Body) -> None:
        """`P chooses X from A to B`, asked by its numbers alone (``State.number_in_place``): its instruction
        (``choices.number_decision``) builds an option per number, which only a waiting decision needs. The
        same order as there: A, B and the count, then P."""
        u, span = out.unit, s.span
        lo, count, v = u.temp("lo"), u.temp("count"), u.temp("v")
        out.line(f"{lo} = {self.xs.src(s.low, u)}", span)
        offered = u.constant(numbers_offered, "how many numbers a choice offers")
        out.line(f"{count} = {offered}(st, {lo}, {self.xs.src(s.high, u)})", span)
        name = u.constant(self.sc.sites.name(s.name or target_word(s.target)), 'the name of the decision')
        out.line(f"{v} = st.number_in_place({self.xs.src(s.player, u)}, {lo}, {count}, {name})", span)
        self.source.store(s.target, v, span, out)
        if isinstance(s.target, n.Name):
            self.xs.keep(s.target.id, v)

    def choose_one(self, s: ChooseOne, out: Body) -> None:
        """`P chooses one:` asked as its instruction, then the branch taken as a Python branch. With no `for`
        branch, the branches open are listed by number and asked by their count (``State.branch_in_place``),
        as the instruction's offer (``choices.choose_one``) would: each condition in order, then P."""
        u = out.unit
        k = u.temp("b")
        if any(isinstance(branch, n.EachBranch) for branch in s.branches):
            choose, picked, guards = self.sc.choose_one(s)
            self.decision(choose, s.span, out)
            out.line(f"{k} = {u.constant(take_branch)}(L, {picked!r}, {u.constant(guards)})", s.span)
        else:
            open_ = u.temp("open")
            out.line(f"{open_} = []", s.span)
            for i, branch in enumerate(s.branches):
                if branch.cond is None:
                    out.line(f"{open_}.append({i})", s.span)
                else:
                    out.line(f"if {self.xs.src(branch.cond, u)}:", s.span)
                    out.line(f"    {open_}.append({i})", s.span)
            ids = u.constant([branch_id(branch) for branch in s.branches], "the option ids of the branches")
            kind = "'branch publicly'" if s.public else "'branch'"
            name = u.constant(self.sc.sites.name(s.name or CHOICE), 'the name of the decision')
            out.line(f"{k} = st.branch_in_place({self.xs.src(s.player, u)}, {open_}, {ids}, {kind}, {name})", s.span)
        for i, branch in enumerate(s.branches):
            out.line(f"{'if' if i == 0 else 'elif'} {k} == {i}:", s.span)
            self.body(branch.body, out)
