"""`check end`: the game's end conditions are asked here; when one holds, the game is over.

Its closure says whether the game ended (True), so it may end the game in the middle of a step: it is the
last statement of the run it joins (``MAY_END_GAME``), and a step played in place stops there when it says so.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.engine.turns import check_end
from rulelang.lang import nodes as n

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, InPlace, Lines, Source, Wording


@statement
class CheckEnd(n.Stmt):
    MAY_END_GAME = True

    def check(self, ck: Checker, scope: Scope) -> None:
        pass

    def closure(self, sc: Compiler) -> Fn:
        def check(st, L):
            return check_end(st)
        return check

    def python(self, ss: Source, out: Lines) -> None:
        out.line("return _check_end(st)", self.span)

    def in_place(self, dc: InPlace, out: Lines) -> None:
        """In a step played in place: play stops when the game is over."""
        out.line("if _check_end(st):", self.span)
        out.line("    return True", self.span)

    def words(self, w: Wording) -> str:
        return "check whether the game ends (see the end of the game)."
