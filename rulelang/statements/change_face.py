"""`change F to V in R`: one die of the roll R showing F now shows V (none showing F: nothing happens)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.rolls import change_face
from rulelang.lang import nodes as n
from rulelang.lang.types import INT

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Lines, Source, Wording


@statement
class ChangeFace(n.Stmt):
    BINDS = ('roll',)
    face: n.Expr
    value: n.Expr
    roll: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        ck.expect(self.face, scope, INT, "the face")
        ck.expect(self.value, scope, INT, "the new face")
        ck.roll_place(self.roll, scope)

    def closure(self, sc: Compiler) -> Fn:
        var, die, faces = sc.changed_roll(self.roll)
        face, value = sc.ec.expr(self.face), sc.ec.expr(self.value)

        return lambda st, L: change_face(st, L, var, die, faces, face(st, L), value(st, L))

    def python(self, ss: Source, out: Lines) -> None:
        var, die, faces = ss.changed_roll(self.roll)
        face, value = ss.e(self.face, out), ss.e(self.value, out)
        out.line(f"_change_face(st, L, {var!r}, {die!r}, {faces}, {face}, {value})", self.span)

    def words(self, w: Wording) -> str:
        return f"turn one die showing {w.phrase(self.face)} in {w.phrase(self.roll)} to {w.phrase(self.value)}."
