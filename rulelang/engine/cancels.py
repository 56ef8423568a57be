"""A `before draw` or `before play` trigger's hold on the draw or play it precedes, kept in the frame that draws or plays.

The trigger runs as a frame of its own above that frame; its local ``$draw`` or ``$play`` says where the
frame is and which of its hidden locals holds what is pending: ``[count, source zone, zone drawn to,
drawer]`` for a draw, the choice ``[kind, card, player, target]`` for a play. Cancelling empties it, so the
instruction after the triggers finds nothing to do. That is plain data: a game saved while such a trigger
waits for a decision cancels the right draw or play once loaded.
"""
from __future__ import annotations

from typing import Any

from rulelang.engine.names import NAMES


def cancel_draw(st: Any, L: dict) -> None:
    """`cancel draw` in a `before draw` trigger: the pending draw is emptied, so nothing is drawn; logged once."""
    d, slot = L["$draw"]
    caller = st.stack[d].locals
    pending = caller[slot]
    if pending is None:
        return
    caller[slot] = None
    if st.history:
        amount, src, _, drawer = pending
        st.log.append({"type": "cancelled", "turn": st.turn, "action": "draw",
                       "player": None if drawer is None else NAMES[drawer], "cards": amount,
                       "from": st.lay.zone_labels[src]})


def cancel_play(st: Any, L: dict) -> None:
    """`cancel play` in a `before play` trigger: the chosen card is forgotten before it is declared (it stays
    where it is, nobody answers it, nothing resolves); logged once."""
    d, slot = L["$play"]
    caller = st.stack[d].locals
    pick = caller.get(slot)
    if pick is None:
        return
    caller.pop(slot)
    if st.history:
        _, card, player, _ = pick
        st.log.append({"type": "cancelled", "turn": st.turn, "action": "play", "player": NAMES[player],
                       "card": st.game.card_type[card].id, "id": card})
