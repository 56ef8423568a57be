"""Event logs opened in the page: checked by replaying them, then stepped through event by event.

A log is untrusted: it is parsed as `rulelang replay` parses it (``eventlog.parse_log``) and verified
against the game (``replay.verify_log``); a log that parts from the game is still stepped through,
marked unverified, so a designer can see where it goes wrong. Stepping to event N replays the log's
choices until the game has made N events and shows the whole table (every zone's cards, every
variable): the referee's view, with the narration of the first N events of the log.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulelang.engine.game import Game
from rulelang.engine.names import player_name
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.printable import printable
from rulelang.serve import ApiError
from rulelang.serve.kept import Kept

#: The most logs kept open; opening another forgets the oldest.
MAX_LOGS = 16
#: The largest log read from the folder.
MAX_LOG_BYTES = 32 * 1024 * 1024


@dataclass
class OpenLog:
    game: Game
    events: list[dict]
    verified: bool
    error: str | None


def logged_params(events: list[Any]) -> dict[str, Any]:
    """The param values a log's `started` event records (as `rulelang replay` loads the game with them)."""
    start = events[0] if events and isinstance(events[0], dict) else {}
    logged = start.get("params") if start.get("type") == "started" else None
    return dict(logged) if isinstance(logged, dict) else {}


def parse(raw: bytes, name: str) -> list[dict]:
    from rulelang.logs.eventlog import parse_log

    try:
        return parse_log(raw, name)
    except RulelangError as error:
        raise ApiError(400, error.format(), error.hint or "") from None


def verify(game: Game, events: list[dict], name: str) -> OpenLog:
    from rulelang.logs.replay import verify_log

    check = verify_log(game, events)
    error = None if check.ok else printable(check.report(name).format())
    return OpenLog(game, events, check.ok, error)


def state_at(log: OpenLog, n: int) -> State | None:
    """The game after the log's choices have made at least ``n`` events (None: its start is no game)."""
    events = log.events
    start = events[0] if events else {}
    try:
        state = log.game.new_state(start["players"], start["seed"])
    except (RulelangError, KeyError, TypeError):
        return None
    seats = {player_name(p): p for p in range(start["players"])}
    for event in events[1:]:
        if len(state.events) >= n or state.over:
            break
        if not isinstance(event, dict) or event.get("type") != "chose" or event.get("forced"):
            continue
        seat, option = seats.get(str(event.get("player"))), event.get("option")
        decision = state.decision()
        if seat is None or decision is None or seat not in decision.players or not isinstance(option, str):
            break
        try:
            state.apply(option, seat)
        except RulelangError:
            break
    return state


def omniscient(state: State) -> list[dict[str, Any]]:
    """Every zone's cards and every player's variables, named with labels: the referee's view."""
    from rulelang.logs.narrate import view_sections

    view = state.view(None)
    game, lay = state.game, state.lay
    view["zones"] = {lay.zone_labels[z]: [game.card_type[c].id for c in state.zones[z]] for z in range(len(lay.zones))}
    for p, seat in enumerate(view["players"]):
        seat["vars"] = {name: game.plain(kind, value)
                        for name, kind, value in zip(game.var_names, game.var_types, state.vars[p])}
    view["revealed"] = {}
    sections = view_sections(game, view)
    return [{"title": printable(s["title"]), "rows": [[printable(str(a)), printable(str(b))] for a, b in s["rows"]]}
            for s in sections if s["title"] != "Shown to you"]


def narration(game: Game, events: list[dict]) -> list[str]:
    """The play-by-play of these events; an event the log garbled is said to be so, not narrated."""
    from rulelang.logs.eventlog import event_problem
    from rulelang.logs.narrate import narrate

    lines: list[str] = []
    for event in events:
        if event_problem(event):
            lines.append("  (not an event of the game)")
            continue
        try:
            said = narrate(game, event)
        except (KeyError, TypeError, ValueError, AttributeError):
            said = "  (an event that cannot be told)"
        if said is not None:
            lines += [line for line in said.split("\n") if line]
    return lines


class Logs(Kept[OpenLog]):
    """The logs open in the page, by id (at most MAX_LOGS)."""

    def __init__(self) -> None:
        super().__init__(MAX_LOGS, "log", "open it with POST api/log")

    def step(self, lid: str, n: int) -> dict[str, Any]:
        log = self.get(lid)
        total = len(log.events)
        if not 0 <= n <= total:
            raise ApiError(400, f"the log has events 0 to {total}", "")
        state = state_at(log, n)
        event = log.events[n - 1] if n > 0 else None
        return {"n": n, "events": total, "event": printable(_shown(event)) if event is not None else "",
                "narration": narration(log.game, log.events[:n]),
                "state": omniscient(state) if state is not None else []}


def _shown(event: Any) -> str:
    from rulelang.spec.inputs import canonical

    text = canonical(event)
    return text if len(text) <= 2000 else text[:1997] + "..."
