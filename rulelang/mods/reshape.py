"""The mod operations that reshape what a game has: `set` a value, `patch` a part, `insert_steps`, `wrap`.

A mixin of ``mods_apply.Applier``: `set` writes one value by its spec path (a number inside a rule
text too), `insert_steps` puts new turn steps before or after a named step of the turn or of a phase,
and `wrap` renames a procedure or function to ``original_NAME`` and puts the mod's wrapper in its
place. It relies on the Applier's ``change``, ``fail`` and ``unknown``, and on ``doc``, ``mod``, ``data``.
"""
from __future__ import annotations

import copy
from typing import Any

from rulelang.errors import Span, SpecError, did_you_mean
from rulelang.mods.model import KIND_WORDS, ORIGINAL_PREFIX
from rulelang.spec.document import value_at
from rulelang.spec.paths import resolve


class Reshaping:
    """`set`, `insert_steps` and `wrap` of ``Applier``: changes to things the game already has."""

    # -- set --

    def _set(self) -> None:
        for key, value in self.data["set"].items():
            self._set_one(str(key), value)

    def _set_one(self, key: str, value: Any) -> None:
        from rulelang.spec.paths import number_text, text_numbers
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
        parent = value_at(self.doc.data, address.path[:-1])
        last = address.path[-1]
        if address.number_in_text is None:
            parent[last] = value
        else:
            old = parent[last]
            match = text_numbers(old)[address.number_in_text]
            parent[last] = old[:match.start()] + number_text(value) + old[match.end():]
        self.doc.set_span(address.path, self.mod.span("set", key))

    # -- patch --

    def _patch(self) -> None:
        for i, entry in enumerate(self.data["patch"]):
            self._patch_one(i, entry)

    def _patch_one(self, i: int, entry: dict) -> None:
        """One part of a declaration, by the path `set:` uses: replaced (`with:`), a condition narrowed
        (`and:`) or lines added (`then:`); with `line: N`, the N-th line of a rule text only."""
        from rulelang.spec.paths import resolve_value
        key = str(entry["path"])
        how = next(word for word in ("with", "and", "then") if word in entry)
        span = self.mod.span("patch", i, "path")
        try:
            path = resolve_value(self.doc, key)
        except SpecError as error:
            self.fail(f"patch {key}: {error.message.replace(f'--vary {key}: ', '', 1)}", span, error.hint)
            return
        old = value_at(self.doc.data, path)
        line = entry.get("line")
        if how == "and" and line is not None:
            self.fail(f"patch {key}: `and:` narrows a whole condition, not one line", self.mod.span("patch", i, "line"),
                      "drop `line:`, or replace the line with `with:`")
            return
        if (how != "with" or line is not None) and not isinstance(old, str):
            self.fail(f"patch {key}: '{key}' is not a rule text: it has no lines and takes no `and:` or `then:`",
                      span, "replace it whole with `with:`")
            return
        if line is not None and not 1 <= line <= len(_lines_of(old)):
            self.fail(f"patch {key}: the text has no line {line}", self.mod.span("patch", i, "line"),
                      f"its lines: 1 to {len(_lines_of(old))}")
            return
        extends = how != "with"
        thing = _thing_names(self.doc.data, path) + ((f"line {line}",) if line is not None else ())
        words = {"with": "replaces", "and": "narrows", "then": "adds lines after"}[how]
        if not self.change(thing + (("extended", self.mod.name) if extends else ()),
                           f"{words} {key}" + (f" line {line}" if line is not None else ""), span):
            return
        given = copy.deepcopy(entry[how])
        parent = value_at(self.doc.data, path[:-1])
        if how == "with" and line is None:
            parent[path[-1]] = given
            self.doc.graft(path, self.mod.doc, ("patch", i, "with"))
            return
        parent[path[-1]] = _patched_text(old, how, str(given), line)
        self.doc.set_span(path, self.mod.span("patch", i, how))

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
        steps = value_at(self.doc.data, list_path)
        # after a step, past what earlier mods put after it: steps next to one step run in load order
        after_key = (list_path, anchor)
        at = index if where == "before" else index + 1 + self.result.inserted_after.get(after_key, 0)
        names = ", ".join(repr(s.get("name")) for s in entry["steps"])
        if not self.change(("steps", anchor, where, self.mod.name), f"inserts {names} {where} step '{anchor}'",
                           span):
            return
        count = len(entry["steps"])
        if where == "after":
            self.result.inserted_after[after_key] = self.result.inserted_after.get(after_key, 0) + count
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
                for n, step in enumerate(value_at(self.doc.data, path))
                if isinstance(step, dict) and step.get("name") == anchor]
        if len(hits) == 1:
            return hits[0][0], hits[0][1]
        if len(hits) > 1:
            self.fail(f"the step '{anchor}' is in several phases", span,
                      "say which with `phase: NAME`: " + ", ".join(words for _, _, words in hits))
            return None
        names = [str(s.get("name")) for path, _ in lists for s in value_at(self.doc.data, path) if isinstance(s, dict)]
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
        """Wrap a procedure or function; over an earlier mod's wrapper, chain: this one calls that one."""
        at = ("wrap", kind, name)
        span = self.mod.key_span(*at)
        table = self.doc.data.get(kind)
        if not isinstance(table, dict) or name not in table:
            return self.unknown(kind, name, span)
        below = self.result.wraps.setdefault((kind, name), [])
        inner = ORIGINAL_PREFIX + name
        moved_to = inner if not below else f"{inner}_{len(below)}"
        if moved_to in table:
            self.fail(f"the game has a {KIND_WORDS[kind]} '{moved_to}' already, the name a wrapped "
                      f"'{name}' is kept under", span, f"rename the game's '{moved_to}' to wrap '{name}'")
            return None
        if not self.change((kind, name, "wrap", self.mod.name), f"wraps {KIND_WORDS[kind]} '{name}'", span):
            return None
        field_name = "effect" if kind == "procedures" else "value"
        given = value_at(self.data, at)
        wrapper = copy.deepcopy(given) if isinstance(given, dict) else {field_name: given}
        old = table.pop(name)
        table[moved_to] = old
        self.doc.move_positions((kind, name), (kind, moved_to))
        self.doc.move_call_renames((kind, name), (kind, moved_to))
        if "params" not in wrapper and isinstance(old, dict) and "params" in old:
            wrapper["params"] = copy.deepcopy(old["params"])
            self.doc.copy_positions((kind, moved_to, "params"), (kind, name, "params"))
        table[name] = wrapper
        if isinstance(given, dict):
            self.doc.graft((kind, name), self.mod.doc, at)
        else:
            self.doc.graft((kind, name, field_name), self.mod.doc, at)
        self.doc._spans[(kind, name)] = span
        self.doc._key_spans[(kind, name)] = span
        self.doc.rename_calls((kind, name), {inner: moved_to} if moved_to != inner else {})
        below.append(self.mod)
        return None


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


def _patched_text(old: str, how: str, given: str, line: int | None) -> str:
    """A rule text with one line replaced (`with`), lines added after it or at the end (`then`), or, for a
    condition, another that must hold too (`and`). Added lines take the indentation of the line they follow."""
    if how == "and":
        return f"({old.strip()}) and ({given.strip()})"
    lines = _lines_of(old)
    ending = old.endswith("\n")
    at = (line if line is not None else len(lines)) - 1
    indent = lines[at][:len(lines[at]) - len(lines[at].lstrip())] if lines else ""
    new = [indent + each if each.strip() else each for each in given.strip("\n").split("\n")]
    if how == "with":
        lines[at:at + 1] = new
    else:
        lines[at + 1:at + 1] = new
    return "\n".join(lines) + ("\n" if ending else "")


def _lines_of(text: str) -> list[str]:
    """The lines of a rule text, as `line: N` counts them (a final line break ends the last line)."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines
