"""How seats are named: P1 for seat 0, in events, views, saved games and messages alike."""
from __future__ import annotations

#: Every seat's name, made once (a lookup is cheaper than formatting on the hot path).
NAMES = [f"P{p + 1}" for p in range(256)]


def player_name(p: int) -> str:
    """How events, views and messages name seat ``p``: P1 for seat 0."""
    return NAMES[p]
