"""Checking expressions: one ``expr_<Class>`` method an expression class, each returning the type.

A mixin of ``check.Checker``: it resolves names (locals, the game's declarations, bound words),
attributes of players, locations, cards, rolls and tables, operators, tests and calls of functions
and built-in aggregates, and notes on each node what it refers to (``node.ref``) for the compiler.
It relies on the Checker's ``expr``, ``expect``, ``error`` and the statement checks' ``holder``,
``cards``, ``iterable`` and ``arguments``.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, NamedTuple

from rulelang.check.types import BUILTINS, MAX_LOOPS, NULLABLE, Scope, describe, die_of, item_of
from rulelang.errors import Span, did_you_mean, did_you_mean_or_list, listed
from rulelang.lang import nodes as n
from rulelang.lang.bindings import BOUND_WORDS, GLOBAL_WORDS
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import (
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
    ZONE,
    Type,
    list_of,
    table_of,
    tuple_items,
    tuple_of,
)


class _Attributes(NamedTuple):
    """The attributes of one type of value, for `X.name`, and what to say of a name that is none of them."""

    #: In order: (the names, the ref (its kind, put before the name, or the whole ref), the type or a name -> type table)
    fields: list[tuple[Collection[str], RefKind | Ref, Type | Mapping[str, Type]]]
    missing: str                 # the error's words before the name
    pool: Collection[str]        # the names a misspelling is matched against
    hint: str | None = None      # the hint when none is near


class ExpressionChecks:
    """The expression checks of ``check.Checker``; each returns the type, UNKNOWN once an error is recorded."""

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
        if die_of(owner) is not None:
            outcomes = s.dice[die_of(owner)]
            return _Attributes([(outcomes, RefKind.OUTCOME, INT), ({"total"}, Ref(RefKind.TOTAL), INT), ({"size"}, Ref(RefKind.SIZE), INT)],
                               "a roll of this die has no", set(outcomes) | {"total", "size"})
        if owner.is_table:
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
