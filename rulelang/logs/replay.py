"""Batches of games with random agents (the smoke test of `validate`, the bench), and replays of logs.

The smoke test turns every way a random game can go wrong (a rule error, a
decision nobody can take, a game that is stuck or never ends) into a located
error that names the seed, so the designer can replay it with `rulelang run`.
"""
from __future__ import annotations

import shlex
import time
from dataclasses import dataclass, field
from typing import Any

from rulelang.agents import RandomAgent, play_out
from rulelang.agents.play import DecisionLimit
from rulelang.engine.game import Game
from rulelang.engine.state import State
from rulelang.engine.views import player_name
from rulelang.errors import RuleError, RulelangError, Span
from rulelang.logs.eventlog import event_problem
from rulelang.spec.inputs import canonical

MAX_DECISIONS = 100_000


@dataclass
class Outcome:
    seed: int
    players: int
    state: State | None
    problem: str | None
    error: RulelangError | None = None


def play_random(game: Game, players: int, seed: int) -> Outcome:
    """One game with random agents; a problem names what went wrong, with the seed."""
    state = None
    try:
        state = game.new_state(players, seed, before_first_turn=True)     # played in place from the start (play_new)
        play_out(state, RandomAgent(seed), MAX_DECISIONS)
        if not state.over:
            return _problem(game, players, seed, state, RuleError(
                "the game is stuck: it is not over and waits for no decision"))
    except DecisionLimit as error:
        return _problem(game, players, seed, state, RuleError(
            error.message, _first_end_span(game), "check that an end condition can hold, and that 'check end' runs"))
    except RulelangError as error:
        return _problem(game, players, seed, state, error)
    except Exception as error:  # noqa: BLE001 - a bug of rulelang; report it with the seed to replay it
        return _problem(game, players, seed, state, RuleError(
            f"rulelang failed while playing ({type(error).__name__}: {error})",
            hint="this is a bug in rulelang itself; please report it with the replay command"))
    return Outcome(seed, players, state, None)


def _problem(game: Game, players: int, seed: int, state: State | None, error: RulelangError) -> Outcome:
    """An Outcome whose error is located (at the instruction running, if it has no place) and says how to replay."""
    if error.span is None and state is not None:
        error.span = _current_span(state)
    where = f", turn {state.turn}" if state is not None else ""
    error.notes = list(getattr(error, "notes", [])) + [
        f"found by a random game with {players} players, seed {seed}{where}; replay it with: "
        f"{run_command(game, players, seed)}"]
    return Outcome(seed, players, state, f"{players} players, seed {seed}: {error.message}", error)


def run_command(game: Game, players: int, seed: int) -> str:
    """The `rulelang run` that plays this game again: its mods and param values too, quoted for a shell."""
    words = ["rulelang", "run", str(game.path), "--players", str(players), "--seed", str(seed)]
    for mod in game.mod_paths:
        words += ["--mod", mod]
    for name, value in game.params.items():
        words += ["--param", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    return shlex.join(words)


def _current_span(state: State) -> Span | None:
    """The spec location of the instruction the state stopped at, if it has one."""
    for frame in reversed(state.stack):
        proc = state.game.procs[frame.proc]
        if proc.spans:
            span = proc.spans[max(0, min(frame.pc - 1, len(proc.spans) - 1))]
            if span is not None:
                return span
    return None


def _first_end_span(game: Game) -> Span | None:
    return game.end[0].span if game.end else None


@dataclass
class Smoke:
    """What a smoke test found: the faults, and how many of its games were played before its time ran out."""

    problems: list[RulelangError]
    played: int = 0
    planned: int = 0
    #: the player counts whose games stopped at the time limit
    cut_short: list[int] = field(default_factory=list)


def smoke_test(game: Game, games: int, first_seed: int = 0, seconds: float | None = None) -> Smoke:
    """Play ``games`` random games at every player count; a located error for each fault found.

    Each player count's games stop once they have taken ``seconds`` of wall-clock time (a game itself is
    bounded by the game's budgets), so a game whose every play is slow cannot hold `validate` for hours.
    """
    smoke = Smoke([], planned=games * (game.max_players - game.min_players + 1))
    seen: set[tuple] = set()
    for players in range(game.min_players, game.max_players + 1):
        deadline = None if seconds is None else time.monotonic() + seconds
        for seed in range(first_seed, first_seed + games):
            if deadline is not None and time.monotonic() >= deadline:
                smoke.cut_short.append(players)
                break
            error = play_random(game, players, seed).error
            smoke.played += 1
            if error is not None:
                if (error.message, error.span) not in seen:   # the same fault at another count: once is enough
                    seen.add((error.message, error.span))
                    smoke.problems.append(error)
                break
    return smoke


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
        return f"ok: {log} matches its replay ({events} events; {how})"


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
