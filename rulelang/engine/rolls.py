"""A roll trigger's hold on the roll it follows or precedes, kept in the rolling frame.

A `before roll` or `after roll` trigger runs as a frame of its own above the frame that rolls; its local
``$roll`` says where that frame is and which of its locals hold the count of dice and the faces rolled.
"""
from __future__ import annotations

from typing import Any

#: The rolling frame's local, beside its count of dice, that a `cancel roll` sets.
CANCELLED = "$cancelled "


def rolling(st: Any, L: dict) -> tuple[dict, str, str]:
    """A roll trigger's view of the roll: the rolling frame's locals, and the names of its count and faces there."""
    d, count, faces = L["$roll"]
    return st.stack[d].locals, count, faces


def cancel_roll(st: Any, L: dict) -> None:
    """`cancel roll` in a `before roll` trigger: the rolling frame is told, and makes no roll."""
    caller, count, _ = rolling(st, L)
    caller[CANCELLED + count] = True
