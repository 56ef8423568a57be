"""Applying one mod to a game's document: the bookkeeping of changes and conflicts, `remove`, `replace`, `add`.

``Applier`` runs a mod's operations in a fixed order (remove, replace, add, set, patch, insert_steps, wrap),
records each ``Change`` and reports a change that collides with an earlier mod's unless the mod
``overrides:`` that one. Every value a mod brings is grafted with its positions, so an error in it
points into the mod file. `set`, `insert_steps` and `wrap` change the shape of what the game already
has; they are in ``mods_reshape.py``, a mixin of ``Applier``.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from rulelang.errors import Span, SpecError, did_you_mean
from rulelang.mods.model import KIND_WORDS, LIST_KINDS, MAPPING_KINDS, Change, Layering, Mod
from rulelang.mods.reshape import Reshaping
from rulelang.spec.document import value_at


class Applier(Reshaping):
    """Applies one mod's operations, in a fixed order: remove, replace, add, set, patch, insert_steps, wrap."""

    def __init__(self, result: Layering, mod: Mod):
        self.result = result
        self.doc = result.doc
        self.mod = mod
        self.data = mod.doc.data

    def apply(self) -> None:
        steps: list[tuple[str, Callable[[], None]]] = [
            ("remove", self._remove), ("replace", self._replace), ("add", self._add), ("set", self._set),
            ("patch", self._patch), ("insert_steps", self._insert_steps), ("wrap", self._wrap)]
        for key, run in steps:
            if key in self.data:
                run()

    # -- bookkeeping --

    def fail(self, message: str, span: Span, hint: str | None = None) -> None:
        self.result.errors.append(SpecError(message, span, hint))

    def change(self, thing: tuple, what: str, span: Span) -> bool:
        """Record a change; False (after reporting) when it collides with an earlier mod's it may not override."""
        for earlier in self.result.changes:
            if earlier.mod is self.mod or not _overlaps(earlier.thing, thing):
                continue
            if earlier.mod.name in (self.data.get("overrides") or []):
                continue
            shown = ".".join(str(t) for t in thing)
            first = ("rename what this mod adds (all mods share the game's names: a prefix of the mod's "
                     "name keeps them apart)" if what.startswith("adds") and earlier.what.startswith("adds")
                     else f"change '{shown}' in one mod only")
            self.result.errors.append(SpecError(
                f"conflict: mod '{self.mod.name}' {what}, but mod '{earlier.mod.name}' {earlier.what}", span,
                f"{first}, or let this mod win with `overrides: [{earlier.mod.name}]`",
                notes=[f"'{earlier.mod.name}' changes it at {earlier.span}"]))
            return False
        self.result.changes.append(Change(self.mod, thing, what, span))
        return True

    def item_index(self, kind: str, name: str) -> int | None:
        items = self.doc.data.get(kind)
        if not isinstance(items, list):
            return None
        key = LIST_KINDS[kind]
        return next((i for i, item in enumerate(items) if isinstance(item, dict) and item.get(key) == name), None)

    def names_of(self, kind: str) -> list[str]:
        found = self.doc.data.get(kind)
        if isinstance(found, dict):
            return [str(k) for k in found]
        if isinstance(found, list):
            key = LIST_KINDS.get(kind)
            return [str(i.get(key)) if isinstance(i, dict) else str(i) for i in found]
        return []

    def unknown(self, kind: str, name: str, span: Span) -> None:
        names = self.names_of(kind)
        near = did_you_mean(name, names)
        listing = f"{kind} of the game: " + (", ".join(names[:12]) + (" ..." if len(names) > 12 else "")
                                              if names else "none")
        self.fail(f"the game has no {KIND_WORDS.get(kind, kind)} '{name}'", span,
                  f"{near} {listing}" if near else listing)

    # -- remove --

    def _remove(self) -> None:
        for kind, names in self.data["remove"].items():
            for i, name in enumerate(names):
                self._remove_one(kind, str(name), self.mod.span("remove", kind, i))

    def _remove_one(self, kind: str, name: str, span: Span) -> None:
        what = f"removes {KIND_WORDS.get(kind, kind)} '{name}'"
        if kind in MAPPING_KINDS:
            table = self.doc.data.get(kind)
            if not isinstance(table, dict) or name not in table:
                return self.unknown(kind, name, span)
            if self.change((kind, name), what, span):
                del table[name]
                self.doc.drop_positions((kind, name))
            return None
        index = self._list_item(kind, name, span)
        if index is not None and self.change((kind, name), what, span):
            del self.doc.data[kind][index]
            self.doc.drop_positions((kind, index))
            self.doc.shift_items((kind,), index + 1, -1)
        return None

    def _list_item(self, kind: str, name: str, span: Span) -> int | None:
        if kind == "tags":
            tags = self.doc.data.get("tags") or []
            if name in tags:
                return tags.index(name)
        else:
            index = self.item_index(kind, name)
            if index is not None:
                return index
        self.unknown(kind, name, span)
        return None

    # -- replace --

    def _replace(self) -> None:
        for kind, items in self.data["replace"].items():
            for name, at in self._named_items(kind, items, ("replace", kind)):
                self._replace_one(kind, name, at)

    def _named_items(self, kind: str, items: Any, base: tuple) -> list[tuple[str, tuple]]:
        """(name, path in the mod) of each item a mod lists under a kind (a mapping or a list of named items)."""
        if isinstance(items, dict):
            return [(str(name), base + (name,)) for name in items]
        if kind == "tags":
            return [(str(tag), base + (i,)) for i, tag in enumerate(items)]
        key = LIST_KINDS.get(kind, "name")
        found = []
        for i, item in enumerate(items):
            if isinstance(item, dict) and isinstance(item.get(key), str):
                found.append((item[key], base + (i,)))
            else:
                self.fail(f"each {KIND_WORDS.get(kind, kind)} here needs its '{key}'", self.mod.span(*base, i))
        return found

    def _replace_one(self, kind: str, name: str, at: tuple) -> None:
        span = self.mod.key_span(*at) if kind in MAPPING_KINDS else self.mod.span(*at)
        what = f"replaces {KIND_WORDS.get(kind, kind)} '{name}'"
        value = copy.deepcopy(value_at(self.data, at))
        if kind in MAPPING_KINDS:
            table = self.doc.data.get(kind)
            if not isinstance(table, dict) or name not in table:
                return self.unknown(kind, name, span)
            if self.change((kind, name), what, span):
                table[name] = value
                self.doc.graft((kind, name), self.mod.doc, at)
            return None
        index = self._list_item(kind, name, span)
        if index is not None and self.change((kind, name), what, span):
            self.doc.data[kind][index] = value
            self.doc.graft((kind, index), self.mod.doc, at)
        return None

    # -- add --

    def _add(self) -> None:
        for kind, items in self.data["add"].items():
            if kind == "table_rows":
                self._add_rows(items)
            elif kind == "score_parts":
                self._add_score_parts(items)
            elif kind in MAPPING_KINDS:
                self._add_mapping(kind, items)
            else:
                self._add_list(kind, items)

    def _add_mapping(self, kind: str, items: dict) -> None:
        table = self.doc.data.setdefault(kind, {})
        if not self.doc._spans.get((kind,)):
            self.doc._spans[(kind,)] = self.mod.span("add", kind)
        for name in items:
            at = ("add", kind, name)
            span = self.mod.key_span(*at)
            if name in table and not self._brought_by_a_mod((kind, str(name))):
                self.fail(f"the game already has a {KIND_WORDS[kind]} '{name}'", span,
                          f"it is declared at {self.doc.key_span((kind, name))}; change it with `replace:`")
                continue
            if self.change((kind, str(name)), f"adds {KIND_WORDS[kind]} '{name}'", span):
                table[name] = copy.deepcopy(items[name])
                self.doc.graft((kind, name), self.mod.doc, at)
                self.doc._key_spans[(kind, name)] = span

    def _add_score_parts(self, parts: dict) -> None:
        """Points from a new source, summed with the game's score, which stays as written.

        A score written as one expression becomes the part named ``game`` (its positions move with it),
        so a mod adds points without replacing, or even repeating, the game's own score.
        """
        data = self.doc.data
        score = data.get("score")
        if not isinstance(score, dict):
            data["score"] = {"parts": {} if score is None else {"game": score}}
            if score is not None:
                self.doc.move_positions(("score",), ("score", "parts", "game"))
                self.doc._key_spans[("score", "parts", "game")] = self.doc.key_span(("score", "parts", "game"))
            self.doc._spans.setdefault(("score",), self.mod.span("add", "score_parts"))
        table = data["score"].setdefault("parts", {})
        for name in parts:
            at = ("add", "score_parts", name)
            span = self.mod.key_span(*at)
            if name in table and not self._brought_by_a_mod(("score_parts", str(name))):
                self.fail(f"the score already has a part '{name}'", span, "name the new part otherwise")
                continue
            if self.change(("score_parts", str(name)), f"adds score part '{name}'", span):
                table[name] = copy.deepcopy(parts[name])
                self.doc.graft(("score", "parts", name), self.mod.doc, at)
                self.doc._key_spans[("score", "parts", name)] = span

    def _add_list(self, kind: str, items: list) -> None:
        listed = self.doc.data.setdefault(kind, [])
        if (kind,) not in self.doc._spans:
            self.doc._spans[(kind,)] = self.mod.span("add", kind)
        for name, at in self._named_items(kind, items, ("add", kind)):
            span = self.mod.span(*at)
            existing = (self.doc.data.get("tags") or []).index(name) if kind == "tags" and name in listed \
                else self.item_index(kind, name) if kind != "tags" else None
            if existing is not None and not self._brought_by_a_mod((kind, name)):
                self.fail(f"the game already has a {KIND_WORDS.get(kind, kind)} '{name}'", span,
                          f"it is declared at {self.doc.span((kind, existing))}; change it with `replace:`")
                continue
            if not self.change((kind, name), f"adds {KIND_WORDS.get(kind, kind)} '{name}'", span):
                continue
            value = copy.deepcopy(value_at(self.data, at))
            index = existing if existing is not None else len(listed)
            if existing is None:
                listed.append(value)
            else:
                listed[index] = value
            self.doc.graft((kind, index), self.mod.doc, at)

    def _add_rows(self, tables: dict) -> None:
        """New rows of existing tables (a row for one more player, say): {TABLE: {ROW: [cells]}}."""
        for name, rows in tables.items():
            table = (self.doc.data.get("tables") or {}).get(name)
            if not isinstance(table, dict) or not isinstance(table.get("rows"), dict):
                self.unknown("tables", str(name), self.mod.key_span("add", "table_rows", name))
                continue
            for row in rows:
                span = self.mod.key_span("add", "table_rows", name, row)
                if row in table["rows"]:
                    self.fail(f"table '{name}' has a row '{row}' already", span,
                              f"it is at {self.doc.key_span(('tables', name, 'rows', row))}; change a cell "
                              f"with `set: {{tables.{name}.{row}.COLUMN: N}}`")
                    continue
                if self.change(("tables", str(name), "rows", str(row)), f"adds row '{row}' to table '{name}'", span):
                    table["rows"][row] = copy.deepcopy(rows[row])
                    self.doc.graft(("tables", name, "rows", row), self.mod.doc, ("add", "table_rows", name, row))
                    self.doc._key_spans[("tables", name, "rows", row)] = span

    def _brought_by_a_mod(self, thing: tuple) -> bool:
        """True when an earlier mod added the thing: adding it again is a conflict, or a replacement
        when this mod overrides that one (``change`` decides)."""
        return any(c.thing == thing for c in self.result.changes)


def _overlaps(first: tuple, second: tuple) -> bool:
    """Two changes touch the same thing when one's path starts with the other's."""
    size = min(len(first), len(second))
    return first[:size] == second[:size]
