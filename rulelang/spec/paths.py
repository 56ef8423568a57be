"""Name a number of a game spec by a dotted key, and change it in the loaded data (never on disk).

`rulelang sweep --vary KEY=...` changes one number per key. A key walks the
spec's data the way a designer reads the files:

- mappings by key: ``dice.DIE.faces``, ``card_props.PROP``, ``players.max``;
- lists of named things by ``id`` or ``name`` (a name's spaces may be written
  as ``_``), or by position from 1: ``cards.CARD.count``,
  ``cards.CARD.props.PROP``, ``end.1.when``;
- a table by row key and column name: ``tables.TABLE.4.COLUMN`` is the
  cell of that column in the row keyed 4 (for a table ``by: players``, the
  row for 4 players);
- a rule text holding exactly one number, such as an end condition's
  ``when: any(p in players where p.points >= 21)``: the key names that number;
  when the text holds several, a last segment picks the n-th: ``end.1.when.2``;
- a declared param by its name alone (``goal``): its default, the value the
  games play with when ``--param`` does not set it (``params.goal.default``).

A key that leads nowhere, or to something that is not a number, is a located
error at the last place it reached, with a did-you-mean and the names there.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, replace
from typing import Any

from rulelang.errors import SpecError, did_you_mean
from rulelang.spec.document import Document
from rulelang.spec.inputs import whole_number

#: A number written in a rule text: not part of a name, not the inside of a longer number.
NUMBER_IN_TEXT = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_QUOTED = re.compile(r'"[^"]*"|\'[^\']*\'')
_SHOWN_NAMES = 12


@dataclass(frozen=True)
class Address:
    """Where a key's number lives: a path of keys and list indexes, and the n-th number of a text."""

    key: str
    path: tuple
    number_in_text: int | None = None     # 0-based index among the text's numbers, or None for a number value


def text_numbers(text: str) -> list[re.Match]:
    """The numbers of a rule text outside quoted labels."""
    quoted = [m.span() for m in _QUOTED.finditer(text)]
    return [m for m in NUMBER_IN_TEXT.finditer(text)
            if not any(start <= m.start() < stop for start, stop in quoted)]


def resolve_value(doc: Document, key: str) -> tuple:
    """The path of any value a key names (a mod's `patch:`); a SpecError placed where the walk stopped."""
    return resolve(doc, key, any_value=True).path


def resolve(doc: Document, key: str, any_value: bool = False) -> Address:
    """The address a key names; a SpecError placed where the walk stopped when it names no number
    (with ``any_value``, no value at all: a text, a list or a mapping is named whole)."""
    segments = key.split(".")
    if not key or any(not s for s in segments):
        raise _error(doc, key, (), "a key is names joined by dots, such as tables.TABLE.ROW.COLUMN or cards.CARD.count")
    declared = doc.data.get("params") if isinstance(doc.data, dict) else None
    if len(segments) == 1 and isinstance(declared, dict) and isinstance(declared.get(key), dict):
        return _number_at(doc, key, ("params", key, "default"), declared[key].get("default"))
    node, path = doc.data, ()
    i = 0
    while i < len(segments):
        segment = segments[i]
        said = ".".join(segments[:i])
        if isinstance(node, str) and not any_value:
            return _number_of_text(doc, key, path, said, node, segments[i:])
        if _is_table(node):
            path, node, i = _table_cell(doc, key, path, node, segments, i)
            continue
        if isinstance(node, dict):
            found = _mapping_key(node, segment)
            if found is _MISSING:
                raise _unknown(doc, key, path, said, segment, [str(k) for k in node])
            path, node = path + (found,), node[found]
        elif isinstance(node, list):
            index = _list_index(node, segment)
            if index is None:
                raise _unknown(doc, key, path, said, segment, _item_names(node), what="item")
            path, node = path + (index,), node[index]
        else:
            raise _error(doc, key, path, f"'{said}' is {_kind(node)}, which has no '{segment}'")
        i += 1
    return Address(key, path) if any_value else _number_at(doc, key, path, node)


def _number_at(doc: Document, key: str, path: tuple, node: Any) -> Address:
    if _is_number(node):
        return Address(key, path)
    if isinstance(node, str):
        return _number_of_text(doc, key, path, key, node, [])
    names = [str(k) for k in node] if isinstance(node, dict) else _item_names(node) if isinstance(node, list) else []
    hint = f"name one of its parts: {_listing(names)}" if names else None
    raise _error(doc, key, path, f"'{key}' is {_kind(node)}, not a number", hint)


def _number_of_text(doc: Document, key: str, path: tuple, said: str, text: str, rest: list[str]) -> Address:
    """The one number of a rule text, or the n-th when ``rest`` names it."""
    numbers = text_numbers(text)
    found = ", ".join(f"{n}: {m.group()}" for n, m in enumerate(numbers, 1))
    if not numbers:
        raise _error(doc, key, path, f"'{said}' is a text with no number in it", f"the text: {text.strip()}")
    if not rest:
        if len(numbers) == 1:
            return Address(key, path, 0)
        raise _error(doc, key, path, f"'{said}' holds {len(numbers)} numbers ({found})",
                     f"pick one by its position: {key}.1")
    position = whole_number(rest[0], signed=False) if len(rest) == 1 else None
    if position is not None and 1 <= position <= len(numbers):
        return Address(key, path, position - 1)
    raise _error(doc, key, path, f"'{said}' is a text; '{'.'.join(rest)}' is not one of its numbers "
                                 f"({found})", f"pick a number by its position, 1 to {len(numbers)}")


def _is_table(node: Any) -> bool:
    return isinstance(node, dict) and isinstance(node.get("rows"), dict) and isinstance(node.get("columns"), list)


def _table_cell(doc: Document, key: str, path: tuple, table: dict, segments: list[str], i: int):
    """A table's ``ROW.COLUMN`` (its other keys, such as ``rule``, are reached as in any mapping)."""
    segment, said = segments[i], ".".join(segments[:i])
    if segment in table and segment != "rows":
        return path + (segment,), table[segment], i + 1
    rows = table["rows"]
    row = _mapping_key(rows, segment)
    if row is _MISSING:
        raise _error(doc, key, path, f"table '{said}' has no row '{segment}'",
                     f"rows: {', '.join(str(k) for k in rows)} (a row is named by its key, as written)")
    path = path + ("rows", row)
    cells = rows[row]
    if i + 1 >= len(segments):
        columns = ", ".join(str(c) for c in table["columns"])
        raise _error(doc, key, path, f"row '{row}' of table '{said}' is a list; name one of its cells",
                     f"add a column: {key}.{table['columns'][0] if table['columns'] else 'NAME'} (columns: {columns})")
    column = segments[i + 1]
    names = [str(c) for c in table["columns"]]
    if column in names:
        index = names.index(column)
    elif 1 <= (position := whole_number(column, signed=False) or 0) <= len(names):
        index = position - 1
    else:
        near = did_you_mean(column, names)
        listing = f"columns: {', '.join(names)}"
        raise _error(doc, key, path, f"table '{said}' has no column '{column}'",
                     f"{near} {listing}" if near else listing)
    if not isinstance(cells, list) or index >= len(cells):
        raise _error(doc, key, path, f"row '{row}' has no cell for column '{names[index]}'")
    return path + (index,), cells[index], i + 2


_MISSING = object()


def _mapping_key(node: dict, segment: str) -> Any:
    """The key of ``node`` a segment names: as written, or the number it spells (row 4 of a table)."""
    if segment in node:
        return segment
    for known in node:
        if not isinstance(known, str) and str(known) == segment:
            return known
    return _MISSING


def _list_index(items: list, segment: str) -> int | None:
    """An item of a list by its id, its name (spaces as _ allowed), or its position from 1."""
    wanted = _slug(segment)
    for index, item in enumerate(items):
        if isinstance(item, dict) and any(isinstance(item.get(f), str) and _slug(item[f]) == wanted
                                          for f in ("id", "name")):
            return index
    position = whole_number(segment, signed=False)
    if position is not None and 1 <= position <= len(items):
        return position - 1
    return None


def _item_names(items: list) -> list[str]:
    names = []
    for position, item in enumerate(items, 1):
        name = item.get("id") or item.get("name") if isinstance(item, dict) else None
        names.append(str(name).replace(" ", "_") if isinstance(name, str) else str(position))
    return names


def _slug(text: str) -> str:
    return re.sub(r"[\s_]+", "_", text.strip().lower())


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _kind(node: Any) -> str:
    if isinstance(node, dict):
        return "a mapping"
    if isinstance(node, list):
        return "a list"
    if isinstance(node, bool):
        return "a yes/no value"
    if node is None:
        return "empty"
    return f"the {type(node).__name__} {node!r}"


def _listing(names: list[str]) -> str:
    more = len(names) - _SHOWN_NAMES
    return ", ".join(names[:_SHOWN_NAMES]) + (f", ... ({more} more)" if more > 0 else "")


def _unknown(doc: Document, key: str, path: tuple, said: str, segment: str, names: list[str],
             what: str = "key") -> SpecError:
    near = did_you_mean(segment, names)
    choices = f"{what}s here: {_listing(names)}" if names else f"it has no {what}s"
    hint = f"{near} {choices}" if near else choices
    where = f"'{said}'" if said else "the spec"
    return _error(doc, key, path, f"{where} has no {what} '{segment}'", hint)


def _error(doc: Document, key: str, path: tuple, message: str, hint: str | None = None) -> SpecError:
    span = doc.key_span(path) if path else doc.span(())
    return SpecError(f"--vary {key}: {message}", span, hint)


# --- changing the data --------------------------------------------------------------------

def number_text(value: float) -> str:
    """A value as a spec would write it: 8, not 8.0."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def with_values(doc: Document, settings: list[tuple[Address, float]]) -> Document:
    """A copy of the document with each address set to its value; the original is left as it was."""
    data = copy.deepcopy(doc.data)
    scalars = dict(doc._scalars)
    for address, value in settings:
        parent = data
        for step in address.path[:-1]:
            parent = parent[step]
        last = address.path[-1] if address.path else None
        old = parent[last]
        if address.number_in_text is None:
            parent[last] = int(value) if isinstance(old, int) and float(value).is_integer() else value
        else:
            match = text_numbers(old)[address.number_in_text]
            parent[last] = old[:match.start()] + number_text(value) + old[match.end():]
            scalars.pop(tuple(address.path), None)     # its positions no longer match the file's text
    return replace(doc, data=data, _scalars=scalars, _text_maps={})


def unread_at(doc: Document, address: Address, players: int) -> str | None:
    """Why the games at ``players`` never read the number at ``address``, or None when they may.

    A table ``by: players`` is read at the row of the player count only: the other rows' cells change
    nothing, and a sweep over one of them would only show the same games again.
    """
    path = address.path
    if len(path) < 5 or path[0] != "tables" or path[2] != "rows":
        return None
    table = doc.data["tables"][path[1]]
    if table.get("by", "players") != "players" or str(path[3]) == str(players):
        return None
    return (f"--vary {address.key}: table '{path[1]}' is read by player count, and its row '{path[3]}' is not "
            f"read with --players {players}; vary row {players} instead")
