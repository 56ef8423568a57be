"""Cards revealed to a player (``Board.revealed``: [card, seat] pairs): shown until they move.

``reveal`` shows cards and says so in the log; a card that moves is forgotten; a view lists what its
player was shown of zones they cannot see.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from rulelang.errors import RuleError

if TYPE_CHECKING:
    from rulelang.engine.board import Board


def reveal_cards(st: Board, cards: list[int], seats: list[int], to: str) -> None:
    """Show cards to these seats until each card moves, and say so in the log (`revealed`)."""
    known = {(c, s) for c, s in st.revealed}
    for card in cards:
        for seat in seats:
            if (card, seat) not in known:
                known.add((card, seat))
                st.revealed.append([card, seat])
    if cards:
        labels, types = st.lay.zone_labels, st.game.card_type
        st.log.append({"type": "revealed", "turn": st.turn, "to": to, "cards": [types[c].id for c in cards],
                          "ids": list(cards), "zones": [labels[st.loc[c]] for c in cards]})


def revealed_to_nobody() -> NoReturn:
    """`reveal CARDS to P` where P is none: an error, raised before the cards are read."""
    raise RuleError("cards are revealed to nobody: the player is none")


def forget_revealed(st: Board, card: int) -> None:
    """A card that moves is no longer known to those it was shown to."""
    st.revealed = [pair for pair in st.revealed if pair[0] != card]


def shown_by_name(st: Board, player: int | None, zones: dict) -> dict[str, list[str]]:
    """The cards revealed to ``player`` that lie in zones they cannot see, by zone label, by name.

    Such a zone stays a count in the view and this goes beside it (`revealed`), so views of games
    without reveals are unchanged.
    """
    shown: dict[str, list[str]] = {}
    if not st.revealed:
        return shown
    labels, types = st.lay.zone_labels, st.game.card_type
    for card in _revealed_to(st, player):
        label = labels[st.loc[card]]
        if isinstance(zones.get(label), int):
            shown.setdefault(label, []).append(types[card].id)
    return shown


def _revealed_to(st: Board, player: int | None) -> list[int]:
    """The cards revealed to ``player`` in the order shown; an onlooker (None) knows those shown to every seat."""
    if player is not None:
        return [card for card, seat in st.revealed if seat == player]
    seats: dict[int, int] = {}
    for card, _ in st.revealed:
        seats[card] = seats.get(card, 0) + 1
    return [card for card, count in seats.items() if count == st.n]
