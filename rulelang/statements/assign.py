"""`TARGET = VALUE`: a local (declared by its first assignment), a player variable or a counter is set.

A value that calls a procedure (`x = best(p)`, or `x = 1 + best(p)`) runs that procedure's frame first: the
statement is then instructions of its own; otherwise it is a closure that joins its run.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.state import set_player_var
from rulelang.lang import nodes as n
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import NONE, UNKNOWN

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Instructions, Lines, Source, Wording


@statement
class Assign(n.Stmt):
    BINDS = ('target',)
    target: n.Expr
    value: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        target, value = self.target, self.value
        if isinstance(value, n.Call) and ck.calls_procedure(value):
            kind = ck.proc_value(value, scope)
            new = self.new_local(ck, scope)
            if new is not None:
                scope.names[new.id] = kind
                new.ref, new.type = Ref(RefKind.LOCAL, new.id), kind
            elif kind != UNKNOWN and not ck.fits(kind, ck.assignable(target, scope)):
                ck.error(f"the value must be {ck.describe(target.type or UNKNOWN)}, not {ck.describe(kind)}",
                         value.span)
            return
        new = self.new_local(ck, scope)
        if new is not None:
            kind = ck.values_first(value, scope)
            if kind in (NONE, UNKNOWN):
                kind = UNKNOWN
            scope.names[new.id] = kind
            new.ref = Ref(RefKind.LOCAL, new.id)
            new.type = kind
            return
        kind = ck.assignable(target, scope)
        if kind != UNKNOWN:
            ck.values_first(value, scope, kind, "the value")

    def new_local(self, ck: Checker, scope: Scope) -> n.Name | None:
        """The target, when this is a new local's first assignment: a name neither in scope nor the game's."""
        target = self.target
        if isinstance(target, n.Name) and target.id not in scope.names and not ck._is_global(target.id):
            return target
        return None

    def straight(self, sc: Compiler) -> bool:
        """A closure, unless the value calls a procedure (whose frame must run first)."""
        return not sc.has_value_calls(self)

    def closure(self, sc: Compiler) -> Fn:
        of_local = self.player_var_of_local(sc)
        if of_local is not None:    # `p.var = value` with `p` a local name, the commonest, without a setter
            local, var = of_local
            vi, value = sc.game.var_names.index(var), sc.ec.expr(self.value)
            return lambda st, L: set_player_var(st, L[local], vi, value(st, L))
        store, value = sc.setter(self.target), sc.ec.expr(self.value)
        return lambda st, L: store(st, L, value(st, L))

    def player_var_of_local(self, sc: Compiler | Source) -> tuple[str, str] | None:
        """(the local naming the player, the variable) when the target is `p.var` with `p` a local name."""
        target = self.target
        if self.sets_player_var() and isinstance(target, n.Attr):
            local = sc.local_name(target.obj)
            if local is not None:
                return local, target.name
        return None

    def sets_player_var(self) -> bool:
        """Whether the target is a player variable (`p.score`), not a local or a counter."""
        target = self.target
        return isinstance(target, n.Attr) and target.ref is not None and target.ref.kind == RefKind.PVAR

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        """`x = procedure(args)` (its frame runs, then its value is stored) or a value using procedures."""
        call = self.value
        if not (isinstance(call, n.Call) and call.ref and call.ref.kind == RefKind.PROCEDURE):
            sc.emit_value_calls([self.value], b)
            sc.emit_straight([self], b)
            return
        sc.emit_value_calls([a.value for a in call.args], b)
        start, finish = sc.call_for_value(call, sc.setter(self.target))
        b.emit(start, self.span)
        b.emit(finish, self.span)

    def python(self, ss: Source, out: Lines) -> None:
        target, span = self.target, self.span
        of_local = self.player_var_of_local(ss)
        if of_local is not None:
            local, var = of_local
            ss.set_player_var(ss.xs.local(local), var, ss.e(self.value, out), span, out, ss.spoken(target))
            return
        value = ss.e(self.value, out)
        if ss.is_number(value) and not isinstance(target, n.Name) and not self.sets_player_var():
            ss.store(target, value, span, out)      # a counter set to a number written out: no local for it
            return
        v = out.unit.temp("v")
        out.line(f"{v} = {value}", span)
        ss.store(target, v, span, out)
        if isinstance(target, n.Name):
            ss.xs.keep(target.id, v)

    def words(self, w: Wording) -> str:
        if isinstance(self.target, n.Name):
            return f"let {self.target.id} be {w.phrase(self.value)}."
        return f"set {w.phrase(self.target)} to {w.phrase(self.value)}."
