"""`return` / `return VALUE`: a procedure ends here, handing its caller the value its `returns:` declares."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.lang import nodes as n

from . import statement

if TYPE_CHECKING:
    from rulelang.check.checker import Checker
    from rulelang.check.types import Scope

    from .roles import Compiler, Instructions, Wording


@statement
class Return(n.Stmt):
    value: n.Expr | None

    def check(self, ck: Checker, scope: Scope) -> None:
        wanted = ck.returned_type(scope)
        if self.value is None:
            if wanted:
                ck.error(f"this procedure returns {ck.value_words(wanted)}: give 'return' a value", self.span)
            return
        if not wanted:
            ck.error("only a procedure that declares 'returns:' returns a value", self.value.span,
                     "add 'returns: int' (or another type) to the procedure, or write 'return' alone")
            ck.expr(self.value, scope)
            return
        ck.values_first(self.value, scope, wanted, "the value returned")

    def instruction(self, sc: Compiler, b: Instructions) -> None:
        """A jump to the end of the procedure, leaving the value where its caller waits for it (``$caller``)."""
        sc.emit_value_calls([self.value], b)
        value = sc.ec.expr(self.value) if self.value is not None else None
        exit_label = b.exit

        def op(st, fr):
            L = fr.locals
            if value is not None:
                v = value(st, L)
                d = L.get("$caller")
                if d is not None:
                    st.stack[d].locals["$ret"] = v
            fr.pc = exit_label.pc
        b.emit(op, self.span)

    def words(self, w: Wording) -> str:
        return "Stop here." if self.value is None else f"The result is {w.phrase(self.value)}."
