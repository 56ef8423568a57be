"""The checker's types as small immutable values: a ``Base`` and, for a compound type, what it is of.

A ``Type`` compares by structure and prints as its old spelling (``int``, ``list:card``, ``roll:d6``,
``table:NAME``, ``(int,player)``, ``?``), so messages and debug output that show a type read as they
always did. It is never equal to a string: the checker's types used to be strings, and comparing one with
a string now raises TypeError rather than quietly answering False.

A leaf module (it imports nothing from rulelang), so the binding tables (``bindings.py``) can use it.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Base(Enum):
    """What kind of value a type is; the last few are compound or stand for no one type."""

    INT = "int"
    BOOL = "bool"
    TEXT = "text"
    PLAYER = "player"
    LOCATION = "location"
    COUNTER = "counter"
    CARD = "card"
    ZONE = "zone"
    GAME = "game"
    NONE = "none"
    CLASS = "class"          # a card kind: a card id, a tag or a slot
    LIST = "list"            # of ``item``
    ROLL = "roll"            # of the die ``name``
    TABLE = "table"          # the table ``name``
    TUPLE = "tuple"          # of ``items``, in order
    UNKNOWN = "?"            # an error was reported already: stops follow-on errors
    ANY = "any"              # any item at all, in a list a builtin wants


#: The die of a roll type that stands for whichever die was rolled (a roll trigger's `rolled`).
ANY_DIE = "?"


@dataclass(frozen=True, eq=False)
class Type:
    """One type of value: ``base``, with ``item`` (a list's), ``name`` (a roll's die, a table's name) or
    ``items`` (a tuple's elements) for the compound ones."""

    base: Base
    item: Type | None = None
    name: str | None = None
    items: tuple[Type, ...] = ()
    #: The spelling, made once: the checker hashes and prints types all the time.
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self._spelling())

    def _spelling(self) -> str:
        base = self.base
        if base is Base.LIST:
            return f"list:{self.item}"
        if base is Base.ROLL or base is Base.TABLE:
            return f"{base.value}:{self.name}"
        if base is Base.TUPLE:
            return "(" + ",".join(str(item) for item in self.items) + ")"
        return base.value

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Type({self.text!r})"

    def __eq__(self, other: object) -> bool:
        """Equal in structure; a string is never a type, and comparing one with a type is a bug: TypeError."""
        if isinstance(other, Type):
            return self.text == other.text          # the spelling says the whole structure
        if isinstance(other, str):
            raise TypeError(f"a checker type ({self}) compared with the string {other!r}")
        return NotImplemented

    def __hash__(self) -> int:
        """Its spelling's hash: a table keyed by words, looked up with a type (or the reverse), meets ``__eq__``."""
        return hash(self.text)

    @property
    def is_list(self) -> bool:
        return self.base is Base.LIST

    @property
    def is_tuple(self) -> bool:
        return self.base is Base.TUPLE

    @property
    def is_roll(self) -> bool:
        return self.base is Base.ROLL

    @property
    def is_table(self) -> bool:
        return self.base is Base.TABLE


INT = Type(Base.INT)
BOOL = Type(Base.BOOL)
TEXT = Type(Base.TEXT)
PLAYER = Type(Base.PLAYER)
LOCATION = Type(Base.LOCATION)
COUNTER = Type(Base.COUNTER)
CARD = Type(Base.CARD)
ZONE = Type(Base.ZONE)
GAME = Type(Base.GAME)
NONE = Type(Base.NONE)
CLASS = Type(Base.CLASS)
UNKNOWN = Type(Base.UNKNOWN)
ANY = Type(Base.ANY)


def list_of(item: Type) -> Type:
    """The type of a list of ``item``s."""
    return Type(Base.LIST, item=item)


def tuple_of(items: Iterable[Type]) -> Type:
    """The type of a tuple of values of these types, in order: ``(int,player)``."""
    return Type(Base.TUPLE, items=tuple(items))


def roll_of(die: str = ANY_DIE) -> Type:
    """The type of a roll of ``die`` (its faces, and what `r.total`, `r.OUTCOME` read)."""
    return Type(Base.ROLL, name=die)


def table_of(name: str) -> Type:
    """The type of the table ``name`` (its columns, read for this game's player count)."""
    return Type(Base.TABLE, name=name)


INT64 = 2 ** 63 - 1             # the largest number_limit, and the default one
LITERAL_DIGITS = 19             # digits of a number written in a rule (INT64 has 19)

#: The words a declaration's `type:` may name, with the types they name.
VAR_TYPES = {"int": INT, "bool": BOOL, "player": PLAYER, "location": LOCATION, "card": CARD, "counter": COUNTER}

#: What an element of a tuple may be: one plain value (no list, tuple, text or zone).
TUPLE_ITEMS = (INT, BOOL, PLAYER, LOCATION, COUNTER, CARD, CLASS)
#: The words of the element types a variable, a parameter or a procedure's value may declare: `(int, int)`.
TUPLE_WORDS = {"int": INT, "bool": BOOL, "player": PLAYER, "location": LOCATION, "card": CARD, "counter": COUNTER}
#: The most elements a tuple may have.
MAX_TUPLE = 16


def tuple_items(kind: Type | None) -> list[Type] | None:
    """The element types of a tuple type (``tuple_of``'s inverse), or None for any other type (or none)."""
    return list(kind.items) if kind is not None and kind.is_tuple else None


#: Words a designer may reach for, with the type word the language spells each with.
TYPE_SYNONYMS = {"integer": "int", "number": "int", "num": "int", "boolean": "bool", "condition": "bool"}
#: What a declared type may be, for a hint.
TYPE_WORDS_HINT = "a type is int, bool, player, location, card, counter, or a tuple of them such as (int, int)"


def type_word_hint(word: str) -> str:
    """A hint for a type word that names no type: the type it likely means, else the types there are."""
    near = TYPE_SYNONYMS.get(word.strip().lower())
    if near is None:
        close = difflib.get_close_matches(word, list(VAR_TYPES), n=1, cutoff=0.6)
        near = close[0] if close else None
    return f"did you mean '{near}'?" if near else TYPE_WORDS_HINT


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
