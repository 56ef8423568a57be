"""What a checked name refers to: the checker notes it on the node (``node.ref``), the compilers read it.

A ``Ref`` is a kind (``RefKind``) and, for most kinds, the name it refers to: ``Ref(RefKind.PVAR, "gold")``
is a player's variable `gold`, ``Ref(RefKind.PLAYERS)`` the list of players still in. It is a named tuple,
so ``kind, name = node.ref`` reads it too; and a kind is a string enum, equal to its word (``"pvar"``), for
the tables that key on those words.
"""
from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class RefKind(str, Enum):
    """Every kind of thing a name or an attribute can refer to."""

    # names
    LOCAL = "local"                 # a local of the rule text (a parameter, a loop's name, `me`, ...)
    PLAYERS = "players"             # the players still in
    OTHERS = "others"               # the players still in but `me`
    GAME = "game"                   # the game, as a holder of counters
    TURN = "turn"                   # the turn number
    PARAM = "param"                 # a parameter of the game (`params:`)
    ROLE = "role"                   # the players of a role
    TEAM = "team"                   # the players of a team
    LOCATION = "location"
    COUNTER = "counter"             # a kind of counter, as a value
    ZONE = "zone"                   # a table zone
    ALL_ZONES = "all_zones"         # a player zone named without its owner: every player's
    TABLE = "table"                 # a table of numbers by player count
    CLASS = "class"                 # a card kind, tag or slot as a value
    CLASS_LOCAL = "class_local"     # `X is k`, k a local holding a card kind
    # kinds of card (class_ref)
    CARD = "card"
    TAG = "tag"
    SLOT = "slot"
    # calls
    FUNCTION = "function"           # a spec function
    BUILTIN = "builtin"             # count, sum, next, ...
    PROCEDURE = "procedure"         # a procedure, called as a statement or for its value
    HOISTED = "hoisted"             # a procedure's value, computed before its statement (compiler.hooks)
    # attributes
    PCOUNTER = "pcounter"           # a player's counter
    PVAR = "pvar"                   # a player's variable
    PZONE = "pzone"                 # a player's zone
    SEAT = "seat"                   # a player's seat number
    HCOUNTER = "hcounter"           # a location's counter
    GCOUNTER = "gcounter"           # the game's counter
    LPROP = "lprop"                 # a location's property
    CPROP = "cprop"                 # a counter's property
    CARDPROP = "cardprop"           # a card's property
    CCOUNTER = "ccounter"           # a card's counter
    CARDOWNER = "cardowner"         # a card's owner
    OUTCOME = "outcome"             # how many dice of a roll show an outcome
    TOTAL = "total"                 # a roll's total
    SIZE = "size"                   # how many dice a roll holds
    COLUMN = "column"               # a column of a table's row

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class Ref(NamedTuple):
    """What a name refers to: its kind, and the name of the thing when the kind has several."""

    kind: RefKind
    name: str | None = None


#: The ref kinds by which a rule text names each kind of declaration: `explain` lists the uses of a name
#: through them, and the warnings (``check/unused.py``) find the declarations no rule names.
NAMED_BY: dict[str, frozenset[RefKind]] = {
    "zone": frozenset({RefKind.ZONE, RefKind.ALL_ZONES, RefKind.PZONE}),
    "counter": frozenset({RefKind.COUNTER, RefKind.PCOUNTER, RefKind.HCOUNTER, RefKind.GCOUNTER, RefKind.CCOUNTER}),
    "variable": frozenset({RefKind.PVAR}),
    "location": frozenset({RefKind.LOCATION}),
    "param": frozenset({RefKind.PARAM}),
    "procedure": frozenset({RefKind.PROCEDURE, RefKind.HOISTED}),
    "function": frozenset({RefKind.FUNCTION}),
    "card": frozenset({RefKind.CLASS, RefKind.CARD, RefKind.SLOT}),
}
