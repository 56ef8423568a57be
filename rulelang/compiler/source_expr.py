"""Checked expressions as Python source over ``st`` (the state) and ``L`` (the frame's locals).

Each method mirrors the closure ``ExprCompiler`` would build for the node, value for value
and in the same order of evaluation, work and errors; the source only saves the calls.
A node with no source of its own here is called as that closure (``fallback``), so a new
kind of expression works before it is taught to the generator.
"""
from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rulelang.check.types import die_of
from rulelang.lang import nodes as n
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import CARD, PLAYER, ZONE, tuple_items
from rulelang.lang.visitors import Dispatch

from .codegen import Body, Unit
from .expressions import join_lists, local_name, zone_decl
from .kinds import kind_tables
from .naming import state_words

if TYPE_CHECKING:
    from .expressions import ExprCompiler

#: Expressions nested deeper than this are split into functions of their own: Python's parser
#: refuses source nested much deeper (about 200 parentheses).
MAX_NESTING = 20

#: An argument's source that may stand for its parameter wherever a function's body reads it: a Python
#: variable or a literal (reading it again, or not at all, gives the same value and never fails). A local
#: read from ``L`` is not one: a missing `me` must fail at the call, as it does when the dict is built.
_PLAIN = re.compile(r"_[a-z]+\d+|_x|-?\d+|None|True|False")

#: The most loops a list comprehension may have to be written as Python loops (Python nests 20 blocks at most).
MAX_COMP_LOOPS = 12

#: The most nodes a spec function's body may have to be written where it is called (``inlined``).
MAX_INLINED = 60

_COMPARE = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
#: The orders of two numbers and the arithmetic of ``folded``, as the closures compute them.
_ORDER: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_ARITHMETIC: dict[str, Callable[[int, int], int]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}
#: An operand that needs no parentheses around it: a number of 0 or more, or a name (``st``, ``_v0``, ``None``)...
_BARE_START = re.compile(r"\d+$|[A-Za-z_]")
#: ... followed only by attributes, subscripts and calls (``st.counters[6 + L['t']][1]``), or a whole in
#: parentheses already.
_CLOSE = {"(": ")", "[": "]", "{": "}"}


class ExprSource:
    """Python source for expressions; ``src`` is the entry point."""

    def __init__(self, ec: ExprCompiler):
        self.ec = ec
        self.game = ec.game
        self.nesting = 0
        #: locals held in Python variables of the function being written (a comprehension's own name)
        self.aliases: dict[str, str] = {}
        #: how many times code was written that hands ``L`` to something that may read any local
        self.opaque = 0
        #: how many times code was written that reads a local from ``L`` by its name
        self.reads = 0
        #: Python variables that never hold None, while the loop that binds them is written: a loop's over the
        #: players, a role or a team (``StmtSource.loop_scope``)
        self.present: set[str] = set()
        #: the kind tables `c is k` reads, for a local k holding a kind (``kind_tables``)
        self.kinds: dict[str, list[bool]] | None = None

    @contextmanager
    def own_unit(self) -> Iterator[None]:
        """While another unit is written (a function of its own, called with ``L``), the Python variables of
        the one being written now are not there: it reads every local from ``L``."""
        outer, self.aliases = self.aliases, {}
        try:
            yield
        finally:
            self.aliases = outer

    @contextmanager
    def block_scope(self) -> Iterator[None]:
        """Locals kept in Python variables inside a block (a branch, a loop's body) are known there only: after
        it, a branch not taken or a pass not made leaves those variables unset."""
        outer = self.aliases
        try:
            yield
        finally:
            self.aliases = outer

    def keep(self, name: str, variable: str) -> None:
        """The local ``name`` was just stored from the Python variable ``variable`` (and in ``L``, for code that
        reads ``L``): later lines of this block read the variable, until a statement that may bind it again
        (``forget``)."""
        self.aliases = {**self.aliases, name: variable}

    def forget(self, stmt: n.Stmt) -> None:
        """Before a statement that may bind locals anywhere inside it (``nodes.bound_names``): read them from
        ``L`` again, where that statement's code, or a closure's, stores them."""
        if self.aliases:
            bound = n.bound_names(stmt)
            if not bound.isdisjoint(self.aliases):
                self.aliases = {k: v for k, v in self.aliases.items() if k not in bound}

    def local(self, name: str) -> str:
        """Source reading the local ``name``: its Python variable in a comprehension, else ``L``."""
        alias = self.aliases.get(name)
        if alias is not None:
            return alias
        self.reads += 1
        return f"L[{name!r}]"

    def src(self, e: n.Expr, u: Unit) -> str:
        known, value = self.ec.constant(e)
        if known:
            self.say_read(e, u)
            return u.constant(value)
        if self.nesting >= MAX_NESTING:
            self.opaque += 1
            return f"{u.constant(self.apart(e))}(st, L)"
        text = self.root(e, u)
        self.say_read(e, u)
        return text if text is not None else self.fallback(e, u)

    @staticmethod
    def say_read(e: n.Expr, u: Unit) -> None:
        """The line written next reads a counter, a variable or a zone: the listing says which (``# t.coins``)."""
        words = state_words(e)
        if words is not None:
            u.note(words)

    def root(self, e: n.Expr, u: Unit) -> str | None:
        """Source for ``e`` whose root node has source of its own; None (nothing written) if it has none."""
        method = _SOURCES.get(type(e))
        if method is None:
            return None
        self.nesting += 1
        try:
            return method(self, e, u)
        finally:
            self.nesting -= 1

    def apart(self, e: n.Expr):
        """``e`` compiled on its own, starting a fresh count of nesting."""
        outer, self.nesting = self.nesting, 0
        try:
            return self.ec.expr(e)
        finally:
            self.nesting = outer

    def fallback(self, e: n.Expr, u: Unit) -> str:
        self.opaque += 1
        outer, self.nesting = self.nesting, 0
        try:
            return f"{u.constant(self.ec.closure(e))}(st, L)"
        finally:
            self.nesting = outer

    # -- shapes used by statements too -----------------------------------------------------

    def as_list(self, e: n.Expr, u: Unit, copy: bool = False) -> str:
        text = self.src(e, u)
        if e.type == ZONE:
            return f"list(st.zones[{text}])" if copy else f"st.zones[{text}]"
        return text

    def iterable(self, e: n.Expr, u: Unit, copy: bool = False) -> str:
        """Source for the items of a list that is only read, once: `players` as a range while nobody is out
        (no list to build), anything else as ``as_list`` gives it."""
        if isinstance(e, n.Name) and e.ref.kind == RefKind.PLAYERS:
            return "(range(st.n) if True not in st.out else _live_players(st))"
        if isinstance(e, n.Name) and e.ref.kind in (RefKind.ROLE, RefKind.TEAM) and e.type != PLAYER:
            # the layout's own list, not a copy: a layout is shared by every game of its player count,
            # and nothing changes it (these are read here, never stored)
            return f"st.lay.{e.ref.kind}_players[{e.ref.name!r}]"
        return self.as_list(e, u, copy)

    def as_cards(self, e: n.Expr, u: Unit) -> str:
        if e.type == CARD:
            t = u.temp()
            return f"([] if ({t} := {self.src(e, u)}) is None else [{t}])"
        return self.as_list(e, u, copy=True)

    def holder(self, e: n.Expr, u: Unit) -> str:
        text, base = self.src(e, u), self.game.player_holder
        if self.is_present_seat(e):
            return f"{base} + {text}"
        if e.type == PLAYER:
            t = u.temp()
            return f"(None if ({t} := {text}) is None else {base} + {t})"
        if e.type == CARD:
            t = u.temp()
            return f"(None if ({t} := {text}) is None else {base} + st.n + {t})"
        return text

    def is_present_seat(self, e: n.Expr) -> bool:
        """Whether ``e`` is a seat that is surely there: the name of a loop over the players, a role or a team,
        read as its Python variable (its holder needs no test for None)."""
        return (e.type == PLAYER and isinstance(e, n.Name) and e.ref.kind == RefKind.LOCAL
                and self.aliases.get(e.ref.name) in self.present)

    def kind_tables(self) -> dict[str, list[bool]]:
        """For each kind name, whether each card instance answers to it (``kinds.kind_tables``), made once."""
        if self.kinds is None:
            self.kinds = kind_tables(self.game, self.ec.sym)
        return self.kinds

    def checked(self, text: str, span, u: Unit) -> str:
        """A number kept within the game's number_limit, as the closures keep it."""
        t, limit = u.temp("v"), self.game.number_limit
        return f"({t} if -{limit} <= ({t} := {text}) <= {limit} else _too_big_now({t}, {limit}, {u.constant(span)}))"

    # -- names and attributes -------------------------------------------------------------------

    def x_Name(self, e: n.Name, u: Unit) -> str | None:
        kind = e.ref.kind
        if kind == RefKind.LOCAL:
            return self.local(e.ref.name)
        if kind == RefKind.PLAYERS:
            return "_live_players(st)"
        if kind == RefKind.OTHERS:
            self.reads += 1
            return "[q for q in _live_from(st, L['me']) if q != L['me']]"
        if kind == RefKind.GAME:
            return "0"
        if kind == RefKind.TURN:
            return "st.turn"
        if kind == RefKind.ROLE:
            if e.type == PLAYER:
                return f"(st.lay.role_players[{e.ref.name!r}] or [None])[0]"
            return f"list(st.lay.role_players[{e.ref.name!r}])"
        if kind == RefKind.TEAM:
            return f"list(st.lay.team_players[{e.ref.name!r}])"
        if kind == RefKind.PARAM:
            return u.constant(self.ec.sym.params[e.ref.name])
        if kind in (RefKind.TABLE, RefKind.CLASS):      # a card kind's value is its name
            return repr(e.ref.name)
        if kind == RefKind.ALL_ZONES:
            base, k = len(self.game.table_zones), zone_decl(self.game, e.ref.name).index
            return f"_every_players_cards(st, {base}, {k})"
        return None

    def x_ListLit(self, e: n.ListLit, u: Unit) -> str:
        return "[" + ", ".join(self.src(x, u) for x in e.items) + "]"

    def x_TupleLit(self, e: n.TupleLit, u: Unit) -> str:
        return "[" + ", ".join(self.src(x, u) for x in e.items) + "]"

    def x_Attr(self, e: n.Attr, u: Unit) -> str | None:
        game, kind = self.game, e.ref.kind
        local = local_name(e.obj)
        obj = self.local(local) if local is not None else self.src(e.obj, u)
        if kind == RefKind.PCOUNTER:
            return f"st.counters[{game.player_holder} + {obj}][{game.counters.index(e.name)}]"
        if kind == RefKind.PVAR:
            return f"st.vars[{obj}][{game.var_names.index(e.name)}]"
        if kind == RefKind.PZONE:
            base, k = len(game.table_zones), zone_decl(game, e.name).index
            seats = "" if k == 0 else "st.n + " if k == 1 else f"{k} * st.n + "     # the zones before it: k per seat
            return f"{base} + {seats}{obj}"
        if kind == RefKind.SEAT:
            return obj
        if kind in (RefKind.HCOUNTER, RefKind.GCOUNTER):
            return f"st.counters[{obj}][{game.counters.index(e.name)}]"
        if kind == RefKind.LPROP:
            table = [None] + [self.ec._prop_value(self.ec.sym.locations[name].get(e.name)) for name in game.locations]
            return self.none_or(obj, table, u)
        if kind == RefKind.CPROP:
            table = [self.ec._prop_value((self.ec.sym.counters[name] or {}).get(e.name)) for name in game.counters]
            return self.none_or(obj, table, u)
        if kind == RefKind.OUTCOME:
            faces = frozenset(f for f, o in game.dice[die_of(e.obj.type)].items() if o == e.name)
            return f"_count_in(st, {obj}, {u.constant(faces)})"
        if kind == RefKind.TOTAL:
            return self.checked(f"sum(_metered(st, {obj}))", e.span, u)
        if kind == RefKind.CARDPROP:
            table = [ctype.props.get(e.name, 0) for ctype in game.card_type]
            about = f"each card instance's {e.name!r}"
            return f"{u.constant(table, about)}[{obj}]"
        if kind == RefKind.CCOUNTER:
            return f"st.counters[{game.player_holder} + st.n + {obj}][{game.counters.index(e.name)}]"
        if kind == RefKind.CARDOWNER:
            return f"st.lay.zones[st.loc[{obj}]][1]"
        if kind == RefKind.SIZE:
            return f"len({obj})"
        if kind == RefKind.COLUMN:
            return f"st.lay.tables[{obj}][{e.name!r}]"
        return None

    def none_or(self, obj: str, table: list, u: Unit) -> str:
        t = u.temp()
        return f"(None if ({t} := {obj}) is None else {u.constant(table)}[{t}])"

    def x_Index(self, e: n.Index, u: Unit) -> str:
        if tuple_items(e.obj.type) is not None:
            return f"({self.src(e.obj, u)})[{int(e.key.value)}]"
        return f"st.counters[{self.holder(e.obj, u)}][{self.src(e.key, u)}]"

    # -- operators ------------------------------------------------------------------------------

    def folded(self, e: n.Expr) -> tuple[bool, Any]:
        """``e``'s value when the game compiles: a constant (``ExprCompiler.constant``), or arithmetic and
        comparisons of such values that cannot fail: a sum within the number limit, a division by a number
        other than 0, an order of two numbers. What could fail is left to run, to fail as it always has."""
        known, value = self.ec.constant(e)
        if known or not isinstance(e, (n.BinOp, n.Compare)) or e.type.is_list:
            return known, value
        (known_a, a), (known_b, b) = self.folded(e.left), self.folded(e.right)
        if not (known_a and known_b):
            return False, None
        if isinstance(e, n.Compare):
            if e.op in ("=", "!="):
                return True, (a == b) == (e.op == "=")
            return (True, _ORDER[e.op](a, b)) if type(a) is int and type(b) is int else (False, None)
        if type(a) is not int or type(b) is not int or (e.op not in _ARITHMETIC and b == 0):
            return False, None
        result = _ARITHMETIC[e.op](a, b) if e.op in _ARITHMETIC else a // b
        limit = self.game.number_limit
        return (True, result) if -limit <= result <= limit else (False, None)

    def x_BinOp(self, e: n.BinOp, u: Unit) -> str:
        if e.type.is_list:
            join = u.constant(join_lists, "two lists joined, their items charged as work")
            return f"{join}(st, {self.as_list(e.left, u)}, {self.as_list(e.right, u)})"
        known, value = self.folded(e)
        if known:
            return u.constant(value)
        a, b = self.src(e.left, u), self.src(e.right, u)
        if e.op in ("+", "-", "*"):
            return self.checked(f"{operand(a)} {e.op} {operand(b)}", e.span, u)
        d = u.temp("d")                 # the divisor first, as the closure reads it
        return f"({operand(a)} // {d} if ({d} := {b}) != 0 else _zero_division({u.constant(e.span)}))"

    def x_Neg(self, e: n.Neg, u: Unit) -> str:
        return f"(-({self.src(e.operand, u)}))"

    def x_Compare(self, e: n.Compare, u: Unit) -> str:
        known, value = self.folded(e)
        if known:
            return u.constant(value)
        return f"({operand(self.src(e.left, u))} {_COMPARE[e.op]} {operand(self.src(e.right, u))})"

    def x_BoolOp(self, e: n.BoolOp, u: Unit) -> str:
        return f"({operand(self.src(e.left, u))} {e.op} {operand(self.src(e.right, u))})"

    def x_CondExpr(self, e: n.CondExpr, u: Unit) -> str:
        then, cond = operand(self.src(e.then, u)), operand(self.src(e.cond, u))
        return f"({then} if {cond} else {operand(self.src(e.orelse, u))})"

    def x_Not(self, e: n.Not, u: Unit) -> str:
        return f"(not {operand(self.src(e.operand, u))})"

    def x_Member(self, e: n.Member, u: Unit) -> str:
        fixed = self.ec.fixed_set(e.container)
        if fixed is not None:           # a list fixed when the game compiles: one lookup, no work charged
            return f"(({self.src(e.item, u)}) {'not in' if e.negated else 'in'} {u.constant(fixed)})"
        t = u.temp("xs")                # the list first and its length charged, then the item
        test = f"(_charge(st, ({t} := {self.as_list(e.container, u)})) and ({self.src(e.item, u)}) in {t})"
        return f"(not {test})" if e.negated else test

    def x_IsTest(self, e: n.IsTest, u: Unit) -> str | None:
        if e.ref is None:
            return "False"
        kind = e.ref.kind
        obj, t = self.src(e.obj, u), u.temp()
        if kind == RefKind.CLASS_LOCAL:             # the card first, then the local holding the kind
            tables = u.constant(self.kind_tables(), "the cards of each kind")
            test = f"_kind_is({tables}, {obj}, {self.local(e.ref.name)})"
        elif kind == RefKind.ROLE:
            test = f"(({t} := {obj}) is not None and st.lay.roles[{t}] == {e.ref.name!r})"
        elif kind == RefKind.TEAM:
            test = f"(({obj}) in st.lay.team_players[{e.ref.name!r}])"
        else:
            table = u.constant(self.ec.member_table(e.ref), _kind_words(e.ref))
            test = f"(({t} := {obj}) is not None and {table}[{t}])"
        return f"(not {test})" if e.negated else test

    # -- calls ------------------------------------------------------------------------------------

    def x_Call(self, e: n.Call, u: Unit) -> str | None:
        kind, name = e.ref
        if kind == RefKind.HOISTED:
            self.reads += 1
            return f"L[{name!r}]"
        if kind == RefKind.FUNCTION:
            params, body = self.ec.functions[name]
            values = [self.src(a.value, u) for a in e.args]
            inlined = self.inlined(name, params, values, u)
            if inlined is not None:
                return inlined
            args = ", ".join(f"{p!r}: {v}" for p, v in zip(params, values))
            return f"{u.constant(body)}(st, {{{args}}})"
        if name == "next":
            return f"_next_live(st, {self.src(e.args[0].value, u)})"
        if name == "previous":
            return f"_next_live(st, {self.src(e.args[0].value, u)}, -1)"
        if name == "seats_from":
            return f"_live_from(st, {self.src(e.args[0].value, u)})"
        if name in ("max", "min") and len(e.args) == 2:      # the commonest, max(0, x): no call
            a, b, keep = u.temp("m"), u.temp("m"), ">=" if name == "max" else "<="
            first, second = (self.src(arg.value, u) for arg in e.args)
            return f"({a} if ({a} := {first}) {keep} ({b} := {second}) else {b})"
        if name in ("max", "min") and len(e.args) > 1:
            return f"{name}({', '.join(self.src(a.value, u) for a in e.args)})"
        if name == "range":                 # the low end first, then the high
            low, high = (self.src(arg.value, u) for arg in e.args)
            return f"_numbers_between(st, {low}, {high}, {u.constant(e.span)})"
        return self.aggregate(name, e.args[0], u)

    def inlined(self, name: str, params: list[str], values: list[str], u: Unit) -> str | None:
        """A call of a spec function written as its body, where it reads nothing but its parameters.

        When every argument's source is a plain name or literal (reading it again gives the same value),
        the body reads the arguments where it reads its parameters; otherwise the body becomes a function
        of this unit taking them (``_a0``, ``_a1``...). None when the body reads anything else (`me`, a
        closure): the call then hands the body a dict of its parameters, as the closures do. A failure
        inside is told at the calling statement either way (the line table).
        """
        tree = self.ec.function_trees.get(name)
        if tree is None or _size(tree) > MAX_INLINED or self.nesting + _depth(tree) >= MAX_NESTING:
            return None             # deep or long bodies stay functions of their own, called with a dict
        plain = all(_PLAIN.fullmatch(v) for v in values)
        names = values if plain else [f"_a{k}" for k in range(len(params))]
        mark, opaque, reads, outer = u.mark(), self.opaque, self.reads, self.aliases
        self.aliases = dict(zip(params, names))
        try:
            text = self.src(tree, u)
        finally:
            self.aliases = outer
        if self.opaque != opaque or self.reads != reads:
            u.rollback(mark)
            self.opaque, self.reads = opaque, reads
            return None
        if plain:
            return f"({text})"
        f = u.new_function("function", ", ".join(["st", "L", *names]))
        f.line(f"return {text}")
        return f"{f.name}(st, L, {', '.join(values)})"

    def x_HasTest(self, e: n.HasTest, u: Unit) -> str:
        if e.ref is None:
            return "False"
        cards = self.as_cards(e.zone, u) if e.zone.type == CARD else self.as_list(e.zone, u)
        return f"_has(st, {cards}, {u.constant(self.ec.member_table(e.ref), _kind_words(e.ref))})"

    # -- aggregates ---------------------------------------------------------------------------------

    def aggregate(self, name: str, arg: n.Arg, u: Unit) -> str:
        """count, sum, any, ... over a list: each item looked at is work, and a sum stays in range."""
        if arg.var is not None:
            return self.comprehension(name, arg, u)
        if name == "count" and isinstance(arg.value, n.Name) and arg.value.ref.kind == RefKind.PLAYERS:
            return "(st.n - st.out.count(True))"        # the players still in, with no list of them built
        items = self.as_list(arg.value, u)
        t = u.temp("xs")
        plain = {"count": f"len({items})", "empty": f"(not {items})",
                 "first": f"({t}[0] if ({t} := {items}) else None)",
                 "last": f"({t}[-1] if ({t} := {items}) else None)"}
        if name in plain:
            return plain[name]
        metered = f"_metered(st, {items})"
        if name == "sum":
            return self.checked(f"sum({metered})", arg.span, u)
        if name in ("max", "min"):
            return f"{name}({metered}, default=0)"
        if name in ("any", "all"):
            return f"{name}({metered})"
        return f"list({metered})"       # filter

    def comprehension(self, name: str, arg: n.Arg, u: Unit) -> str:
        """An aggregate over `var in items where cond` as a function of its own.

        `var` is the loop's Python variable where the condition and value read it; only when they hand
        ``L`` to code that may read it (a closure, a nested aggregate) is it also bound in ``L``, then
        restored, as the closures do.
        """
        outer = self.aliases
        passed = {local: u.temp("o") for local in outer}   # the caller's Python variables, handed over
        f = u.new_function("aggregate", ", ".join(["st", "L", *passed.values()]))
        var = repr(arg.var)
        before = self.opaque
        self.aliases = {local: passed[local] for local in outer}
        try:
            items = self.iterable(arg.source, u)
            self.aliases[arg.var] = "_x"
            keep = self.src(arg.cond, u) if arg.cond is not None else "True"
            value = None if name in ("any", "first", "empty", "all", "count") else self.src(arg.value, u)
            bound = self.opaque != before
        finally:
            self.aliases = outer
        if bound:
            self.opaque += 1        # it hands L to code that may read any local: the caller's too
        self.comprehension_lines(f, name, var, items, keep, value, bound, arg.span, u)
        return f"{f.name}({', '.join(['st', 'L', *outer.values()])})"

    def comprehension_lines(self, f: Body, name: str, var: str, items: str, keep: str, value: str | None,
                            bound: bool, span, u: Unit) -> None:
        """The body of a comprehension's function (see ``comprehension``)."""
        if bound:
            f.line(f"_saved = L.get({var}, _MISSING)")
        f.line(f"_xs = {items}")
        f.charge("len(_xs)")
        bind = [f"    L[{var}] = _x"] if bound else []
        first_match = name in ("any", "first", "empty")
        if name == "all":
            f.line("_result = True")
            f.line("for _x in _xs:")
            for line in bind:
                f.line(line)
            f.line(f"    if not ({keep}):")
            f.line("        _result = False")
            f.line("        break")
        else:
            if first_match:
                start, step = "_found = None", "_found = _x"
            elif name in ("count", "sum"):
                start = "_result = 0"
                step = "_result += 1" if name == "count" else f"_result += {value}"
            else:
                start, step = "_out = []", f"_out.append({value})"
            f.line(start)
            f.line("for _x in _xs:")
            for line in bind:
                f.line(line)
            f.line(f"    if {keep}:")
            f.line(f"        {step}")
            if first_match:
                f.line("        break")
        if bound:
            f.line(f"if {var} in L:")
            f.line("    if _saved is _MISSING:")
            f.line(f"        del L[{var}]")
            f.line("    else:")
            f.line(f"        L[{var}] = _saved")
        results = {"any": "_found is not None", "first": "_found", "empty": "_found is None",
                   "all": "_result", "count": "_result", "last": "_out[-1] if _out else None",
                   "max": "max(_out, default=0)", "min": "min(_out, default=0)"}
        if name == "sum":
            limit = self.game.number_limit
            f.line(f"if -{limit} <= _result <= {limit}:")
            f.line("    return _result")
            f.line(f"_too_big_now(_result, {limit}, {u.constant(span)})")
        else:
            f.line(f"return {results.get(name, '_out')}")       # filter: the list itself

    # -- list comprehensions ------------------------------------------------------------------------

    def x_ListComp(self, e: n.ListComp, u: Unit) -> str | None:
        """`[VALUE for x in A for y in B where C]` as a function of its own, as ``comprehension_closure`` builds
        it: a Python loop a loop of the text, the last turning fastest, each loop's items charged as work.

        The names are the loops' Python variables where the filter, the value and the inner loops' lists read
        them; only when those hand ``L`` to code that may read them are they bound in ``L`` too, and what the
        names held there before put back after, as the closure puts them back. None past ``MAX_COMP_LOOPS``
        loops (Python's limit on nested blocks): then it is called as its closure.
        """
        if len(e.loops) > MAX_COMP_LOOPS:
            return None
        outer = self.aliases
        passed = {local: u.temp("o") for local in outer}   # the caller's Python variables, handed over
        f = u.new_function("comprehension", ", ".join(["st", "L", *passed.values()]))
        items, xs = [], [u.temp("x") for _ in e.loops]
        before = self.opaque
        self.aliases = {local: passed[local] for local in outer}
        try:
            for (var, source), x in zip(e.loops, xs):
                items.append(self.as_list(source, u))
                self.aliases[var] = x
            keep = self.src(e.cond, u) if e.cond is not None else None
            value = self.src(e.value, u)
            bound = self.opaque != before
        finally:
            self.aliases = outer
        if bound:
            self.opaque += 1        # it hands L to code that may read any local: the caller's too
        self.comprehension_loops(f, [var for var, _ in e.loops], items, xs, keep, value, bound, u)
        return f"{f.name}({', '.join(['st', 'L', *outer.values()])})"

    @staticmethod
    def comprehension_loops(f: Body, names: list[str], items: list[str], xs: list[str], keep: str | None,
                            value: str, bound: bool, u: Unit) -> None:
        """The body of a list comprehension's function (see ``x_ListComp``): ``items`` the source of each loop's
        list, ``xs`` its item's Python variable."""
        saved = [u.temp("s") for _ in names]
        if bound:
            for name, old in zip(names, saved):
                f.line(f"{old} = L.get({name!r}, _MISSING)")
            f.line("try:")
            f.depth += 1
        f.line("_out = []")
        for name, source, x in zip(names, items, xs):
            listed = u.temp("xs")
            f.line(f"{listed} = {source}")
            f.charge(f"len({listed})")
            f.line(f"for {x} in {listed}:")
            f.depth += 1
            if bound:
                f.line(f"L[{name!r}] = {x}")
        if keep is not None:
            f.line(f"if {keep}:")
            f.depth += 1
        f.line(f"_out.append({value})")
        f.depth = 2 if bound else 1
        f.line("return _out")
        if bound:
            f.depth = 1
            f.line("finally:")
            for name, old in zip(names, saved):
                f.line(f"    if {old} is _MISSING:")
                f.line(f"        L.pop({name!r}, None)")
                f.line("    else:")
                f.line(f"        L[{name!r}] = {old}")


def operand(text: str) -> str:
    """An operand's source as an operator takes it: in parentheses unless it is one primary already (a number
    of 0 or more, a name with its attributes, subscripts and calls, something in parentheses)."""
    return text if _is_primary(text) else f"({text})"


def _string_end(text: str, start: int) -> int:
    """Where the string literal (a repr) opening at ``start`` ends: the index just past its closing quote."""
    quote, end = text[start], start + 1
    while end < len(text) and text[end] != quote:
        end += 2 if text[end] == "\\" else 1
    return end + 1


def _is_primary(text: str) -> bool:
    """Whether generated source is one Python primary: outside brackets and string literals, nothing but a
    name's characters and dots, starting with a name; or a number; or one whole in parentheses."""
    if text[:1] in ("'", '"'):
        return _string_end(text, 0) == len(text)
    if not text or not (_BARE_START.match(text) or text[0] == "("):
        return False
    depth, k, opened = 0, 0, []
    while k < len(text):
        ch = text[k]
        if ch in "'\"" and depth:              # a string literal (a repr) inside brackets: passed over
            k = _string_end(text, k)
            continue
        if ch in _CLOSE:
            if depth == 0 and text[0] == "(" and k > 0:
                return False                    # ``(a) + (b)``: a second group at the top
            opened.append(_CLOSE[ch])
            depth += 1
        elif ch in ")]}":
            if not opened or opened.pop() != ch:
                return False
            depth -= 1
        elif depth == 0 and not (ch.isascii() and (ch.isalnum() or ch in "_.")):
            return False
        elif depth == 0 and text[0] == "(":
            return False                        # ``(a).x`` is fine Python, but keep a group just a group
        k += 1
    return depth == 0


#: Each expression class's source (``x_<Class>``), found once; a class with none is called as its closure.
_SOURCES = Dispatch(ExprSource, "x_", n.Expr)


def _kind_words(ref: Ref) -> str:
    """What a table of one bool per card instance answers, for the listing."""
    return f"per card instance: is it {'the card' if ref.kind == RefKind.CARD else f'of {ref.kind}'} {ref.name!r}?"


def _size(tree: n.Expr) -> int:
    return sum(1 for _ in n.walk(tree))


def _depth(tree: n.Node) -> int:
    """How deep an expression nests (at most the nesting ``src`` counts); asked of small trees only."""
    return 1 + max((_depth(child) for child in tree.children()), default=0)
