"""Compact event records: what a game appends while it runs, and the log's dicts they stand for.

Most games are played by simulations that never read their log, yet every
step, choice and change is an event. So the hot paths append a tuple, not a
dict: the record's first item is the function here that expands it,
``record[0](state, record)``, into exactly the dict the log has always held.
``State.events`` expands the records in place the first time the log is read,
so every reader (``--log``, the play-by-play, views, saves, scenarios) sees the
same dicts as before, byte for byte. A record holds the numbers, strings and
values of that moment (values the rules never change in place; a secret choice
also holds the compiled game's function that names an option); names are looked
up in the compiled game and layout, which never change, so expanding late gives
what expanding at once would have.
Rare events (a game's start and end, a phase, a shuffle) are still appended as dicts.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from rulelang.engine.views import NAMES, holder_label
from rulelang.model.decisions import PUBLIC_KINDS

if TYPE_CHECKING:
    from rulelang.engine.board import Board


class EventLog(list):
    """The log as the run loop appends to it, records and dicts, with how far it is expanded (``shown``).

    Appending leaves ``shown`` as it is. Any other change (a reader shortening, replacing or reordering
    entries) sets it back to 0, so the next read looks at every entry again instead of trusting a count
    that no longer says where the records are.
    """

    __slots__ = ("shown",)

    def __init__(self, entries: Iterable = ()) -> None:
        _fill(self, entries)                # list's own, without super(): every new game and copy makes a log
        self.shown = 0


_fill = list.__init__


def _resetting(name: str) -> Callable:
    change = getattr(list, name)

    def change_and_reread(self: EventLog, *args: Any) -> Any:
        self.shown = 0
        return change(self, *args)
    change_and_reread.__name__ = name
    return change_and_reread


for _name in ("__delitem__", "__setitem__", "__imul__", "pop", "remove", "clear", "insert", "sort", "reverse"):
    setattr(EventLog, _name, _resetting(_name))
del _name


def expand(st: Board, log: EventLog) -> list:
    """The log with every record from ``log.shown`` on turned into the dict it stands for, in place."""
    if log.shown != len(log):
        put = list.__setitem__              # the log's own __setitem__ would mark it changed
        for k in range(log.shown, len(log)):
            record = log[k]
            if record.__class__ is tuple:
                put(log, k, record[0](st, record) if record[0] is not later_step
                    else later_step(record, log[k - 1]["turn"]))
        log.shown = len(log)
    return log


# --- reading a log without expanding it (statistics over thousands of games) -----------------

def first_seat(st: Board) -> int:
    """The seat that took the first turn, as the `started` event (always a dict) tells it."""
    return int(st.log[0]["first"][1:]) - 1


def cards_played(st: Board) -> Iterator[tuple[int, str]]:
    """(seat, card id) of every card played or played as an answer, in order, expanding nothing."""
    types = st.game.card_type
    for record in st.log:
        if record.__class__ is tuple:
            if record[0] is played or record[0] is answered:
                yield record[2], types[record[3]].id
        elif record["type"] in ("played", "answered"):
            yield int(record["player"][1:]) - 1, record["card"]


# --- expanders: (expander, turn, ...) -> the event's dict ----------------------------------
# Each docstring gives the record's shape after the expander and the turn.

def set_counter(st: Board, r: tuple) -> dict:
    """(holder, counter index, value)"""
    return {"type": "set", "turn": r[1], "holder": holder_label(st, r[2]), "counter": st.game.counters[r[3]],
            "value": r[4]}


def set_var(st: Board, r: tuple) -> dict:
    """(seat, variable index, value)"""
    game = st.game
    return {"type": "set", "turn": r[1], "player": NAMES[r[2]], "var": game.var_names[r[3]],
            "value": game.plain(game.var_types[r[3]], r[4])}


def step(st: Board, r: tuple) -> dict:
    """(step name)"""
    return {"type": "step", "turn": r[1], "step": r[2]}


def later_step(r: tuple, turn: int) -> dict:
    """(step name), no turn: a step after the first of a turn played whole (compiler/direct.py), one record
    made once per step of the game, so a turn builds none. It is always in the same turn as the entry
    before it (nothing in a turn changes the turn): ``expand`` gives it that entry's turn."""
    return {"type": "step", "turn": turn, "step": r[1]}


def turn(st: Board, r: tuple) -> dict:
    """() for a phase played in rounds; (seat) for one played by seat"""
    if len(r) == 2:
        return {"type": "turn", "turn": r[1]}
    return {"type": "turn", "turn": r[1], "player": NAMES[r[2]]}


def chose(st: Board, r: tuple) -> dict:
    """(seat, option id, decision kind[, forced]): forced, a single option taken without asking (see
    ``State.forced``); a kind of ``PUBLIC_KINDS`` is logged as the kind it is, ``public``."""
    kind = r[4]
    event = {"type": "chose", "turn": r[1], "player": NAMES[r[2]], "option": r[3], "decision": kind}
    if kind == "secret":
        event["secret"] = True
    elif kind in PUBLIC_KINDS:
        event["decision"] = PUBLIC_KINDS[kind]
        event["public"] = True
    if len(r) > 5:
        event["forced"] = True
    return event


def revealed_choices(st: Board, r: tuple) -> dict:
    """(option naming function, choosers, their values): secret choices shown all at once"""
    text = r[2]
    return {"type": "revealed", "turn": r[1], "choices": {NAMES[p]: text(st, v)[0] for p, v in zip(r[3], r[4])}}


def moved(st: Board, r: tuple) -> dict:
    """(card instance, from zone, to zone, how)"""
    zones = st.lay.zone_labels
    return {"type": "moved", "turn": r[1], "card": st.game.card_type[r[2]].id, "id": r[2],
            "from": zones[r[3]], "to": zones[r[4]], "how": r[5]}


def transferred(st: Board, r: tuple) -> dict:
    """(counter index, amount, from holder, to holder)"""
    return {"type": "transferred", "turn": r[1], "counter": st.game.counters[r[2]], "amount": r[3],
            "from": holder_label(st, r[4]), "to": holder_label(st, r[5])}


def cleared(st: Board, r: tuple) -> dict:
    """(holder)"""
    return {"type": "cleared", "turn": r[1], "holder": holder_label(st, r[2])}


def rolled(st: Board, r: tuple) -> dict:
    """(die, faces, roller's seat or None): a roll of the roller's own (one made for another player is a dict)"""
    return {"type": "rolled", "turn": r[1], "die": r[2], "faces": r[3], "player": None if r[4] is None else NAMES[r[4]]}


def played(st: Board, r: tuple) -> dict:
    """(seat, card instance, target's name)"""
    return {"type": "played", "turn": r[1], "player": NAMES[r[2]], "card": st.game.card_type[r[3]].id,
            "id": r[3], "target": r[4]}


def answered(st: Board, r: tuple) -> dict:
    """(seat answering, the answer's card instance, the answered card's instance)"""
    types = st.game.card_type
    return {"type": "answered", "turn": r[1], "player": NAMES[r[2]], "card": types[r[3]].id,
            "cancels": types[r[4]].id}


def skipped(st: Board, r: tuple) -> dict:
    """(seat)"""
    return {"type": "skipped", "turn": r[1], "player": NAMES[r[2]]}


def another_turn(st: Board, r: tuple) -> dict:
    """(seat)"""
    return {"type": "another_turn", "turn": r[1], "player": NAMES[r[2]]}
