"""Card groups: keys declared once under ``card_groups:`` and laid into every card that names the group.

A card that says ``group: NAME`` takes every key of that group it does not give itself. Where both give a
mapping (``play``, ``props``, ``answer``...) the two join key by key, the card's key winning at every depth;
``tags`` add up, the group's first and then the card's own (a tag both give is listed once); any other value
the card gives (a list such as ``rule`` included) replaces the group's.

Groups are laid in where the spec is read, before the schema, the model or any tool sees it: a card is whole
wherever it is looked at (the checker, ``rulelang rules``, ``explain``, the language server, mods, mutants),
and a key taken from a group keeps the group's position, so an error in it points at the group. The
``card_groups`` key leaves the data (a game written with groups has the same data, and the same digest, as
the game written out in full); the groups stay on the document (``Document.card_groups``), so a card a mod
adds, or replaces, with ``group: NAME`` is laid out the same way after the mods (``rulelang.pipeline``).
A card's keys come out in the order the schema lists them, which is the order cards are written in.
"""
from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass, field
from typing import Any

from rulelang.errors import RulelangError, SpecError, did_you_mean, raise_all
from rulelang.spec.budget import Budget
from rulelang.spec.document import Document
from rulelang.spec.schema import NAME_PATTERN, NAME_RULE, load_schema

GROUPS_KEY = "card_groups"
GROUP_KEY = "group"
#: The one list that adds up rather than being replaced: a card's tags join its group's.
COMBINED_LISTS = frozenset({"tags"})

_CARD = "card"          # where a piece of a laid-out card comes from
_GROUP = "group"


@dataclass(frozen=True)
class _Origin:
    """One piece of a laid-out card: its path under the card, whose it is, and its path there."""

    path: tuple
    source: str         # _CARD or _GROUP
    source_path: tuple
    whole: bool = True  # False: only the node itself (a mapping or list whose parts come from both)


@dataclass
class _Layout:
    """What laying one card out made: where its pieces come from, and how many values it copied."""

    origins: list[_Origin] = field(default_factory=list)
    copied: int = 0


def expand_card_groups(doc: Document, budget: Budget | None = None) -> None:
    """Take ``card_groups`` out of the data (kept on the document) and lay it into every card naming a group.

    Raises every mistake at once (an unknown key in a group at that key, an unknown group at the card's
    ``group:``); the values copied count against ``budget``'s values, so groups cannot blow a spec up.
    """
    errors: list[RulelangError] = []
    _take_groups(doc, errors)
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    joining = [i for i, card in enumerate(cards) if isinstance(card, dict) and GROUP_KEY in card] \
        if isinstance(cards, list) else []
    if joining:
        positions = _Positions(doc, set(joining))
        for index in joining:
            _expand_card(doc, index, positions, budget, errors)
            if budget is not None and budget.spent:
                break
        positions.store()
    raise_all(errors)


# ---------------------------------------------------------------------------
# The groups


@functools.cache
def _card_schema() -> dict:
    """The game schema, read once: it lists the keys a group may give and the order of a card's keys."""
    return load_schema("game")


def group_keys() -> tuple[str, ...]:
    """The keys a group may give, from the schema's ``card_group`` (the one list of them)."""
    return tuple(_card_schema()["$defs"]["card_group"]["properties"])


def _take_groups(doc: Document, errors: list[RulelangError]) -> None:
    """Move the data's ``card_groups`` (and its positions) to ``doc.card_groups``, reporting bad groups.

    A group with a key it may not give keeps its other keys (the mistake is reported at the key), so the
    cards that join it are still laid out and nothing is reported twice.
    """
    if not isinstance(doc.data, dict) or GROUPS_KEY not in doc.data:
        return
    groups = doc.data.pop(GROUPS_KEY)
    kept = Document({GROUPS_KEY: {}}, doc.path)
    kept.graft((GROUPS_KEY,), doc, (GROUPS_KEY,))
    doc.drop_positions((GROUPS_KEY,))
    if not isinstance(groups, dict):
        errors.append(SpecError("'card_groups' must be a mapping of group names to the keys they give",
                                kept.span((GROUPS_KEY,)), "card_groups: {tools: {zone: deck, tags: [tool]}}"))
        groups = {}
    kept.data[GROUPS_KEY] = {name: _usable_keys(kept, name, keys, errors) for name, keys in groups.items()
                             if _good_name(kept, name, errors)}
    doc.card_groups = kept


def _good_name(kept: Document, name: Any, errors: list[RulelangError]) -> bool:
    """True when a group's name is a name, as a card's id is (reported at the name when it is not)."""
    if isinstance(name, str) and re.match(NAME_PATTERN, name):
        return True
    errors.append(SpecError(f"'{name}' cannot name a card group", kept.key_span((GROUPS_KEY, name)), NAME_RULE))
    return False


def _usable_keys(kept: Document, name: Any, keys: Any, errors: list[RulelangError]) -> dict:
    """The keys of a group a card may take; each other key (or a group that is no mapping) is reported."""
    path = (GROUPS_KEY, name)
    if not isinstance(keys, dict):
        errors.append(SpecError(f"card group '{name}' must be a mapping of card keys", kept.span(path),
                                "zone: deck, tags: [...], play: {...}"))
        return {}
    allowed = group_keys()
    for key in keys:
        if key in ("id", "name", GROUP_KEY):
            hint = (f"every card gives its own '{key}'" if key != GROUP_KEY else
                    "a group cannot join another group; give its keys here")
            errors.append(SpecError(f"a card group cannot give '{key}'", kept.key_span(path + (key,)), hint))
        elif key not in allowed:
            errors.append(SpecError(f"unknown key '{key}' in card group '{name}'", kept.key_span(path + (key,)),
                                    did_you_mean(str(key), allowed) or "a group gives: " + ", ".join(allowed)))
    return {key: value for key, value in keys.items() if key in allowed}


# ---------------------------------------------------------------------------
# Laying a group into a card


def _expand_card(doc: Document, index: int, positions: _Positions, budget: Budget | None,
                 errors: list[RulelangError]) -> None:
    card_path = ("cards", index)
    card = doc.data["cards"][index]
    name = card[GROUP_KEY]
    found = _find_group(doc, card_path, name, errors)
    if found is None:
        return
    own = {key: value for key, value in card.items() if key != GROUP_KEY}
    layout = _Layout()
    laid = _join(found, own, (), _card_schema()["$defs"]["card"], layout)
    if budget is not None and not _charge(budget, layout.copied, doc, card_path, errors):
        return
    doc.data["cards"][index] = laid
    positions.lay_out(index, name, layout.origins)


def _find_group(doc: Document, card_path: tuple, name: Any, errors: list[RulelangError]) -> dict | None:
    """The defaults of the group a card names, or None after reporting why there is none."""
    groups = doc.card_groups.data[GROUPS_KEY] if doc.card_groups is not None else {}
    if isinstance(name, str) and name in groups:
        return groups[name]
    where = doc.span(card_path + (GROUP_KEY,))
    if not isinstance(name, str):
        errors.append(SpecError("'group' must name one group of 'card_groups'", where, "group: tools"))
    elif doc.card_groups is None:
        errors.append(SpecError(f"this card joins group '{name}', but the game declares no 'card_groups'", where,
                                f"declare it: card_groups: {{{name}: {{zone: ..., tags: [...]}}}}"))
    else:
        errors.append(SpecError(f"unknown card group '{name}'", where,
                                did_you_mean(name, groups) or "the groups are: " + (", ".join(groups) or "none")))
    return None


def _join(group: dict, own: dict, rel: tuple, schema: dict, layout: _Layout) -> dict:
    """The card's mapping at ``rel`` with the group's laid under it, keys in the schema's order."""
    out = {}
    for key in _ordered(list(group) + [k for k in own if k not in group], schema):
        path = rel + (key,)
        if key not in group:
            out[key] = own[key]
            layout.origins.append(_Origin(path, _CARD, path))
        elif key not in own:
            out[key] = copy.deepcopy(group[key])
            layout.copied += _size(group[key])
            layout.origins.append(_Origin(path, _GROUP, path))
        elif isinstance(group[key], dict) and isinstance(own[key], dict):
            layout.origins.append(_Origin(path, _CARD, path, whole=False))
            out[key] = _join(group[key], own[key], path, _property_schema(schema, key), layout)
        elif not rel and key in COMBINED_LISTS and isinstance(group[key], list) and isinstance(own[key], list):
            out[key] = _combined(group[key], own[key], path, layout)
        else:
            out[key] = own[key]
            layout.origins.append(_Origin(path, _CARD, path))
    return out


def _combined(given: list, own: list, path: tuple, layout: _Layout) -> list:
    """The group's items, then the card's own that the group does not already give."""
    layout.origins.append(_Origin(path, _CARD, path, whole=False))
    out = copy.deepcopy(given)
    layout.copied += _size(given)
    layout.origins.extend(_Origin(path + (i,), _GROUP, path + (i,)) for i in range(len(given)))
    for i, item in enumerate(own):
        if item in given:
            continue
        layout.origins.append(_Origin(path + (len(out),), _CARD, path + (i,)))
        out.append(item)
    return out


def _ordered(keys: list, schema: dict) -> list:
    """``keys`` in the order the schema lists them; keys it does not list keep their order, after those."""
    listed = list(schema.get("properties", {}))
    rank = {key: i for i, key in enumerate(listed)}
    return sorted(keys, key=lambda key: rank.get(key, len(listed)))


def _property_schema(schema: dict, key: str) -> dict:
    """The schema of one property, following a local ``$ref`` (an empty schema where there is none)."""
    found = schema.get("properties", {}).get(key, {})
    ref = found.get("$ref", "") if isinstance(found, dict) else ""
    if ref.startswith("#/"):
        node: Any = _card_schema()
        for part in ref[2:].split("/"):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        return node if isinstance(node, dict) else {}
    return found if isinstance(found, dict) else {}


def _size(value: Any) -> int:
    """How many values a copy of ``value`` adds, counted as the YAML reader counts them (keys count)."""
    if isinstance(value, dict):
        return 1 + sum(1 + _size(item) for item in value.values())
    if isinstance(value, list):
        return 1 + sum(_size(item) for item in value)
    return 1


def _charge(budget: Budget, copied: int, doc: Document, card_path: tuple, errors: list[RulelangError]) -> bool:
    """Count a card's copied values against the spec's budget; False (reported) when that passes the limit."""
    if budget.values + copied <= budget.limits.values:
        budget.values += copied
        return True
    budget.spent = True
    errors.append(SpecError(
        f"with its card groups laid into the cards, the game holds more than {budget.limits.values:,} values",
        doc.span(card_path + (GROUP_KEY,)), "a group is copied into every card that joins it; make it smaller"))
    return False


#: One card's (or group's) positions: for each of the document's three tables, by the top key under the
#: card, the positions below it (keyed by their path under the card).
_Bucket = tuple[dict, dict, dict]


class _Positions:
    """The positions of the cards that join a group and of the groups, sorted out in one pass over each table
    (not one per card: a game of a thousand cards would go over every position a thousand times)."""

    def __init__(self, doc: Document, indexes: set[int]):
        self.doc = doc
        self.cards = _bucketed(doc, "cards", indexes)
        self.groups = _bucketed(doc.card_groups, GROUPS_KEY, None) if doc.card_groups is not None else {}
        self.laid: dict[int, tuple[dict, dict, dict]] = {}

    def lay_out(self, index: int, group: Any, origins: list[_Origin]) -> None:
        """The positions of a laid-out card: each piece where it was written, in the card or in the group."""
        empty: _Bucket = ({}, {}, {})
        sources = {_CARD: self.cards.get(index, empty), _GROUP: self.groups.get(group, empty)}
        laid: tuple[dict, dict, dict] = ({}, {}, {})
        for origin in origins:
            start, size = origin.source_path, len(origin.source_path)
            for out, source in zip(laid, sources[origin.source]):
                for rel, where in source.get(start[0], {}).items():
                    if rel == start or (origin.whole and rel[:size] == start):
                        out[origin.path + rel[size:]] = where
        self.laid[index] = laid

    def store(self) -> None:
        """Put the laid-out cards' positions in place of those they were written with (the card's own place,
        its list item, stays)."""
        doc = self.doc
        for index, laid in self.laid.items():
            for table, written, new in zip(_tables(doc), self.cards.get(index, ({}, {}, {})), laid):
                for under in written.values():
                    for rel in under:
                        del table[("cards", index) + rel]
                table.update({("cards", index) + rel: where for rel, where in new.items()})
        if self.laid and doc.card_groups is not None:
            doc._sources.update(doc.card_groups._sources)
        doc._text_maps.clear()


def _tables(doc: Document) -> tuple[dict, dict, dict]:
    return doc._spans, doc._key_spans, doc._scalars


def _bucketed(doc: Document, top: str, wanted: set | None) -> dict[Any, _Bucket]:
    """The positions under ``(top, X, KEY, ...)`` for each X (of ``wanted``, or all), by KEY then by the path
    below X."""
    out: dict[Any, _Bucket] = {}
    for number, table in enumerate(_tables(doc)):
        for path, where in table.items():
            if len(path) >= 3 and path[0] == top and (wanted is None or path[1] in wanted):
                out.setdefault(path[1], ({}, {}, {}))[number].setdefault(path[2], {})[path[2:]] = where
    return out
