"""The decisions a step played in place asks (compiler/direct.py): each as its instruction asks it, in place.

A decision of one instruction is asked through that instruction's parts (``interpreter.decide``); a secret
choice among fixed options, a choice of a number and `P chooses one:` are written out, asking the state by
count alone (``State.same_answers_in_place``, ``number_in_place``, ``branch_in_place``) so that no list of
options is built for an agent that only needs their number. ``DirectCompiler`` inherits these methods: they
read its statement compiler (``sc``), expression and statement sources (``xs``, ``source``) and ``body``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .. import nodes as n
from .. import records
from ..check import UNKNOWN, item_of
from ..decisions import branch_id
from .choices import numbers_offered, take_branch
from .codegen import Body

if TYPE_CHECKING:
    from .source_expr import ExprSource
    from .source_stmt import StmtSource
    from .statements import StmtCompiler


class DirectDecisions:
    """How ``DirectCompiler`` writes out the decisions of a step played in place."""

    sc: "StmtCompiler"
    xs: "ExprSource"
    source: "StmtSource"
    body: Callable[[list[n.Stmt], Body], None]      # a branch's statements, one level deeper

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

    def secret_choice(self, s: n.SecretChoose, out: Body) -> None:
        """A secret choice among fixed options, written out as its instruction (``choices.s_SecretChoose``)
        gathers, asks and keeps it: each player that passes the filter and has more than one option
        chooses; all are revealed at once, then stored in order. The filter and the stores read the chooser
        as a Python variable when nothing they call may read ``L`` (``secret_choice_aliased``)."""
        u = out.unit
        values = list(self.sc.ec.constant(s.source)[1])
        if len(values) > 1 and not isinstance(s.target, n.Name):
            lines, functions, opaque = len(out.lines), u.mark(), self.xs.opaque
            self.secret_choice_aliased(s, values, out)
            if self.xs.opaque == opaque:
                return
            del out.lines[lines:]                   # something reads L after all: written again, binding it
            spans = u.spans.get(out.index, {})
            for k in [k for k in spans if k > lines]:
                del spans[k]
            u.rollback(functions)
        self.secret_choice_bound(s, values, out)

    def secret_choice_parts(self, s: n.SecretChoose, values: list, out: Body) -> tuple[str, str, str, str, str]:
        """The constants of a secret choice (its options, values and their names) and its choosers' lists."""
        u = out.unit
        text = self.sc.option_text(item_of(s.source.type) or UNKNOWN)
        options = u.constant([list(text(None, v)) for v in values], "the options of a secret choice")
        values_k = u.constant(values, "the values of a secret choice")
        who, everyone = u.temp("ch"), u.temp("ev")
        out.line(f"{who} = []", s.span)
        out.line(f"{everyone} = {self.xs.iterable(s.players, u, copy=True)}", s.span)
        out.charge(f"len({everyone})", s.span)
        return options, values_k, u.constant(text, "the names of the options"), who, everyone

    def reveal_secret_choices(self, s: n.SecretChoose, parts: tuple, out: Body) -> str:
        """Ask the choosers at once and log what they chose, revealed; the answers' Python variable."""
        options, values_k, names, who, _ = parts
        answer, u = out.unit.temp("an"), out.unit
        out.line(f"{answer} = st.same_answers_in_place('secret', {who}, {options}, {values_k})", s.span)
        out.line(f"st.log.append(({u.constant(records.revealed_choices, 'the record of choices revealed')}, "
                 f"st.turn, {names}, {who}, {answer}))", s.span)
        return answer

    def secret_choice_aliased(self, s: n.SecretChoose, values: list, out: Body) -> None:
        """The filter and the stores read the chooser as ``p``; the name is bound once, after the choice, to
        what the instruction leaves in it: the last chooser, else the last player looked at."""
        u, span, var = out.unit, s.span, repr(s.var)
        parts = self.secret_choice_parts(s, values, out)
        who, everyone, p, v = parts[3], parts[4], u.temp("p"), u.temp("v")
        outer = self.xs.aliases
        self.xs.aliases = {**outer, s.var: p}
        try:
            out.line(f"for {p} in {everyone}:", span)
            with out.indented():
                if s.players_cond is not None:
                    out.line(f"if not ({self.xs.src(s.players_cond, u)}):", span)
                    out.line("    continue", span)
                out.line(f"{who}.append({p})", span)
            out.line(f"if {who}:", span)
            with out.indented():
                answer = self.reveal_secret_choices(s, parts, out)
                out.line(f"for {p}, {v} in zip({who}, {answer}):", span)
                with out.indented():
                    self.source.store(s.target, v, span, out)
                out.line(f"L[{var}] = {p}", span)
            out.line(f"elif {everyone}:", span)
            out.line(f"    L[{var}] = {everyone}[-1]", span)
        finally:
            self.xs.aliases = outer

    def secret_choice_bound(self, s: n.SecretChoose, values: list, out: Body) -> None:
        """Each player looked at, then each chooser, bound to the name in ``L`` as the instruction binds it."""
        u, span, var = out.unit, s.span, repr(s.var)
        parts = self.secret_choice_parts(s, values, out)
        values_k, who, everyone, p, v = parts[1], parts[3], parts[4], u.temp("p"), u.temp("v")
        out.line(f"for {p} in {everyone}:", span)
        with out.indented():
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
            answer = self.reveal_secret_choices(s, parts, out)
            out.line(f"for {p}, {v} in zip({who}, {answer}):", span)
            with out.indented():
                out.line(f"L[{var}] = {p}", span)
                self.source.store(s.target, v, span, out)

    def number_choice(self, s: n.ChooseRange, out: Body) -> None:
        """`P chooses X from A to B`, asked by its numbers alone (``State.number_in_place``): its instruction
        (``choices.s_ChooseRange``) builds an option per number, which only a waiting decision needs. The
        same order as there: A, B and the count, then P."""
        u, span = out.unit, s.span
        lo, count, v = u.temp("lo"), u.temp("count"), u.temp("v")
        out.line(f"{lo} = {self.xs.src(s.low, u)}", span)
        offered = u.constant(numbers_offered, "how many numbers a choice offers")
        out.line(f"{count} = {offered}(st, {lo}, {self.xs.src(s.high, u)})", span)
        out.line(f"{v} = st.number_in_place({self.xs.src(s.player, u)}, {lo}, {count})", span)
        self.source.store(s.target, v, span, out)
        if isinstance(s.target, n.Name):
            self.xs.keep(s.target.id, v)

    def choose_one(self, s: n.ChooseOne, out: Body) -> None:
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
            out.line(f"{k} = st.branch_in_place({self.xs.src(s.player, u)}, {open_}, {ids})", s.span)
        for i, branch in enumerate(s.branches):
            out.line(f"{'if' if i == 0 else 'elif'} {k} == {i}:", s.span)
            self.body(branch.body, out)
