"""Load-time bounds on what a spec writes: its numbers within the game's ``number_limit``, its cards countable.

What the engine counts while playing (see ``rulelang.engine.limits``) is cheap only
when the spec itself stays in proportion: numbers in its YAML within the
game's ``number_limit`` and a card count a computer can lay out. These read
the YAML data itself (every number, wherever a rule can read it), for
``check_decls``.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

MAX_CARDS = 10_000      # card instances in one game, all kinds together


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def numbers_in_play(data: dict) -> Iterator[tuple[tuple, int]]:
    """Every whole number of the YAML that a rule can read: (its path, the value)."""
    for name, value in (data.get("card_props") or {}).items():
        yield ("card_props", name), value
    for i, card in enumerate(data.get("cards") or []):
        for key, value in ((card or {}).get("props") or {}).items():
            yield ("cards", i, "props", key), value
    for name, decl in (data.get("vars") or {}).items():
        yield ("vars", name, "initial"), (decl or {}).get("initial")
    for group in ("locations", "counters"):
        for name, decl in (data.get(group) or {}).items():
            for key, value in (decl or {}).items():
                yield (group, name, key), value
    for name, table in (data.get("tables") or {}).items():
        for key, row in ((table or {}).get("rows") or {}).items():
            for j, value in enumerate(row if isinstance(row, list) else []):
                yield ("tables", name, "rows", key, j), value


def numbers_out_of_range(data: dict, limit: int) -> list[tuple[tuple, int]]:
    """The numbers of ``numbers_in_play`` that lie outside [-limit, limit]."""
    return [(path, value) for path, value in numbers_in_play(data)
            if _is_number(value) and not -limit <= value <= limit]


def card_total(data: dict) -> int:
    return sum(card.get("count", 1) for card in data.get("cards") or [] if isinstance(card, dict)
               and _is_number(card.get("count", 1)))
