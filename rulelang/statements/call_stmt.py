"""`P(args)` alone on a line: procedure P runs in a frame of its own, on its parameters' values."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulelang.engine.interpreter import IN_PLACE_DEPTH, Frame
from rulelang.errors import did_you_mean_or_list
from rulelang.lang import nodes as n
from rulelang.lang.refs import Ref, RefKind

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, InPlace, Instructions, Lines, Source, Wording


@statement
class CallStmt(n.Stmt):
    call: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        call = self.call
        if not isinstance(call, n.Call):
            ck.error("this line does nothing", self.span,
                     "a statement is an assignment, a move, a choice or a procedure call")
            return
        if call.func not in ck.sym.procedures:
            ck.error(f"unknown procedure '{call.func}'", call.span,
                     did_you_mean_or_list(call.func, ck.sym.procedures, "procedures", "procedures"))
            return
        ck.arguments(call, ck.sym.procedures[call.func], scope)
        call.ref = Ref(RefKind.PROCEDURE, call.func)

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        call = self.procedure_call
        proc = sc.ec.proc_ids[call.func]
        names = list(sc.ec.sym.procedures[call.func])
        if sc.program is not None:
            source = sc.program.statements_source
            b.emit(sc.program.instruction(lambda out: self.frame_lines(source, proc, names, out), self.span),
                   self.span)
            return
        args = [sc.ec.expr(a.value) for a in call.args]
        b.emit(_call(proc, list(zip(names, args))), self.span)

    @property
    def procedure_call(self) -> n.Call:
        """The call, once checked (the checker allows no other expression here)."""
        assert isinstance(self.call, n.Call)
        return self.call

    def frame_lines(self, ss: Source, proc: int, names: list[str], out: Lines) -> None:
        """The instruction as generated Python: a frame for procedure ``proc``, on the locals ``locals_lines`` builds."""
        self.locals_lines(ss, names, out)
        out.line(f"st.stack.append({out.unit.constant(Frame, 'the frame of a procedure called')}({proc}, 0, _local))")

    def locals_lines(self, ss: Source, names: list[str], out: Lines, span: Any = None) -> None:
        """``_local``, the locals a call of a procedure starts with: its parameters' values, in order, and
        the caller's `me` unless a parameter is named so (as ``_call``)."""
        args = self.procedure_call.args
        bound = [name for name, _ in zip(names, args)]
        items = ", ".join(f"{name!r}: {ss.e(a.value, out)}" for name, a in zip(bound, args))
        me = None if "me" in bound else ss.xs.aliases.get("me")
        if me is not None:           # kept in a Python variable: it is in L
            items = f"{items}, 'me': {me}" if items else f"'me': {me}"
        out.line(f"_local = {{{items}}}", span)
        if "me" not in bound and me is None:
            out.line("if 'me' in L:", span)
            out.line("    _local['me'] = L['me']", span)

    def in_place(self, dc: InPlace, out: Lines) -> None:
        """A procedure with a direct function of its own is a Python call; any other runs in frames."""
        name = self.procedure_call.func
        proc = dc.sc.ec.proc_ids[name]
        if proc not in dc.direct_procs:
            dc.in_frames(self, out)
            return
        self.locals_lines(dc.source, list(dc.sc.ec.sym.procedures[name]), out, self.span)
        u = out.unit
        table = u.constant(dc.table, "the direct function of each procedure")
        # call_in_place written out for a stack below both its limits (the usual case); the call otherwise
        out.line(f"if len(st.stack) < {min(IN_PLACE_DEPTH, dc.game.call_depth)}:", self.span)
        with out.indented():
            out.charge("1", self.span)          # a call is a unit of work (as in call_in_place)
            out.line(f"st.stack.append({u.constant(dc.markers, 'the marker of each procedure')}[{proc}])",
                     self.span)
            out.line(f"if {table}[{proc}](st, _local):", self.span)
            out.line("    return True", self.span)
            out.line("st.stack.pop()", self.span)
        out.line(f"elif _enter(st, {table}, {proc}, _local):", self.span)
        out.line("    return True", self.span)

    def words(self, w: Wording) -> str:
        call = self.call
        if isinstance(call, n.Call) and call.ref is not None and call.ref.kind is RefKind.PROCEDURE:
            args = [w.said(a) for a in call.args]
            return f"Do \u201c{w.humane(call.func)}\u201d" + (f" for {w.listed(args)}" if args else "") + "."
        return f"Work out {w.phrase(call)}."


def _call(proc: int, pairs: list[tuple[str, Fn]]) -> Callable:
    """The instruction calling a procedure: its parameters' values (``pairs``), and the caller's `me`
    unless a parameter is named so (generated code writes the same: ``CallStmt.locals_lines``)."""
    def call(st, fr):
        L = fr.locals
        local = {}
        for p, f in pairs:
            local[p] = f(st, L)
        if "me" not in local and "me" in L:
            local["me"] = L["me"]
        st.stack.append(Frame(proc, 0, local))
    return call
