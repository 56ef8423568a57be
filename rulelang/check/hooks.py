"""Checking the statements of hooks and control flow: `while`, `return`, values of procedures; the roll a
statement that changes a roll names (``roll_place``).

A mixin of ``check.Checker`` (kept apart so that module stays small).
"""
from __future__ import annotations

from rulelang.check.types import describe, die_of
from rulelang.lang import nodes as n
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import BOOL, CARD, INT, PLAYER, UNKNOWN, Type

#: The local that holds the type a procedure returns (a `$` name no rule text can write).
RETURNS = "$returns"


class HookChecks:
    """Statement checks added for hooks; relies on Checker's ``expr``, ``expect``, ``block`` and ``error``."""

    def values_first(self, e: n.Expr, scope, wanted: Type | None = None, what: str = "") -> Type:
        """Check an expression in which a procedure's value may be used: it is run before the statement."""
        outer, self.value_calls = self.value_calls, True
        try:
            return self.expr(e, scope) if wanted is None else self.expect(e, scope, wanted, what)
        finally:
            self.value_calls = outer

    def returned_type(self, scope) -> Type | None:
        """The type the procedure being checked declares it returns (``returns:``), None if it returns nothing."""
        return scope.names.get(RETURNS)

    def value_words(self, kind: Type) -> str:
        """A returned type as said in an error: "a number", "a player"."""
        return _words(kind)

    def proc_value(self, call: n.Call, scope) -> Type:
        """The type of `name(args)` for a procedure that returns a value (assigned with `x = name(args)`)."""
        wanted = self.sym.proc_returns.get(call.func)
        if not wanted:
            return self.error(f"procedure '{call.func}' returns no value", call.span,
                              "declare 'returns: TYPE' on it and end it with 'return VALUE'")
        outer, self.value_calls = self.value_calls, True
        try:
            self.arguments(call, self.sym.procedures[call.func], scope)
        finally:
            self.value_calls = outer
        call.ref = Ref(RefKind.PROCEDURE, call.func)
        call.type = wanted
        return wanted

    def roll_place(self, roll: n.Expr, scope) -> None:
        """A statement that changes a roll names the roll: a local `r` of `roll ... as r`, or `rolled` in a hook."""
        kind = self.expr(roll, scope)
        if kind == UNKNOWN:
            return
        if not (isinstance(roll, n.Name) and die_of(kind) is not None and roll.id in scope.names):
            self.error("this is not a roll", roll.span,
                       "name a roll: 'r' after 'roll 2 DIE as r', or 'rolled' in an 'after roll' trigger")


def is_proc_call(value: n.Expr, procedures) -> bool:
    """`name(args)` naming a procedure: a value computed by running it."""
    return isinstance(value, n.Call) and value.func in procedures


def _words(kind: Type) -> str:
    return {INT: "a number", BOOL: "a condition", PLAYER: "a player", CARD: "a card"}.get(kind, describe(kind))
