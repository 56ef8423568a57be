"""Checked syntax trees to Python closures, and the whole spec to a ``Game``.

Every rule text is parsed and checked once here; what comes out is a
``Game`` whose procedures are lists of closures. Nothing is parsed while a
game is played. Expressions become ``f(state, locals)``; statements become
instructions ``op(state, frame)`` (see ``engine``).
"""
from __future__ import annotations

from typing import Any, Callable

from . import nodes as n
from .check import (BOOL, CARD, COUNTER, INT, LOCATION, PLAYER, VAR_TYPES, ZONE, Checker, Scope,
                    Symbols, item_of, list_of)
from .engine import (NAMES, CardType, EndCondition, Game, Proc, State, ZoneDecl, answer_card, answerers,
                     check_end, discard_card, discard_options, draw_cards, end_turn, holder_label,
                     end_roll_durations, legal_plays, move_card, reaction_options, set_counter, shuffle_zone,
                     zone_of_hand)
from .errors import RulelangError, RuleError, Span, SpecError, did_you_mean, raise_all
from .loader import Document
from .parser import parse_block, parse_expression

Fn = Callable[[State, dict], Any]
_MISSING = object()
MAX_DICE = 10_000        # dice in one roll: more is a runaway rule, not a game
MAX_OPTIONS = 100_000   # options of one "how many" decision


# =============================================================================
# Symbols from the YAML declarations
# =============================================================================

def build_symbols(data: dict) -> Symbols:
    """Collect every declared name: the checker resolves rule texts against these."""
    s = Symbols()
    s.locations = dict(data.get("locations") or {})
    s.counters = dict(data.get("counters") or {})
    for name, decl in (data.get("vars") or {}).items():
        s.vars[name] = VAR_TYPES.get((decl or {}).get("type", "int"), INT)
    s.zones = dict(data.get("zones") or {})
    s.tags = set(data.get("tags") or [])
    s.card_props = dict(data.get("card_props") or {})
    for card in data.get("cards") or []:
        if isinstance(card, dict) and "id" in card:
            s.cards[card["id"]] = card
            if card.get("slot"):
                s.slots.add(card["slot"])
    for role in data.get("roles") or []:
        s.roles[role["name"]] = role
        s.teams.setdefault(role.get("team", role["name"]), []).append(role["name"])
    for name in list(s.teams):
        if name in s.roles and s.teams[name] == [name]:
            del s.teams[name]      # a team of one role is named by the role already
    for name, table in (data.get("tables") or {}).items():
        s.tables[name] = list(table.get("columns") or [])
    for name, die in (data.get("dice") or {}).items():
        s.dice[name] = list((die.get("outcomes") or {}).keys())
    for name, proc in (data.get("procedures") or {}).items():
        s.procedures[name] = {p: VAR_TYPES.get(t, "?") for p, t in (proc.get("params") or {}).items()}
    for name, fn in (data.get("functions") or {}).items():
        s.functions[name] = {p: VAR_TYPES.get(t, "?") for p, t in (fn.get("params") or {}).items()}
    s.location_props = _prop_types(s.locations, s)
    s.counter_props = _prop_types(s.counters, s)
    s.seat_turns = (data.get("turn") or {}).get("order", "seat") == "seat"
    return s


def _prop_types(decls: dict, s: Symbols) -> dict[str, str]:
    types: dict[str, str] = {}
    for decl in decls.values():
        for key, value in (decl or {}).items():
            if key == "label":
                continue
            types.setdefault(key, _value_type(value, s))
    return types


def _value_type(value: Any, s: Symbols) -> str:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if value in s.counters:
        return COUNTER
    if value in s.locations:
        return LOCATION
    return "?"


# =============================================================================
# Expressions
# =============================================================================

class ExprCompiler:
    """Turns checked expressions into closures over (state, locals)."""

    def __init__(self, game: Game, sym: Symbols, procs: dict[str, int]):
        self.game = game
        self.sym = sym
        self.proc_ids = procs
        self.functions: dict[str, tuple[list[str], Fn]] = {}
        self.function_trees: dict[str, n.Expr] = {}
        self.members: dict[tuple, list[bool]] = {}

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
        """Holder ids: 0 the game, 1.. the locations, then the players."""
        f = self.expr(e)
        if e.type == PLAYER:
            base = self.game.player_holder
            return lambda st, L: None if (p := f(st, L)) is None else base + p
        return f

    def member_table(self, ref: tuple) -> list[bool]:
        """For `c is X`: one bool per card instance, computed once."""
        if ref not in self.members:
            kind, name = ref
            table = []
            for ctype in self.game.card_type:
                if kind == "card":
                    table.append(ctype.id == name)
                elif kind == "tag":
                    table.append(name in ctype.tags)
                else:
                    table.append(ctype.slot == name)
            self.members[ref] = table
        return self.members[ref]

    # -- dispatch ------------------------------------------------------------------

    def expr(self, e: n.Expr) -> Fn:
        known, value = self.constant(e)
        if known:
            return lambda st, L: value
        return getattr(self, "c_" + type(e).__name__)(e)

    def constant(self, e: n.Expr) -> tuple[bool, Any]:
        """Fold what cannot change during a game: literals, place and counter names, lists of them."""
        if isinstance(e, (n.Num, n.Text, n.Bool)):
            return True, e.value
        if isinstance(e, n.NoneLit):
            return True, None
        if isinstance(e, n.Name) and e.ref and e.ref[0] in ("location", "counter", "zone"):
            return True, self.c_Name(e)(None, None)
        if isinstance(e, n.ListLit):
            folded = [self.constant(x) for x in e.items]
            if all(known for known, _ in folded):
                return True, [v for _, v in folded]
        if isinstance(e, n.Call) and e.ref and e.ref[0] == "function" and not e.args:
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
        kind = ref[0]
        if kind == "local":
            name = ref[1]
            return lambda st, L: L[name]
        if kind == "players":
            return lambda st, L: list(range(st.n))
        if kind == "others":
            return lambda st, L: [(L["me"] + i) % st.n for i in range(1, st.n)]
        if kind == "game":
            return lambda st, L: 0
        if kind == "turn":
            return lambda st, L: st.turn
        if kind == "role":
            name = ref[1]
            if e.type == PLAYER:
                return lambda st, L: (st.lay.role_players[name] or [None])[0]
            return lambda st, L: list(st.lay.role_players[name])
        if kind == "team":
            name = ref[1]
            return lambda st, L: list(st.lay.team_players[name])
        if kind == "location":
            hid = 1 + game.locations.index(ref[1])
            return lambda st, L: hid
        if kind == "counter":
            ci = game.counters.index(ref[1])
            return lambda st, L: ci
        if kind == "zone":
            zid = _decl(game, ref[1]).index
            return lambda st, L: zid
        if kind == "all_zones":
            base, k = len(game.table_zones), _decl(game, ref[1]).index
            return lambda st, L: [c for p in range(st.n) for c in st.zones[base + k * st.n + p]]
        if kind == "table":
            name = ref[1]
            return lambda st, L: name
        raise AssertionError(ref)

    def c_ListLit(self, e: n.ListLit) -> Fn:
        items = [self.expr(x) for x in e.items]
        return lambda st, L: [f(st, L) for f in items]

    def c_Attr(self, e: n.Attr) -> Fn:
        game, obj, ref = self.game, self.expr(e.obj), e.ref
        kind = ref[0]
        local = _local(e.obj)
        if kind == "pcounter":
            ci, base = game.counters.index(e.name), game.player_holder
            if local is not None:     # the common `p.counter`: one closure, not two
                return lambda st, L: st.counters[base + L[local]][ci]
            return lambda st, L: st.counters[base + obj(st, L)][ci]
        if kind == "pvar":
            vi = game.var_names.index(e.name)
            if local is not None:
                return lambda st, L: st.vars[L[local]][vi]
            return lambda st, L: st.vars[obj(st, L)][vi]
        if kind == "pzone":
            base, k = len(game.table_zones), _decl(game, e.name).index
            return lambda st, L: base + k * st.n + obj(st, L)
        if kind == "seat":
            return obj
        if kind in ("hcounter", "gcounter"):
            ci = game.counters.index(e.name)
            return lambda st, L: st.counters[obj(st, L)][ci]
        if kind == "lprop":
            table = [None] + [self._prop_value(self.sym.locations[name].get(e.name)) for name in game.locations]
            return lambda st, L: None if (h := obj(st, L)) is None else table[h]
        if kind == "cprop":
            table = [self._prop_value((self.sym.counters[name] or {}).get(e.name)) for name in game.counters]
            return lambda st, L: None if (c := obj(st, L)) is None else table[c]
        if kind == "cardprop":
            table = [ctype.props.get(e.name, 0) for ctype in game.card_type]
            return lambda st, L: table[obj(st, L)]
        if kind == "cardowner":
            return lambda st, L: st.lay.zones[st.loc[obj(st, L)]][1]
        if kind == "outcome":
            faces = frozenset(f for f, o in game.dice[e.obj.type[5:]].items() if o == e.name)
            return lambda st, L: sum(1 for f in obj(st, L) if f in faces)
        if kind == "total":
            return lambda st, L: sum(obj(st, L))
        if kind == "size":
            return lambda st, L: len(obj(st, L))
        if kind == "column":
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
        holder, key = self.holder(e.obj), self.expr(e.key)
        return lambda st, L: st.counters[holder(st, L)][key(st, L)]

    def c_BinOp(self, e: n.BinOp) -> Fn:
        a, b = self.expr(e.left), self.expr(e.right)
        if e.op == "+":
            return lambda st, L: a(st, L) + b(st, L)
        if e.op == "-":
            return lambda st, L: a(st, L) - b(st, L)
        if e.op == "*":
            return lambda st, L: a(st, L) * b(st, L)
        span = e.span

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

    def c_Not(self, e: n.Not) -> Fn:
        a = self.expr(e.operand)
        return lambda st, L: not a(st, L)

    def c_Member(self, e: n.Member) -> Fn:
        item, box = self.expr(e.item), self.as_list(e.container)
        if e.negated:
            return lambda st, L: item(st, L) not in box(st, L)
        return lambda st, L: item(st, L) in box(st, L)

    def c_IsTest(self, e: n.IsTest) -> Fn:
        obj, neg = self.expr(e.obj), e.negated
        if e.ref is None:
            return lambda st, L: False
        if e.ref[0] in ("role", "team"):
            kind, name = e.ref
            if kind == "role":
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
        return lambda st, L: any(table[c] for c in cards(st, L))

    def c_Call(self, e: n.Call) -> Fn:
        kind, name = e.ref
        if kind == "function":
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
                return lambda st, L: (p(st, L) + 1) % st.n
            if name == "previous":
                return lambda st, L: (p(st, L) - 1) % st.n
            return lambda st, L: [(p(st, L) + i) % st.n for i in range(st.n)]
        if name in ("max", "min") and len(e.args) > 1:
            args = [self.expr(a.value) for a in e.args]
            pick = max if name == "max" else min
            return lambda st, L: pick(f(st, L) for f in args)
        return self.aggregate(name, e.args[0])

    def aggregate(self, name: str, arg: n.Arg) -> Fn:
        if arg.var is None:
            items = self.as_list(arg.value)
            return _plain_aggregate(name, items)
        items = self.as_list(arg.source)
        cond = self.expr(arg.cond) if arg.cond is not None else None
        value = self.expr(arg.value)
        return _comprehension(name, arg.var, items, cond, value)


def _plain_aggregate(name: str, items: Fn) -> Fn:
    if name == "count":
        return lambda st, L: len(items(st, L))
    if name == "empty":
        return lambda st, L: not items(st, L)
    if name == "any":
        return lambda st, L: any(items(st, L))
    if name == "all":
        return lambda st, L: all(items(st, L))
    if name == "first":
        return lambda st, L: xs[0] if (xs := items(st, L)) else None
    if name == "last":
        return lambda st, L: xs[-1] if (xs := items(st, L)) else None
    if name == "sum":
        return lambda st, L: sum(items(st, L))
    if name == "max":
        return lambda st, L: max(items(st, L), default=0)
    if name == "min":
        return lambda st, L: min(items(st, L), default=0)
    return lambda st, L: list(items(st, L))     # filter


def _comprehension(name: str, var: str, items: Fn, cond: Fn | None, value: Fn) -> Fn:
    """An aggregate over `var in items where cond`; `var` is bound, then restored.

    Expressions never change the state, so the items are read in place; the
    common aggregates run as one loop without building a list.
    """
    keep = cond if cond is not None else (lambda st, L: True)

    def restore(L: dict, saved: Any) -> None:
        if saved is _MISSING:
            del L[var]
        else:
            L[var] = saved

    def selected(st: State, L: dict) -> list:
        saved, out = L.get(var, _MISSING), []
        for x in items(st, L):
            L[var] = x
            if keep(st, L):
                out.append(value(st, L))
        if var in L:
            restore(L, saved)
        return out

    def first_match(st: State, L: dict) -> Any:
        saved, found = L.get(var, _MISSING), None
        for x in items(st, L):
            L[var] = x
            if keep(st, L):
                found = x
                break
        if var in L:
            restore(L, saved)
        return found

    def count(st: State, L: dict) -> int:
        saved, total = L.get(var, _MISSING), 0
        for x in items(st, L):
            L[var] = x
            if keep(st, L):
                total += 1
        if var in L:
            restore(L, saved)
        return total

    def add_up(st: State, L: dict) -> int:
        saved, total = L.get(var, _MISSING), 0
        for x in items(st, L):
            L[var] = x
            if keep(st, L):
                total += value(st, L)
        if var in L:
            restore(L, saved)
        return total

    def every(st: State, L: dict) -> bool:
        saved, result = L.get(var, _MISSING), True
        for x in items(st, L):
            L[var] = x
            if not keep(st, L):
                result = False
                break
        if var in L:
            restore(L, saved)
        return result

    if name == "any":
        return lambda st, L: first_match(st, L) is not None
    if name == "first":
        return first_match
    if name == "all":
        return every
    if name == "count":
        return count
    if name == "empty":
        return lambda st, L: first_match(st, L) is None
    if name == "last":
        return lambda st, L: xs[-1] if (xs := selected(st, L)) else None
    if name == "sum":
        return add_up
    if name == "max":
        return lambda st, L: max(selected(st, L), default=0)
    if name == "min":
        return lambda st, L: min(selected(st, L), default=0)
    return selected     # filter


def _decl(game: Game, name: str) -> ZoneDecl:
    return next(z for z in game.zones if z.name == name)


# =============================================================================
# Statements
# =============================================================================

class Builder:
    """One procedure's code under construction: instructions, their spans, jumps."""

    def __init__(self, name: str):
        self.name = name
        self.code: list[Callable] = []
        self.spans: list[Span | None] = []

    def emit(self, op: Callable, span: Span | None) -> int:
        self.code.append(op)
        self.spans.append(span)
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)


class Label:
    """A jump target, fixed once its place is known."""

    __slots__ = ("pc",)

    def __init__(self) -> None:
        self.pc = -1


def _jump(label: Label) -> Callable:
    def op(st, fr):
        fr[1] = label.pc
    return op


def _jump_unless(cond: Fn, label: Label) -> Callable:
    def op(st, fr):
        if not cond(st, fr[2]):
            fr[1] = label.pc
    return op


class StmtCompiler:
    """Turns checked statements into instructions of a ``Builder``."""

    def __init__(self, ec: ExprCompiler, has_triggers: bool = True):
        self.ec = ec
        self.game = ec.game
        self.hidden = 0
        self.has_triggers = has_triggers

    def fresh(self, what: str) -> str:
        self.hidden += 1
        return f"${what}{self.hidden}"

    def block(self, stmts: list[n.Stmt], b: Builder) -> None:
        """Emit a block; runs of straight-line statements become one instruction."""
        run: list[n.Stmt] = []
        for s in stmts:
            if self.is_straight(s):
                run.append(s)
                continue
            if isinstance(s, n.CheckEnd):     # may end the game: closes a run
                run.append(s)
                self.emit_straight(run, b)
                run = []
                continue
            self.emit_straight(run, b)
            run = []
            emit = getattr(self, "s_" + type(s).__name__, None)
            if emit is None:            # a card move in a game with triggers: its own instruction
                self.emit_straight([s], b)
            else:
                emit(s, b)
        self.emit_straight(run, b)

    _STRAIGHT = (n.Assign, n.AugAssign, n.MoveCounter, n.Roll, n.Pass, n.Shuffle)
    _CARD_MOVES = (n.MoveCards, n.Discard, n.Draw)

    def is_straight(self, s: n.Stmt) -> bool:
        """True for statements that never wait, jump out or push a frame.

        Card moves count only when the game has no triggers, because triggered
        effects must run right after the statement that fired them.
        """
        if isinstance(s, self._STRAIGHT):
            return True
        if isinstance(s, self._CARD_MOVES):
            return not self.has_triggers
        if isinstance(s, n.If):
            bodies = [body for _, body in s.branches] + [s.orelse or []]
            return all(self.is_straight(x) for body in bodies for x in body)
        if isinstance(s, n.ForEach):
            return all(self.is_straight(x) for x in s.body)
        return False

    def inline_body(self, stmts: list[n.Stmt]) -> Fn | None:
        """The whole block as one function, if it never waits (a final `check end` is fine)."""
        head = stmts[:-1] if stmts and isinstance(stmts[-1], n.CheckEnd) else stmts
        if all(self.is_straight(s) for s in head):
            return self.guarded(stmts)
        return None

    def straight(self, stmts: list[n.Stmt]) -> Fn:
        fs = [getattr(self, "f_" + type(s).__name__)(s) for s in stmts]
        if len(fs) == 1:
            return fs[0]

        def run_all(st, L):
            for f in fs:
                f(st, L)
        return run_all

    def guarded(self, stmts: list[n.Stmt]) -> Fn:
        """Statements run in order; a failure names the statement's span.

        Returns what the last one returns: True when a final `check end` ended the game.
        """
        fs = [getattr(self, "f_" + type(s).__name__)(s) for s in stmts]
        spans = [s.span for s in stmts]
        if len(fs) == 1:
            f, span = fs[0], spans[0]

            def one(st, L):
                try:
                    return f(st, L)
                except RuleError as error:
                    error.span = error.span or span
                    raise
                except (ArithmeticError, TypeError, ValueError, IndexError, KeyError) as error:
                    raise RuleError(f"a rule failed while playing: {error}", span) from None
            return one

        def fused(st, L):
            i = 0
            result = None
            try:
                for i, f in enumerate(fs):
                    result = f(st, L)
            except RuleError as error:
                error.span = error.span or spans[i]
                raise
            except (ArithmeticError, TypeError, ValueError, IndexError, KeyError) as error:
                raise RuleError(f"a rule failed while playing: {error}", spans[i]) from None
            return result
        return fused

    def emit_straight(self, stmts: list[n.Stmt], b: Builder) -> None:
        if not stmts:
            return
        body = self.guarded(stmts)
        b.emit(lambda st, fr: body(st, fr[2]), stmts[0].span)

    def f_CheckEnd(self, s: n.CheckEnd) -> Fn:
        return check_end

    def f_If(self, s: n.If) -> Fn:
        branches = [(self.ec.expr(cond), self.straight(body)) for cond, body in s.branches]
        orelse = self.straight(s.orelse) if s.orelse else None

        def choose_branch(st, L):
            for cond, body in branches:
                if cond(st, L):
                    body(st, L)
                    return
            if orelse is not None:
                orelse(st, L)
        return choose_branch

    def f_ForEach(self, s: n.ForEach) -> Fn:
        items = self.ec.as_list(s.source, copy=True)
        cond = self.ec.expr(s.cond) if s.cond is not None else None
        body, var = self.straight(s.body), s.var

        def loop(st, L):
            for x in items(st, L):
                L[var] = x
                if cond is None or cond(st, L):
                    body(st, L)
        return loop

    # -- labels of choices ---------------------------------------------------------

    def option_text(self, kind: str) -> Callable[[State, Any], tuple[str, str]]:
        game = self.game
        if kind == PLAYER:
            return lambda st, v: (NAMES[v], NAMES[v])
        if kind == CARD:
            return lambda st, v: (game.card_type[v].id, game.card_type[v].name)
        if kind == LOCATION:
            return lambda st, v: (game.locations[v - 1], game.location_labels[game.locations[v - 1]])
        if kind == COUNTER:
            return lambda st, v: (game.counters[v], game.counters[v])
        return lambda st, v: (str(v).lower(), str(v))

    # -- assignment ----------------------------------------------------------------

    def setter(self, target: n.Expr) -> Callable[[State, dict, Any], None]:
        """A function storing a value into a local, a player variable or a counter."""
        game, ec = self.game, self.ec
        if isinstance(target, n.Name):
            name = target.id

            def set_local(st, L, v):
                L[name] = v
            return set_local
        if isinstance(target, n.Index):
            holder, key = ec.holder(target.obj), ec.expr(target.key)
            return lambda st, L, v: set_counter(st, holder(st, L), key(st, L), v)
        kind = target.ref[0]
        obj = ec.expr(target.obj)
        if kind == "pvar":
            vi = game.var_names.index(target.name)
            name = target.name

            def set_var(st, L, v):
                p = obj(st, L)
                row = st.vars[p]
                if row[vi] == v:
                    return
                row[vi] = v
                st.events.append({"type": "set", "turn": st.turn, "player": NAMES[p], "var": name,
                                  "value": game.plain(target.type, v)})
            return set_var
        ci = game.counters.index(target.name)
        holder = ec.holder(target.obj)
        return lambda st, L, v: set_counter(st, holder(st, L), ci, v)

    def f_Assign(self, s: n.Assign) -> Fn:
        target = s.target
        if isinstance(target, n.Attr) and target.ref[0] == "pvar" and _local(target.obj) is not None:
            return self.assign_player_var(target, self.ec.expr(s.value))
        store, value = self.setter(target), self.ec.expr(s.value)
        return lambda st, L: store(st, L, value(st, L))

    def assign_player_var(self, target: n.Attr, value: Fn) -> Fn:
        """`p.var = value` with `p` a local name, the commonest assignment, in one function."""
        game, local, kind, name = self.game, _local(target.obj), target.type, target.name
        vi = game.var_names.index(name)

        def assign(st, L):
            p = L[local]
            v = value(st, L)
            row = st.vars[p]
            if row[vi] != v:
                row[vi] = v
                st.events.append({"type": "set", "turn": st.turn, "player": NAMES[p], "var": name,
                                  "value": game.plain(kind, v)})
        return assign

    def f_AugAssign(self, s: n.AugAssign) -> Fn:
        store, current, amount = self.setter(s.target), self.ec.expr(s.target), self.ec.expr(s.value)
        sign = 1 if s.op == "+=" else -1
        return lambda st, L: store(st, L, current(st, L) + sign * amount(st, L))

    # -- counters and cards --------------------------------------------------------------

    def f_MoveCounter(self, s: n.MoveCounter) -> Fn:
        ec = self.ec
        amount = ec.expr(s.amount) if s.amount is not None else None
        counter, src, dst = ec.expr(s.counter), ec.holder(s.source), ec.holder(s.dest)
        names = self.game.counters

        def move(st, L):
            c, a, z = counter(st, L), src(st, L), dst(st, L)
            if c is None or a is None or z is None:
                return
            have = st.counters[a][c]
            k = have if amount is None else max(0, min(amount(st, L), have))
            if k:
                st.counters[a][c] = have - k
                st.counters[z][c] += k
                st.events.append({"type": "transferred", "turn": st.turn, "counter": names[c], "amount": k,
                                  "from": holder_label(st, a), "to": holder_label(st, z)})
        return move

    def f_MoveCards(self, s: n.MoveCards) -> Fn:
        cards, dest = self.ec.as_cards(s.cards), self.ec.expr(s.dest)

        def move(st, L):
            z = dest(st, L)
            for c in cards(st, L):
                move_card(st, c, z)
        return move

    def f_Discard(self, s: n.Discard) -> Fn:
        cards = self.ec.as_cards(s.cards)

        def discard(st, L):
            for c in cards(st, L):
                discard_card(st, c)
        return discard

    def f_Draw(self, s: n.Draw) -> Fn:
        amount, src, dst = self.ec.expr(s.amount), self.ec.expr(s.source), self.ec.expr(s.dest)
        return lambda st, L: draw_cards(st, amount(st, L), src(st, L), dst(st, L))

    def f_Shuffle(self, s: n.Shuffle) -> Fn:
        zone = self.ec.expr(s.zone)
        return lambda st, L: shuffle_zone(st, zone(st, L))

    def f_Roll(self, s: n.Roll) -> Fn:
        amount, var, die = self.ec.expr(s.amount), s.var, s.die
        faces = max(self.game.dice[die])
        roller = self.ec.expr(s.player) if s.player is not None else (lambda st, L: L.get("me"))

        def roll(st, L):
            k = max(0, amount(st, L))
            if k > MAX_DICE:
                raise RuleError(f"a roll of {k} dice is more than the {MAX_DICE} a roll may have")
            rolled = [st.roll_die(faces) for _ in range(k)]
            L[var] = rolled
            who = roller(st, L)
            st.events.append({"type": "rolled", "turn": st.turn, "die": die, "faces": rolled,
                              "player": None if who is None else NAMES[who]})
            end_roll_durations(st, die, who)
        return roll

    # -- control flow --------------------------------------------------------------------

    def s_If(self, s: n.If, b: Builder) -> None:
        end = Label()
        for cond, body in s.branches:
            skip = Label()
            b.emit(_jump_unless(self.ec.expr(cond), skip), cond.span)
            self.block(body, b)
            b.emit(_jump(end), None)
            skip.pc = b.here()
        if s.orelse:
            self.block(s.orelse, b)
        end.pc = b.here()

    def s_ForEach(self, s: n.ForEach, b: Builder) -> None:
        items = self.ec.as_list(s.source, copy=True)
        cond = self.ec.expr(s.cond) if s.cond is not None else None
        seq, pos, var = self.fresh("items"), self.fresh("i"), s.var
        top, end = Label(), Label()

        def start(st, fr):
            L = fr[2]
            L[seq] = list(items(st, L))
            L[pos] = 0

        def step(st, fr):
            L = fr[2]
            xs = L[seq]
            while True:
                i = L[pos]
                if i >= len(xs):
                    del L[seq], L[pos]
                    fr[1] = end.pc
                    return
                L[pos] = i + 1
                L[var] = xs[i]
                if cond is None or cond(st, L):
                    return

        b.emit(start, s.span)
        top.pc = b.emit(step, s.span)
        self.block(s.body, b)
        b.emit(_jump(top), None)
        end.pc = b.here()

    def f_Pass(self, s: n.Pass) -> Fn:
        return lambda st, L: None

    # -- decisions -----------------------------------------------------------------------

    def s_ChooseIn(self, s: n.ChooseIn, b: Builder) -> None:
        ec = self.ec
        who, items = ec.expr(s.player), ec.as_list(s.source, copy=True)
        cond = ec.expr(s.cond) if s.cond is not None else None
        var = s.target.id if isinstance(s.target, n.Name) else None
        store = self.setter(s.target)
        text = self.option_text(item_of(s.source.type) or "?")
        prompt = "choose"

        def op(st, fr):
            L = fr[2]
            answer = st.answer
            if answer is not None:
                st.answer = None
                store(st, L, answer[0])
                return False
            options, values, seen = [], [], set()
            for x in items(st, L):
                if cond is not None:
                    L[var] = x
                    if not cond(st, L):
                        continue
                oid, label = text(st, x)
                if oid in seen:
                    continue
                seen.add(oid)
                options.append([oid, label])
                values.append(x)
            if len(values) <= 1:
                store(st, L, values[0] if values else None)
                return False
            fr[1] -= 1
            return st.ask("choose", prompt, [who(st, L)], [options], [values])
        b.emit(op, s.span)

    def s_ChooseRange(self, s: n.ChooseRange, b: Builder) -> None:
        ec = self.ec
        who, low, high, store = ec.expr(s.player), ec.expr(s.low), ec.expr(s.high), self.setter(s.target)
        name = s.target.id if isinstance(s.target, n.Name) else "how many"

        def op(st, fr):
            L = fr[2]
            answer = st.answer
            if answer is not None:
                st.answer = None
                store(st, L, answer[0])
                return False
            lo, hi = low(st, L), high(st, L)
            if hi <= lo:
                store(st, L, lo)
                return False
            if hi - lo >= MAX_OPTIONS:
                raise RuleError(f"a choice from {lo} to {hi} has more than the {MAX_OPTIONS} options a decision may have")
            values = list(range(lo, hi + 1))
            fr[1] -= 1
            return st.ask("number", f"choose {name}", [who(st, L)], [[[str(v), str(v)] for v in values]], [values])
        b.emit(op, s.span)

    def s_ChooseOne(self, s: n.ChooseOne, b: Builder) -> None:
        ec = self.ec
        who = ec.expr(s.player)
        guards = [(br.label, _slug(br.label), ec.expr(br.cond) if br.cond is not None else None)
                  for br in s.branches]
        picked = self.fresh("branch")
        starts = [Label() for _ in s.branches]
        end = Label()

        def choose(st, fr):
            L = fr[2]
            answer = st.answer
            if answer is not None:
                st.answer = None
                L[picked] = answer[0]
                return False
            options, values = [], []
            for k, (label, slug, cond) in enumerate(guards):
                if cond is None or cond(st, L):
                    options.append([slug, label])
                    values.append(k)
            if len(values) <= 1:
                L[picked] = values[0] if values else None
                return False
            fr[1] -= 1
            return st.ask("branch", "choose one", [who(st, L)], [options], [values])

        def dispatch(st, fr):
            k = fr[2].pop(picked)
            fr[1] = end.pc if k is None else starts[k].pc

        b.emit(choose, s.span)
        b.emit(dispatch, s.span)
        for label, branch in zip(starts, s.branches):
            label.pc = b.here()
            self.block(branch.body, b)
            b.emit(_jump(end), None)
        end.pc = b.here()

    def s_SecretChoose(self, s: n.SecretChoose, b: Builder) -> None:
        ec = self.ec
        people = ec.as_list(s.players, copy=True)
        pcond = ec.expr(s.players_cond) if s.players_cond is not None else None
        items = ec.as_list(s.source, copy=True)
        store = self.setter(s.target)
        var = s.var
        text = self.option_text(item_of(s.source.type) or "?")
        waiting = self.fresh("secret")
        known, values = ec.constant(s.source)
        fixed = ([list(text(None, v)) for v in values], list(values)) if known else None

        def op(st, fr):
            L = fr[2]
            answer = st.answer
            if answer is not None:
                st.answer = None
                chosen = {}
                for p, v in zip(L.pop(waiting), answer):
                    L[var] = p
                    store(st, L, v)
                    chosen[NAMES[p]] = text(st, v)[0]
                st.events.append({"type": "revealed", "turn": st.turn, "choices": chosen})
                return False
            choosers, options, values = [], [], []
            for p in people(st, L):
                L[var] = p
                if pcond is not None and not pcond(st, L):
                    continue
                if fixed is not None:
                    opts, vals = fixed
                else:
                    opts, vals = [], []
                    for x in items(st, L):
                        oid, label = text(st, x)
                        opts.append([oid, label])
                        vals.append(x)
                if len(vals) == 1:
                    store(st, L, vals[0])
                elif vals:
                    choosers.append(p)
                    options.append(opts)
                    values.append(vals)
            if not choosers:
                return False
            L[waiting] = choosers
            fr[1] -= 1
            return st.ask("secret", "choose secretly", choosers, options, values)
        b.emit(op, s.span)

    def s_Play(self, s: n.Play, b: Builder) -> None:
        """`play from ZONE`: four instructions sharing one hidden local.

        choose (a legal card and target, or a discard), declare (the `played`
        event and who may answer), react (each possible answerer in seat order
        decides; the first answer cancels the card), resolve (the card's own
        procedure: placing it, then its effect).
        """
        zone, else_discard = self.ec.expr(s.zone), s.else_discard
        slot = self.fresh("play")
        game = self.game

        def choose(st, fr):
            L = fr[2]
            answer = st.answer
            if answer is not None:
                st.answer = None
                L[slot] = answer[0]
                return False
            zid = zone(st, L)
            player = st.lay.zones[zid][1]
            options, values = legal_plays(st, player, zid)
            kind, prompt = "play", "play a card"
            if not values and else_discard:
                options, values = discard_options(st, zid)
                kind, prompt = "discard", "discard a card"
            if len(values) <= 1:
                L[slot] = values[0] if values else None
                return False
            fr[1] -= 1
            return st.ask(kind, prompt, [player], [options], [values])

        def declare(st, fr):
            L = fr[2]
            pick = L.get(slot)
            if pick is None:
                return False
            if pick[0] == "discard":
                L.pop(slot)
                discard_card(st, pick[1])
                return False
            _, card, player, target = pick
            st.events.append({"type": "played", "turn": st.turn, "player": NAMES[player],
                              "card": game.card_type[card].id, "id": card, "target": NAMES[target]})
            L[slot] = [card, player, target, answerers(st, card, player), 0]
            return False

        def react(st, fr):
            L = fr[2]
            state = L.get(slot)
            if state is None:
                return False
            card, player, target, reactors, i = state
            answer = st.answer
            if answer is not None:
                st.answer = None
                if answer[0] is not None:
                    reactor, reaction = answer[0]
                    L.pop(slot)
                    answer_card(st, card, player, reactor, reaction)
                    return False
                i += 1
            while i < len(reactors):
                reactor = reactors[i]
                options, values = reaction_options(st, card, player, reactor, zone_of_hand(st, reactor, card, player))
                if values:
                    state[4] = i
                    options.append(["pass", "pass"])
                    values.append(None)
                    fr[1] -= 1
                    return st.ask("answer", f"answer {game.card_type[card].name}?", [reactor], [options], [values])
                i += 1
            state[4] = i
            return False

        def resolve(st, fr):
            state = fr[2].pop(slot, None)
            if state is None:
                return False
            card, player, target = state[0], state[1], state[2]
            ctype = game.card_type[card]
            st.stack.append([ctype.play_proc, 0, {"me": player, "target": target, "this": card}])
            return False

        for op in (choose, declare, react, resolve):
            b.emit(op, s.span)

    def s_Skip(self, s: n.Skip, b: Builder) -> None:
        who = self.ec.expr(s.player)
        game = self.game

        def op(st, fr):
            p = who(st, fr[2])
            st.events.append({"type": "skipped", "turn": st.turn, "player": NAMES[p]})
            if game.order == "seat" and p == st.active:
                end_turn(st)
        b.emit(op, s.span)

    def s_EndTurn(self, s: n.EndTurn, b: Builder) -> None:
        b.emit(lambda st, fr: end_turn(st), s.span)

    def s_CallStmt(self, s: n.CallStmt, b: Builder) -> None:
        name = s.call.func
        proc = self.ec.proc_ids[name]
        names = list(self.ec.sym.procedures[name])
        args = [self.ec.expr(a.value) for a in s.call.args]
        pairs = list(zip(names, args))

        def op(st, fr):
            L = fr[2]
            local = {p: f(st, L) for p, f in pairs}
            if "me" not in local and "me" in L:
                local["me"] = L["me"]
            st.stack.append([proc, 0, local])
        b.emit(op, s.span)


# --- runtime helpers the instructions share --------------------------------------------

def _slug(label: str) -> str:
    return "-".join("".join(ch if ch.isalnum() else " " for ch in label.lower()).split()) or "option"


# =============================================================================
# The whole spec
# =============================================================================

class _Job:
    """One rule text of the spec: where it is, how to parse it, what it must be."""

    def __init__(self, path: tuple, block: bool, scope: dict[str, str], want: str | None = None):
        self.path = path
        self.block = block
        self.scope = scope
        self.want = want
        self.tree: Any = None


class GameCompiler:
    """Builds a ``Game`` from a loaded, schema-checked document."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.data = doc.data
        self.errors: list[RulelangError] = []
        self.sym = build_symbols(self.data)
        self.game = Game()
        self.seat = self.sym.seat_turns

    # -- helpers -------------------------------------------------------------------

    def error(self, message: str, path: tuple, hint: str | None = None, key: bool = False) -> None:
        span = self.doc.key_span(path) if key else self.doc.span(path)
        self.errors.append(SpecError(message, span, hint))

    def parse(self, job: _Job) -> None:
        text = _get(self.data, job.path)
        path = job.path

        def locate(line, col, end_line, end_col):
            return self.doc.text_span(path, line, col, end_line, end_col)
        try:
            job.tree = parse_block(text, locate) if job.block else parse_expression(text, locate)
        except SpecError as error:
            self.errors.append(error)

    def check(self, job: _Job, checker: Checker) -> None:
        if job.tree is None:
            return
        scope = Scope(dict(job.scope))
        if job.block:
            checker.block(job.tree, scope)
        elif job.want is None:
            checker.expr(job.tree, scope)
        elif job.want == "winner":
            kind = checker.expr(job.tree, scope)
            if kind not in (PLAYER, list_of(PLAYER), "?"):
                checker.error("the winner must be a player or a list of players (a role or a team)",
                              job.tree.span)
        else:
            checker.expect(job.tree, scope, job.want, "this")

    # -- the pipeline ------------------------------------------------------------------

    def compile(self) -> Game:
        self.declare()
        jobs = self.jobs()
        for job in jobs.values():
            self.parse(job)
        checker = Checker(self.sym)
        self.refuse_recursive_functions(jobs)
        for name in self.sym.functions:             # functions first: their types are needed
            job = jobs[("functions", name, "value")]
            self.check(job, checker)
            if job.tree is not None:
                self.sym.function_types[name] = job.tree.type or "?"
        for key, job in jobs.items():
            if key[0] != "functions":
                self.check(job, checker)
        self.errors.extend(checker.errors)
        raise_all(self.errors)
        self.generate(jobs)
        return self.game

    def refuse_recursive_functions(self, jobs: dict[tuple, _Job]) -> None:
        """Functions are values, not loops: one that reaches itself through calls is an error."""
        calls: dict[str, list[n.Call]] = {}
        for name in self.sym.functions:
            job = jobs.get(("functions", name, "value"))
            calls[name] = [c for c in _calls_in(job.tree) if c.func in self.sym.functions] if job and job.tree else []

        def reaches(start: str, goal: str, seen: set[str]) -> bool:
            for call in calls.get(start, []):
                if call.func == goal or (call.func not in seen and reaches(call.func, goal, seen | {call.func})):
                    return True
            return False

        for name, made in calls.items():
            for call in made:
                if call.func == name or reaches(call.func, name, {call.func}):
                    via = "" if call.func == name else f" (through '{call.func}')"
                    self.errors.append(SpecError(f"function '{name}' calls itself{via}", call.span,
                                                 "a function computes a value from its arguments; loop with "
                                                 "'for each' in a procedure instead"))
                    jobs[("functions", name, "value")].tree = None
                    break
        raise_all(self.errors)

    def jobs(self) -> dict[tuple, _Job]:
        """Every rule text of the spec with the names its scope binds."""
        me = {"me": PLAYER} if self.seat else {}
        data, out = self.data, {}

        def add(path: tuple, block: bool, scope: dict, want: str | None = None) -> None:
            if _get(data, path) is not None:
                out[path] = _Job(path, block, scope, want)

        for name, fn in (data.get("functions") or {}).items():
            add(("functions", name, "value"), False, dict(self.sym.functions[name]))
        for name in (data.get("procedures") or {}):
            add(("procedures", name, "effect"), True, me | dict(self.sym.procedures[name]))
        add(("setup",), True, {})
        for i, _ in enumerate((data.get("turn") or {}).get("steps") or []):
            add(("turn", "steps", i, "effect"), True, dict(me))
        card_scope = {"me": PLAYER, "target": PLAYER, "this": CARD}
        answer_scope = {"me": PLAYER, "card": CARD, "this": CARD}
        watch_scope = {"me": PLAYER, "owner": PLAYER, "this": CARD}
        for i, card in enumerate(data.get("cards") or []):
            add(("cards", i, "play", "target"), False, card_scope, BOOL)
            add(("cards", i, "play", "to"), False, card_scope, ZONE)
            add(("cards", i, "play", "effect"), True, card_scope)
            add(("cards", i, "answer", "when"), False, answer_scope, BOOL)
            add(("cards", i, "answer", "effect"), True, answer_scope)
            add(("cards", i, "discard_when"), False, watch_scope, BOOL)
        move_scope = {"me": PLAYER, "owner": PLAYER, "card": CARD}
        resolve_scope = {"me": PLAYER, "target": PLAYER, "card": CARD}
        for i, trig in enumerate(data.get("triggers") or []):
            scope = resolve_scope if str(trig.get("on", "")).split()[:1] == ["resolve"] else move_scope
            add(("triggers", i, "if"), False, scope, BOOL)
            add(("triggers", i, "effect"), True, scope)
        add(("score",), False, {"p": PLAYER}, INT)
        for i, _ in enumerate(data.get("end") or []):
            add(("end", i, "when"), False, dict(me), BOOL)
            add(("end", i, "winner"), False, dict(me), "winner")
        return out

    # -- declarations --------------------------------------------------------------------

    def declare(self) -> None:
        g, data = self.game, self.data
        g.name = str(data.get("game", "untitled"))
        g.path = str(self.doc.path)
        players = data.get("players") or {}
        g.min_players, g.max_players = players.get("min", 2), players.get("max", players.get("min", 2))
        if g.max_players < g.min_players:
            self.error(f"'max' ({g.max_players}) must be at least 'min' ({g.min_players})", ("players", "max"))
        g.locations = list(self.sym.locations)
        g.location_labels = {k: (v or {}).get("label", k.replace("_", " ")) for k, v in self.sym.locations.items()}
        g.counters = list(self.sym.counters)
        self.declare_names_once()
        self.declare_vars()
        self.declare_tables()
        self.declare_dice()
        self.declare_roles()
        self.declare_zones()
        self.declare_cards()
        turn = data.get("turn") or {}
        g.order = turn.get("order", "seat")
        g.first = turn.get("first", "first")
        g.turn_limit = turn.get("limit", 1000)
        g.step_budget = data.get("step_budget", 100_000)

    def declare_names_once(self) -> None:
        """A name means one thing: a location may not also be a zone, say."""
        seen: dict[str, str] = {}
        groups = [("location", self.sym.locations), ("counter", self.sym.counters), ("zone", self.sym.zones),
                  ("role", self.sym.roles), ("table", self.sym.tables), ("card", self.sym.cards)]
        for kind, names in groups:
            for name in names:
                if name in seen and not (kind == "card" and seen[name] == "card"):
                    path = {"location": ("locations", name), "counter": ("counters", name),
                            "zone": ("zones", name), "table": ("tables", name)}.get(kind, ())
                    self.error(f"'{name}' names both a {seen[name]} and a {kind}", path, key=bool(path))
                seen.setdefault(name, kind)
        reserved = {"me", "target", "this", "card", "owner", "players", "others", "game", "turn", "none",
                    "true", "false"}
        for kind, names in groups:
            for name in names:
                if name in reserved:
                    self.error(f"'{name}' is a reserved word of the language", (kind + "s", name), key=True)

    def declare_vars(self) -> None:
        g = self.game
        for name, decl in (self.data.get("vars") or {}).items():
            decl = decl or {}
            kind = self.sym.vars[name]
            initial = decl.get("initial", 0 if kind == INT else False if kind == BOOL else None)
            if kind == LOCATION and initial is not None:
                if initial not in g.locations:
                    self.error(f"unknown location '{initial}'", ("vars", name, "initial"),
                               did_you_mean(str(initial), g.locations))
                    initial = None
                else:
                    initial = 1 + g.locations.index(initial)
            g.var_names.append(name)
            g.var_initial.append(initial)
            g.var_types.append(kind)

    def declare_tables(self) -> None:
        g = self.game
        for name, table in (self.data.get("tables") or {}).items():
            columns = list(table.get("columns") or [])
            rows = {}
            for key, row in (table.get("rows") or {}).items():
                if not isinstance(key, int) or isinstance(key, bool):
                    self.error(f"table rows are keyed by player count, not '{key}'", ("tables", name, "rows", key),
                               key=True)
                    continue
                if len(row) != len(columns):
                    self.error(f"this row has {len(row)} values for {len(columns)} columns",
                               ("tables", name, "rows", key))
                rows[key] = list(row)
            if table.get("by", "players") == "players":
                for count in range(g.min_players, g.max_players + 1):
                    if count not in rows:
                        self.error(f"table '{name}' has no row for {count} players", ("tables", name, "rows"),
                                   f"add a row '{count}: [...]' or change players: min/max")
            g.tables[name] = {"columns": columns, "rows": rows}

    def declare_dice(self) -> None:
        for name, die in (self.data.get("dice") or {}).items():
            faces = die.get("faces", 6)
            table = {f: None for f in range(1, faces + 1)}
            for outcome, values in (die.get("outcomes") or {}).items():
                for face in values:
                    if face not in table:
                        self.error(f"die '{name}' has no face {face}", ("dice", name, "outcomes", outcome))
                    else:
                        table[face] = outcome
            self.game.dice[name] = table

    def declare_roles(self) -> None:
        g = self.game
        roles = self.data.get("roles") or []
        if sum(1 for r in roles if r.get("count") is None) > 1:
            self.error("only one role may leave out 'count' (it takes the remaining seats)", ("roles",))
        g.roles = [dict(r) for r in roles]
        g.teams = {team: list(members) for team, members in self.sym.teams.items()}
        for role in roles:
            g.teams.setdefault(role.get("team", role["name"]), [])
            if role["name"] not in g.teams[role.get("team", role["name"])]:
                g.teams[role.get("team", role["name"])].append(role["name"])

    def declare_zones(self) -> None:
        g = self.game
        zones = self.data.get("zones") or {}
        for name, decl in zones.items():
            decl = decl or {}
            owner = decl.get("owner", "table")
            group = g.table_zones if owner == "table" else g.player_zones
            z = ZoneDecl(name, len(group), owner, decl.get("visibility", "public"), decl.get("label", name),
                         unique=decl.get("unique") == "slot")
            group.append(z)
            g.zones.append(z)
        index = {z.name: i for i, z in enumerate(g.zones)}
        for name, decl in zones.items():
            decl = decl or {}
            z = g.zones[index[name]]
            for key in ("refill_from", "discard"):
                other = decl.get(key)
                if other is None:
                    continue
                if other not in index:
                    self.error(f"unknown zone '{other}'", ("zones", name, key), did_you_mean(other, index))
                elif g.zones[index[other]].owner != z.owner and key == "refill_from":
                    self.error(f"'{other}' must have the same owner as '{name}' to refill it", ("zones", name, key))
                else:
                    setattr(z, key, index[other])
            for other in decl.get("unique_with") or []:
                if other not in index:
                    self.error(f"unknown zone '{other}'", ("zones", name, "unique_with"), did_you_mean(other, index))
                else:
                    z.unique_with.append(index[other])

    def declare_cards(self) -> None:
        g, sym = self.game, self.sym
        index = {z.name: i for i, z in enumerate(g.zones)}
        declared_tags = self.data.get("tags")
        seen: set[str] = set()
        for i, card in enumerate(self.data.get("cards") or []):
            cid = card["id"]
            if cid in seen:
                self.error(f"card id '{cid}' is used twice", ("cards", i, "id"))
            seen.add(cid)
            zone = card.get("zone")
            if zone not in index:
                self.error(f"unknown zone '{zone}'", ("cards", i, "zone"),
                           did_you_mean(str(zone), index) or "cards start in a zone declared under 'zones:'")
                continue
            discard = card.get("discard")
            if discard is not None and discard not in index:
                self.error(f"unknown zone '{discard}'", ("cards", i, "discard"), did_you_mean(discard, index))
                discard = None
            discard_index = index[discard] if discard is not None else g.zones[index[zone]].discard
            tags = tuple(card.get("tags") or [])
            for t, tag in enumerate(tags):
                if declared_tags is not None and tag not in declared_tags:
                    self.error(f"unknown tag '{tag}'", ("cards", i, "tags", t),
                               did_you_mean(tag, declared_tags) or "declare it under 'tags:'")
            props = dict(sym.card_props)
            for key, value in (card.get("props") or {}).items():
                if key not in sym.card_props:
                    self.error(f"unknown card property '{key}'", ("cards", i, "props", key),
                               did_you_mean(key, sym.card_props) or "declare it under 'card_props:'", key=True)
                props[key] = value
            ctype = CardType(cid, card.get("name", cid), len(g.cards), card.get("slot", cid), index[zone],
                             discard_index, props, tags, card.get("text", ""), span=self.doc.span(("cards", i)))
            g.cards.append(ctype)
            for _ in range(card.get("count", 1)):
                g.card_type.append(ctype)
                g.slot_of.append(ctype.slot)
        if declared_tags is None:
            sym.tags = {t for c in g.cards for t in c.tags}

    # -- code ------------------------------------------------------------------------------

    def new_proc(self, name: str) -> int:
        self.game.procs.append(Proc(name, [], []))
        return len(self.game.procs) - 1

    def finish(self, index: int, b: Builder) -> None:
        proc = self.game.procs[index]
        proc.code, proc.spans = b.code, b.spans

    def generate(self, jobs: dict[tuple, _Job]) -> None:
        g, data = self.game, self.data
        main = self.new_proc("the turn loop")
        proc_ids = {name: self.new_proc(f"procedure {name}") for name in (data.get("procedures") or {})}
        ec = ExprCompiler(g, self.sym, proc_ids)
        sc = StmtCompiler(ec, has_triggers=bool(data.get("triggers")))

        def expr(path):
            job = jobs.get(path)
            return ec.expr(job.tree) if job is not None else None

        def block(path, name, prefix: list | None = None, suffix: list | None = None) -> int:
            index = self.new_proc(name)
            b = Builder(name)
            for op, span in prefix or []:
                b.emit(op, span)
            job = jobs.get(path)
            if job is not None:
                sc.block(job.tree, b)
            for op, span in suffix or []:
                b.emit(op, span)
            self.finish(index, b)
            return index

        for name, fn in (data.get("functions") or {}).items():
            ec.function_trees[name] = jobs[("functions", name, "value")].tree
            ec.functions[name] = (list(self.sym.functions[name]), expr(("functions", name, "value")))
        for name, index in proc_ids.items():
            b = Builder(f"procedure {name}")
            sc.block(jobs[("procedures", name, "effect")].tree, b)
            self.finish(index, b)
        resolve = self.generate_triggers(jobs, expr, block, ec)
        self.generate_cards(jobs, ec, expr, block, resolve)
        for i, cond in enumerate(data.get("end") or []):
            g.end.append(EndCondition(cond.get("name", f"end condition {i + 1}"), expr(("end", i, "when")),
                                      expr(("end", i, "winner")), self.doc.span(("end", i))))
        g.score = expr(("score",))
        setup = block(("setup",), "setup") if data.get("setup") else None
        steps = []
        for i, step in enumerate((data.get("turn") or {}).get("steps") or []):
            name = step.get("name", f"step {i + 1}")
            inline = sc.inline_body(jobs[("turn", "steps", i, "effect")].tree)
            if inline is not None:      # a step that never waits runs in place, with no frame
                steps.append((name, inline))
            else:
                steps.append((name, block(("turn", "steps", i, "effect"), f"step '{name}'")))
        self.generate_main(main, setup, steps)
        g.code = [p.code for p in g.procs]
        g.reaction_types = [c for c in g.cards if c.answer_when is not None]

    def generate_cards(self, jobs, ec: ExprCompiler, expr, block, resolve: list) -> None:
        g = self.game
        watched: set[int] = set()
        for i, (card, ctype) in enumerate(zip(self.data.get("cards") or [], g.cards)):
            play = card.get("play")
            if play is not None:
                ctype.play_target = expr(("cards", i, "play", "target"))
                to = expr(("cards", i, "play", "to"))
                after = [(_resolved(cond, proc), span) for cond, proc, table, span in resolve
                         if table[g.card_type.index(ctype)]]
                ctype.play_proc = block(("cards", i, "play", "effect"), f"card {ctype.id}",
                                        [(_place(to) if to else _discard_this, self.doc.span(("cards", i, "play")))],
                                        after)
                to_job = jobs.get(("cards", i, "play", "to"))
                if to_job is not None and isinstance(to_job.tree, n.Attr) and to_job.tree.ref[0] == "pzone":
                    watched.add(_decl(g, to_job.tree.name).index + len(g.table_zones))
            answer = card.get("answer")
            if answer is not None:
                ctype.answer_when = expr(("cards", i, "answer", "when"))
                ctype.answer_proc = block(("cards", i, "answer", "effect"), f"answer {ctype.id}")
            if card.get("discard_when") is not None:
                ctype.discard_when = expr(("cards", i, "discard_when"))
            if card.get("discard_after") is not None:
                self.declare_duration(i, card, ctype, jobs, ec)
        if any(c.discard_when is not None for c in g.cards):
            for z in g.zones:
                key = z.index + (len(g.table_zones) if z.owner == "player" else 0)
                z.watched = key in watched or not watched
        raise_all(self.errors)

    def declare_duration(self, i: int, card: dict, ctype: CardType, jobs: dict, ec: ExprCompiler) -> None:
        """`discard_after: {roll: DIE}`: the card leaves its play zone after its owner's next roll of DIE."""
        g = self.game
        die = card["discard_after"]["roll"]
        if die not in g.dice:
            self.error(f"unknown die '{die}'", ("cards", i, "discard_after", "roll"),
                       did_you_mean(die, g.dice) or "declare it under 'dice:'")
            return
        to_job = jobs.get(("cards", i, "play", "to"))
        if to_job is None or not (isinstance(to_job.tree, n.Attr) and to_job.tree.ref[0] == "pzone"):
            self.error("a card that lasts until a roll must be played to a player's zone (play: to: target.ZONE)",
                       ("cards", i, "discard_after"))
            return
        marked, decls = g.discard_after_roll.setdefault(die, ([False] * len(g.card_type), []))
        for instance, kind in enumerate(g.card_type):
            if kind is ctype:
                marked[instance] = True
        decl = _decl(g, to_job.tree.name)
        if decl not in decls:
            decls.append(decl)

    def generate_triggers(self, jobs, expr, block, ec: ExprCompiler) -> list:
        """Zone triggers attach to their zones; resolve triggers are returned for the cards."""
        g = self.game
        resolve = []
        for i, trig in enumerate(self.data.get("triggers") or []):
            words = str(trig.get("on", "")).split()
            if len(words) != 2 or words[0] not in ("enter", "leave", "resolve"):
                self.error("'on' reads 'enter ZONE', 'leave ZONE' or 'resolve KIND'", ("triggers", i, "on"))
                continue
            proc = block(("triggers", i, "effect"), f"trigger '{trig.get('name', i + 1)}'")
            cond = expr(("triggers", i, "if"))
            if words[0] == "resolve":
                ref = _class_of(self.sym, words[1])
                if ref is None:
                    self.error(f"unknown card kind '{words[1]}'", ("triggers", i, "on"),
                               did_you_mean(words[1], self.sym.classes()))
                    continue
                resolve.append((cond, proc, ec.member_table(ref), self.doc.span(("triggers", i))))
                continue
            decl = next((z for z in g.zones if z.name == words[1]), None)
            if decl is None:
                self.error(f"unknown zone '{words[1]}'", ("triggers", i, "on"),
                           did_you_mean(words[1], [z.name for z in g.zones]))
                continue
            (decl.on_enter if words[0] == "enter" else decl.on_leave).append((cond, proc))
        raise_all(self.errors)
        return resolve

    def generate_main(self, main: int, setup: int | None, steps: list[tuple[str, int | Fn]]) -> None:
        """The turn loop: setup, then turns of steps until an end condition holds."""
        g = self.game
        b = Builder("the turn loop")
        if setup is not None:
            b.emit(lambda st, fr: st.stack.append([setup, 0, {}]), None)
        begin = b.here()
        limit, seat = g.turn_limit, g.order == "seat"

        def begin_turn(st, fr):
            st.turn += 1
            if st.turn > limit:
                raise RuleError(f"the game did not end within {limit} turns",
                                hint=f"seed {st.seed}: check the end conditions, or raise turn: limit")
            event = {"type": "turn", "turn": st.turn}
            if seat:
                event["player"] = NAMES[st.active]
            st.events.append(event)
        b.emit(begin_turn, self.doc.span(("turn", "limit")) if "limit" in (self.data.get("turn") or {})
               else self.doc.span(("turn",)))
        for name, proc in steps:
            g.step_pcs[name] = b.emit(_call_step(name, proc, seat), None)

        def next_turn(st, fr):
            if seat:
                st.active = (st.active + 1) % st.n
            fr[1] = begin
        g.end_turn_pc = b.emit(next_turn, None)
        self.finish(main, b)
        g.main = main


def _call_step(name: str, proc: int | Fn, seat: bool) -> Callable:
    """Start a step: push its frame, or run it in place if it never waits."""
    inline = None if isinstance(proc, int) else proc

    def op(st, fr):
        halt = st.halt
        if halt is not None and halt[0] == st.turn and halt[1] == name:
            st.halt = None         # a scenario asked to stop here
            fr[1] -= 1
            return True
        if st.observer is not None:    # tests and tools watch the game between steps
            st.observer(st, name)
        st.events.append({"type": "step", "turn": st.turn, "step": name})
        local = {"me": st.active} if seat else {}
        if inline is not None:
            return inline(st, local)
        st.stack.append([proc, 0, local])
    return op


def _place(to: Fn) -> Callable:
    def op(st, fr):
        L = fr[2]
        move_card(st, L["this"], to(st, L), "play")
    return op


def _resolved(cond: Fn | None, proc: int) -> Callable:
    """After a card's effect: run a `resolve` trigger that matches it."""
    def op(st, fr):
        L = fr[2]
        local = {"me": L["me"], "card": L["this"], "target": L["target"]}
        if cond is None or cond(st, local):
            st.stack.append([proc, 0, local])
    return op


def _class_of(sym: Symbols, name: str) -> tuple | None:
    if name in sym.cards:
        return ("card", name)
    if name in sym.tags:
        return ("tag", name)
    if name in sym.slots:
        return ("slot", name)
    return None


def _discard_this(st, fr) -> None:
    discard_card(st, fr[2]["this"], "resolved")


def _local(e: n.Expr) -> str | None:
    """The name, if the expression is just a local name."""
    return e.ref[1] if isinstance(e, n.Name) and e.ref and e.ref[0] == "local" else None


def _calls_in(node: Any) -> list[n.Call]:
    """Every call in an expression tree."""
    found = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, n.Call):
            found.append(item)
        if isinstance(item, n.Node):
            stack.extend(v for v in vars(item).values() if isinstance(v, (n.Node, list)))
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        if isinstance(data, dict):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and key < len(data):
            data = data[key]
        else:
            return None
    return data


def compile_game(doc: Document) -> Game:
    """A checked, compiled ``Game`` from a loaded document (raises SpecError)."""
    return GameCompiler(doc).compile()
