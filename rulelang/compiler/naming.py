"""The names of generated functions: what each one is, in words a designer knows from the spec.

A generated function is named after the declaration its rule text belongs to (a step, a card, a trigger,
a procedure, a function, an end condition...) and its part (``card_long_saw_target``,
``step_gather_instruction_2``), so a listing of `rulelang compile --python` reads as the spec does.

The name comes from the declaration's path in the spec (``RuleText.path``) and the names written there,
but only as an identifier made of ASCII letters, digits and ``_`` (``identifier``): nothing of a spec's
text ever reaches generated code as code. Each name is taken once (``FunctionNames``), a number added
where a declaration has several functions. Every name starts with a lower-case letter, so it can never be
one of the generator's own (``_k3``, ``_blame``: a leading ``_``) nor a Python keyword or builtin
(a declaration's word and ``_`` come first).
"""
from __future__ import annotations

import re
from typing import Any

from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind
from rulelang.lang.types import tuple_items
from rulelang.spec.document import value_or_none

#: What a name of a spec becomes: every run of characters other than ASCII letters and digits is one ``_``.
_NOT_ASCII_WORD = re.compile(r"[^a-z0-9]+")
#: The longest piece a spec's name gives a function's name (a long card name stays readable).
MAX_PIECE = 32
#: Path keys that say nothing a reader needs: a card's play, a declaration's effect or value.
_SILENT_KEYS = frozenset({"effect", "play", "value"})
#: The word each kind of declaration's functions start with, by the spec's key for it.
_KINDS = {"procedures": "procedure", "functions": "function", "cards": "card", "triggers": "trigger",
          "phases": "phase", "end": "end"}


def identifier(text: object, fallback: str) -> str:
    """``text`` as lower-case ASCII words joined by ``_`` (``Big Hat!`` is ``big_hat``); ``fallback`` when
    nothing of it is left (a name written in another script)."""
    words = _NOT_ASCII_WORD.sub("_", str(text).lower()).strip("_")[:MAX_PIECE].strip("_")
    return words or fallback


def declaration_name(data: Any, path: tuple) -> str:
    """The name of the functions of the rule text at ``path`` of a spec's ``data``: its declaration's kind and
    name, then the keys of its part (``("cards", 2, "play", "target")`` is ``card_long_saw_target``)."""
    if not path:
        return "rules"
    head = path[0]
    if "steps" in path:
        at = path.index("steps")
        if at + 1 < len(path):
            step = value_or_none(data, path[:at + 2])
            return _named("step", step, path[at + 1], "name") + _part(path[at + 2:])
    if head in _KINDS and len(path) > 1:
        entry = path[1] if head in ("procedures", "functions") else value_or_none(data, path[:2])
        key = "id" if head == "cards" else "name"
        return _named(_KINDS[head], entry, path[1], key) + _part(path[2:])
    return identifier(head, "rules") + _part(path[1:])


def _named(kind: str, entry: Any, position: object, key: str) -> str:
    """``kind_NAME``: the entry's name, or its place in its list (from 1) when it has none."""
    name = entry.get(key) if isinstance(entry, dict) else entry
    place = str(position + 1) if isinstance(position, int) else "x"
    return f"{kind}_{identifier(name, place) if name is not None else place}"


def _part(keys: tuple) -> str:
    return "".join(f"_{identifier(key, 'x')}" for key in keys if isinstance(key, str) and key not in _SILENT_KEYS)


#: What reads the state's counters, variables and zones, each said in a listing's comment (``state_words``).
_STATE_ATTRS = frozenset({RefKind.PCOUNTER, RefKind.PVAR, RefKind.PZONE, RefKind.HCOUNTER, RefKind.GCOUNTER,
                          RefKind.CCOUNTER})


def state_words(e: n.Expr) -> str | None:
    """What ``e`` reads of the state, in the spec's words (``t.coins``, ``me.hand``, ``deck``), when it names a
    counter, a player's variable or a zone; else None. Only for a comment of the listing: never code."""
    if isinstance(e, n.Attr) and e.ref is not None and e.ref.kind in _STATE_ATTRS:
        return spoken(e)
    if isinstance(e, n.Name) and e.ref is not None and e.ref.kind == RefKind.ZONE:
        return e.id
    if isinstance(e, n.Index) and tuple_items(e.obj.type) is None:     # a holder's counter by name, not t[0]
        return spoken(e)
    return None


def spoken(e: n.Expr) -> str:
    """An expression as the rules write it, for the names and attributes that say where a value is kept."""
    if isinstance(e, n.Name):
        return e.id
    if isinstance(e, n.Attr):
        return f"{spoken(e.obj)}.{e.name}"
    if isinstance(e, n.Index):
        return f"{spoken(e.obj)}[{spoken(e.key)}]"
    if isinstance(e, n.Num):
        return str(e.value)
    return "(...)"


class FunctionNames:
    """The names given so far to one game's functions: each new one is unique (``_2``, ``_3``... added)."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def fresh(self, base: str) -> str:
        name, k = base, 1
        while name in self.taken:
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        return name
