"""Checking statements: one ``stmt_<Class>`` method a statement class, with the helpers they share.

A mixin of ``check.Checker``: it checks what each statement of a rule text moves, sets, chooses or
calls (targets that can be assigned, holders of counters, cards, lists to loop over, who decides),
and declares the locals a statement introduces in its ``Scope``. It relies on the Checker's
``expr``, ``expect``, ``fits``, ``block`` and ``error`` and on ``ExpressionChecks._is_global``.
A statement kept in one home (``rulelang/statements/``) has its check there, using these helpers.
"""
from __future__ import annotations

from rulelang.check.hooks import is_proc_call
from rulelang.check.types import Scope, describe, item_of
from rulelang.lang import nodes as n
from rulelang.lang.bindings import BOUND_WORDS
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import (
    BOOL,
    CARD,
    CLASS,
    GAME,
    LOCATION,
    NONE,
    PLAYER,
    UNKNOWN,
    ZONE,
    Type,
    list_of,
    tuple_items,
)


class StatementChecks:
    """The statement checks of ``check.Checker``; errors are recorded through ``self.error``."""

    def calls_procedure(self, value: n.Expr) -> bool:
        """Whether a value is `name(args)` naming a procedure: computed by running it (``proc_value``)."""
        return is_proc_call(value, self.sym.procedures)

    #: A type in words, for messages: ``check.types.describe``.
    describe = staticmethod(describe)

    def assignable(self, target: n.Expr, scope: Scope) -> Type:
        if isinstance(target, n.Name):
            if target.id in scope.names and target.id not in BOUND_WORDS:
                target.ref = Ref(RefKind.LOCAL, target.id)
                target.type = scope.names[target.id]
                return target.type
            return self.error(f"cannot assign to '{target.id}'", target.span,
                              "assign to a local name, a player variable or a counter, like p.score")
        if isinstance(target, (n.Attr, n.Index)):
            kind = self.expr(target, scope)
            ref = getattr(target, "ref", None)
            if isinstance(target, n.Index) and tuple_items(target.obj.type) is not None:
                return self.error("an element of a tuple cannot be set", target.span,
                                  "set the whole tuple: t = (a, b)")
            if isinstance(target, n.Index) or (ref and ref.kind in (RefKind.PCOUNTER, RefKind.HCOUNTER, RefKind.GCOUNTER, RefKind.CCOUNTER, RefKind.PVAR)):
                return kind
            return self.error("this cannot be assigned", target.span,
                              "only counters and player variables can be set")
        return self.error("this cannot be assigned", target.span)

    def holder(self, expr: n.Expr, scope: Scope) -> Type:
        """Something that holds counters: a player, a location, a card or the game."""
        return self.holder_type(self.expr(expr, scope), expr)

    def holder_type(self, kind: Type, expr: n.Expr) -> Type:
        """The type of ``expr`` (checked already), which must hold counters."""
        if kind == CARD:
            self.uses_card_counters = True
        elif kind not in (PLAYER, LOCATION, GAME, UNKNOWN):
            self.error(f"only players, locations, cards and the game hold counters, not {describe(kind)}",
                       expr.span)
        return kind

    def cards(self, expr: n.Expr, scope: Scope) -> Type:
        kind = self.expr(expr, scope)
        if kind not in (CARD, ZONE, list_of(CARD), UNKNOWN, NONE):
            hint = "a kind names cards: pick them with (c in ZONE where c is KIND)" if kind == CLASS else None
            self.error(f"expected a card or cards, not {describe(kind)}", expr.span, hint)
        return kind


    def iterable(self, expr: n.Expr, scope: Scope) -> Type:
        kind = self.expr(expr, scope)
        item = item_of(kind)
        if item is None:
            if kind != UNKNOWN:
                self.error(f"expected a list, not {describe(kind)}", expr.span)
            return UNKNOWN
        return item

    def decider(self, expr: n.Expr, scope: Scope) -> None:
        self.expect(expr, scope, PLAYER, "who chooses")

    def choice_target(self, target: n.Expr, kind: Type, scope: Scope) -> None:
        if isinstance(target, n.Name) and (target.id not in scope.names or scope.names[target.id] in (UNKNOWN, kind)):
            if self._is_global(target.id) and target.id not in scope.names:
                self.error(f"'{target.id}' is already a name of the game", target.span,
                           "choose into a new local name")
                return
            scope.names[target.id] = kind
            target.ref = Ref(RefKind.LOCAL, target.id)
            target.type = kind
            return
        wanted = self.assignable(target, scope)
        if wanted != UNKNOWN and kind != UNKNOWN and wanted != kind:
            self.error(f"the choice is {describe(kind)} but this holds {describe(wanted)}", target.span)

    def each_branch(self, branch: n.EachBranch, scope: Scope) -> None:
        """`for x in LIST where C:` among the branches of `chooses one` (``statements/choose_one.py``): x names the
        item chosen in the filter and the body."""
        item = self.iterable(branch.source, scope)
        known = scope.names.get(branch.var, UNKNOWN)
        if self._is_global(branch.var) and branch.var not in scope.names:
            self.error(f"'{branch.var}' is already a name of the game", branch.span, "name the item with a new name")
        elif known not in (UNKNOWN, item) and item != UNKNOWN:
            self.error(f"'{branch.var}' holds {describe(known)} here, not {describe(item)}", branch.span,
                       "name the item with a new name")
        scope.names[branch.var] = item
        if branch.cond is not None:
            self.expect(branch.cond, scope, BOOL, "the filter")
        self.block(branch.body, scope)


    def arguments(self, call: n.Call, params: dict[str, Type], scope: Scope) -> None:
        if len(call.args) != len(params):
            self.error(f"'{call.func}' takes {len(params)} argument(s), got {len(call.args)}", call.span)
            return
        for arg, (pname, ptype) in zip(call.args, params.items()):
            if arg.var is not None:
                self.error("a filter cannot be passed here", arg.span)
                continue
            self.expect(arg.value, scope, ptype, f"argument '{pname}'")
