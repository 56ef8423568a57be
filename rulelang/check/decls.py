"""Checking a spec's declarations against each other, before any rule text is compiled.

The schema checks each declaration's shape alone; these checks need several
at once: a card's zone must be declared, a name must mean one thing, a table
must have a row for every player count, a die must have the faces its
outcomes name. Errors are collected (each at its YAML key or value), so the
compiler only ever builds a ``Game`` from a model that passed them.

``check_declarations`` runs before rule texts are checked; ``trigger_errors``
and ``card_link_errors`` after, since what they report only matters once the
rule texts are known to be sound (and the second reads their checked trees).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rulelang.check.spec_bounds import MAX_CARDS, card_total, numbers_out_of_range
from rulelang.errors import RulelangError, SpecError, did_you_mean, did_you_mean_or_list, raise_all, shown
from rulelang.lang import nodes as n
from rulelang.lang.bindings import RESERVED_WORDS
from rulelang.lang.refs import RefKind
from rulelang.lang.types import BOOL, INT, LOCATION, Type, declared_type, tuple_items, type_word_hint
from rulelang.model.params import declaration_problems, resolve
from rulelang.model.spec import ON_FORMS, Card, Event, Owner, Spec
from rulelang.printable import counted
from rulelang.spec.document import Document
from rulelang.spec.inputs import canonical


class _Report:
    """Collects errors located by YAML path."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.errors: list[RulelangError] = []

    def error(self, message: str, path: tuple, hint: str | None = None, key: bool = False) -> None:
        span = self.doc.key_span(path) if key else self.doc.span(path)
        self.errors.append(SpecError(message, span, hint))


def check_declarations(spec: Spec, doc: Document,
                       given_params: Mapping[str, Any] | None) -> tuple[list[RulelangError], dict[str, Any]]:
    """Every error among the declarations, and this instance's param values.

    A param value the game refuses raises ParamError at once; so do contradictory param declarations when
    values were given (they cannot be judged against declarations that make no sense).
    """
    report = _Report(doc)
    players = spec.players
    if players.max < players.min:
        report.error(f"'max' ({players.max}) must be at least 'min' ({players.min})", ("players", "max"))
    if spec.returns_bounds is not None and spec.returns_bounds[1] < spec.returns_bounds[0]:
        low, high = spec.returns_bounds
        report.error(f"'max' ({high}) must be at least 'min' ({low})", ("returns", "max"),
                     "every return lies between min and max")
    values = _param_values(spec, report, given_params)
    _names_once(spec, report)
    _vars(spec, report)
    _param_types(doc, report)
    _tables(spec, report)
    _dice(spec, report)
    if sum(1 for role in spec.roles if role.count is None) > 1:
        report.error("only one role may leave out 'count' (it takes the remaining seats)", ("roles",))
    _zones(spec, report)
    _cards(spec, report)
    _phases(spec, report)
    limit = spec.limits.number_limit
    for path, value in numbers_out_of_range(doc.data, limit):
        report.error(f"{shown(value)} is past the game's number_limit of {limit:,}", path,
                     "numbers in a game lie between -number_limit and number_limit")
    total = card_total(doc.data)
    if total > MAX_CARDS:
        report.error(f"the game has {total:,} cards: at most {MAX_CARDS:,} are allowed", ("cards",),
                     hint="a pile of many equal things is a counter (counters: ...)")
    return report.errors, values


def _param_values(spec: Spec, report: _Report, given: Mapping[str, Any] | None) -> dict[str, Any]:
    declared = {name: dict(param.declaration) for name, param in spec.params.items()}
    problems = declaration_problems(declared)
    for name, key, message in problems:
        report.error(message, ("params", name, key))
    if not problems:
        return resolve(declared, given)
    if given:
        raise_all(report.errors)
    return {name: param.default for name, param in spec.params.items()}


def _names_once(spec: Spec, report: _Report) -> None:
    """A name means one thing: a location may not also be a zone, nor any name a word of the language."""
    for name in spec.card_props:
        if name in spec.counters:     # `card.name` must mean one thing
            report.error(f"'{name}' names both a card property and a counter", ("card_props", name), key=True,
                         hint="rename one of them, e.g. the property to 'needs' or the counter to 'tokens'")
    groups: list[tuple[str, Iterable[str]]] = [
        ("location", spec.locations), ("counter", spec.counters), ("zone", spec.zones),
        ("role", dict.fromkeys(r.name for r in spec.roles)), ("table", spec.tables),
        ("card", dict.fromkeys(c.id for c in spec.cards)), ("param", spec.params)]
    paths = {"location": "locations", "counter": "counters", "zone": "zones", "table": "tables", "param": "params"}
    seen: dict[str, str] = {}
    for kind, names in groups:
        for name in names:
            if name in seen and not (kind == "card" and seen[name] == "card"):
                path = (paths[kind], name) if kind in paths else ()
                report.error(f"'{name}' names both a {seen[name]} and a {kind}", path, key=bool(path))
            seen.setdefault(name, kind)
    for kind, names in groups:
        for name in names:
            if name in RESERVED_WORDS:
                report.error(f"'{name}' is a reserved word of the language", (kind + "s", name), key=True)


def _vars(spec: Spec, report: _Report) -> None:
    for var in spec.vars.values():
        where = ("vars", var.name, "initial")
        elements = tuple_items(var.type)
        if elements is None:
            _initial_location(spec, report, var.type, var.initial, where)
        elif not isinstance(var.initial, list) or len(var.initial) != len(elements):
            words = ", ".join(map(str, elements))
            report.error(f"a variable of type ({words}) starts as a list of {len(elements)} values, "
                         f"not {canonical(var.initial)}", where, "write initial: [" + ", ".join(
                             "0" if k == INT else "false" if k == BOOL else "none" for k in elements) + "]")
        else:
            for k, (kind, value) in enumerate(zip(elements, var.initial)):
                _initial_element(spec, report, kind, value, where + (k,))


def _param_types(doc: Document, report: _Report) -> None:
    """Each parameter of a procedure or a function names a type, checked where it is declared (a call of
    it would otherwise be the first to meet a type that is none)."""
    for section in ("procedures", "functions"):
        declared = doc.data.get(section)
        for name, decl in (declared.items() if isinstance(declared, dict) else ()):
            params = decl.get("params") if isinstance(decl, dict) else None
            for param, word in (params.items() if isinstance(params, dict) else ()):
                if declared_type(word) is None:
                    report.error(f"unknown type '{word}'", (section, name, "params", param),
                                 type_word_hint(str(word)))


def _initial_element(spec: Spec, report: _Report, kind: Type, value: Any, where: tuple) -> None:
    """One element of a tuple variable's `initial`: a number, true or false, a location's name, or none."""
    if kind == INT and (type(value) is not int):
        report.error(f"element {where[-1]} of this tuple is a number, not {canonical(value)}", where)
    elif kind == BOOL and type(value) is not bool:
        report.error(f"element {where[-1]} of this tuple is true or false, not {canonical(value)}", where)
    elif kind not in (INT, BOOL, LOCATION) and value is not None:
        report.error(f"element {where[-1]} of this tuple starts as none, not {canonical(value)}", where,
                     "none is written null in YAML")
    else:
        _initial_location(spec, report, kind, value, where)


def _initial_location(spec: Spec, report: _Report, kind: Type, value: Any, where: tuple) -> None:
    if kind == LOCATION and value is not None and value not in spec.locations:
        report.error(f"unknown location '{value}'", where,
                     did_you_mean_or_list(str(value), spec.locations, "locations"))


def _tables(spec: Spec, report: _Report) -> None:
    for table in spec.tables.values():
        path = ("tables", table.name, "rows")
        rows = set()
        for key, row in table.rows.items():
            if not isinstance(key, int) or isinstance(key, bool):
                report.error(f"table rows are keyed by player count, not '{key}'", path + (key,), key=True)
                continue
            if len(row) != len(table.columns):
                report.error(f"this row has {counted(len(row), 'value')} for {counted(len(table.columns), 'column')}",
                             path + (key,))
            rows.add(key)
        if table.by == "players":
            for count in range(spec.players.min, spec.players.max + 1):
                if count not in rows:
                    report.error(f"table '{table.name}' has no row for {count} players", path,
                                 f"add a row '{count}: [...]' or change players: min/max")


def _dice(spec: Spec, report: _Report) -> None:
    for die in spec.dice.values():
        faces = set(range(1, die.faces + 1))
        shown_by: dict[Any, str] = {}           # a face -> the first outcome that lists it
        for outcome, values in die.outcomes.items():
            for i, face in enumerate(values):
                which = shown(face) if isinstance(face, int) else face    # a YAML int may be huge
                if face not in faces:
                    report.error(f"die '{die.name}' has no face {which}", ("dice", die.name, "outcomes", outcome))
                elif face in shown_by:
                    _face_shown_twice(report, die.name, which, (shown_by[face], outcome), i)
                else:
                    shown_by[face] = outcome


def _face_shown_twice(report: _Report, die: str, face: str, outcomes: tuple[str, str], i: int) -> None:
    """A face under two outcomes would silently count as one of them: say which, at the second listing."""
    first, second = outcomes
    where = f"twice under '{first}'" if first == second else f"under both '{first}' and '{second}'"
    report.error(f"die '{die}' lists face {face} {where}", ("dice", die, "outcomes", second, i),
                 "a roll shows one outcome per face: list each face under one outcome only")


def _zones(spec: Spec, report: _Report) -> None:
    zones = spec.zones
    for zone in zones.values():
        for key, other in (("refill_from", zone.refill_from), ("discard", zone.discard)):
            if other is None:
                continue
            if other not in zones:
                report.error(f"unknown zone '{other}'", ("zones", zone.name, key),
                             did_you_mean_or_list(other, zones, "zones"))
            elif key == "refill_from" and zones[other].owner != zone.owner:
                report.error(f"'{other}' must have the same owner as '{zone.name}' to refill it",
                             ("zones", zone.name, key))
        for other in zone.unique_with:
            if other not in zones:
                report.error(f"unknown zone '{other}'", ("zones", zone.name, "unique_with"),
                             did_you_mean_or_list(other, zones, "zones"))


def _cards(spec: Spec, report: _Report) -> None:
    zones, declared_tags = spec.zones, spec.declared_tags
    seen: set[str] = set()
    for card in spec.cards:
        path = card.path
        if card.id in seen:
            report.error(f"card id '{card.id}' is used twice", path + ("id",))
        seen.add(card.id)
        if card.zone not in zones:
            report.error(f"unknown zone '{card.zone}'", path + ("zone",),
                         did_you_mean_or_list(str(card.zone), zones, "zones")
                         or "cards start in a zone declared under 'zones:'")
            continue
        if card.discard is not None and card.discard not in zones:
            report.error(f"unknown zone '{card.discard}'", path + ("discard",),
                         did_you_mean_or_list(card.discard, zones, "zones"))
        if card.token and zones[card.zone].owner != Owner.TABLE:
            report.error("a token's zone is its supply, a table zone out of play", path + ("zone",),
                         "declare a zone like 'supply: {owner: table, visibility: hidden}' for it")
        for t, tag in enumerate(card.tags):
            if declared_tags is not None and tag not in declared_tags:
                report.error(f"unknown tag '{tag}'", path + ("tags", t),
                             did_you_mean_or_list(tag, declared_tags, "tags", "tags"))
        for key in card.props:
            if key not in spec.card_props:
                report.error(f"unknown card property '{key}'", path + ("props", key),
                             did_you_mean_or_list(key, spec.card_props, "card properties", "card_props"), key=True)


def _phases(spec: Spec, report: _Report) -> None:
    """`turn:` is one phase; `phases:` several; step names are unique across them."""
    if spec.has_turn and spec.has_phases:
        report.error("a game has either 'turn' or 'phases', not both", ("phases",), key=True,
                     hint="put the turn structure in a phase")
    elif not spec.has_turn and not spec.has_phases:
        report.error("the game has no turns: add 'turn:' (or 'phases:')", (),
                     hint="turn: {order: seat, steps: [{name: ..., effect: ...}]}")
    names: set[str] = set()
    for phase in spec.phases:
        for step in phase.steps:
            if step.name in names:
                report.error(f"two steps are named '{step.name}'", step.path + ("name",),
                             "step names are unique across the game: scenarios and tools find steps by name")
            names.add(step.name)


# --- after the rule texts are checked -----------------------------------------------------------

def trigger_errors(spec: Spec, doc: Document, kinds: Iterable[str]) -> list[RulelangError]:
    """What each trigger's `on:` names must exist: its zone, card kind (``kinds``), die or step."""
    report = _Report(doc)
    steps = spec.step_names()
    kinds = set(kinds)
    for trig in spec.triggers:
        where, on = trig.path + ("on",), trig.on
        if on is None:
            report.error(f"'on' reads {ON_FORMS}", where)
        elif on.event.on_roll and on.subject not in spec.dice:
            report.error(f"unknown die '{on.subject}'", where,
                         did_you_mean_or_list(on.subject, spec.dice, "dice", "dice"))
        elif on.event in (Event.BEFORE_STEP, Event.AFTER_STEP) and on.subject not in steps:
            report.error(f"unknown step '{on.subject}'", where, did_you_mean_or_list(on.subject, steps, "steps"))
        elif on.event is Event.RESOLVE and on.subject not in kinds:
            report.error(f"unknown card kind '{on.subject}'", where,
                         did_you_mean_or_list(on.subject, sorted(kinds), "card kinds"))
        elif on.event.on_card and on.subject not in spec.zones:
            report.error(f"unknown zone '{on.subject}'", where, did_you_mean_or_list(on.subject, spec.zones, "zones"))
    return report.errors


def card_link_errors(spec: Spec, doc: Document, play_to: Callable[[Card], Any]) -> list[RulelangError]:
    """A card's `lasts_in:` must name a player zone, and one that lasts until a roll must stay in one.

    ``play_to`` gives a card's checked `play: to:` tree (or None).
    """
    report = _Report(doc)
    for card in spec.cards:
        lasts_ok = _lasts_in_ok(spec, card, report)
        die = card.discard_after_roll
        if die is None:
            continue
        if die not in spec.dice:
            report.error(f"unknown die '{die}'", card.path + ("discard_after", "roll"),
                         did_you_mean_or_list(die, spec.dice, "dice", "dice"))
            continue
        if not (card.lasts_in is not None and lasts_ok) and not plays_to_player_zone(play_to(card)):
            report.error("a card that lasts until a roll must stay in a player's zone: play it there "
                         "(play: to: target.ZONE) or name the zone with 'lasts_in: ZONE'",
                         card.path + ("discard_after",))
    return report.errors


def _lasts_in_ok(spec: Spec, card: Card, report: _Report) -> bool:
    name = card.lasts_in
    if name is None:
        return True
    zone = spec.zones.get(name)
    if zone is None or zone.owner != Owner.PLAYER:
        report.error(f"unknown zone '{name}'" if zone is None else f"'{name}' is not a player's zone",
                     card.path + ("lasts_in",),
                     did_you_mean(name, [z.name for z in spec.zones.values() if z.owner == Owner.PLAYER])
                     or "a card lasts in a zone each player has (owner: player)")
        return False
    return True


def plays_to_player_zone(tree: Any) -> bool:
    """A checked `play: to:` that names a zone of a player (`target.hand`)."""
    return isinstance(tree, n.Attr) and tree.ref.kind == RefKind.PZONE
