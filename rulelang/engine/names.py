"""How seats and counter holders are named: P1 for seat 0, a location, ``card#instance``, alike in events,
views, saved games and messages."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rulelang.spec.inputs import whole_number

if TYPE_CHECKING:
    from rulelang.engine.board import Board

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


def holder_label(st: Board, h: int) -> str:
    """How events name a holder: game, a location, P2, or a card as id#instance."""
    if h == 0:
        return "game"
    game = st.game
    if h < game.player_holder:
        return game.locations[h - 1]
    if h < game.player_holder + st.n:
        return NAMES[h - game.player_holder]
    card = h - game.player_holder - st.n
    return f"{game.card_type[card].id}#{card}"
