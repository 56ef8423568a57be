"""Warnings: what a game declares but never uses, and end conditions no rule asks.

A spec can be sound and still say less than its author meant: a zone no rule names, a procedure no rule
calls, a ruling no entry applies, a token never created, a variable never read or written. None stops a
game, so each is a warning (``SpecWarning``), located at its declaration like an error; `validate --strict`
makes them errors. A game whose end conditions no rule asks (no `check end` any rule can reach), or that
has none, never ends but at its turn limit, which then takes the blame: said here, at the end conditions,
before any game runs.

The uses are read from the checked trees (the checker's ``ref``s), so they are the compiler's own.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rulelang.errors import SpecWarning
from rulelang.lang import nodes as n
from rulelang.lang.refs import NAMED_BY
from rulelang.model.spec import Spec
from rulelang.spec.document import Document
from rulelang.spec.schema import rulings_applied

#: The kinds of declaration warned of when no rule names them, with the ref kinds that name them.
USES = {kind: NAMED_BY[kind] for kind in ("zone", "variable", "procedure", "function")}


def spec_warnings(spec: Spec, doc: Document, trees: Mapping[tuple, Any]) -> list[SpecWarning]:
    """Every warning of a checked game (the caller puts them in file order)."""
    uses = _Uses(trees)
    out = list(_unused_zones(spec, doc, uses.named["zone"] | _zones_declarations_name(spec)))
    out += _unused("variable", spec.vars, uses.named["variable"], doc, "no rule reads or sets it",
                   "read or set it in a rule (as me.NAME), or remove it")
    out += _unused("procedure", spec.procedures, uses.named["procedure"], doc, "no rule calls it",
                   "call it from a rule, or remove it")
    out += _unused("function", spec.functions, uses.named["function"], doc, "no rule calls it",
                   "call it from a rule, or remove it")
    out += _unused_tokens(spec, doc, uses.created)
    out += _unused_rulings(doc)
    if spec.end and not uses.reaches_check_end():
        out.append(SpecWarning("no rule runs 'check end', so these end conditions are never asked",
                               doc.key_span(("end",)),
                               "add 'check end' where the game may be over, as the last line of a step"))
    elif not spec.end:
        out.append(SpecWarning("the game has no end conditions, so it only stops at its turn limit",
                               doc.key_span(("end",) if "end" in doc.data else ("game",)),
                               "add end: [{name: ..., when: CONDITION, winner: PLAYERS}] and 'check end' in a step"))
    return out



def _creates(node: n.Node) -> bool:
    """`create N CARD in Z`: its node lives in rulelang/statements/, a stage above checking, so it is
    known here by the rule it is built from (the syntax layer's table) rather than imported."""
    return type(node) is n.HOME_STATEMENTS.get("create")


class _Uses:
    """What the checked rule texts name, read in one walk of their trees."""

    def __init__(self, trees: Mapping[tuple, Any]):
        self.named: dict[str, set[str]] = {kind: set() for kind in USES}
        self.created: set[str] = set()              # tokens some `create` brings in
        self.calls: dict[str | None, set[str]] = {}  # procedures called by each procedure (None: by other rules)
        self.ends: set[str | None] = set()          # whose texts run `check end` (None: a rule not a procedure)
        for path, tree in trees.items():
            owner = str(path[1]) if path[0] == "procedures" and len(path) > 1 else None
            for node in n.walk(tree or []):
                self._note(node, owner)

    def _note(self, node: n.Node, owner: str | None) -> None:
        if getattr(node, "MAY_END_GAME", False):     # `check end` (rulelang/statements/check_end.py)
            self.ends.add(owner)
        elif _creates(node):
            self.created.add(node.card)  # type: ignore[attr-defined]
        ref = getattr(node, "ref", None)
        if ref is None:
            return
        name = ref.name or getattr(node, "func", None) or getattr(node, "name", None)
        for kind, refs in USES.items():
            if ref.kind in refs and isinstance(name, str):
                self.named[kind].add(name)
                if kind == "procedure":
                    self.calls.setdefault(owner, set()).add(name)

    def reaches_check_end(self) -> bool:
        """Whether a `check end` runs from some rule: one outside procedures, or in a procedure called from one
        (directly or through others). End conditions are asked nowhere else, so without one the game runs to
        its turn limit every time."""
        seen: set[str | None] = set()
        todo: list[str | None] = [None]
        while todo:
            who = todo.pop()
            if who in self.ends:
                return True
            if who not in seen:
                seen.add(who)
                todo.extend(self.calls.get(who, set()) - seen)
        return False


def _zones_declarations_name(spec: Spec) -> set[str]:
    """Zones named by declarations: another zone's refill and discard, a card's discard or lasts_in, a trigger's
    zone, a token's supply (cards come into play from it)."""
    out: set[str] = set()
    for zone in spec.zones.values():
        out.update(name for name in (zone.refill_from, zone.discard, *zone.unique_with) if name)
    for card in spec.cards:
        out.update(name for name in (card.discard, card.lasts_in) if name)
        if card.token:
            out.add(card.zone)
    out.update(trig.on.subject for trig in spec.triggers if trig.on is not None and trig.on.event.on_card)
    return out


def _unused_zones(spec: Spec, doc: Document, named: set[str]) -> Iterator[SpecWarning]:
    for name in spec.zones:
        if name not in named:
            starting = [card.id for card in spec.cards if card.zone == name]
            held = f"; the cards that start there ({', '.join(dict.fromkeys(starting))}) never move" if starting else ""
            yield SpecWarning(f"zone '{name}' is never used: no rule names it{held}", doc.key_span(("zones", name)),
                              "name it in a rule, or remove it")


def _unused(kind: str, declared: Mapping[str, Any], named: set[str], doc: Document, why: str,
            hint: str) -> Iterator[SpecWarning]:
    """A warning at each declaration of a kind (under `vars:`, `procedures:`, `functions:`) no rule names."""
    section = {"variable": "vars"}.get(kind, kind + "s")
    for name in declared:
        if name not in named:
            yield SpecWarning(f"{kind} '{name}' is never used: {why}", doc.key_span((section, name)),
                              hint.replace("NAME", name))


def _unused_tokens(spec: Spec, doc: Document, created: set[str]) -> Iterator[SpecWarning]:
    warned: set[str] = set()
    for card in spec.cards:
        if card.token and card.id not in created and card.id not in warned:
            warned.add(card.id)             # one warning for a token listed twice
            yield SpecWarning(f"token '{card.id}' is never created, so it never comes into play",
                              doc.span(card.path + ("id",)), f"bring it in with 'create 1 {card.id} in ZONE', "
                              "or remove it")


def _unused_rulings(doc: Document) -> Iterator[SpecWarning]:
    rulings = doc.data.get("rulings")
    if not isinstance(rulings, dict) or not rulings:
        return
    applied = rulings_applied(doc)
    for name in rulings:
        if name not in applied:
            yield SpecWarning(f"ruling '{name}' is never applied: no entry names it with 'rule:'",
                              doc.key_span(("rulings", name)), f"add 'rule: {name}' to the entry that follows it, "
                              "or remove it")
