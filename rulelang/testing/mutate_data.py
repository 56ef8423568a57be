"""Mutants of a spec's data (not its rule texts): numbers, zones, tags, order, durations.

Each site is a path in the loaded data with the changes that can be made
there; a change is a function of the copied ``Document`` so it can also move
the recorded positions (two swapped steps keep pointing at their own lines).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rulelang.model.build import phase_specs
from rulelang.spec.document import Document, value_at

Edit = Callable[[Document], None]
Site = tuple[tuple, list[tuple[str, str, Edit]]]       # path, [(kind, description, edit)]

#: Keys whose numbers are no rule of the game (a safety budget).
_NOT_RULES = {"step_budget", "game_budget", "event_limit"}
_FIRST = ["first", "next", "random"]


def _put(path: tuple, value: Any) -> Edit:
    def edit(doc: Document) -> None:
        value_at(doc.data, path[:-1])[path[-1]] = value
    return edit


def _drop(path: tuple) -> Edit:
    def edit(doc: Document) -> None:
        container = value_at(doc.data, path[:-1])
        del container[path[-1]]
    return edit


def _swap(path: tuple, i: int) -> Edit:
    """Exchange items i and i+1 of the list at ``path``, with their positions."""
    def edit(doc: Document) -> None:
        items = value_at(doc.data, path)
        items[i], items[i + 1] = items[i + 1], items[i]
        doc.swap_positions(path + (i,), path + (i + 1,))
    return edit


def _label(path: tuple) -> str:
    """What a number at this path is called: its key, or its list's key and position."""
    keys = [k for k in path if isinstance(k, str)]
    name = keys[-1] if keys else "value"
    if path and isinstance(path[-1], int):
        return f"{name}[{path[-1]}]"
    return name


def _numbers(data: Any, path: tuple = ()) -> Iterator[Site]:
    """Every integer of the data: one more, and one less when it stays at least 0."""
    if isinstance(data, bool):
        return
    if isinstance(data, int):
        values = [data + 1] + ([data - 1] if data > 0 else [])
        yield path, [("number", f"{_label(path)} {data} -> {v}", _put(path, v)) for v in values]
    elif isinstance(data, dict):
        for key, value in data.items():
            if key not in _NOT_RULES:
                yield from _numbers(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _numbers(value, path + (i,))


def _next(name: Any, group: list) -> Any:
    """The name after ``name`` in ``group`` (round the end), never ``name`` itself; None if none is left."""
    if name not in group:
        return next(iter(group), None)
    i = group.index(name)
    return next(iter(group[i + 1:] + group[:i]), None)


def _zone_sites(data: dict) -> Iterator[Site]:
    zones = list(data.get("zones") or {})
    for name, decl in (data.get("zones") or {}).items():
        decl = decl or {}
        for key in ("refill_from", "discard"):
            if decl.get(key) is not None:
                path = ("zones", name, key)
                other = _next(decl[key], zones)
                yield path, [("zone", f"{name} {key} {decl[key]} -> {other}", _put(path, other)),
                             ("zone", f"{name}: removed {key}", _drop(path))]
        if decl.get("unique") is not None:
            yield ("zones", name, "unique"), [("zone", f"{name}: removed unique", _drop(("zones", name, "unique")))]
        for i, other in enumerate(decl.get("unique_with") or []):
            path = ("zones", name, "unique_with", i)
            yield path, [("zone", f"{name}: removed unique_with {other}", _drop(path))]
    for i, card in enumerate(data.get("cards") or []):
        for key in ("zone", "discard"):
            if card.get(key) is not None:
                path = ("cards", i, key)
                other = _next(card[key], zones)
                yield path, [("zone", f"{key} {card[key]} -> {other}", _put(path, other))]


def _card_sites(data: dict) -> Iterator[Site]:
    """Tags, slots, target conditions and durations of each card."""
    tags = list(data.get("tags") or dict.fromkeys(t for c in data.get("cards") or [] for t in c.get("tags") or []))
    dice = list(data.get("dice") or {})
    for i, card in enumerate(data.get("cards") or []):
        own = list(card.get("tags") or [])
        for t, tag in enumerate(own):
            path = ("cards", i, "tags", t)
            changes = [("tag", f"removed tag {tag}", _drop(path))]
            other = _next(tag, [x for x in tags if x == tag or x not in own])
            if other is not None:
                changes.append(("tag", f"tag {tag} -> {other}", _put(path, other)))
            yield path, changes
        if card.get("slot") is not None and card["slot"] != card.get("id"):
            path = ("cards", i, "slot")
            yield path, [("tag", f"slot {card['slot']} -> {card.get('id')}", _put(path, card.get("id")))]
        play = card.get("play") or {}
        if play.get("target") is not None:
            path = ("cards", i, "play", "target")
            yield path, [("target", "removed the target condition", _drop(path))]
        if card.get("discard_when") is not None:
            path = ("cards", i, "discard_when")
            yield path, [("duration", "removed discard_when", _drop(path))]
        after = card.get("discard_after")
        if after is not None:
            path = ("cards", i, "discard_after")
            changes = [("duration", "removed discard_after", _drop(path))]
            other = _next(after.get("roll"), dice)
            if other is not None:
                changes.append(("duration", f"discard_after roll {after.get('roll')} -> {other}",
                                _put(path + ("roll",), other)))
            yield path, changes


def _moved_face(die: str, face: int, source: tuple | None, target: str | None) -> Edit:
    """Take ``face`` out of the outcome list at ``source`` (if any) and add it to outcome ``target`` (if any)."""
    def edit(doc: Document) -> None:
        outcomes = value_at(doc.data, ("dice", die, "outcomes"))
        if source is not None:
            del outcomes[source[0]][source[1]]
        if target is not None:
            outcomes[target] = [*outcomes[target], face]
    return edit


def _die_sites(data: dict) -> Iterator[Site]:
    """A face moved out of its outcome, into another one, or (a face that shows nothing) into one."""
    for die, decl in (data.get("dice") or {}).items():
        outcomes = (decl or {}).get("outcomes") or {}
        if not isinstance(outcomes, dict) or not all(isinstance(v, list) for v in outcomes.values()):
            continue
        listed = set()
        for outcome, faces in outcomes.items():
            for i, face in enumerate(faces):
                listed.add(face)
                moves = [("die face", f"{die}: face {face} no longer shows {outcome}",
                          _moved_face(die, face, (outcome, i), None))]
                moves += [("die face", f"{die}: face {face} shows {other}, not {outcome}",
                           _moved_face(die, face, (outcome, i), other)) for other in outcomes if other != outcome]
                yield ("dice", die, "outcomes", outcome, i), moves
        count = (decl or {}).get("faces", 6)
        blank = [f for f in range(1, count + 1) if f not in listed] if isinstance(count, int) and count <= 100 else []
        if blank and outcomes:
            yield ("dice", die, "faces"), [("die face", f"{die}: face {face} shows {outcome}",
                                            _moved_face(die, face, None, outcome))
                                           for face in blank for outcome in outcomes]


def _order_sites(data: dict) -> Iterator[Site]:
    """Two neighbouring steps, end conditions or triggers exchanged; a phase's first player changed."""
    for path, phase in phase_specs(data):
        steps = phase.get("steps") or []
        for i in range(len(steps) - 1):
            a, b = steps[i].get("name", f"step {i + 1}"), steps[i + 1].get("name", f"step {i + 2}")
            yield path + ("steps", i), [("order", f"swapped steps '{a}' and '{b}'", _swap(path + ("steps",), i))]
        first = phase.get("first")
        if first in _FIRST:
            yield path + ("first",), [("order", f"first {first} -> {other}", _put(path + ("first",), other))
                                      for other in _FIRST if other != first]
    for key, what in (("end", "end conditions"), ("triggers", "triggers")):
        items = data.get(key) or []
        for i in range(len(items) - 1):
            a, b = items[i].get("name", i + 1), items[i + 1].get("name", i + 2)
            yield (key, i), [("order", f"swapped {what} '{a}' and '{b}'", _swap((key,), i))]
    for i, trig in enumerate(data.get("triggers") or []):
        words = str(trig.get("on", "")).split()
        if len(words) == 2 and words[0] in ("enter", "leave"):
            other = f"{'leave' if words[0] == 'enter' else 'enter'} {words[1]}"
            yield ("triggers", i, "on"), [("trigger", f"on {trig['on']} -> {other}",
                                           _put(("triggers", i, "on"), other))]
        if trig.get("if") is not None:
            yield ("triggers", i, "if"), [("condition", "removed the trigger's condition",
                                           _drop(("triggers", i, "if")))]


def sites(data: dict) -> list[Site]:
    """Every place of the data a mutant may change, in a fixed order.

    A place two sorts of change reach (a die face: a number, and a face moved
    to another outcome) is one site with both lists, so a path and a variant
    name one change.
    """
    merged: dict[tuple, list] = {}
    for path, changes in (*_numbers(data), *_zone_sites(data), *_card_sites(data), *_die_sites(data),
                          *_order_sites(data)):
        merged.setdefault(path, []).extend(changes)
    return list(merged.items())


def data_mutations(data: dict) -> Iterator[tuple[str, str, tuple, int]]:
    """(kind, description, path, variant) of every data mutant."""
    for path, changes in sites(data):
        for variant, (kind, change, _) in enumerate(changes):
            yield kind, change, path, variant


def changed_paths(kind: str, path: tuple) -> list[tuple]:
    """The values a data mutant changes: the one at its site, and for two swapped items the second one too.

    (A swap is the only `order` site whose path ends in a list index: the first of the two items.)
    """
    if kind == "order" and path and isinstance(path[-1], int):
        return [path, path[:-1] + (path[-1] + 1,)]
    return [path]


def apply_data_mutation(doc: Document, path: tuple, variant: int) -> None:
    """Make the change numbered ``variant`` at ``path`` in a copied document."""
    for where, changes in sites(doc.data):
        if where == path:
            changes[variant][2](doc)
            return
    raise LookupError(f"no mutation site at {path}")


def group_of(data: dict, path: tuple) -> str:
    """The card, step, rule or declaration a path belongs to, for grouping a report."""
    head = path[0] if path else ""
    if head == "cards" and len(path) > 1:
        return f"card {data['cards'][path[1]].get('id')}"
    if head in ("end", "triggers") and len(path) > 1:
        what = "end condition" if head == "end" else "trigger"
        return f"{what} '{data[head][path[1]].get('name', path[1] + 1)}'"
    for base, phase in phase_specs(data):
        if path[:len(base)] == base and len(path) > len(base) + 1 and path[len(base)] == "steps":
            step = (phase.get("steps") or [])[path[len(base) + 1]]
            return f"step '{step.get('name', path[len(base) + 1] + 1)}'"
    if head in ("procedures", "functions", "zones", "dice", "tables", "counters", "vars") and len(path) > 1:
        return f"{head[:-1] if head != 'dice' else 'die'} {path[1]}"
    return str(head) or "game"
