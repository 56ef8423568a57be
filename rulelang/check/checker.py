"""The checking pass: every name resolved, every type checked, before compiling.

The checker walks the syntax trees of a game's rule texts with a ``Symbols`` table built from the
YAML declarations. It annotates each node with its type (``node.type``) and what its names refer to
(``node.ref``) so the compiler never has to guess, and it collects every error it finds with its span.

One class, in three parts: its core (dispatch, reporting, the fit of one type to another); the check of
each expression class (``expr_<Class>``, each returning the type: names, attributes, operators, tests,
calls of functions and aggregates); and the checks statements share. Every statement keeps its own check
in its home (``rulelang/statements/``) and calls those (``assignable``, ``holder``, ``cards``, ``iterable``,
``decider``, ``choice_target``, ``arguments``, ``values_first``...). The types and symbol tables it speaks in
are ``check/types.py``'s (re-exported here, where callers import them).
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, NamedTuple

from rulelang.check.types import AGGREGATES, BUILTINS, MAX_LOOPS, NULLABLE, Scope, Symbols, describe, die_of, item_of
from rulelang.errors import RulelangError, Span, SpecError, did_you_mean, did_you_mean_or_list, listed
from rulelang.lang import nodes as n
from rulelang.lang.bindings import BOUND_WORDS, GLOBAL_WORDS
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import (
    ANY,
    BOOL,
    CARD,
    CLASS,
    COUNTER,
    GAME,
    INT,
    LOCATION,
    MAX_TUPLE,
    NONE,
    PLAYER,
    TEXT,
    TUPLE_ITEMS,
    UNKNOWN,
    VAR_TYPES,
    ZONE,
    Type,
    list_of,
    table_of,
    tuple_items,
    tuple_of,
)
from rulelang.lang.visitors import Visitor

__all__ = ["AGGREGATES", "BOOL", "BUILTINS", "CARD", "CLASS", "COUNTER", "GAME", "INT", "LOCATION", "NONE",
           "NULLABLE", "PLAYER", "TEXT", "UNKNOWN", "VAR_TYPES", "ZONE", "Checker", "Scope", "Symbols", "Type",
           "describe", "item_of", "list_of"]

class _Attributes(NamedTuple):
    """The attributes of one type of value, for `X.name`, and what to say of a name that is none of them."""

    #: In order: (the names, the ref (its kind, put before the name, or the whole ref), the type or a name -> type table)
    fields: list[tuple[Collection[str], RefKind | Ref, Type | Mapping[str, Type]]]
    missing: str                 # the error's words before the name
    pool: Collection[str]        # the names a misspelling is matched against
    hint: str | None = None      # the hint when none is near

#: The local that holds the type a procedure returns (a `$` name no rule text can write).
RETURNS = "$returns"


class Checker(Visitor):
    """Resolves names and checks types; errors are collected, not raised.

    A visitor whose method for a statement class is ``stmt_<Class>`` and for an expression
    class ``expr_<Class>`` (statements and expressions are checked with different results);
    a statement kept in one home (``rulelang/statements/``) carries its own ``check``.
    """

    OWN = "check"

    def __init__(self, symbols: Symbols):
        self.sym = symbols
        self.errors: list[RulelangError] = []
        #: Set when a rule puts counters on cards: moving cards then tends to them.
        self.uses_card_counters = False
        #: True while checking an expression whose procedure calls are run before its statement (``values_first``).
        self.value_calls = False

    # --- reporting ---------------------------------------------------------

    def error(self, message: str, span: Span, hint: str | None = None) -> Type:
        """Record an error; the unknown type it returns stops follow-on errors."""
        self.errors.append(SpecError(message, span, hint))
        return UNKNOWN

    def expect(self, expr: n.Expr, scope: Scope, wanted: Type, what: str) -> Type:
        return self.expect_kind(expr, self.expr(expr, scope), wanted, what)

    def expect_kind(self, expr: n.Expr, kind: Type, wanted: Type, what: str) -> Type:
        """``expect`` for an expression already checked (its type is ``kind``)."""
        if kind == NONE and wanted in NULLABLE:
            return kind
        if not self.fits(kind, wanted):
            if kind != UNKNOWN:
                self.error(f"{what} must be {describe(wanted)}, not {describe(kind)}", expr.span,
                           _type_hint(kind, wanted))
            return UNKNOWN
        return kind

    @staticmethod
    def fits(kind: Type, wanted: Type) -> bool:
        if kind == UNKNOWN or wanted == UNKNOWN or kind == wanted:     # a wrong type is reported where it is
            return True
        if wanted.is_list and kind == ZONE:
            return wanted == list_of(CARD)
        if wanted == list_of(ANY):
            return item_of(kind) is not None
        return False

    # --- statements --------------------------------------------------------

    def block(self, stmts: list[n.Stmt], scope: Scope) -> None:
        for stmt in stmts:
            self.stmt(stmt, scope)

    @classmethod
    def method_name(cls, node_class: type) -> str:
        return ("stmt_" if issubclass(node_class, n.Stmt) else "expr_") + node_class.__name__

    def generic_visit(self, node: n.Node, *args: Any) -> Any:
        raise TypeError(f"the checker has no check for {type(node).__name__}")

    def stmt(self, s: n.Stmt, scope: Scope) -> None:
        self.visit(s, scope)

    # --- expressions ---------------------------------------------------------

    def expr(self, e: n.Expr, scope: Scope) -> Type:
        kind = self.visit(e, scope)
        e.type = kind
        return kind

    # --- the check of each expression class ---------------------------------------------

    def expr_Num(self, e, scope):
        if e.value > self.sym.number_limit:
            self.error(f"this number is past the game's number_limit of {self.sym.number_limit:,}", e.span,
                       "numbers in this game lie between -number_limit and number_limit")
        return INT

    def expr_Text(self, e, scope):
        return TEXT

    def expr_Bool(self, e, scope):
        return BOOL

    def expr_NoneLit(self, e, scope):
        return NONE

    def _is_global(self, name: str) -> bool:
        s = self.sym
        return (name in s.locations or name in s.counters or name in s.zones or name in s.roles
                or name in s.teams or name in s.tables or name in s.params
                or name in GLOBAL_WORDS)

    def expr_Name(self, e: n.Name, scope: Scope) -> Type:
        s, name = self.sym, e.id
        if name in scope.names:
            e.ref = Ref(RefKind.LOCAL, name)
            return scope.names[name]
        if name == "players":
            e.ref = Ref(RefKind.PLAYERS)
            return list_of(PLAYER)
        if name == "others":
            if "me" not in scope.names:
                return self.error("'others' needs a current player ('me') here", e.span)
            e.ref = Ref(RefKind.OTHERS)
            return list_of(PLAYER)
        if name == "game":
            e.ref = Ref(RefKind.GAME)
            return GAME
        if name == "turn":
            e.ref = Ref(RefKind.TURN)
            return INT
        if name in s.params:
            e.ref = Ref(RefKind.PARAM, name)
            return BOOL if isinstance(s.params[name], bool) else INT
        if name in s.roles:
            e.ref = Ref(RefKind.ROLE, name)
            return PLAYER if s.roles[name].count == 1 else list_of(PLAYER)
        if name in s.teams:
            e.ref = Ref(RefKind.TEAM, name)
            return list_of(PLAYER)
        if name in s.locations:
            e.ref = Ref(RefKind.LOCATION, name)
            return LOCATION
        if name in s.counters:
            e.ref = Ref(RefKind.COUNTER, name)
            return COUNTER
        if name in s.zones:
            if s.zone_owner(name) == "table":
                e.ref = Ref(RefKind.ZONE, name)
                return ZONE
            e.ref = Ref(RefKind.ALL_ZONES, name)
            return list_of(CARD)
        if name in s.tables:
            e.ref = Ref(RefKind.TABLE, name)
            return table_of(name)
        if name in s.classes():       # a card kind as a value (rulelang/compiler/kinds.py)
            e.ref = Ref(RefKind.CLASS, name)
            return CLASS
        if name in BOUND_WORDS:
            return self.error(f"'{name}' is not known here", e.span, _where_hint(name))
        pool = set(scope.names) | s.global_names()
        return self.error(f"unknown name '{name}'", e.span, did_you_mean(name, pool) or self._names_here(scope))

    def _names_here(self, scope: Scope) -> str | None:
        """The names a rule text may use at this point, by kind: the hint when none is near the one written."""
        s = self.sym
        groups = (("locals", [k for k in scope.names if k.isidentifier()]), ("zones", s.zones),
                  ("locations", s.locations), ("counters", s.counters), ("roles", s.roles), ("teams", s.teams),
                  ("tables", s.tables), ("params", s.params))
        parts = [f"{what} {listed(names, 5)}" for what, names in groups if names]
        return "names here: " + "; ".join(parts) if parts else None

    def expr_ListLit(self, e: n.ListLit, scope: Scope) -> Type:
        kinds = [self.expr(item, scope) for item in e.items]
        known = [k for k in kinds if k not in (UNKNOWN, NONE)]
        if not known:
            return list_of(UNKNOWN)
        first = known[0]
        for item, kind in zip(e.items, kinds):
            if kind not in (UNKNOWN, NONE, first):
                self.error(f"a list holds one kind of thing: {describe(kind)} among {describe(first)}s",
                           item.span)
        return list_of(first)

    def expr_TupleLit(self, e: n.TupleLit, scope: Scope) -> Type:
        """`(a, b)`: each element one plain value (a number, a player, a card kind ...), never none."""
        kinds = [self.expr(item, scope) for item in e.items]
        if len(kinds) > MAX_TUPLE:
            return self.error(f"a tuple has at most {MAX_TUPLE} elements, not {len(kinds)}", e.span)
        for item, kind in zip(e.items, kinds):
            if kind == NONE:
                self.error("an element of a tuple is never none", item.span,
                           "a tuple holds values; keep 'none' in a variable of its own")
            elif kind not in TUPLE_ITEMS and kind != UNKNOWN:
                self.error(f"an element of a tuple is one value (a number, a condition, a player, a location, "
                           f"a counter, a card or a card kind), not {describe(kind)}", item.span,
                           "tuples do not nest: write the values side by side, as (a, b, c)")
        if any(kind not in TUPLE_ITEMS for kind in kinds):
            return UNKNOWN
        return tuple_of(kinds)

    def expr_ListComp(self, e: n.ListComp, scope: Scope) -> Type:
        """`[VALUE for x in A for y in B where COND]`: the loops' names are known to the later loops and VALUE."""
        if len(e.loops) > MAX_LOOPS:
            return self.error(f"a list built with 'for' has at most {MAX_LOOPS} loops, not {len(e.loops)}", e.span,
                              "build it in steps: a list of the first loops, then one that ranges over it")
        inner = scope.child()
        outer, self.value_calls = self.value_calls, False     # computed per item: no procedure there
        try:
            for var, source in e.loops:
                inner.names[var] = self.iterable(source, inner)
            if e.cond is not None:
                self.expect(e.cond, inner, BOOL, "the filter")
            value = self.expr(e.value, inner)
        finally:
            self.value_calls = outer
        if value == UNKNOWN:
            return list_of(UNKNOWN)
        if value not in TUPLE_ITEMS and not value.is_tuple:
            return self.error(f"a list built with 'for' holds single values or tuples, not {describe(value)}",
                              e.value.span, "put several values in a tuple, as [(a, b) for a in A for b in B]")
        return list_of(value)

    def expr_Attr(self, e: n.Attr, scope: Scope) -> Type:
        owner = self.expr(e.obj, scope)
        if owner == UNKNOWN:
            return UNKNOWN
        known = self._attributes(owner)
        if known is None:
            return self.error(f"{describe(owner)} has no '{e.name}'", e.span)
        for names, ref, kind in known.fields:
            if e.name in names:
                e.ref = ref if isinstance(ref, Ref) else Ref(ref, e.name)
                if ref is RefKind.CCOUNTER:
                    self.uses_card_counters = True
                return kind if isinstance(kind, Type) else kind[e.name]
        return self.error(f"{known.missing} '{e.name}'", e.span, did_you_mean(e.name, known.pool) or known.hint)

    def _attributes(self, owner: Type) -> _Attributes | None:
        """What `X.name` may name when X is of type ``owner``; None when that type has no attributes."""
        s = self.sym
        if owner == PLAYER:
            zones = {z for z in s.zones if s.zone_owner(z) == "player"}
            return _Attributes([(s.counters, RefKind.PCOUNTER, INT), (s.vars, RefKind.PVAR, s.vars), (zones, RefKind.PZONE, ZONE),
                                ({"seat"}, Ref(RefKind.SEAT), INT)],
                               "a player has no", set(s.counters) | set(s.vars) | zones)
        if owner == LOCATION:
            return _Attributes([(s.counters, RefKind.HCOUNTER, INT), (s.location_props, RefKind.LPROP, s.location_props)],
                               "a location has no", set(s.counters) | set(s.location_props))
        if owner == GAME:
            return _Attributes([(s.counters, RefKind.GCOUNTER, INT)], "the game has no counter", s.counters)
        if owner == COUNTER:
            return _Attributes([(s.counter_props, RefKind.CPROP, s.counter_props)], "a counter has no", s.counter_props)
        if owner == CARD:
            return _Attributes([(s.card_props, RefKind.CARDPROP, INT), (s.counters, RefKind.CCOUNTER, INT),
                                ({"owner"}, Ref(RefKind.CARDOWNER), PLAYER)],
                               "a card has no", set(s.card_props) | {"owner"}, "declare it under 'card_props:'")
        die = die_of(owner)
        if die is not None:
            outcomes = s.dice[die]
            return _Attributes([(outcomes, RefKind.OUTCOME, INT), ({"total"}, Ref(RefKind.TOTAL), INT), ({"size"}, Ref(RefKind.SIZE), INT)],
                               "a roll of this die has no", set(outcomes) | {"total", "size"})
        if owner.is_table and owner.name is not None:         # a table's type names its table
            columns = s.tables[owner.name]
            return _Attributes([(columns, RefKind.COLUMN, INT)], f"table '{owner.name}' has no column", columns)
        return None

    def expr_Index(self, e: n.Index, scope: Scope) -> Type:
        owner = self.expr(e.obj, scope)
        elements = tuple_items(owner)
        if elements is not None:
            return self._element(e, elements)
        self.holder_type(owner, e.obj)
        self.expect(e.key, scope, COUNTER, "the counter")
        return INT

    def _element(self, e: n.Index, elements: list[Type]) -> Type:
        """`t[0]`: an element of a tuple, by a position written as a number (so its type is known)."""
        last = len(elements) - 1
        if not isinstance(e.key, n.Num):
            return self.error("an element of a tuple is read by its position, written as a number", e.key.span,
                              f"write {_text_of(e.obj)}[0] to {_text_of(e.obj)}[{last}]")
        if e.key.value > last:
            return self.error(f"this tuple has {len(elements)} elements: positions 0 to {last}, not {e.key.value}",
                              e.key.span, "positions count from 0")
        e.key.type = INT
        return elements[e.key.value]

    def expr_BinOp(self, e: n.BinOp, scope: Scope) -> Type:
        left = self.expr(e.left, scope)
        if e.op == "+" and _is_list_like(left):
            return self._joined(e, scope)
        self.expect_kind(e.left, left, INT, f"the left side of '{e.op}'")
        self.expect(e.right, scope, INT, f"the right side of '{e.op}'")
        return INT

    def _joined(self, e: n.BinOp, scope: Scope) -> Type:
        """`xs + ys`: two lists of one kind joined (a zone counts as its list of cards), in that order."""
        left = e.left.type
        joined = list_of(CARD) if left == ZONE else left
        right = self.expr(e.right, scope)
        if right != UNKNOWN and not self.fits(right, joined):
            self.error(f"'+' joins two lists of one kind, not {describe(left)} and {describe(right)}", e.right.span,
                       "a single item is joined as a list of one: xs + [x]" if right == item_of(joined) else None)
        return joined

    def _operands(self, e: n.BinOp | n.BoolOp, scope: Scope, kind: Type, left: str, right: str) -> Type:
        """Both sides of an operator must be ``kind``, and so is what it makes (``left``, ``right``: their names)."""
        self.expect(e.left, scope, kind, left)
        self.expect(e.right, scope, kind, right)
        return kind

    def expr_Neg(self, e: n.Neg, scope: Scope) -> Type:
        return self._operand(e, scope, INT, "a negated value")

    def _operand(self, e: n.Neg | n.Not, scope: Scope, kind: Type, what: str) -> Type:
        """The operand of a prefix operator must be ``kind``, and so is what it makes."""
        self.expect(e.operand, scope, kind, what)
        return kind

    def expr_Compare(self, e: n.Compare, scope: Scope) -> Type:
        left = self.expr(e.left, scope)
        right = self.expr(e.right, scope)
        if e.op in ("=", "!="):
            if UNKNOWN not in (left, right) and left != right and NONE not in (left, right):
                self.error(f"cannot compare {describe(left)} with {describe(right)}", e.span)
            elif NONE in (left, right) and (left not in NULLABLE | {UNKNOWN} or right not in NULLABLE | {UNKNOWN}):
                self.error(f"{describe(left if left != NONE else right)} is never none", e.span)
        elif left.is_tuple or right.is_tuple:
            self._tuple_order(e, left, right)
        else:
            for side, kind in ((e.left, left), (e.right, right)):
                if kind not in (INT, UNKNOWN):
                    self.error(f"'{e.op}' compares numbers, not {describe(kind)}", side.span)
        return BOOL

    def _tuple_order(self, e: n.Compare, left: Type, right: Type) -> None:
        """Tuples of numbers are ordered element by element, the first that differs deciding (3-1 < 3-2 < 4-1)."""
        if UNKNOWN in (left, right):
            return
        if left != right:
            self.error(f"'{e.op}' compares two tuples of one kind, not {describe(left)} and {describe(right)}",
                       e.span)
        elif any(kind != INT for kind in left.items):
            self.error(f"'{e.op}' orders tuples of numbers, not {describe(left)}", e.span,
                       "compare their elements one by one, as in t[0] > u[0]; '=' and '!=' compare any tuples")

    def expr_BoolOp(self, e: n.BoolOp, scope: Scope) -> Type:
        return self._operands(e, scope, BOOL, f"each side of '{e.op}'", f"each side of '{e.op}'")

    def expr_CondExpr(self, e: n.CondExpr, scope: Scope) -> Type:
        """`A if COND else B`: both values of one kind (or none where a player, card, ... may be none)."""
        self.expect(e.cond, scope, BOOL, "the condition of 'if ... else'")
        outer, self.value_calls = self.value_calls, False   # a procedure's value is computed before the
        try:                                                # statement: never in a branch that may not run
            then, orelse = self.expr(e.then, scope), self.expr(e.orelse, scope)
        finally:
            self.value_calls = outer
        if then == orelse or orelse == UNKNOWN or (orelse == NONE and then in NULLABLE):
            return then
        if then == UNKNOWN or (then == NONE and orelse in NULLABLE):
            return orelse
        return self.error(f"the two values of 'if ... else' must be of one kind, not {describe(then)} "
                          f"and {describe(orelse)}", e.span)

    def expr_Not(self, e: n.Not, scope: Scope) -> Type:
        return self._operand(e, scope, BOOL, "what 'not' negates")

    def expr_Member(self, e: n.Member, scope: Scope) -> Type:
        item = self.expr(e.item, scope)
        inner = self.iterable(e.container, scope)
        if UNKNOWN not in (item, inner) and item != inner:
            self.error(f"{describe(item)} is never in a list of {inner}s", e.span)
        return BOOL

    def _class_ref(self, name: str, span: Span | None, fallback: Span) -> Any:
        ref = self.sym.class_ref(name)
        if ref is None:
            self.error(f"unknown card kind '{name}'", span or fallback,
                       did_you_mean_or_list(name, [*self.sym.cards, *sorted(self.sym.tags | self.sym.slots)],
                                            "card kinds")
                       or "name a card id, a tag or a slot")
        return ref

    def expr_IsTest(self, e: n.IsTest, scope: Scope) -> Type:
        kind = self.expr(e.obj, scope)
        if kind == PLAYER:
            if e.name in self.sym.roles:
                e.ref = Ref(RefKind.ROLE, e.name)
            elif e.name in self.sym.teams:
                e.ref = Ref(RefKind.TEAM, e.name)
            else:
                self.error(f"unknown role or team '{e.name}'", e.name_span or e.span,
                           did_you_mean_or_list(e.name, [*self.sym.roles, *self.sym.teams], "roles and teams"))
            return BOOL
        if kind not in (CARD, UNKNOWN):
            self.error(f"'is' tests a card or a player, not {describe(kind)}", e.obj.span)
            return BOOL
        if scope.names.get(e.name) == CLASS:      # `c is k`, k a local holding a card kind
            e.ref = Ref(RefKind.CLASS_LOCAL, e.name)
            return BOOL
        e.ref = self._class_ref(e.name, e.name_span, e.span)
        return BOOL

    def expr_HasTest(self, e: n.HasTest, scope: Scope) -> Type:
        self.cards(e.zone, scope)
        e.ref = self._class_ref(e.name, e.name_span, e.span)
        return BOOL

    def expr_Call(self, e: n.Call, scope: Scope) -> Type:
        s, f = self.sym, e.func
        if f in s.functions:
            e.ref = Ref(RefKind.FUNCTION, f)
            self.arguments(e, s.functions[f], scope)
            return s.function_types.get(f, UNKNOWN)
        if f in s.procedures and self.value_calls:
            return self.proc_value(e, scope)
        if f in s.procedures:
            return self.error(f"'{f}' is a procedure: call it on a line of its own", e.span,
                              "the value of a procedure that declares 'returns:' can be used in a statement "
                              "(x = ..., if, while, return), not in a filter, a function or a YAML condition")
        if f not in BUILTINS:
            return self.error(f"unknown function '{f}'", e.span,
                              did_you_mean(f, BUILTINS | set(s.functions))
                              or f"known functions: {listed([*s.functions, *sorted(BUILTINS)])}")
        e.ref = Ref(RefKind.BUILTIN, f)
        if f in ("next", "previous", "seats_from"):
            if len(e.args) != 1 or e.args[0].var is not None:
                return self.error(f"'{f}' takes one player", e.span)
            self.expect(e.args[0].value, scope, PLAYER, f"the argument of '{f}'")
            return PLAYER if f != "seats_from" else list_of(PLAYER)
        if f == "range":
            if len(e.args) != 2 or any(arg.var is not None for arg in e.args):
                return self.error("'range' takes two numbers: range(FROM, TO) is FROM, FROM+1, ..., TO-1", e.span)
            for arg in e.args:
                self.expect(arg.value, scope, INT, "each argument of 'range'")
            return list_of(INT)
        if f in ("max", "min") and len(e.args) > 1:
            for arg in e.args:
                if arg.var is not None:
                    self.error("a filter cannot be one of several arguments", arg.span)
                else:
                    self.expect(arg.value, scope, INT, f"each argument of '{f}'")
            return INT
        if len(e.args) != 1:
            return self.error(f"'{f}' takes one list", e.span)
        return self.aggregate(e, e.args[0], scope)

    def aggregate(self, e: n.Call, arg: n.Arg, scope: Scope) -> Type:
        outer, self.value_calls = self.value_calls, False     # a filter runs per item: no procedure there
        try:
            return self._aggregate(e, arg, scope)
        finally:
            self.value_calls = outer

    def _aggregate(self, e: n.Call, arg: n.Arg, scope: Scope) -> Type:
        f = e.func
        if arg.var is None:
            item = self.iterable(arg.value, scope)
        else:
            assert arg.source is not None       # `x in LIST`: the parser gives a bound name its list
            item = self.iterable(arg.source, scope)
            inner = scope.child()
            inner.names[arg.var] = item
            if arg.cond is not None:
                self.expect(arg.cond, inner, BOOL, "the filter")
            value = self.expr(arg.value, inner)
            if f in ("sum", "max", "min"):
                if value not in (INT, UNKNOWN):
                    self.error(f"'{f}' adds up numbers, not {describe(value)}", arg.value.span,
                               f"write {f}(c.prop for c in LIST)")
                return INT
            if not (isinstance(arg.value, n.Name) and arg.value.id == arg.var):
                self.error(f"'{f}' takes 'x in LIST where CONDITION'", arg.span)
        if f in ("sum", "max", "min"):
            if item not in (INT, UNKNOWN):
                self.error(f"'{f}' needs numbers", arg.span, f"write {f}(c.prop for c in LIST)")
            return INT
        if f == "count":
            return INT
        if f in ("any", "all", "empty"):
            return BOOL
        if f in ("first", "last"):
            return item
        return list_of(item)  # filter

    # --- what statements' checks share (each statement's own check is in its home) ---------------

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


def _type_hint(kind: Type, wanted: Type) -> str | None:
    if kind == ZONE and wanted == INT:
        return "count the cards with count(zone)"
    if kind.is_list and wanted == INT:
        return "count a list with count(...)"
    if kind == INT and wanted == BOOL:
        return "compare it, as in x > 0"
    if kind.is_list and wanted == BOOL:
        return "test a list with any(...) or empty(...)"
    return None


def _text_of(e: n.Expr) -> str:
    """A short way to write an expression in a hint: its name when it is one."""
    return e.id if isinstance(e, n.Name) else "t"


#: Where each of the bound words (``BOUND_WORDS``) is known, for the error of one used elsewhere.
WHERE_BOUND = {
    "me": "'me' is the current player; it is known in seat-order turns, procedures, cards and triggers",
    "target": "'target' is known in a card's play section",
    "this": "'this' is the card itself, known in a card's texts",
    "card": "'card' is known in triggers and answers",
    "owner": "'owner' is known in triggers and discard_when",
    "winners": "'winners' (the players the end condition decided) is known in 'returns:' only",
}


def _where_hint(name: str) -> str:
    return WHERE_BOUND[name]


def _is_list_like(kind: Type) -> bool:
    """A list, or a zone (its cards): what `+` joins instead of adding."""
    return kind.is_list or kind == ZONE


def is_proc_call(value: n.Expr, procedures) -> bool:
    """`name(args)` naming a procedure: a value computed by running it."""
    return isinstance(value, n.Call) and value.func in procedures


def _words(kind: Type) -> str:
    return {INT: "a number", BOOL: "a condition", PLAYER: "a player", CARD: "a card"}.get(kind, describe(kind))
