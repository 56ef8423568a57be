"""A checked rule text in plain words: a method per node class, looked up in tables built at import.

``Words(spec).block(tree)`` gives the lines of a block (``Line``: its words and the lines under it);
``Words(spec).phrase(expr)`` the words of an expression. Names become what the spec calls them (a zone's
label, a card's name, a counter's label); `me` is "you". The tables are ``visitors.Dispatch`` tables, and
``require`` fails when this module is imported if some node class has no method: a new kind of node cannot
fall through to a rulebook that says nothing about it. A statement kept in one home brings its own
words instead: a ``words(visitor)`` method giving its sentence, which starts here with a capital.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind
from rulelang.lang.visitors import Dispatch, require
from rulelang.model.spec import Spec

from .. import statements  # noqa: F401  (their node classes are part of the tables)
from ..statements import roles

#: The words of the names every rule may see (``bindings.BOUND_WORDS`` and the global ones).
_BOUND = {"me": "you", "target": "the target player", "this": "this card", "card": "the card",
          "owner": "the card's owner", "winners": "the winners"}
_COMPARE = {"=": "is", "==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
            ">": "is more than", ">=": "is at least"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "//": "divided by (rounded down)",
          "%": "modulo"}


@dataclass
class Line:
    """One line of a rule in words, and the lines that depend on it (an `if`'s body, a loop's)."""

    text: str
    under: list[Line] = field(default_factory=list)

    def flat(self, depth: int = 0) -> list[tuple[int, str]]:
        """(depth, words) of this line and every line under it, in reading order."""
        out = [(depth, self.text)]
        for line in self.under:
            out.extend(line.flat(depth + 1))
        return out


def humane(name: str) -> str:
    """An identifier as words: `lost_turns` -> "lost turns"."""
    return name.replace("_", " ")


def listed(items: list[str], last: str = "and") -> str:
    """`a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def article(words: str) -> str:
    """"a apple" is "an apple"."""
    return f"an {words}" if words[:1].lower() in "aeiou" and words[:1] else f"a {words}"


def upper_first(text: str) -> str:
    """The first letter a capital, the rest as it is (``str.capitalize`` would lower a card's name)."""
    return text[:1].upper() + text[1:]


def whose(owner: str, thing: str) -> str:
    """"p's hand"; "the hand of the player before you" when the owner is a phrase of its own."""
    if len(owner.split()) > 2 and owner != "the target player":
        return f"the {thing} of {owner}"
    return f"{possessive(owner)} {thing}"


def possessive(owner: str) -> str:
    """"you" -> "your", "p" -> "p's"."""
    if owner == "you":
        return "your"
    return f"{owner}'" if owner.endswith("s") and len(owner) > 1 else f"{owner}'s"


class Words:
    """Puts checked trees into words, with the names of one game's spec."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.cards = {card.id: card for card in spec.cards}

    # -- entry points -------------------------------------------------------------------

    def block(self, stmts: list[n.Stmt] | None) -> list[Line]:
        return [self.stmt(s) for s in stmts or []]

    def stmt(self, node: n.Stmt) -> Line:
        said = _WORDS(self, node)
        return said if isinstance(said, Line) else Line(upper_first(said))

    def phrase(self, node: n.Expr | None) -> str:
        return "nothing" if node is None else _WORDS(self, node)

    def rule(self, tree: Any) -> list[Line]:
        """A whole rule text: a block's lines, or one line for an expression."""
        if isinstance(tree, list):
            return self.block(tree)
        return [Line(self.phrase(tree))] if tree is not None else []

    # -- names --------------------------------------------------------------------------------

    def zone_label(self, name: str) -> str:
        zone = self.spec.zones.get(name)
        return zone.label if zone is not None and zone.label else humane(name)

    def card_name(self, name: str) -> str:
        card = self.cards.get(name)
        return card.name if card is not None else humane(name)

    def kind(self, name: str) -> str:
        """A card kind, tag or slot named in a test: a card's name, else the tag's words."""
        return self.card_name(name) if name in self.cards else humane(name)

    def role(self, name: str) -> str:
        """The players of a role: "the dealer" for a role of one seat, else "the guest players"."""
        one = any(role.name == name and role.count == 1 for role in self.spec.roles)
        return f"the {humane(name)}" if one else f"the {humane(name)} players"

    def counter_label(self, name: str) -> str:
        place = self.spec.counters.get(name)
        return place.label if place is not None and place.label else humane(name)

    def location_label(self, name: str) -> str:
        place = self.spec.locations.get(name)
        return place.label if place is not None and place.label else humane(name)

    def subject(self, who: n.Expr | None) -> tuple[str, bool]:
        """Who acts, and whether it is "you" (the verb then takes no -s)."""
        words = "you" if who is None else self.phrase(who)
        return words, words == "you"

    def humane(self, name: str) -> str:
        """A name of the rules as words (``humane``), for a statement kept in one home."""
        return humane(name)

    def acts(self, who: n.Expr | None, verb: str, verbs: str) -> str:
        """"you draw" / "p draws"."""
        words, you = self.subject(who)
        return f"{words} {verb if you else verbs}"

    def with_parts(self, text: str, parts: list[Any]) -> Line:
        """A statement's sentence with the words of each of its parts on a line under it (a branch of `chooses one`)."""
        return Line(upper_first(text), [_WORDS(self, part) for part in parts])

    def among(self, var: str | None, source: n.Expr | None, cond: n.Expr | None) -> str:
        """`x in SOURCE where COND` as "x among SOURCE such that COND"."""
        text = f"{var} among {self.phrase(source)}" if var else self.phrase(source)
        return text + (f" such that {self.phrase(cond)}" if cond is not None else "")

    def said(self, node: n.Node) -> str:
        """Any node's words (a call's argument as much as an expression)."""
        return _WORDS(self, node)

    def listed(self, items: list[str]) -> str:
        return listed(items)

    def heading(self, text: str, body: list[n.Stmt] | None) -> Line:
        """A line and the lines of the block it leads (a loop's body, a branch)."""
        return Line(text, self.block(body))

    def chained(self, lines: list[Line]) -> Line:
        """Lines at one depth standing as one statement (`if` ... `otherwise`)."""
        return lines[0] if len(lines) == 1 else _Chained(lines)

    # -- expressions ---------------------------------------------------------------------------

    def w_Num(self, e: n.Num) -> str:
        return str(e.value)

    def w_Text(self, e: n.Text) -> str:
        return f"\u201c{e.value}\u201d"

    def w_Bool(self, e: n.Bool) -> str:
        return "true" if e.value else "false"

    def w_NoneLit(self, e: n.NoneLit) -> str:
        return "none"

    def w_Name(self, e: n.Name) -> str:
        kind = e.ref.kind if e.ref is not None else None
        if kind is RefKind.LOCAL:
            return _BOUND.get(e.id, e.id)
        named = {RefKind.PLAYERS: lambda: "the players", RefKind.OTHERS: lambda: "the other players",
                 RefKind.GAME: lambda: "the game", RefKind.TURN: lambda: "the turn number",
                 RefKind.PARAM: lambda: f"the setting {humane(e.id)}",
                 RefKind.ROLE: lambda: self.role(e.id), RefKind.TEAM: lambda: f"team {humane(e.id)}",
                 RefKind.LOCATION: lambda: self.location_label(e.id),
                 RefKind.COUNTER: lambda: self.counter_label(e.id),
                 RefKind.ZONE: lambda: f"the {self.zone_label(e.id)}",
                 RefKind.ALL_ZONES: lambda: f"every player's {self.zone_label(e.id)}",
                 RefKind.TABLE: lambda: f"the table {humane(e.id)}"}
        if kind in named:
            return named[kind]()
        if kind in (RefKind.CLASS, RefKind.CARD, RefKind.TAG, RefKind.SLOT, RefKind.CLASS_LOCAL):
            return self.kind(e.id)
        return _BOUND.get(e.id, humane(e.id))

    def w_ListLit(self, e: n.ListLit) -> str:
        return listed([self.phrase(i) for i in e.items]) if e.items else "nothing"

    def w_TupleLit(self, e: n.TupleLit) -> str:
        return f"({', '.join(self.phrase(i) for i in e.items)})"

    def w_ListComp(self, e: n.ListComp) -> str:
        loops = " and ".join(f"each {var} among {self.phrase(source)}" for var, source in e.loops)
        cond = f" such that {self.phrase(e.cond)}" if e.cond is not None else ""
        return f"{self.phrase(e.value)} for {loops}{cond}"

    def w_Attr(self, e: n.Attr) -> str:
        owner = self.phrase(e.obj)
        kind = e.ref.kind if e.ref is not None else None
        if kind is RefKind.PZONE:
            return whose(owner, self.zone_label(e.name))
        if kind is RefKind.GCOUNTER:            # the game holds one of each: its counter needs no owner
            label = self.counter_label(e.name)
            return label if label.startswith("the ") else f"the {label}"
        if kind in (RefKind.PCOUNTER, RefKind.HCOUNTER):
            return whose(owner, self.counter_label(e.name))
        if kind is RefKind.CCOUNTER:
            return f"the {self.counter_label(e.name)} on {owner}"
        if kind is RefKind.OUTCOME:
            return f"the number of '{humane(e.name)}' dice in {owner}"
        if kind is RefKind.TOTAL:
            return f"the total of {owner}"
        if kind is RefKind.SIZE:
            return f"the number of dice in {owner}"
        if kind is RefKind.COLUMN:
            table = e.obj.id if isinstance(e.obj, n.Name) else owner
            return f"the {humane(e.name)} of the {humane(table)} table's row for this number of players"
        if kind is RefKind.CARDOWNER:
            return f"the owner of {owner}"
        return whose(owner, humane(e.name))

    def w_Index(self, e: n.Index) -> str:
        if e.key.type is not None and str(e.key.type) == "counter":      # `t[kind]`: a holder's counter
            return whose(self.phrase(e.obj), f"count of {self.phrase(e.key)}")
        return f"item {self.phrase(e.key)} of {self.phrase(e.obj)}"

    def w_Arg(self, a: n.Arg) -> str:
        if a.source is None:
            return self.phrase(a.value)
        value = self.phrase(a.value)
        lead = "" if value == a.var else f"{value} for each "
        return lead + self.among(a.var, a.source, a.cond)

    def w_Call(self, e: n.Call) -> str:
        args = [_WORDS(self, a) for a in e.args]
        kind = e.ref.kind if e.ref is not None else None
        if kind is RefKind.BUILTIN:
            return _builtin(e.func, args, e.args)
        if kind is RefKind.FUNCTION:
            named = f"\u201c{humane(e.func)}\u201d"
            if e.type is not None and str(e.type) == "bool":
                return f"{named} holds" + (f" for {listed(args)}" if args else "")
            return f"the {named} of {listed(args)}" if args else f"the {named}"
        return f"the result of {humane(e.func)}" + (f" for {listed(args)}" if args else "")

    def w_BinOp(self, e: n.BinOp) -> str:
        return f"{self.phrase(e.left)} {_ARITH.get(e.op, e.op)} {self.phrase(e.right)}"

    def w_Compare(self, e: n.Compare) -> str:
        return f"{self.phrase(e.left)} {_COMPARE.get(e.op, e.op)} {self.phrase(e.right)}"

    def w_BoolOp(self, e: n.BoolOp) -> str:
        inner = (self.phrase(side) for side in (e.left, e.right))
        left, right = (f"({t})" if isinstance(s, n.BoolOp) and s.op != e.op else t
                       for s, t in zip((e.left, e.right), inner))
        return f"{left} {e.op} {right}"

    def w_CondExpr(self, e: n.CondExpr) -> str:
        return f"{self.phrase(e.then)} if {self.phrase(e.cond)}, else {self.phrase(e.orelse)}"

    def w_Not(self, e: n.Not) -> str:
        inner = e.operand
        if isinstance(inner, n.Call) and inner.func == "empty" and inner.ref is not None \
                and inner.ref.kind is RefKind.BUILTIN and len(inner.args) == 1:
            return f"{_WORDS(self, inner.args[0])} is not empty"
        if isinstance(inner, (n.Name, n.Attr, n.Call)):
            return f"not {self.phrase(inner)}"
        return f"not ({self.phrase(inner)})"

    def w_Neg(self, e: n.Neg) -> str:
        return f"minus {self.phrase(e.operand)}"

    def w_Member(self, e: n.Member) -> str:
        return f"{self.phrase(e.item)} is {'not ' if e.negated else ''}in {self.phrase(e.container)}"

    def w_IsTest(self, e: n.IsTest) -> str:
        return f"{self.phrase(e.obj)} is {'not ' if e.negated else ''}{article(self.kind(e.name))}"

    def w_HasTest(self, e: n.HasTest) -> str:
        return f"{self.phrase(e.zone)} holds {article(self.kind(e.name))}"

    # -- statements ---------------------------------------------------------------------------



    def w_Branch(self, b: n.Branch) -> Line:
        cond = f" (if {self.phrase(b.cond)})" if b.cond is not None else ""
        return Line(f"\u201c{b.label}\u201d{cond}:", self.block(b.body))

    def w_EachBranch(self, b: n.EachBranch) -> Line:
        return Line(f"One option for {self.among(b.var, b.source, b.cond)}:", self.block(b.body))




class _Chained(Line):
    """Several lines at one depth standing as one statement (`if` ... `otherwise`)."""

    def __init__(self, lines: list[Line]):
        super().__init__(lines[0].text, lines[0].under)
        self.rest = lines[1:]

    def flat(self, depth: int = 0) -> list[tuple[int, str]]:
        out = super().flat(depth)
        for line in self.rest:
            out.extend(line.flat(depth))
        return out


def _builtin(func: str, args: list[str], nodes: list[n.Arg]) -> str:
    """A builtin call in words."""
    one = args[0] if args else ""
    if func == "count":
        return f"the number of {one}"
    if func == "any":
        return f"there is some {one}" if nodes and nodes[0].source is not None else f"any of {one} holds"
    if func == "all":
        return f"every {one}" if nodes and nodes[0].source is not None else f"all of {one} hold"
    if func == "empty":
        return f"{one} is empty"
    if func in ("first", "last"):
        return f"the {func} of {one} (none if there is none)"
    if func == "sum":
        return f"the sum of {one}"
    if func in ("max", "min"):
        high = "largest" if func == "max" else "smallest"
        return f"the {high} of {listed(args)}" if len(args) > 1 else f"the {high} of {one}"
    if func == "filter":
        return f"every {one}"
    if func == "next":
        return f"the player after {one}" if one else "the next player"
    if func == "previous":
        return f"the player before {one}" if one else "the previous player"
    if func == "seats_from":
        return f"the players in seat order from {one}"
    if func == "range":
        return f"the numbers from {args[0]} up to (not including) {args[1]}" if len(args) == 2 \
            else f"the numbers from 0 up to (not including) {one}"
    return f"{func}({', '.join(args)})"


#: The method of every node class (a statement of one home may bring its own, ``words``).
_WORDS = Dispatch(Words, "w_", n.Node, own="words")
require("the rulebook's words (rulelang/rulebook/words.py)", _WORDS)


def _fits_statement_roles(w: Words) -> roles.Wording:
    """Never called: mypy checks here that this class has what a statement home calls on it."""
    return w
