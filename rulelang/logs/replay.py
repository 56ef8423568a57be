"""Replays of event logs: a game played again from its log's start and choices, and a log checked against it.

A log is untrusted: ``verify_log`` says where it parts from the game (``.ok``, ``.line``, ``.expected``,
``.found``), ``replay`` raises at the first event that does not follow.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulelang.engine.game import Game
from rulelang.engine.names import player_name
from rulelang.engine.state import State
from rulelang.errors import RuleError, RulelangError, Span
from rulelang.logs.eventlog import event_problem
from rulelang.printable import counted
from rulelang.spec.inputs import canonical


@dataclass
class LogCheck:
    """What replaying a log found: it matches (``line`` is None), or the first line that differs.

    ``expected`` is what the replayed game did at that line (an event, or words
    such as "a choice by P2"), ``found`` what the log holds there (None: the
    log ended). ``error`` is the rule error both the log and the replay stop at.
    """

    state: State | None
    line: int | None = None
    reason: str = ""
    expected: Any = None
    found: Any = None
    error: RulelangError | None = None

    @property
    def ok(self) -> bool:
        return self.line is None

    def report(self, log: str) -> RulelangError:
        """The first difference as a located error: ``LOG:line:1: error: ...`` with expected and found."""
        return RulelangError(self.reason, Span(log, self.line, 1),
                             notes=[f"expected: {_shown(self.expected)}", f"found:    {_shown(self.found)}"])

    def summary(self, log: str) -> str:
        """One line saying that a log matched, and how its game ended."""
        state = self.state
        events = len(state.events) if state is not None else 0
        if self.error is not None:
            how = f"the game stops with the same error: {self.error.message}"
        elif state is not None and state.over:
            how = f"{state.result} at turn {state.turn}, won by {', '.join(state.winner_names()) or 'nobody'}"
        else:
            how = "the game stopped without a decision"
        return f"ok: {log} matches its replay ({counted(events, 'event')}; {how})"


def verify_log(game: Game, events: list, partial: bool = False) -> LogCheck:
    """Replay a log from its `started` and `chose` events and compare every event of it with the game's.

    Nothing of the log is trusted: a forged winner, move, roll or start is the
    first line that differs. A log that ends while the game waits for a
    decision is cut short, unless ``partial`` (a game in progress) allows it.
    """
    if not isinstance(events, list):
        return LogCheck(None, 1, "an event log is a list of events", "a list", type(events).__name__)
    problem = event_problem(events[0]) if events else None
    if problem:
        return LogCheck(None, 1, f"not an event: {problem}", "a 'started' event", events[0])
    if not events or events[0]["type"] != "started":
        return LogCheck(None, 1, "an event log starts with a 'started' event", "a 'started' event",
                        events[0] if events else None)
    start = events[0]
    other = origin_problem(game, start)
    if other:
        return LogCheck(None, 1, other, _made_of(game.origin), start)
    try:
        state, error = game.new_state(start["players"], start["seed"]), None
    except RuleError as failed:          # the game's setup fails: the log may have recorded just that
        state, error = getattr(failed, "state", None), failed
    except RulelangError as failed:      # a player count the game does not have
        return LogCheck(None, 1, failed.message, found=start)
    if state is None:
        return LogCheck(None, 1, f"the game cannot start: {error.message}", found=start)
    return _follow(state, events, error, partial)


def origin_problem(game: Game, start: dict) -> str | None:
    """Whether a log's `started` event was played with other mods or other files of the game than ``game``
    has, in words (None: the same, as far as the log says). A log without mods records nothing of its files."""
    logged, laid = start.get("mods", []), game.origin.get("mods", [])
    if [m["name"] for m in logged] != [m["name"] for m in laid]:
        if not logged:
            return f"this log was played without mods, but the game here has {_mod_names(laid)}"
        if not laid:
            return f"this log was played with {_mod_names(logged)}: replay it with --mod for each, in that order"
        return f"this log was played with {_mod_names(logged)}, not {_mod_names(laid)}"
    for mine, theirs in zip(laid, logged):
        if mine["sha256"] != theirs["sha256"]:
            return f"this log was played with a different version of the mod '{theirs['name']}'"
    if logged and start.get("spec") != game.origin.get("spec"):
        return "this log was played with a different version of the game's files (a different spec)"
    return None


def _mod_names(mods: list[dict]) -> str:
    names = ", ".join(f"'{m['name']}'" for m in mods)
    return f"the mod{'s' if len(mods) > 1 else ''} {names}"


def _made_of(origin: dict) -> str:
    """What this game is made of, as a report's "expected" line says it."""
    if not origin:
        return "a game without mods"
    mods = ", ".join(f"{m['name']} ({m['sha256'][:12]})" for m in origin["mods"])
    return f"the game's files ({origin['spec'][:12]}) with {mods}"


def _follow(state: State, events: list, error: RulelangError | None, partial: bool) -> LogCheck:
    """Compare the game's events with the log's as the log's choices are taken, one by one."""
    seats = {player_name(p): p for p in range(state.n)}
    seen = 0
    while True:
        produced = state.events
        for j in range(seen, len(produced)):
            if j >= len(events):
                return LogCheck(state, j + 1, "the log ends, but the game goes on", produced[j])
            if canonical(produced[j]) != canonical(events[j]):
                return _differs(state, j, produced[j], events[j])
        seen = len(produced)
        if error is not None:
            if seen < len(events):
                return LogCheck(state, seen + 1, f"the game stops here with an error ({error.message}), "
                                                 "but the log goes on", "nothing", events[seen], error)
            return LogCheck(state, error=error)
        if seen == len(events):
            if state.pending is not None and not state.over and not partial:
                return LogCheck(state, seen + 1, "the log ends while the game waits for a decision",
                                _waiting(state))
            return LogCheck(state)
        event = events[seen]
        problem = event_problem(event)
        if problem:
            return LogCheck(state, seen + 1, f"not an event: {problem}", _waiting(state), event)
        if state.over or state.pending is None:
            return LogCheck(state, seen + 1, "the game is over, but the log goes on" if state.over else
                            "the game stopped, but the log goes on", "nothing", event)
        player = seats.get(event["player"]) if event["type"] == "chose" else None
        if player is None or player not in state.decision().players:
            return LogCheck(state, seen + 1, "the game waits for a decision here", _waiting(state), event)
        try:
            state.apply(event["option"], player)
        except RuleError as failed:      # the choice makes a rule fail: compare the events up to it
            error = failed
        except RulelangError as failed:  # not an option of that player
            return LogCheck(state, seen + 1, failed.message, _waiting(state), event)


def _differs(state: State, j: int, expected: dict, found: Any) -> LogCheck:
    """The first line that differs: a value that is no event at all says so."""
    problem = event_problem(found)
    reason = f"not an event: {problem}" if problem else "the log differs from the replayed game"
    return LogCheck(state, j + 1, reason, expected, found)


def _waiting(state: State) -> str:
    """What the game waits for, in words."""
    decision = state.decision()
    if decision is None:
        return "nothing"
    parts = [f"{player_name(p)} among {', '.join(o.id for o in decision.options[p])}" for p in decision.players]
    return "a 'chose' event: " + "; ".join(parts)


def replay(game: Game, events: list[dict]) -> State:
    """Play a game again from its event log, checking every event of it (see ``verify_log``).

    Chance comes from the seed, so the choices are all a log must keep; a log
    whose other events differ from the replayed game's is refused.
    """
    check = verify_log(game, events)
    if not check.ok:
        raise check.report("the event log")
    if check.error is not None:
        raise check.error
    return check.state


def play_again(game: Game, events: list[dict]) -> State:
    """The game a log stands for, played again with its whole history from its `started` event and its
    choices alone: what a log of a game without history (``Game.new_state(history=False)``) is for.

    Nothing else of the log is read, so only those are checked (each as an event of the log's schema);
    ``replay`` checks a whole log.
    """
    if not events or not isinstance(events[0], dict) or events[0].get("type") != "started":
        raise RulelangError("an event log starts with a 'started' event")
    choices = [event for event in events[1:] if isinstance(event, dict) and event.get("type") == "chose"
               and not event.get("forced")]          # a forced choice is the game's own, not an answer
    for event in [events[0], *choices]:
        problem = event_problem(event)
        if problem:
            raise RulelangError(f"not an event: {problem}")
    state = game.new_state(events[0]["players"], events[0]["seed"])
    seats = {player_name(p): p for p in range(state.n)}
    for event in choices:
        if event["player"] not in seats:
            raise RulelangError(f"a choice of no player of this game: {_shown(event)}")
        state.apply(event["option"], seats[event["player"]])
    return state


def _shown(value: Any) -> str:
    """An event or words, as a report quotes them."""
    if value is None:
        return "the end of the log"
    text = value if isinstance(value, str) else canonical(value)
    return text if len(text) <= 300 else text[:297] + "..."
