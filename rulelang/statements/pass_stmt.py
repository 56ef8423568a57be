"""`pass`: nothing happens (a block that must say something, and what a mutant leaves of an emptied block)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.lang import nodes as n

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Fn, Lines, Source, Wording


@statement
class PassStmt(n.Stmt):

    def check(self, ck: Checker, scope: Scope) -> None:
        pass

    def closure(self, sc: Compiler) -> Fn:
        return lambda st, L: None

    def python(self, ss: Source, out: Lines) -> None:
        out.line("pass", self.span)

    def words(self, w: Wording) -> str:
        return "nothing happens."
