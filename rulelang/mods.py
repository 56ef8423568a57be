"""Mods: a modder's own file laid over a game that stays as written.

A mod is a YAML file (or a folder with ``mod.yaml``, its includes and its
``scenarios/``) that names the game it applies to and says what it changes:
``add``, ``replace``, ``remove``, ``set``, ``insert_steps`` and ``wrap``
(docs/mods.md). Mods are applied, in the order given, to the game's loaded
data before the schema, the checker and the compiler see it, and every value a
mod brings keeps its own position: an error in it is reported in the mod file.

Mod files are read like game files (``rulelang.loader.load_tree``): confined to
the mod's own folder, and counted against the same whole-spec limits as the
game they change. Two mods that change the same thing are an error naming
both, unless the later one lists the earlier under ``overrides:``.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .document import Document
from .errors import ErrorList, RulelangError, Span, SpecError, did_you_mean, raise_all
from .lab.spec_paths import resolve
from .yamlfile import Budget

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


# --- loading ------------------------------------------------------------------------------

def load_mod(path: str | Path, budget: Budget) -> Mod:
    """A mod file (or folder), with its includes, read inside its own folder and checked against the mod schema."""
    from .loader import _is_folder, load_tree
    from .schema import validate_document

    try:
        doc = load_tree(path, MOD_FILE, budget)
    except RulelangError as error:
        raise _in_mod_words(error) from None
    validate_document(doc, "mod")
    folder = Path(path) if _is_folder(Path(path)) else None
    return Mod(str(doc.data["mod"]), doc, folder)


def _in_mod_words(error: RulelangError) -> RulelangError:
    """The loader speaks of a game's folder; for a mod's files, say the mod's."""
    for each in error.errors if isinstance(error, ErrorList) else [error]:
        each.message = each.message.replace("the game's folder", "the mod's folder")
        if each.hint:
            each.hint = each.hint.replace("a game's files", "a mod's files").replace("the game's folder",
                                                                                    "the mod's folder")
    return error


def apply_mods(doc: Document, paths: list[str | Path], budget: Budget) -> Document:
    """The game's document with the mods at ``paths`` applied in order; every problem raised at once."""
    layering = layer(doc, paths, budget)
    raise_all(layering.errors)
    return layering.doc


def layer(doc: Document, paths: list[str | Path], budget: Budget) -> Layering:
    """Apply mods in order, collecting (not raising) conflicts and mistakes, for reports."""
    result = Layering(doc.copy())
    for path in paths:
        try:
            mod = load_mod(path, budget)
        except RulelangError as error:
            result.errors.extend(error.errors if isinstance(error, ErrorList) else [error])
            continue
        before = len(result.errors)
        _check_header(result, mod)
        if len(result.errors) == before:
            _Applier(result, mod).apply()
        result.mods.append(mod)
    return result


def _check_header(result: Layering, mod: Mod) -> None:
    """The mod is for this game, is not loaded twice, and the mods it needs are loaded before it."""
    game = result.doc.data.get("game")
    if mod.doc.data["game"] != game:
        result.errors.append(SpecError(f"this mod is for the game '{mod.doc.data['game']}', not '{game}'",
                                       mod.span("game"), f"the game loaded is '{game}' (its `game:` name)"))
    earlier = {m.name: m for m in result.mods}
    if mod.name in earlier:
        result.errors.append(SpecError(f"the mod '{mod.name}' is loaded twice", mod.span("mod"),
                                       f"it is loaded first from {earlier[mod.name].file}"))
    for i, needed in enumerate(mod.doc.data.get("needs") or []):
        if needed not in earlier:
            known = ", ".join(earlier) or "none"
            result.errors.append(SpecError(f"this mod needs the mod '{needed}', which is not loaded before it",
                                           mod.span("needs", i),
                                           f"give `--mod FILE` of '{needed}' before this one (loaded before "
                                           f"it: {known})"))


# --- applying ---------------------------------------------------------------------------------

class _Applier:
    """Applies one mod's operations, in a fixed order: remove, replace, add, set, insert_steps, wrap."""

    def __init__(self, result: Layering, mod: Mod):
        self.result = result
        self.doc = result.doc
        self.mod = mod
        self.data = mod.doc.data

    def apply(self) -> None:
        steps: list[tuple[str, Callable[[], None]]] = [
            ("remove", self._remove), ("replace", self._replace), ("add", self._add), ("set", self._set),
            ("insert_steps", self._insert_steps), ("wrap", self._wrap)]
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
            self.result.errors.append(SpecError(
                f"conflict: mod '{self.mod.name}' {what}, but mod '{earlier.mod.name}' {earlier.what}", span,
                f"change '{shown}' in one mod only, or let this mod win with `overrides: [{earlier.mod.name}]`",
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
        value = copy.deepcopy(_get(self.data, at))
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
            value = copy.deepcopy(_get(self.data, at))
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

    # -- set --

    def _set(self) -> None:
        for key, value in self.data["set"].items():
            self._set_one(str(key), value)

    def _set_one(self, key: str, value: Any) -> None:
        from .lab.spec_paths import number_text, text_numbers
        span = self.mod.key_span("set", key)
        try:
            address = resolve(self.doc, key)
        except SpecError as error:
            message = error.message.replace(f"--vary {key}: ", "", 1)
            self.fail(f"set {key}: {message}", span, error.hint)
            return
        thing = _thing_names(self.doc.data, address.path)
        if not self.change(thing, f"sets {key} to {number_text(value)}", span):
            return
        parent = _get(self.doc.data, address.path[:-1])
        last = address.path[-1]
        if address.number_in_text is None:
            parent[last] = value
        else:
            old = parent[last]
            match = text_numbers(old)[address.number_in_text]
            parent[last] = old[:match.start()] + number_text(value) + old[match.end():]
        self.doc.set_span(address.path, self.mod.span("set", key))

    # -- insert_steps --

    def _insert_steps(self) -> None:
        for i, entry in enumerate(self.data["insert_steps"]):
            self._insert_one(i, entry)

    def _insert_one(self, i: int, entry: dict) -> None:
        where = "before" if "before" in entry else "after"
        anchor = str(entry[where])
        span = self.mod.span("insert_steps", i, where)
        found = self._step_list(anchor, entry.get("phase"), span)
        if found is None:
            return
        list_path, index = found
        steps = _get(self.doc.data, list_path)
        at = index if where == "before" else index + 1
        names = ", ".join(repr(s.get("name")) for s in entry["steps"])
        if not self.change(("steps", anchor, where, self.mod.name), f"inserts {names} {where} step '{anchor}'",
                           span):
            return
        count = len(entry["steps"])
        self.doc.shift_items(list_path, at, count)
        steps[at:at] = copy.deepcopy(entry["steps"])
        for k in range(count):
            self.doc.graft(list_path + (at + k,), self.mod.doc, ("insert_steps", i, "steps", k))

    def _step_list(self, anchor: str, phase: Any, span: Span) -> tuple[tuple, int] | None:
        """The path of the steps list holding the named step, and its index there."""
        lists: list[tuple[tuple, str]] = []
        turn = self.doc.data.get("turn")
        if isinstance(turn, dict) and isinstance(turn.get("steps"), list):
            lists.append((("turn", "steps"), "the turn"))
        for k, each in enumerate(self.doc.data.get("phases") or []):
            if isinstance(each, dict) and isinstance(each.get("steps"), list):
                if phase is None or each.get("name") == phase:
                    lists.append((("phases", k, "steps"), f"phase '{each.get('name')}'"))
        hits = [(path, n, words) for path, words in lists
                for n, step in enumerate(_get(self.doc.data, path))
                if isinstance(step, dict) and step.get("name") == anchor]
        if len(hits) == 1:
            return hits[0][0], hits[0][1]
        if len(hits) > 1:
            self.fail(f"the step '{anchor}' is in several phases", span,
                      "say which with `phase: NAME`: " + ", ".join(words for _, _, words in hits))
            return None
        names = [str(s.get("name")) for path, _ in lists for s in _get(self.doc.data, path) if isinstance(s, dict)]
        near = did_you_mean(anchor, names)
        listing = "steps: " + ", ".join(names) if names else "the game has no steps there"
        self.fail(f"the game has no turn step '{anchor}'" + (f" in phase '{phase}'" if phase else ""), span,
                  f"{near} {listing}" if near else listing)
        return None

    # -- wrap --

    def _wrap(self) -> None:
        for kind, wrappers in self.data["wrap"].items():
            for name in wrappers:
                self._wrap_one(kind, str(name))

    def _wrap_one(self, kind: str, name: str) -> None:
        at = ("wrap", kind, name)
        span = self.mod.key_span(*at)
        table = self.doc.data.get(kind)
        if not isinstance(table, dict) or name not in table:
            return self.unknown(kind, name, span)
        original = ORIGINAL_PREFIX + name
        if original in table:
            self.fail(f"the {KIND_WORDS[kind]} '{name}' is wrapped already (or the game has an '{original}')",
                      span, "wrap it once; a later mod may list the earlier one under `overrides:` and "
                            "replace the wrapper instead")
            return None
        if not self.change((kind, name), f"wraps {KIND_WORDS[kind]} '{name}'", span):
            return None
        field_name = "effect" if kind == "procedures" else "value"
        given = _get(self.data, at)
        wrapper = copy.deepcopy(given) if isinstance(given, dict) else {field_name: given}
        old = table.pop(name)
        table[original] = old
        self.doc.move_positions((kind, name), (kind, original))
        if "params" not in wrapper and isinstance(old, dict) and "params" in old:
            wrapper["params"] = copy.deepcopy(old["params"])
            self.doc.copy_positions((kind, original, "params"), (kind, name, "params"))
        table[name] = wrapper
        if isinstance(given, dict):
            self.doc.graft((kind, name), self.mod.doc, at)
        else:
            self.doc.graft((kind, name, field_name), self.mod.doc, at)
        self.doc._spans[(kind, name)] = span
        self.doc._key_spans[(kind, name)] = span
        return None


def _overlaps(first: tuple, second: tuple) -> bool:
    """Two changes touch the same thing when one's path starts with the other's."""
    size = min(len(first), len(second))
    return first[:size] == second[:size]


def _get(data: Any, path: tuple) -> Any:
    for step in path:
        data = data[step]
    return data


def _thing_names(data: Any, path: tuple) -> tuple:
    """A path of keys and list indexes in the game's data, with each list item named by its id or name."""
    names: list = []
    node = data
    for step in path:
        if isinstance(node, list) and isinstance(node[step], dict):
            item = node[step]
            names.append(str(item.get("id") or item.get("name") or step + 1))
        else:
            names.append(str(step))
        node = node[step]
    return tuple(names)
