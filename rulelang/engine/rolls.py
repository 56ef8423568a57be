"""A roll trigger's hold on the roll it follows or precedes, kept in the rolling frame.

A `before roll` or `after roll` trigger runs as a frame of its own above the frame that rolls; its local
``$roll`` says where that frame is and which of its locals hold the count of dice and the faces rolled.
The statements that change a roll (``rulelang/statements/``: reroll, add_dice, remove_dice, change_face)
keep the changed faces and record the change here (``change_roll``).
"""
from __future__ import annotations

from typing import Any

from rulelang.engine.limits import roll_dice, spend
from rulelang.engine.names import NAMES
from rulelang.errors import RuleError

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


def change_roll(st: Any, L: dict, var: str, die: str, how: str, rolled: list[int], fresh: int = 0) -> None:
    """A statement changed the roll in local ``var``: keep the new faces and record how (``roll_changed``);
    ``fresh`` dice were newly rolled (scripted dice land on them)."""
    L[var] = rolled
    if st.history:
        event = {"type": "roll_changed", "turn": st.turn, "die": die, "how": how, "faces": rolled}
        if fresh:
            event["rolled"] = fresh
        st.log.append(event)


def add_dice(st: Any, L: dict, var: str, die: str, faces: int, amount: int) -> None:
    """`add N to R`: ``amount`` more dice rolled onto the end of the roll in ``var`` (none when not above 0)."""
    k = max(0, amount)
    if k:
        change_roll(st, L, var, die, "added", list(L[var]) + roll_dice(st, k, faces, len(L[var])), k)


def remove_dice(st: Any, L: dict, var: str, die: str, amount: int) -> None:
    """`remove N from R`: the last ``amount`` dice leave the roll (all of them when it is more)."""
    k = min(max(0, amount), len(L[var]))
    if k:
        change_roll(st, L, var, die, "removed", list(L[var])[:len(L[var]) - k])


def change_face(st: Any, L: dict, var: str, die: str, faces: int, face: int, value: int) -> None:
    """`change F to V in R`: one die showing ``face`` now shows ``value``; a value the die lacks is an error."""
    if not 1 <= value <= faces:
        raise RuleError(f"die '{die}' has no face {value} (its faces are 1 to {faces})")
    rolled = list(L[var])
    if face in rolled and face != value:
        rolled[rolled.index(face)] = value
        change_roll(st, L, var, die, "changed", rolled)


def reroll_all(st: Any, L: dict, var: str, die: str, faces: int) -> None:
    """`reroll R`: every die of the roll thrown again, each a unit of work."""
    rolled = list(L[var])
    spend(st, len(rolled))
    rolled = [st.roll_die(faces) for _ in rolled]
    change_roll(st, L, var, die, "rerolled", rolled, len(rolled))


def reroll_face(st: Any, L: dict, var: str, die: str, faces: int, face: int) -> None:
    """`reroll F in R`: one die showing ``face`` thrown again (none showing it: nothing happens)."""
    rolled = list(L[var])
    if face not in rolled:
        return
    spend(st, 1)
    rolled[rolled.index(face)] = st.roll_die(faces)
    change_roll(st, L, var, die, "rerolled", rolled, 1)


def roll_for_event(turn: int, die: str, rolled: list[int], who: int | None, whose: int | None) -> dict:
    """The `rolled` event of `P rolls N DIE for Q`: who threw the dice, and whose roll they are."""
    return {"type": "rolled", "turn": turn, "die": die, "faces": rolled,
            "player": None if who is None else NAMES[who], "for": None if whose is None else NAMES[whose]}
