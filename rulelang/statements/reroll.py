"""`reroll R` (every die of the roll) or `reroll F in R` (one die showing F; none: nothing happens)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.limits import spend
from rulelang.engine.rolls import change_roll
from rulelang.lang import nodes as n
from rulelang.lang.types import INT

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Wording


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
        face = sc.ec.expr(self.face) if self.face is not None else None

        def reroll(st, L):
            rolled = list(L[var])
            if face is None:
                spend(st, len(rolled))
                rolled = [st.roll_die(faces) for _ in rolled]
                change_roll(st, L, var, die, "rerolled", rolled, len(rolled))
                return
            f = face(st, L)
            if f not in rolled:
                return
            spend(st, 1)
            rolled[rolled.index(f)] = st.roll_die(faces)
            change_roll(st, L, var, die, "rerolled", rolled, 1)
        return reroll

    def words(self, w: Wording) -> str:
        if self.face is None:
            return f"reroll every die of {w.phrase(self.roll)}."
        return f"reroll one die showing {w.phrase(self.face)} in {w.phrase(self.roll)}."
