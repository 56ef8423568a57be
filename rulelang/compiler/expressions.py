"""Checked expressions to closures ``f(state, locals)``.

Names were resolved by the checker (``node.ref``), so each node becomes the
one small closure that reads exactly what it names; constants are folded and
the commonest shapes (a local's attribute, an aggregate over a filter) get
closures of their own.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.check.types import Symbols, die_of
from rulelang.engine.elimination import live_from, live_players, next_live
from rulelang.engine.game import Game
from rulelang.engine.limits import spend, too_big
from rulelang.engine.rules import CardType, ZoneDecl
from rulelang.engine.state import State
from rulelang.lang import nodes as n
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import CARD, PLAYER, ZONE, tuple_items
from rulelang.lang.visitors import Dispatch, require

from ..errors import RuleError
from .aggregates import any_of_kind, comprehension, metered, number_range, plain_aggregate
from .kinds import kind_test
from .tuples import comprehension_closure, element_closure, fold_comprehension, tuple_closure

Fn = Callable[[State, dict], Any]


class ExprCompiler:
    """Turns checked expressions into closures over (state, locals)."""

    def __init__(self, game: Game, sym: Symbols, procs: dict[str, int]):
        self.game = game
        self.sym = sym
        self.proc_ids = procs
        self.functions: dict[str, tuple[list[str], Fn]] = {}
        self.function_trees: dict[str, n.Expr] = {}
        self.members: dict[tuple, list[bool]] = {}
        #: Set by the game compiler: expressions with source of their own are compiled to Python there.
        self.program = None

    # -- helpers used by statements too ------------------------------------------

    def as_list(self, e: n.Expr, copy: bool = False) -> Fn:
        """A closure giving a Python list for a list-typed or zone-typed expression."""
        f = self.expr(e)
        if e.type == ZONE:
            if copy:
                return lambda st, L: list(st.zones[f(st, L)])
            return lambda st, L: st.zones[f(st, L)]
        return f

    def as_cards(self, e: n.Expr) -> Fn:
        if e.type == CARD:
            f = self.expr(e)
            return lambda st, L: [] if (c := f(st, L)) is None else [c]
        return self.as_list(e, copy=True)

    def holder(self, e: n.Expr) -> Fn:
        """Holder ids: 0 the game, 1.. the locations, then the players, then the cards."""
        f = self.expr(e)
        base = self.game.player_holder
        if e.type == PLAYER:
            return lambda st, L: None if (p := f(st, L)) is None else base + p
        if e.type == CARD:
            return lambda st, L: None if (c := f(st, L)) is None else base + st.n + c
        return f

    def member_table(self, ref: Ref) -> list[bool]:
        """For `c is X`: one bool per card instance, computed once."""
        if ref not in self.members:
            self.members[ref] = [is_of_kind(ctype, ref) for ctype in self.game.card_type]
        return self.members[ref]

    # -- dispatch ------------------------------------------------------------------

    def expr(self, e: n.Expr) -> Fn:
        known, value = self.constant(e)
        if known:
            return lambda st, L: value
        generated = self.program.expression(e) if self.program is not None else None
        return generated if generated is not None else self.closure(e)

    def closure(self, e: n.Expr) -> Fn:
        """The closure for ``e``'s own node (its parts compiled by ``expr``): what generated code falls back on."""
        return _CLOSURES(self, e)

    def fixed_set(self, e: n.Expr) -> frozenset | None:
        """The items of a list fixed when the game compiles (`t.at in gathering_places()`), as a set, when
        they are plain values: `x in` it is then one lookup, not a walk through the list charged as work."""
        known, items = self.constant(e)
        if known and isinstance(items, list) and all(x is None or type(x) in (bool, int, str) for x in items):
            return frozenset(items)
        return None

    def constant(self, e: n.Expr) -> tuple[bool, Any]:
        """Fold what cannot change during a game: literals, place and counter names, lists of them."""
        if isinstance(e, (n.Num, n.Text, n.Bool)):
            return True, e.value
        if isinstance(e, n.NoneLit):
            return True, None
        if isinstance(e, n.Name) and e.ref and e.ref.kind in (RefKind.LOCATION, RefKind.COUNTER, RefKind.ZONE):
            return True, self.place_id(e.ref)
        if isinstance(e, n.Name) and e.ref and e.ref.kind == RefKind.PARAM:      # a constant of the game instance
            return True, self.sym.params[e.ref.name]
        if isinstance(e, (n.ListLit, n.TupleLit)):
            folded = [self.constant(x) for x in e.items]
            if all(known for known, _ in folded):
                return True, [v for _, v in folded]
        if isinstance(e, n.ListComp):
            return fold_comprehension(self.constant, self.game.number_limit, e)
        if isinstance(e, n.Neg):          # `-2`: a literal's sign
            known, value = self.constant(e.operand)
            if known and type(value) is int:
                return True, -value
        if isinstance(e, n.Call) and e.ref and e.ref.kind == RefKind.FUNCTION and not e.args:
            tree = self.function_trees.get(e.func)
            if tree is not None:        # a function of no arguments whose value is fixed
                return self.constant(tree)
        return False, None

    def c_Num(self, e):
        v = e.value
        return lambda st, L: v

    def c_Text(self, e):
        v = e.value
        return lambda st, L: v

    def c_Bool(self, e):
        v = e.value
        return lambda st, L: v

    def c_NoneLit(self, e):
        return lambda st, L: None

    def c_Name(self, e: n.Name) -> Fn:
        ref, game = e.ref, self.game
        kind = ref.kind
        if kind == RefKind.LOCAL:
            name = ref.name
            return lambda st, L: L[name]
        if kind == RefKind.PLAYERS:
            return lambda st, L: live_players(st)
        if kind == RefKind.OTHERS:
            return lambda st, L: [q for q in live_from(st, L["me"]) if q != L["me"]]
        if kind == RefKind.GAME:
            return lambda st, L: 0
        if kind == RefKind.TURN:
            return lambda st, L: st.turn
        if kind == RefKind.PARAM:
            value = self.sym.params[ref.name]
            return lambda st, L: value
        if kind == RefKind.ROLE:
            name = ref.name
            if e.type == PLAYER:
                return lambda st, L: next(iter(st.lay.role_players[name]), None)
            return lambda st, L: list(st.lay.role_players[name])
        if kind == RefKind.TEAM:
            name = ref.name
            return lambda st, L: list(st.lay.team_players[name])
        if kind in (RefKind.LOCATION, RefKind.COUNTER, RefKind.ZONE):
            value = self.place_id(ref)
            return lambda st, L: value
        if kind == RefKind.ALL_ZONES:
            base, k = len(game.table_zones), zone_decl(game, ref.name).index
            return lambda st, L: every_players_cards(st, base, k)
        if kind in (RefKind.TABLE, RefKind.CLASS):      # a card kind's value is its name
            name = ref.name
            return lambda st, L: name
        raise AssertionError(ref)

    def place_id(self, ref: Ref) -> int:
        """The fixed number a location (its holder id), a counter or a table zone name stands for."""
        kind, name = ref.kind, ref.name
        if kind == RefKind.LOCATION:
            return 1 + self.game.locations.index(name)
        if kind == RefKind.COUNTER:
            return self.game.counters.index(name)
        return zone_decl(self.game, name).index

    def c_ListLit(self, e: n.ListLit) -> Fn:
        items = [self.expr(x) for x in e.items]
        return lambda st, L: [f(st, L) for f in items]

    def c_TupleLit(self, e: n.TupleLit) -> Fn:
        return tuple_closure([self.expr(x) for x in e.items])

    def c_ListComp(self, e: n.ListComp) -> Fn:
        loops = [(var, self.as_list(source)) for var, source in e.loops]
        cond = self.expr(e.cond) if e.cond is not None else None
        return comprehension_closure(loops, cond, self.expr(e.value))

    def c_Attr(self, e: n.Attr) -> Fn:
        game, obj, ref = self.game, self.expr(e.obj), e.ref
        kind = ref.kind
        local = local_name(e.obj)
        if kind == RefKind.PCOUNTER:
            ci, base = game.counters.index(e.name), game.player_holder
            if local is not None:     # the common `p.counter`: one closure, not two
                return lambda st, L: st.counters[base + L[local]][ci]
            return lambda st, L: st.counters[base + obj(st, L)][ci]
        if kind == RefKind.PVAR:
            vi = game.var_names.index(e.name)
            if local is not None:
                return lambda st, L: st.vars[L[local]][vi]
            return lambda st, L: st.vars[obj(st, L)][vi]
        if kind == RefKind.PZONE:
            base, k = len(game.table_zones), zone_decl(game, e.name).index
            return lambda st, L: base + k * st.n + obj(st, L)
        if kind == RefKind.SEAT:
            return obj
        if kind in (RefKind.HCOUNTER, RefKind.GCOUNTER):
            ci = game.counters.index(e.name)
            return lambda st, L: st.counters[obj(st, L)][ci]
        if kind == RefKind.LPROP:
            table = [None] + [self._prop_value(self.sym.locations[name].get(e.name)) for name in game.locations]
            return lambda st, L: None if (h := obj(st, L)) is None else table[h]
        if kind == RefKind.CPROP:
            table = [self._prop_value((self.sym.counters[name] or {}).get(e.name)) for name in game.counters]
            return lambda st, L: None if (c := obj(st, L)) is None else table[c]
        if kind == RefKind.CARDPROP:
            table = [ctype.props.get(e.name, 0) for ctype in game.card_type]
            return lambda st, L: table[obj(st, L)]
        if kind == RefKind.CCOUNTER:
            ci, base = game.counters.index(e.name), game.player_holder
            return lambda st, L: st.counters[base + st.n + obj(st, L)][ci]
        if kind == RefKind.CARDOWNER:
            return lambda st, L: st.lay.zones[st.loc[obj(st, L)]][1]
        if kind == RefKind.OUTCOME:
            faces = frozenset(f for f, o in game.dice[die_of(e.obj.type)].items() if o == e.name)
            rolled = metered(obj)
            return lambda st, L: sum(1 for f in rolled(st, L) if f in faces)
        if kind == RefKind.TOTAL:
            rolled, limit, span = metered(obj), game.number_limit, e.span

            def total(st, L):
                v = sum(rolled(st, L))
                if v <= limit:
                    return v
                raise too_big(v, limit, span)
            return total
        if kind == RefKind.SIZE:
            return lambda st, L: len(obj(st, L))
        if kind == RefKind.COLUMN:
            col = e.name
            return lambda st, L: st.lay.tables[obj(st, L)][col]
        raise AssertionError(ref)

    def _prop_value(self, value: Any) -> Any:
        game = self.game
        if isinstance(value, str):
            if value in game.counters:
                return game.counters.index(value)
            if value in game.locations:
                return 1 + game.locations.index(value)
        return value

    def c_Index(self, e: n.Index) -> Fn:
        if tuple_items(e.obj.type) is not None:
            return element_closure(self.expr(e.obj), e.key.value)
        holder, key = self.holder(e.obj), self.expr(e.key)
        return lambda st, L: st.counters[holder(st, L)][key(st, L)]

    def joined(self, e: n.BinOp) -> Fn:
        """`xs + ys`: a new list, each item of it charged as a unit of work (so joining in a loop stays bounded)."""
        a, b = self.as_list(e.left), self.as_list(e.right)
        return lambda st, L: join_lists(st, a(st, L), b(st, L))

    def c_BinOp(self, e: n.BinOp) -> Fn:
        """Arithmetic, each result kept within the game's number_limit (so no runaway growth)."""
        if e.type.is_list:
            return self.joined(e)
        a, b = self.expr(e.left), self.expr(e.right)
        span, limit = e.span, self.game.number_limit
        if e.op == "+":
            def add(st, L):
                v = a(st, L) + b(st, L)
                if -limit <= v <= limit:
                    return v
                raise too_big(v, limit, span)
            return add
        if e.op == "-":
            def subtract(st, L):
                v = a(st, L) - b(st, L)
                if -limit <= v <= limit:
                    return v
                raise too_big(v, limit, span)
            return subtract
        if e.op == "*":
            def multiply(st, L):
                v = a(st, L) * b(st, L)
                if -limit <= v <= limit:
                    return v
                raise too_big(v, limit, span)
            return multiply

        def divide(st, L):
            d = b(st, L)
            if d == 0:
                raise RuleError("division by zero", span)
            return a(st, L) // d
        return divide

    def c_Neg(self, e: n.Neg) -> Fn:
        a = self.expr(e.operand)
        return lambda st, L: -a(st, L)

    def c_Compare(self, e: n.Compare) -> Fn:
        a, b, op = self.expr(e.left), self.expr(e.right), e.op
        known, k = self.constant(e.right)
        if known and op in ("=", "!=", ">", ">="):    # against a constant: one call fewer
            if op == "=":
                return lambda st, L: a(st, L) == k
            if op == "!=":
                return lambda st, L: a(st, L) != k
            if op == ">":
                return lambda st, L: a(st, L) > k
            return lambda st, L: a(st, L) >= k
        if op == "=":
            return lambda st, L: a(st, L) == b(st, L)
        if op == "!=":
            return lambda st, L: a(st, L) != b(st, L)
        if op == "<":
            return lambda st, L: a(st, L) < b(st, L)
        if op == "<=":
            return lambda st, L: a(st, L) <= b(st, L)
        if op == ">":
            return lambda st, L: a(st, L) > b(st, L)
        return lambda st, L: a(st, L) >= b(st, L)

    def c_BoolOp(self, e: n.BoolOp) -> Fn:
        a, b = self.expr(e.left), self.expr(e.right)
        if e.op == "and":
            return lambda st, L: a(st, L) and b(st, L)
        return lambda st, L: a(st, L) or b(st, L)

    def c_CondExpr(self, e: n.CondExpr) -> Fn:
        cond, then, orelse = self.expr(e.cond), self.expr(e.then), self.expr(e.orelse)
        return lambda st, L: then(st, L) if cond(st, L) else orelse(st, L)

    def c_Not(self, e: n.Not) -> Fn:
        a = self.expr(e.operand)
        return lambda st, L: not a(st, L)

    def c_Member(self, e: n.Member) -> Fn:
        fixed = self.fixed_set(e.container)
        if fixed is not None:           # looked up at once: no item looked at, no work
            item = self.expr(e.item)
            if e.negated:
                return lambda st, L: item(st, L) not in fixed
            return lambda st, L: item(st, L) in fixed
        item, box = self.expr(e.item), self.as_list(e.container)

        def member(st, L):
            xs = box(st, L)
            spend(st, len(xs))          # each item looked at is work
            return item(st, L) in xs
        if e.negated:
            return lambda st, L: not member(st, L)
        return member

    def c_IsTest(self, e: n.IsTest) -> Fn:
        obj, neg = self.expr(e.obj), e.negated
        if e.ref is None:
            return lambda st, L: False
        if e.ref.kind == RefKind.CLASS_LOCAL:
            test = kind_test(self.game, self.sym, obj, e.ref.name)
        elif e.ref.kind in (RefKind.ROLE, RefKind.TEAM):
            kind, name = e.ref
            if kind == RefKind.ROLE:
                test = lambda st, L: (p := obj(st, L)) is not None and st.lay.roles[p] == name
            else:
                test = lambda st, L: obj(st, L) in st.lay.team_players[name]
        else:
            table = self.member_table(e.ref)
            test = lambda st, L: (c := obj(st, L)) is not None and table[c]
        if neg:
            return lambda st, L: not test(st, L)
        return test

    def c_HasTest(self, e: n.HasTest) -> Fn:
        cards = self.as_cards(e.zone) if e.zone.type == CARD else self.as_list(e.zone)
        if e.ref is None:
            return lambda st, L: False
        table = self.member_table(e.ref)

        def has(st, L):
            return any_of_kind(st, cards(st, L), table)
        return has

    def c_Call(self, e: n.Call) -> Fn:
        kind, name = e.ref
        if kind == RefKind.HOISTED:            # a procedure's value, computed before the statement (compiler.hooks)
            return lambda st, L: L[name]
        if kind == RefKind.FUNCTION:
            params, body = self.functions[name]
            args = [self.expr(a.value) for a in e.args]
            if len(args) == 1:          # the usual case, without building a comprehension
                (param,), (arg,) = params, args
                return lambda st, L: body(st, {param: arg(st, L)})
            pairs = list(zip(params, args))
            return lambda st, L: body(st, {p: f(st, L) for p, f in pairs})
        if name in ("next", "previous", "seats_from"):
            p = self.expr(e.args[0].value)
            if name == "next":
                return lambda st, L: next_live(st, p(st, L))
            if name == "previous":
                return lambda st, L: next_live(st, p(st, L), -1)
            return lambda st, L: live_from(st, p(st, L))
        if name == "range":
            return number_range(self.expr(e.args[0].value), self.expr(e.args[1].value), e.span)
        if name in ("max", "min") and len(e.args) > 1:
            args = [self.expr(a.value) for a in e.args]
            pick = max if name == "max" else min
            return lambda st, L: pick(f(st, L) for f in args)
        return self.aggregate(name, e.args[0])

    def aggregate(self, name: str, arg: n.Arg) -> Fn:
        """count, sum, any, ... over a list: each item looked at is work, and a sum stays in range."""
        limit, span = self.game.number_limit, arg.span
        if arg.var is not None:
            items = self.as_list(arg.source)
            cond = self.expr(arg.cond) if arg.cond is not None else None
            return comprehension(name, arg.var, items, cond, self.expr(arg.value), limit, span)
        items = self.as_list(arg.value)
        if name in ("count", "empty", "first", "last"):     # no pass over the items
            return plain_aggregate(name, items)
        found = plain_aggregate(name, metered(items))
        if name != "sum":
            return found

        def total(st, L):
            v = found(st, L)
            if -limit <= v <= limit:
                return v
            raise too_big(v, limit, span)
        return total



#: Each expression class's closure (``c_<Class>``), found once: a class with none fails here, on import.
_CLOSURES = Dispatch(ExprCompiler, "c_", n.Expr)
require("the expression compiler", _CLOSURES)


def is_of_kind(ctype: CardType, ref: Ref) -> bool:
    """Does a card type answer to a card id, a tag or a slot (a checked ``("card"|"tag"|"slot", name)``)?"""
    kind, name = ref
    if kind == RefKind.CARD:
        return ctype.id == name
    if kind == RefKind.TAG:
        return name in ctype.tags
    return ctype.slot == name


def zone_decl(game: Game, name: str) -> ZoneDecl:
    return next(z for z in game.zones if z.name == name)




def local_name(e: n.Expr) -> str | None:
    """The name, if the expression is just a local name."""
    return e.ref.name if isinstance(e, n.Name) and e.ref and e.ref.kind == RefKind.LOCAL else None


def every_players_cards(st: State, base: int, k: int) -> list[int]:
    """The cards of every player's zone of one kind (the ``k``-th player zone, player zones from ``base``), in
    seat order; each card gathered is work."""
    cards = [c for p in range(st.n) for c in st.zones[base + k * st.n + p]]
    spend(st, len(cards))
    return cards


def join_lists(st: State, first: list, second: list) -> list:
    """Two lists joined into a new one, its length charged as work."""
    spend(st, len(first) + len(second))
    return first + second
