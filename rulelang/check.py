"""The checking pass: every name resolved, every type checked, before compiling.

The checker walks the syntax trees of a game's rule texts with a ``Symbols``
table built from the YAML declarations. It annotates each node with its type
(``node.type``) and what its names refer to (``node.ref``) so the compiler
never has to guess, and it collects every error it finds with its span.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping

from . import nodes as n
from .bindings import BOUND_WORDS, GLOBAL_WORDS
from .decisions import branch_id
from .errors import RulelangError, Span, SpecError, did_you_mean
from .limits import INT64
from .check_hooks import HookChecks, is_proc_call

if TYPE_CHECKING:
    from .model import Card, Role, Zone

# Types are short strings: "int", "bool", "text", "player", "location",
# "counter", "card", "zone", "game", "none", "class" (a card id, tag or slot),
# "roll:<die>", "table:<name>" and "list:<item type>".
INT, BOOL, TEXT, PLAYER, LOCATION, COUNTER, CARD, ZONE, GAME, NONE, CLASS = (
    "int", "bool", "text", "player", "location", "counter", "card", "zone", "game", "none", "class")
NULLABLE = {PLAYER, LOCATION, COUNTER, CARD, CLASS, NONE}
VAR_TYPES = {"int": INT, "bool": BOOL, "player": PLAYER, "location": LOCATION, "card": CARD,
             "counter": COUNTER}

AGGREGATES = {"count", "any", "all", "first", "sum", "max", "min", "filter", "empty", "last"}
BUILTINS = {"next", "previous", "seats_from", "range"} | AGGREGATES


def list_of(item: str) -> str:
    return f"list:{item}"


def item_of(kind: str) -> str | None:
    """The item type of a list (zones hold cards), or None if not a list."""
    if kind == ZONE:
        return CARD
    if kind.startswith("list:"):
        return kind[5:]
    if kind.startswith("roll:"):
        return INT
    return None


def describe(kind: str) -> str:
    """A type in words for error messages."""
    if kind.startswith("list:"):
        return f"a list of {kind[5:]}s"
    if kind.startswith("roll:"):
        return "a dice roll"
    if kind.startswith("table:"):
        return "a table"
    return {INT: "a number", BOOL: "a condition (true/false)", TEXT: "a label", PLAYER: "a player",
            LOCATION: "a location", COUNTER: "a counter name", CARD: "a card", ZONE: "a zone",
            GAME: "the game", NONE: "none", CLASS: "a card kind"}.get(kind, kind)


@dataclass
class Symbols:
    """Every name a game declares, with what it is."""

    locations: dict[str, Mapping[str, Any]] = field(default_factory=dict)     # name -> its properties
    counters: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    vars: dict[str, str] = field(default_factory=dict)                # name -> type
    zones: dict[str, Zone] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    slots: set[str] = field(default_factory=set)
    cards: dict[str, Card] = field(default_factory=dict)
    card_props: dict[str, int] = field(default_factory=dict)
    roles: dict[str, Role] = field(default_factory=dict)
    teams: dict[str, list[str]] = field(default_factory=dict)
    tables: dict[str, list[str]] = field(default_factory=dict)
    dice: dict[str, list[str]] = field(default_factory=dict)         # die -> outcome names
    procedures: dict[str, dict[str, str]] = field(default_factory=dict)   # name -> params
    functions: dict[str, dict[str, str]] = field(default_factory=dict)
    proc_returns: dict[str, str] = field(default_factory=dict)       # procedure -> type it returns
    function_types: dict[str, str] = field(default_factory=dict)
    location_props: dict[str, str] = field(default_factory=dict)    # prop -> type
    counter_props: dict[str, str] = field(default_factory=dict)
    seat_turns: bool = True
    number_limit: int = INT64                                        # numbers lie in [-limit, limit]
    params: dict[str, int | bool] = field(default_factory=dict)      # param -> this instance's value

    def zone_owner(self, name: str) -> str:
        return self.zones[name].owner

    def classes(self) -> set[str]:
        return set(self.cards) | self.tags | self.slots

    def global_names(self) -> set[str]:
        return (set(self.locations) | set(self.counters) | set(self.zones) | set(self.roles)
                | set(self.teams) | set(self.tables) | set(self.params) | set(GLOBAL_WORDS) | {"me"})


@dataclass
class Scope:
    """Local names visible at a point of a rule text, with their types."""

    names: dict[str, str]
    where: str = "rule"

    def child(self) -> "Scope":
        return Scope(dict(self.names), self.where)


class Checker(HookChecks, n.Visitor):
    """Resolves names and checks types; errors are collected, not raised.

    A visitor whose method for a statement class is ``stmt_<Class>`` and for an expression
    class ``expr_<Class>`` (statements and expressions are checked with different results).
    """

    def __init__(self, symbols: Symbols):
        self.sym = symbols
        self.errors: list[RulelangError] = []
        #: Set when a rule puts counters on cards: moving cards then tends to them.
        self.uses_card_counters = False
        #: True while checking an expression whose procedure calls are run before its statement (see check_hooks).
        self.value_calls = False

    # --- reporting ---------------------------------------------------------

    def error(self, message: str, span: Span, hint: str | None = None) -> str:
        """Record an error; the unknown type "?" it returns stops follow-on errors."""
        self.errors.append(SpecError(message, span, hint))
        return "?"

    def expect(self, expr: n.Expr, scope: Scope, wanted: str, what: str) -> str:
        kind = self.expr(expr, scope)
        if kind == NONE and wanted in NULLABLE:
            return kind
        if not self.fits(kind, wanted):
            if kind != "?":
                self.error(f"{what} must be {describe(wanted)}, not {describe(kind)}", expr.span,
                           _type_hint(kind, wanted))
            return "?"
        return kind

    @staticmethod
    def fits(kind: str, wanted: str) -> bool:
        if kind == "?" or kind == wanted:
            return True
        if wanted.startswith("list:") and kind == ZONE:
            return wanted == list_of(CARD)
        if wanted == "list:any":
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

    def stmt_Assign(self, s: n.Assign, scope: Scope) -> None:
        if is_proc_call(s.value, self.sym.procedures):
            kind = self.proc_value(s.value, scope)
            if isinstance(s.target, n.Name) and s.target.id not in scope.names and not self._is_global(s.target.id):
                scope.names[s.target.id] = kind
                s.target.ref, s.target.type = ("local", s.target.id), kind
            elif kind != "?" and not self.fits(kind, self.assignable(s.target, scope)):
                self.error(f"the value must be {describe(s.target.type or '?')}, not {describe(kind)}", s.value.span)
            return
        if isinstance(s.target, n.Name) and s.target.id not in scope.names and not self._is_global(s.target.id):
            kind = self.values_first(s.value, scope)
            if kind in (NONE, "?"):
                kind = "?"
            scope.names[s.target.id] = kind
            s.target.ref = ("local", s.target.id)
            s.target.type = kind
            return
        kind = self.assignable(s.target, scope)
        if kind != "?":
            self.values_first(s.value, scope, kind, "the value")

    def stmt_AugAssign(self, s: n.AugAssign, scope: Scope) -> None:
        kind = self.assignable(s.target, scope)
        if kind not in (INT, "?"):
            self.error(f"'{s.op}' needs a number to change, not {describe(kind)}", s.target.span)
        self.values_first(s.value, scope, INT, "the amount")

    def assignable(self, target: n.Expr, scope: Scope) -> str:
        if isinstance(target, n.Name):
            if target.id in scope.names and target.id not in BOUND_WORDS:
                target.ref = ("local", target.id)
                target.type = scope.names[target.id]
                return target.type
            return self.error(f"cannot assign to '{target.id}'", target.span,
                              "assign to a local name, a player variable or a counter, like p.score")
        if isinstance(target, (n.Attr, n.Index)):
            kind = self.expr(target, scope)
            ref = getattr(target, "ref", None)
            if isinstance(target, n.Index) or (ref and ref[0] in ("pcounter", "hcounter", "gcounter", "ccounter", "pvar")):
                return kind
            return self.error("this cannot be assigned", target.span,
                              "only counters and player variables can be set")
        return self.error("this cannot be assigned", target.span)

    def stmt_MoveCounter(self, s: n.MoveCounter, scope: Scope) -> None:
        if s.amount is not None:
            self.expect(s.amount, scope, INT, "the amount")
        self.expect(s.counter, scope, COUNTER, "what is moved")
        self.holder(s.source, scope)
        self.holder(s.dest, scope)

    def holder(self, expr: n.Expr, scope: Scope) -> str:
        """Something that holds counters: a player, a location, a card or the game."""
        kind = self.expr(expr, scope)
        if kind == CARD:
            self.uses_card_counters = True
        elif kind not in (PLAYER, LOCATION, GAME, "?"):
            self.error(f"only players, locations, cards and the game hold counters, not {describe(kind)}",
                       expr.span)
        return kind

    def stmt_MoveCards(self, s: n.MoveCards, scope: Scope) -> None:
        self.cards(s.cards, scope)
        self.expect(s.dest, scope, ZONE, "the destination")

    def cards(self, expr: n.Expr, scope: Scope) -> str:
        kind = self.expr(expr, scope)
        if kind not in (CARD, ZONE, list_of(CARD), "?", NONE):
            hint = "a kind names cards: pick them with (c in ZONE where c is KIND)" if kind == CLASS else None
            self.error(f"expected a card or cards, not {describe(kind)}", expr.span, hint)
        return kind

    def stmt_Discard(self, s: n.Discard, scope: Scope) -> None:
        self.cards(s.cards, scope)

    def stmt_Draw(self, s: n.Draw, scope: Scope) -> None:
        self.expect(s.amount, scope, INT, "the number of cards")
        self.expect(s.source, scope, ZONE, "the zone drawn from")
        self.expect(s.dest, scope, ZONE, "the zone drawn to")

    def stmt_Reveal(self, s: n.Reveal, scope: Scope) -> None:
        self.cards(s.cards, scope)
        if s.to is not None:
            self.expect(s.to, scope, PLAYER, "whom the cards are shown to")

    def stmt_Shuffle(self, s: n.Shuffle, scope: Scope) -> None:
        self.expect(s.zone, scope, ZONE, "what is shuffled")

    def stmt_Roll(self, s: n.Roll, scope: Scope) -> None:
        self.expect(s.amount, scope, INT, "the number of dice")
        if s.player is not None:
            self.expect(s.player, scope, PLAYER, "who rolls")
        if s.for_player is not None:
            self.expect(s.for_player, scope, PLAYER, "whom the roll is for")
        if s.die not in self.sym.dice:
            self.error(f"unknown die '{s.die}'", s.die_span or s.span,
                       did_you_mean(s.die, self.sym.dice) or "declare it under 'dice:'")
            scope.names[s.var] = "?"
        else:
            scope.names[s.var] = f"roll:{s.die}"

    def stmt_If(self, s: n.If, scope: Scope) -> None:
        for cond, body in s.branches:
            self.values_first(cond, scope, BOOL, "a condition")
            self.block(body, scope)
        if s.orelse:
            self.block(s.orelse, scope)

    def stmt_ForEach(self, s: n.ForEach, scope: Scope) -> None:
        item = self.iterable(s.source, scope)
        scope.names[s.var] = item
        if s.cond is not None:
            self.expect(s.cond, scope, BOOL, "the filter")
        self.block(s.body, scope)

    def iterable(self, expr: n.Expr, scope: Scope) -> str:
        kind = self.expr(expr, scope)
        item = item_of(kind)
        if item is None:
            if kind != "?":
                self.error(f"expected a list, not {describe(kind)}", expr.span)
            return "?"
        return item

    def decider(self, expr: n.Expr, scope: Scope) -> None:
        self.expect(expr, scope, PLAYER, "who chooses")

    def choice_target(self, target: n.Expr, kind: str, scope: Scope) -> None:
        if isinstance(target, n.Name) and (target.id not in scope.names or scope.names[target.id] in ("?", kind)):
            if self._is_global(target.id) and target.id not in scope.names:
                self.error(f"'{target.id}' is already a name of the game", target.span,
                           "choose into a new local name")
                return
            scope.names[target.id] = kind
            target.ref = ("local", target.id)
            target.type = kind
            return
        wanted = self.assignable(target, scope)
        if wanted != "?" and kind != "?" and wanted != kind:
            self.error(f"the choice is {describe(kind)} but this holds {describe(wanted)}", target.span)

    def stmt_ChooseIn(self, s: n.ChooseIn, scope: Scope) -> None:
        self.decider(s.player, scope)
        item = self.iterable(s.source, scope)
        self.choice_target(s.target, item, scope)
        if s.cond is not None and isinstance(s.target, n.Name):
            self.expect(s.cond, scope, BOOL, "the filter")
        elif s.cond is not None:
            self.error("a filtered choice must choose into a local name", s.target.span)

    def stmt_ChooseRange(self, s: n.ChooseRange, scope: Scope) -> None:
        self.decider(s.player, scope)
        self.expect(s.low, scope, INT, "the lowest choice")
        self.expect(s.high, scope, INT, "the highest choice")
        self.choice_target(s.target, INT, scope)

    def stmt_ChooseOne(self, s: n.ChooseOne, scope: Scope) -> None:
        self.decider(s.player, scope)
        seen: set[str] = set()
        ids: set[str] = set()
        for branch in s.branches:
            if branch.label in seen:
                self.error(f"two branches are labelled \"{branch.label}\"", branch.span)
            elif branch_id(branch) in ids:
                self.error(f"two branches have the option id '{branch_id(branch)}'", branch.span,
                           "give one an id of its own: \"label\" as some_id:")
            seen.add(branch.label)
            ids.add(branch_id(branch))
            if branch.cond is not None:
                self.expect(branch.cond, scope, BOOL, "the branch condition")
            self.block(branch.body, scope)

    def stmt_SecretChoose(self, s: n.SecretChoose, scope: Scope) -> None:
        inner = scope.child()
        item = self.iterable(s.players, scope)
        if item not in (PLAYER, "?"):
            self.error("simultaneous choices are made by a list of players", s.players.span)
        inner.names[s.var] = PLAYER
        if s.players_cond is not None:
            self.expect(s.players_cond, inner, BOOL, "the filter")
        option = self.iterable(s.source, inner)
        if not isinstance(s.target, (n.Attr, n.Index)):
            self.error("a simultaneous choice is stored in a player variable, like p.choice", s.target.span)
            return
        wanted = self.assignable(s.target, inner)
        if wanted != "?" and option != "?" and wanted != option:
            self.error(f"the choice is {describe(option)} but this holds {describe(wanted)}", s.target.span)
        if s.cond is not None:
            self.error("filter the options of a simultaneous choice in its list", s.cond.span)

    def stmt_Play(self, s: n.Play, scope: Scope) -> None:
        self.expect(s.zone, scope, ZONE, "the zone played from")
        if not any(card.play is not None for card in self.sym.cards.values()):
            self.error("no card of this game can be played", s.span, "give cards a 'play:' section")

    def stmt_Skip(self, s: n.Skip, scope: Scope) -> None:
        self.decider(s.player, scope)

    def stmt_AnotherTurn(self, s: n.AnotherTurn, scope: Scope) -> None:
        self.decider(s.player, scope)
        if not self.sym.seat_turns:
            self.error("another turn needs turns in seat order (turn: order: seat)", s.span)

    def stmt_Eliminate(self, s: n.Eliminate, scope: Scope) -> None:
        self.expect(s.player, scope, PLAYER, "the player to eliminate")

    def stmt_EndTurn(self, s: n.EndTurn, scope: Scope) -> None:
        pass

    def stmt_CheckEnd(self, s: n.CheckEnd, scope: Scope) -> None:
        pass

    def stmt_Pass(self, s: n.Pass, scope: Scope) -> None:
        pass

    def stmt_CallStmt(self, s: n.CallStmt, scope: Scope) -> None:
        call = s.call
        if not isinstance(call, n.Call):
            self.error("this line does nothing", s.span,
                       "a statement is an assignment, a move, a choice or a procedure call")
            return
        if call.func not in self.sym.procedures:
            self.error(f"unknown procedure '{call.func}'", call.span,
                       did_you_mean(call.func, self.sym.procedures) or "declare it under 'procedures:'")
            return
        self.arguments(call, self.sym.procedures[call.func], scope)
        call.ref = ("procedure", call.func)

    def arguments(self, call: n.Call, params: dict[str, str], scope: Scope) -> None:
        if len(call.args) != len(params):
            self.error(f"'{call.func}' takes {len(params)} argument(s), got {len(call.args)}", call.span)
            return
        for arg, (pname, ptype) in zip(call.args, params.items()):
            if arg.var is not None:
                self.error("a filter cannot be passed here", arg.span)
                continue
            self.expect(arg.value, scope, ptype, f"argument '{pname}'")

    # --- expressions ---------------------------------------------------------

    def expr(self, e: n.Expr, scope: Scope) -> str:
        kind = self.visit(e, scope)
        e.type = kind
        return kind

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

    def expr_Name(self, e: n.Name, scope: Scope) -> str:
        s, name = self.sym, e.id
        if name in scope.names:
            e.ref = ("local", name)
            return scope.names[name]
        if name == "players":
            e.ref = ("players",)
            return list_of(PLAYER)
        if name == "others":
            if "me" not in scope.names:
                return self.error("'others' needs a current player ('me') here", e.span)
            e.ref = ("others",)
            return list_of(PLAYER)
        if name == "game":
            e.ref = ("game",)
            return GAME
        if name == "turn":
            e.ref = ("turn",)
            return INT
        if name in s.params:
            e.ref = ("param", name)
            return BOOL if isinstance(s.params[name], bool) else INT
        if name in s.roles:
            e.ref = ("role", name)
            return PLAYER if s.roles[name].count == 1 else list_of(PLAYER)
        if name in s.teams:
            e.ref = ("team", name)
            return list_of(PLAYER)
        if name in s.locations:
            e.ref = ("location", name)
            return LOCATION
        if name in s.counters:
            e.ref = ("counter", name)
            return COUNTER
        if name in s.zones:
            if s.zone_owner(name) == "table":
                e.ref = ("zone", name)
                return ZONE
            e.ref = ("all_zones", name)
            return list_of(CARD)
        if name in s.tables:
            e.ref = ("table", name)
            return f"table:{name}"
        if name in s.classes():       # a card kind as a value (rulelang/compiler/kinds.py)
            e.ref = ("class", name)
            return CLASS
        if name in BOUND_WORDS:
            return self.error(f"'{name}' is not known here", e.span, _where_hint(name))
        pool = set(scope.names) | s.global_names()
        return self.error(f"unknown name '{name}'", e.span, did_you_mean(name, pool))

    def expr_ListLit(self, e: n.ListLit, scope: Scope) -> str:
        kinds = [self.expr(item, scope) for item in e.items]
        known = [k for k in kinds if k not in ("?", NONE)]
        if not known:
            return list_of("?") if kinds else "list:?"
        first = known[0]
        for item, kind in zip(e.items, kinds):
            if kind not in ("?", NONE, first):
                self.error(f"a list holds one kind of thing: {describe(kind)} among {describe(first)}s",
                           item.span)
        return list_of(first)

    def expr_Attr(self, e: n.Attr, scope: Scope) -> str:
        s = self.sym
        owner = self.expr(e.obj, scope)
        name = e.name
        if owner == "?":
            return "?"
        if owner == PLAYER:
            if name in s.counters:
                e.ref = ("pcounter", name)
                return INT
            if name in s.vars:
                e.ref = ("pvar", name)
                return s.vars[name]
            if name in s.zones and s.zone_owner(name) == "player":
                e.ref = ("pzone", name)
                return ZONE
            if name == "seat":
                e.ref = ("seat",)
                return INT
            pool = set(s.counters) | set(s.vars) | {z for z in s.zones if s.zone_owner(z) == "player"}
            return self.error(f"a player has no '{name}'", e.span, did_you_mean(name, pool))
        if owner == LOCATION:
            if name in s.counters:
                e.ref = ("hcounter", name)
                return INT
            if name in s.location_props:
                e.ref = ("lprop", name)
                return s.location_props[name]
            return self.error(f"a location has no '{name}'", e.span,
                              did_you_mean(name, set(s.counters) | set(s.location_props)))
        if owner == GAME:
            if name in s.counters:
                e.ref = ("gcounter", name)
                return INT
            return self.error(f"the game has no counter '{name}'", e.span, did_you_mean(name, s.counters))
        if owner == COUNTER:
            if name in s.counter_props:
                e.ref = ("cprop", name)
                return s.counter_props[name]
            return self.error(f"a counter has no '{name}'", e.span, did_you_mean(name, s.counter_props))
        if owner == CARD:
            if name in s.card_props:
                e.ref = ("cardprop", name)
                return INT
            if name in s.counters:
                e.ref = ("ccounter", name)
                self.uses_card_counters = True
                return INT
            if name == "owner":
                e.ref = ("cardowner",)
                return PLAYER
            return self.error(f"a card has no '{name}'", e.span,
                              did_you_mean(name, set(s.card_props) | {"owner"}) or "declare it under 'card_props:'")
        if owner.startswith("roll:"):
            outcomes = s.dice[owner[5:]]
            if name in outcomes:
                e.ref = ("outcome", name)
                return INT
            if name in ("total", "size"):
                e.ref = (name,)
                return INT
            return self.error(f"a roll of this die has no '{name}'", e.span,
                              did_you_mean(name, set(outcomes) | {"total", "size"}))
        if owner.startswith("table:"):
            columns = s.tables[owner[6:]]
            if name in columns:
                e.ref = ("column", name)
                return INT
            return self.error(f"table '{owner[6:]}' has no column '{name}'", e.span, did_you_mean(name, columns))
        return self.error(f"{describe(owner)} has no '{name}'", e.span)

    def expr_Index(self, e: n.Index, scope: Scope) -> str:
        self.holder(e.obj, scope)
        self.expect(e.key, scope, COUNTER, "the counter")
        return INT

    def expr_BinOp(self, e: n.BinOp, scope: Scope) -> str:
        self.expect(e.left, scope, INT, f"the left side of '{e.op}'")
        self.expect(e.right, scope, INT, f"the right side of '{e.op}'")
        return INT

    def expr_Neg(self, e: n.Neg, scope: Scope) -> str:
        self.expect(e.operand, scope, INT, "a negated value")
        return INT

    def expr_Compare(self, e: n.Compare, scope: Scope) -> str:
        left = self.expr(e.left, scope)
        right = self.expr(e.right, scope)
        if e.op in ("=", "!="):
            if "?" not in (left, right) and left != right and NONE not in (left, right):
                self.error(f"cannot compare {describe(left)} with {describe(right)}", e.span)
            elif NONE in (left, right) and (left not in NULLABLE | {"?"} or right not in NULLABLE | {"?"}):
                self.error(f"{describe(left if left != NONE else right)} is never none", e.span)
        else:
            for side, kind in ((e.left, left), (e.right, right)):
                if kind not in (INT, "?"):
                    self.error(f"'{e.op}' compares numbers, not {describe(kind)}", side.span)
        return BOOL

    def expr_BoolOp(self, e: n.BoolOp, scope: Scope) -> str:
        self.expect(e.left, scope, BOOL, f"each side of '{e.op}'")
        self.expect(e.right, scope, BOOL, f"each side of '{e.op}'")
        return BOOL

    def expr_CondExpr(self, e: n.CondExpr, scope: Scope) -> str:
        """`A if COND else B`: both values of one kind (or none where a player, card, ... may be none)."""
        self.expect(e.cond, scope, BOOL, "the condition of 'if ... else'")
        outer, self.value_calls = self.value_calls, False   # a procedure's value is computed before the
        try:                                                # statement: never in a branch that may not run
            then, orelse = self.expr(e.then, scope), self.expr(e.orelse, scope)
        finally:
            self.value_calls = outer
        if then == orelse or orelse == "?" or (orelse == NONE and then in NULLABLE):
            return then
        if then == "?" or (then == NONE and orelse in NULLABLE):
            return orelse
        return self.error(f"the two values of 'if ... else' must be of one kind, not {describe(then)} "
                          f"and {describe(orelse)}", e.span)

    def expr_Not(self, e: n.Not, scope: Scope) -> str:
        self.expect(e.operand, scope, BOOL, "what 'not' negates")
        return BOOL

    def expr_Member(self, e: n.Member, scope: Scope) -> str:
        item = self.expr(e.item, scope)
        inner = self.iterable(e.container, scope)
        if "?" not in (item, inner) and item != inner:
            self.error(f"{describe(item)} is never in a list of {inner}s", e.span)
        return BOOL

    def _class_ref(self, name: str, span: Span | None, fallback: Span) -> Any:
        s = self.sym
        if name in s.cards:
            return ("card", name)
        if name in s.tags:
            return ("tag", name)
        if name in s.slots:
            return ("slot", name)
        self.error(f"unknown card kind '{name}'", span or fallback,
                   did_you_mean(name, s.classes()) or "name a card id, a tag or a slot")
        return None

    def expr_IsTest(self, e: n.IsTest, scope: Scope) -> str:
        kind = self.expr(e.obj, scope)
        if kind == PLAYER:
            if e.name in self.sym.roles:
                e.ref = ("role", e.name)
            elif e.name in self.sym.teams:
                e.ref = ("team", e.name)
            else:
                self.error(f"unknown role or team '{e.name}'", e.name_span or e.span,
                           did_you_mean(e.name, set(self.sym.roles) | set(self.sym.teams)))
            return BOOL
        if kind not in (CARD, "?"):
            self.error(f"'is' tests a card or a player, not {describe(kind)}", e.obj.span)
            return BOOL
        if scope.names.get(e.name) == CLASS:      # `c is k`, k a local holding a card kind
            e.ref = ("class_local", e.name)
            return BOOL
        e.ref = self._class_ref(e.name, e.name_span, e.span)
        return BOOL

    def expr_HasTest(self, e: n.HasTest, scope: Scope) -> str:
        self.cards(e.zone, scope)
        e.ref = self._class_ref(e.name, e.name_span, e.span)
        return BOOL

    def expr_Call(self, e: n.Call, scope: Scope) -> str:
        s, f = self.sym, e.func
        if f in s.functions:
            e.ref = ("function", f)
            self.arguments(e, s.functions[f], scope)
            return s.function_types.get(f, "?")
        if f in s.procedures and self.value_calls:
            return self.proc_value(e, scope)
        if f in s.procedures:
            return self.error(f"'{f}' is a procedure: call it on a line of its own", e.span,
                              "the value of a procedure that declares 'returns:' can be used in a statement "
                              "(x = ..., if, while, return), not in a filter, a function or a YAML condition")
        if f not in BUILTINS:
            return self.error(f"unknown function '{f}'", e.span,
                              did_you_mean(f, BUILTINS | set(s.functions)))
        e.ref = ("builtin", f)
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

    def aggregate(self, e: n.Call, arg: n.Arg, scope: Scope) -> str:
        outer, self.value_calls = self.value_calls, False     # a filter runs per item: no procedure there
        try:
            return self._aggregate(e, arg, scope)
        finally:
            self.value_calls = outer

    def _aggregate(self, e: n.Call, arg: n.Arg, scope: Scope) -> str:
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
                if value not in (INT, "?"):
                    self.error(f"'{f}' adds up numbers, not {describe(value)}", arg.value.span,
                               f"write {f}(c.prop for c in LIST)")
                return INT
            if not (isinstance(arg.value, n.Name) and arg.value.id == arg.var):
                self.error(f"'{f}' takes 'x in LIST where CONDITION'", arg.span)
        if f in ("sum", "max", "min"):
            if item not in (INT, "?"):
                self.error(f"'{f}' needs numbers", arg.span, f"write {f}(c.prop for c in LIST)")
            return INT
        if f == "count":
            return INT
        if f in ("any", "all", "empty"):
            return BOOL
        if f in ("first", "last"):
            return item
        return list_of(item)  # filter


def _type_hint(kind: str, wanted: str) -> str | None:
    if kind == ZONE and wanted == INT:
        return "count the cards with count(zone)"
    if kind.startswith("list:") and wanted == INT:
        return "count a list with count(...)"
    if kind == INT and wanted == BOOL:
        return "compare it, as in x > 0"
    if kind.startswith("list:") and wanted == BOOL:
        return "test a list with any(...) or empty(...)"
    return None


def _where_hint(name: str) -> str:
    return {
        "me": "'me' is the current player; it is known in seat-order turns, procedures, cards and triggers",
        "target": "'target' is known in a card's play section",
        "this": "'this' is the card itself, known in a card's texts",
        "card": "'card' is known in triggers and answers",
        "owner": "'owner' is known in triggers and discard_when",
    }[name]


def phase_specs(data: dict) -> list[tuple[tuple, dict]]:
    """The turn structures of a spec with their paths: `phases:`, or `turn:` as the one phase."""
    if data.get("phases"):
        return [(("phases", k), phase or {}) for k, phase in enumerate(data["phases"])]
    return [(("turn",), data.get("turn") or {})]
