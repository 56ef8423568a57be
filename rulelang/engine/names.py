"""How seats are named: P1 for seat 0, alike in events, views, saved games and messages."""
from __future__ import annotations

from functools import lru_cache

from rulelang.spec.inputs import whole_number

#: Every seat's name, made once (a lookup is cheaper than formatting on the hot path).
NAMES = [f"P{p + 1}" for p in range(256)]


def player_name(p: int) -> str:
    """How events, views and messages name seat ``p``: P1 for seat 0."""
    return NAMES[p]


def seat_of(name: str | None) -> int | None:
    """'P2' -> 1; anything else (the table, a missing name) -> None."""
    return _seat_of_name(name) if isinstance(name, str) else None


@lru_cache(maxsize=1024)
def _seat_of_name(name: str) -> int | None:
    """Cached: the views ask it of every event, and the names are few."""
    seat = whole_number(name[1:], signed=False) if name[:1] == "P" else None
    return None if seat is None else seat - 1
