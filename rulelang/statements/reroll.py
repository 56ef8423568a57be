"""`reroll R` (every die of the roll) or `reroll F in R` (one die showing F; none: nothing happens)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.rolls import reroll_all, reroll_face
from rulelang.lang import nodes as n
from rulelang.lang.types import INT

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Lines, Source, Wording


@statement
class Reroll(n.Stmt):
    BINDS = ('roll',)
    face: n.Expr | None
    roll: n.Expr

    def check(self, ck: Checker, scope: Scope) -> None:
        if self.face is not None:
            ck.expect(self.face, scope, INT, "the face to re-roll")
        ck.roll_place(self.roll, scope)

    def closure(self, sc: Compiler) -> Fn:
        var, die, faces = sc.changed_roll(self.roll)
        if self.face is None:
            return lambda st, L: reroll_all(st, L, var, die, faces)
        face = sc.ec.expr(self.face)
        return lambda st, L: reroll_face(st, L, var, die, faces, face(st, L))

    def python(self, ss: Source, out: Lines) -> None:
        var, die, faces = ss.changed_roll(self.roll)
        if self.face is None:
            out.line(f"_reroll_all(st, L, {var!r}, {die!r}, {faces})", self.span)
        else:
            out.line(f"_reroll_face(st, L, {var!r}, {die!r}, {faces}, {ss.e(self.face, out)})", self.span)

    def words(self, w: Wording) -> str:
        if self.face is None:
            return f"reroll every die of {w.phrase(self.roll)}."
        return f"reroll one die showing {w.phrase(self.face)} in {w.phrase(self.roll)}."
