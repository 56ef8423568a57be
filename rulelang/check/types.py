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

from rulelang.engine.limits import INT64
from rulelang.lang.bindings import GLOBAL_WORDS
from rulelang.lang.refs import Ref, RefKind
from rulelang.lang.types import (
    ANY,
    ANY_DIE,
    BOOL,
    CARD,
    CLASS,
    COUNTER,
    GAME,
    INT,
    LOCATION,
    NONE,
    PLAYER,
    TEXT,
    UNKNOWN,
    ZONE,
    Base,
    Type,
    list_of,
    roll_of,
    table_of,
    tuple_of,
)

if TYPE_CHECKING:
    from rulelang.model.spec import Card, Role, Zone

__all__ = ["ANY", "ANY_DIE", "BOOL", "CARD", "CLASS", "COUNTER", "GAME", "INT", "LOCATION", "NONE", "PLAYER", "TEXT",
           "UNKNOWN", "ZONE", "Base", "Type", "list_of", "roll_of", "table_of", "tuple_of",
           "AGGREGATES", "BUILTINS", "MAX_LOOPS", "MAX_TUPLE", "NULLABLE", "TUPLE_ITEMS", "TUPLE_WORDS", "VAR_TYPES",
           "Scope", "Symbols", "declared_type", "describe", "die_of", "item_of", "tuple_items"]

NULLABLE = {PLAYER, LOCATION, COUNTER, CARD, CLASS, NONE}
#: The words a declaration's `type:` may name, with the types they name.
VAR_TYPES = {"int": INT, "bool": BOOL, "player": PLAYER, "location": LOCATION, "card": CARD, "counter": COUNTER}

#: What an element of a tuple may be: one plain value (no list, tuple, text or zone).
TUPLE_ITEMS = (INT, BOOL, PLAYER, LOCATION, COUNTER, CARD, CLASS)
#: The words of the element types a variable, a parameter or a procedure's value may declare: `(int, int)`.
TUPLE_WORDS = {"int": INT, "bool": BOOL, "player": PLAYER, "location": LOCATION, "card": CARD, "counter": COUNTER}
#: The most elements a tuple may have.
MAX_TUPLE = 16
#: The most loops (`for x in LIST`) one list built with `for` may have.
MAX_LOOPS = 8

AGGREGATES = {"count", "any", "all", "first", "sum", "max", "min", "filter", "empty", "last"}
BUILTINS = {"next", "previous", "seats_from", "range"} | AGGREGATES


def tuple_items(kind: Type | None) -> list[Type] | None:
    """The element types of a tuple type (``tuple_of``'s inverse), or None for any other type (or none)."""
    return list(kind.items) if kind is not None and kind.is_tuple else None


def declared_type(word: Any) -> Type | None:
    """The type a declaration's `type:` names: a word of VAR_TYPES or a tuple `(int, int)`; None if neither."""
    if not isinstance(word, str):
        return None
    if word in VAR_TYPES:
        return VAR_TYPES[word]
    if word.startswith("(") and word.endswith(")"):
        parts = [part.strip() for part in word[1:-1].split(",")]
        if 2 <= len(parts) <= MAX_TUPLE and all(part in TUPLE_WORDS for part in parts):
            return tuple_of([TUPLE_WORDS[part] for part in parts])
    return None


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
          Base.TABLE: "a table"}


def describe(kind: Type) -> str:
    """A type in words for error messages."""
    if kind.is_list:
        if kind.item.is_tuple:
            return f"a list of tuples {_elements(kind.item)}"
        return f"a list of {kind.item}s"
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
