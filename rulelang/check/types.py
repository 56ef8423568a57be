"""The checker's vocabulary: the types a value of a rule text can have, and the tables names live in.

Types are ``Type`` values (``types.py``: ``INT``, ``PLAYER``, ``list_of(CARD)``, ``roll_of(die)`` ...),
re-exported here with helpers to take them apart and describe them in words; ``Symbols`` holds every
name a game declares and ``Scope`` the local names visible at one point of a rule text. The checker,
the compiler and the model builder all speak these, so they live apart from the checking itself
(``check.py`` re-exports them).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang.lang.bindings import GLOBAL_WORDS
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import (
    BOOL,
    CARD,
    CLASS,
    COUNTER,
    INT,
    INT64,
    LOCATION,
    NONE,
    PLAYER,
    UNKNOWN,
    ZONE,
    Base,
    Type,
)

if TYPE_CHECKING:
    from rulelang.model.spec import Card, Role, Spec, Zone

__all__ = ["AGGREGATES", "BUILTINS", "MAX_LOOPS", "NULLABLE", "Scope", "Symbols", "describe", "die_of", "item_of",
           "symbols_of"]

NULLABLE = {PLAYER, LOCATION, COUNTER, CARD, CLASS, NONE}
#: The most loops (`for x in LIST`) one list built with `for` may have.
MAX_LOOPS = 8

AGGREGATES = {"count", "any", "all", "first", "sum", "max", "min", "filter", "empty", "last"}
BUILTINS = {"next", "previous", "seats_from", "range"} | AGGREGATES



def die_of(kind: Type | None) -> str | None:
    """The die a roll type is of (`roll_of`'s inverse), or None for any other type."""
    return kind.name if kind is not None and kind.is_roll else None


def item_of(kind: Type) -> Type | None:
    """The item type of a list (zones hold cards, rolls numbers), or None if not a list."""
    if kind == ZONE:
        return CARD
    if kind.is_list:
        return kind.item
    if kind.is_roll:
        return INT
    return None


_WORDS = {Base.INT: "a number", Base.BOOL: "a condition (true/false)", Base.TEXT: "a label", Base.PLAYER: "a player",
          Base.LOCATION: "a location", Base.COUNTER: "a counter name", Base.CARD: "a card", Base.ZONE: "a zone",
          Base.GAME: "the game", Base.NONE: "none", Base.CLASS: "a card kind", Base.ROLL: "a dice roll",
          Base.TABLE: "a table", Base.ANY: "any value", Base.UNKNOWN: "a value of no known type"}


def describe(kind: Type) -> str:
    """A type in words for error messages: never the checker's own marks (``?`` for a type already found
    wrong, ``any``), which mean nothing to a designer."""
    if kind.is_list:
        item = kind.item
        if item.is_tuple:
            return f"a list of tuples {_elements(item)}"
        return "a list" if item.base in (Base.UNKNOWN, Base.ANY) else f"a list of {item}s"
    if kind.is_tuple:
        return f"a tuple {_elements(kind)}"
    return _WORDS.get(kind.base, str(kind))


def _elements(kind: Type) -> str:
    """A tuple type's elements in words: ``(number, player)``."""
    return "(" + ", ".join(describe(k).split(" ", 1)[-1] for k in kind.items) + ")"


@dataclass
class Symbols:
    """Every name a game declares, with what it is."""

    locations: dict[str, Mapping[str, Any]] = field(default_factory=dict)     # name -> its properties
    counters: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    vars: dict[str, Type] = field(default_factory=dict)               # name -> type
    zones: dict[str, Zone] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    slots: set[str] = field(default_factory=set)
    cards: dict[str, Card] = field(default_factory=dict)
    card_props: dict[str, int] = field(default_factory=dict)
    roles: dict[str, Role] = field(default_factory=dict)
    teams: dict[str, list[str]] = field(default_factory=dict)
    tables: dict[str, list[str]] = field(default_factory=dict)
    dice: dict[str, list[str]] = field(default_factory=dict)         # die -> outcome names
    procedures: dict[str, dict[str, Type]] = field(default_factory=dict)  # name -> params
    functions: dict[str, dict[str, Type]] = field(default_factory=dict)
    proc_returns: dict[str, Type] = field(default_factory=dict)      # procedure -> type it returns
    function_types: dict[str, Type] = field(default_factory=dict)
    location_props: dict[str, Type] = field(default_factory=dict)   # prop -> type
    counter_props: dict[str, Type] = field(default_factory=dict)
    seat_turns: bool = True
    number_limit: int = INT64                                        # numbers lie in [-limit, limit]
    params: dict[str, int | bool] = field(default_factory=dict)      # param -> this instance's value

    def zone_owner(self, name: str) -> str:
        return self.zones[name].owner

    def classes(self) -> set[str]:
        return set(self.cards) | self.tags | self.slots

    def class_ref(self, name: str) -> Ref | None:
        """What a card kind names: ("card", id), ("tag", tag) or ("slot", slot); None if it names none."""
        if name in self.cards:
            return Ref(RefKind.CARD, name)
        if name in self.tags:
            return Ref(RefKind.TAG, name)
        if name in self.slots:
            return Ref(RefKind.SLOT, name)
        return None

    def global_names(self) -> set[str]:
        return (set(self.locations) | set(self.counters) | set(self.zones) | set(self.roles)
                | set(self.teams) | set(self.tables) | set(self.params) | set(GLOBAL_WORDS) | {"me"})


@dataclass
class Scope:
    """Local names visible at a point of a rule text, with their types."""

    names: dict[str, Type]
    where: str = "rule"

    def child(self) -> Scope:
        return Scope(dict(self.names), self.where)


def symbols_of(spec: Spec) -> Symbols:
    """Every declared name with what it is: the checker resolves rule texts against these."""
    s = Symbols()
    s.locations = {name: place.props for name, place in spec.locations.items()}
    s.counters = {name: place.props for name, place in spec.counters.items()}
    s.vars = {name: var.type for name, var in spec.vars.items()}
    s.zones = dict(spec.zones)
    s.tags = set(spec.tags)
    s.card_props = dict(spec.card_props)
    s.cards = {card.id: card for card in spec.cards}
    s.slots = {card.slot for card in spec.cards if card.named_slot}
    s.roles = {role.name: role for role in spec.roles}
    for role in spec.roles:
        s.teams.setdefault(role.team, []).append(role.name)
    for name in list(s.teams):
        if name in s.roles and s.teams[name] == [name]:
            del s.teams[name]      # a team of one role is named by the role already
    s.tables = {name: list(table.columns) for name, table in spec.tables.items()}
    s.dice = {name: list(die.outcomes) for name, die in spec.dice.items()}
    for name, proc in spec.procedures.items():
        s.procedures[name] = dict(proc.params)
        if proc.returns is not None:
            s.proc_returns[name] = proc.returns
    s.functions = {name: dict(fn.params) for name, fn in spec.functions.items()}
    s.location_props = _prop_types(s.locations.values(), s)
    s.counter_props = _prop_types(s.counters.values(), s)
    limit = spec.limits.number_limit
    s.number_limit = limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else INT64
    s.seat_turns = spec.seat_turns
    s.params = {name: param.default for name, param in spec.params.items()}
    return s


def _prop_types(props: Any, s: Symbols) -> dict[str, Type]:
    """Each property of locations (or counters) with the type of the first value given for it."""
    types: dict[str, Type] = {}
    for decl in props:
        for key, value in decl.items():
            types.setdefault(key, _value_type(value, s))
    return types


def _value_type(value: Any, s: Symbols) -> Type:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if not isinstance(value, str):
        return UNKNOWN
    if value in s.counters:
        return COUNTER
    if value in s.locations:
        return LOCATION
    return UNKNOWN
