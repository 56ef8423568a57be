"""What a mod is made of: the kinds of things it changes, a loaded ``Mod``, each ``Change``, the ``Layering``.

The names of the kinds a game declares (as a mapping, or as a list of named items) and their words for
reports; ``Mod`` is one mod file as loaded, ``Change`` one thing it changes (conflicts between mods are
found among these), and ``Layering`` the result of laying mods over a game. Loading mods (``mods.py``)
and applying them (``mods_apply.py``, ``mods_reshape.py``) share these; ``mods.py`` re-exports them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulelang.errors import RulelangError, Span
from rulelang.spec.document import Document

#: The main file of a mod's folder.
MOD_FILE = "mod.yaml"
#: What a wrapped procedure or function is renamed to; the wrapper calls the original by this name.
ORIGINAL_PREFIX = "original_"
#: Kinds a game declares as a mapping of name -> declaration.
MAPPING_KINDS = ("rulings", "locations", "counters", "vars", "tables", "dice", "zones", "card_props",
                 "procedures", "functions")
#: Kinds a game declares as a list of named items, and the key that names an item.
LIST_KINDS = {"cards": "id", "triggers": "name", "end": "name", "phases": "name", "roles": "name"}
#: What each kind is called in a report.
KIND_WORDS = {"rulings": "ruling", "locations": "location", "counters": "counter", "vars": "variable",
              "tables": "table", "dice": "die", "zones": "zone", "card_props": "card property",
              "procedures": "procedure", "functions": "function", "cards": "card", "triggers": "trigger",
              "end": "end condition", "phases": "phase", "roles": "role", "tags": "tag", "steps": "step"}


@dataclass
class Mod:
    """One mod as loaded: its name, the game it is for, and its data with positions."""

    name: str
    doc: Document
    folder: Path | None          # the folder of a mod given as a folder (its scenarios live there)

    @property
    def file(self) -> str:
        return str(self.doc.path)

    def span(self, *path: Any) -> Span:
        return self.doc.span(tuple(path))

    def key_span(self, *path: Any) -> Span:
        return self.doc.key_span(tuple(path))


@dataclass
class Change:
    """One thing a mod changes, for conflicts and for `rulelang mods`."""

    mod: Mod
    thing: tuple                 # what is changed, by names: ("cards", "x"), ("cards", "x", "count")
    what: str                    # in words: "adds card 'x'"
    span: Span


@dataclass
class Layering:
    """The result of laying mods over a game: the changed document, every change, every problem."""

    doc: Document
    mods: list[Mod] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    errors: list[RulelangError] = field(default_factory=list)
    #: The mods that wrapped each procedure or function, innermost first: (kind, name) -> mods.
    wraps: dict[tuple[str, str], list[Mod]] = field(default_factory=dict)
    #: How many steps mods inserted after each step so far: (steps list path, step name) -> count.
    inserted_after: dict[tuple, int] = field(default_factory=dict)
