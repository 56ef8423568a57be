"""Eliminated players: out of the turn order and of the live-player lists, their result kept.

``State.out`` holds one flag per seat (plain data, saved with the state). Nothing here names a game:
a spec says `eliminate P`, and `players`, `others`, `next`, `previous`, `seats_from` and the turn
order then pass over P. Roles, teams, end conditions and returns still see every seat, so a player
who dropped out keeps a result.
"""
from __future__ import annotations

from typing import Any

from rulelang.errors import RuleError


def live_players(st: Any) -> list[int]:
    """The seats still in the game, in seat order."""
    out = st.out
    if True not in out:                      # the usual case: nobody is out
        return list(range(st.n))
    return [p for p in range(st.n) if not out[p]]


def live_from(st: Any, p: int) -> list[int]:
    """The seats still in the game, starting at p and going round the table (p first if live)."""
    n, out = st.n, st.out
    return [q for q in ((p + i) % n for i in range(n)) if not out[q]]


def next_live(st: Any, p: int, step: int = 1) -> int:
    """The first seat after p (before it with step -1) that is still in the game; p if it is the last."""
    n, out = st.n, st.out
    q = (p + step) % n
    if not out[q]:                           # the usual case: the next seat is in
        return q
    for i in range(2, n + 1):
        q = (p + step * i) % n
        if not out[q]:
            return q
    raise RuleError("every player is eliminated", hint="end the game before the last player is eliminated")


def first_live(st: Any, p: int) -> int:
    """p if still in the game, else the next seat that is."""
    return p if not st.out[p] else next_live(st, p)


def eliminate(st: Any, p: int | None) -> bool:
    """Take p out of the game; True if p is the active player (whose turn then ends)."""
    if p is None:
        raise RuleError("the player to eliminate is none")
    if st.out[p]:
        return False
    st.out[p] = True
    st.end_known = None           # the players still in changed: the end check is asked again
    st.log.append({"type": "eliminated", "turn": st.turn, "player": f"P{p + 1}"})
    if all(st.out):
        raise RuleError("every player is eliminated", hint="end the game before the last player is eliminated")
    return p == st.active
